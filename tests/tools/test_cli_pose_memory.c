/* SPDX-License-Identifier: MIT */
/* `vskin pose` holds one mesh instance's posed vertices at a time: its
 * summary and its files for a file that instances one mesh many times take
 * about the memory of a file with one instance, not one instance's worth
 * more per instance. Measured as the child's peak resident size. */
/* wait4, which returns the rusage of one child. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli_run.h"
#include "write/instanced_gltf.h"

enum { INSTANCES = 24, VERTICES = 100000 };

/* instanced_gltf's text as a file. */
static bool write_instanced(const char *path, uint32_t instances)
{
    char *json = instanced_gltf(instances, VERTICES);
    FILE *f = json ? fopen(path, "w") : NULL;
    bool ok = f && fputs(json, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    free(json);
    return ok;
}

/* Runs `vskin pose FILE [-o OUT]` with its output thrown away; the child's
 * peak resident size in bytes, or 0 when it did not exit 0. */
static uint64_t peak_of_pose(const char *file, const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDOUT_FILENO);
        if (out)
            execl(VS_CLI_PATH, "vskin", "pose", file, "-o", out, (char *)NULL);
        else
            execl(VS_CLI_PATH, "vskin", "pose", file, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 0;
    return (uint64_t)usage.ru_maxrss * 1024; /* Linux: kilobytes */
}

static void pose_memory_is_one_instance(void)
{
    char one[512], many[512], ply[512];
    tmp_path(one, sizeof one, "pose_memory_one.gltf");
    tmp_path(many, sizeof many, "pose_memory_many.gltf");
    tmp_path(ply, sizeof ply, "pose_memory.ply");
    CHECK(write_instanced(one, 1) && write_instanced(many, INSTANCES));
    /* What posing every instance at once would add over one instance. */
    const uint64_t rest = (uint64_t)(INSTANCES - 1) * VERTICES * 12;
    static const char *const outs[] = {NULL, "ply"};
    for (int k = 0; k < 2; ++k) {
        const char *out = outs[k] ? ply : NULL;
        uint64_t base = peak_of_pose(one, out);
        uint64_t peak = peak_of_pose(many, out);
        CHECK_MSG(base > 0 && peak > 0, "vskin pose %s failed",
                  out ? "-o" : "(summary)");
        CHECK_MSG(peak < base + rest / 4,
                  "vskin pose %s: peak %llu bytes for %d instances, %llu for "
                  "one",
                  out ? "-o" : "(summary)", (unsigned long long)peak, INSTANCES,
                  (unsigned long long)base);
    }
    remove(one);
    remove(many);
    remove(ply);
}

int main(void)
{
#if defined(VS_SANITIZED) || !defined(__linux__)
    (void)pose_memory_is_one_instance;
    printf("skip: the sanitizers keep freed memory resident; ru_maxrss is "
           "read in Linux's units\n");
    return 77;
#else
    RUN(pose_memory_is_one_instance);
    return test_summary();
#endif
}
