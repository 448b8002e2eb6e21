/* SPDX-License-Identifier: MIT */
/* The JSON the CLI prints or writes is whole or absent: with each
 * allocation in turn made to fail (fail_alloc_preload.c), every run either
 * exits 0 with exactly the output of an undisturbed run, or exits non-zero
 * with a message; none crashes. */
#include <sys/stat.h>

#include "tools/cli_run.h"

#define ASSET VS_TEST_DATA "/gltf2/SimpleSkin.gltf"

/* Reads the file's whole text (NULL when absent). */
static char *read_text(const char *path)
{
    return cli_slurp(path);
}

/* The command's output: stdout, or the file it wrote when out_file. */
static char *output_of(const char *args, const char *out_file, int *status)
{
    if (out_file) remove(out_file);
    cli_result r = cli_run(args);
    *status = r.status;
    char *text = out_file ? read_text(out_file) : r.out;
    if (out_file) free(r.out);
    if (*status != 0 && !r.err[0] && r.status != -1)
        CHECK_MSG(0, "'%s' failed without a message", args);
    free(r.err);
    return text ? text : calloc(1, 1);
}

static void check_command(const char *args, const char *out_file)
{
    char report[512];
    snprintf(report, sizeof report, "%s/oom_count_%ld.txt", VS_TEST_TMP,
             (long)getpid());
    setenv("VS_FAIL_REPORT", report, 1);
    setenv("VS_FAIL_AT", "0", 1);
    int status;
    char *want = output_of(args, out_file, &status);
    CHECK_MSG(status == 0, "'%s' exits %d undisturbed", args, status);
    char *count_text = read_text(report);
    long count = count_text ? atol(count_text) : 0;
    free(count_text);
    CHECK_MSG(count > 0, "'%s': the preload counted no allocation", args);
    int failures = 0, crashes = 0, wrong = 0;
    for (long n = 1; n <= count; ++n) {
        char at[32];
        snprintf(at, sizeof at, "%ld", n);
        setenv("VS_FAIL_AT", at, 1);
        char *got = output_of(args, out_file, &status);
        if (status == -1) {
            ++crashes;
            CHECK_MSG(0, "'%s' with allocation %ld failing: crashed", args, n);
        } else if (status != 0) {
            ++failures;
        } else if (strcmp(got, want) != 0) {
            ++wrong;
            CHECK_MSG(wrong > 3,
                      "'%s' with allocation %ld failing: exit 0 "
                      "with output that differs",
                      args, n);
        }
        free(got);
    }
    printf("     %s: %ld allocations, %d refused, %d crashed, %d wrong\n", args,
           count, failures, crashes, wrong);
    CHECK(wrong == 0);
    free(want);
    remove(report);
    unsetenv("VS_FAIL_AT");
    unsetenv("VS_FAIL_REPORT");
}

static void json_outputs_are_whole_or_absent(void)
{
    check_command("joints '" ASSET "' --time 0.5", NULL);
    check_command("info --json '" ASSET "'", NULL);
    check_command("info --bounds --json '" ASSET "'", NULL);
    check_command("validate --json '" ASSET "'", NULL);
    static const char pose_json[] = VS_TEST_TMP "/oom_pose.json";
    check_command("pose '" ASSET "' --time 0.5 -o '" VS_TEST_TMP
                  "/oom_pose.json'",
                  pose_json);
    remove(pose_json);
}

int main(void)
{
#if defined(VS_SANITIZED)
    (void)json_outputs_are_whole_or_absent;
    printf("skip: the sanitizers' runtime must be the first preload\n");
    return 77;
#else
    const char *cpu = getenv("VS_EMULATED_CPU");
    if (cpu && cpu[0]) {
        printf("skip: the preload would act on the emulator, not vskin\n");
        return 77;
    }
    setenv("LD_PRELOAD", VS_FAIL_ALLOC_PRELOAD, 1);
    RUN(json_outputs_are_whole_or_absent);
    return test_summary();
#endif
}
