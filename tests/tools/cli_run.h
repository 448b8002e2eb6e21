/* SPDX-License-Identifier: MIT */
/* Running the vskin binary from tests: stdout captured, stderr into a file,
 * exit status returned. */
#ifndef VS_TESTS_TOOLS_CLI_RUN_H
#define VS_TESTS_TOOLS_CLI_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

typedef struct cli_result {
    int status; /* exit status, or -1 when the command did not run */
    char *out;  /* stdout (malloc'd, NUL-terminated) */
    char *err;  /* stderr (malloc'd, NUL-terminated) */
} cli_result;

/* A whole file as a malloc'd string, or NULL. */
static inline char *cli_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (buf) buf[len] = 0;
    return buf;
}

/* Runs `vskin ARGS` (ARGS already shell-quoted where needed). */
static inline cli_result cli_run(const char *args)
{
    cli_result r = {-1, NULL, NULL};
    char err_path[512], command[4096];
    /* Per process: CTest runs test executables in parallel. */
    snprintf(err_path, sizeof err_path, "%s/cli_stderr_%ld.txt", VS_TEST_TMP,
             (long)getpid());
    /* Under scripts/test-cpus.sh the test runs on an emulated CPU; the CLI
     * runs on the same one, so that results compared with the test's own
     * (which take that CPU's kernel) come from the same kernel. */
    const char *cpu = getenv("VS_EMULATED_CPU");
    if (cpu && cpu[0])
        snprintf(command, sizeof command, "qemu-x86_64 -cpu '%s' '%s' %s 2>'%s'",
                 cpu, VS_CLI_PATH, args, err_path);
    else
        snprintf(command, sizeof command, "'%s' %s 2>'%s'", VS_CLI_PATH, args,
                 err_path);
    FILE *p = popen(command, "r");
    if (!p) return r;
    size_t cap = 4096, len = 0, got;
    char *out = malloc(cap);
    while (out && (got = fread(out + len, 1, cap - len - 1, p)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(out, cap *= 2);
            if (!bigger) free(out);
            out = bigger;
        }
    }
    if (out) out[len] = 0;
    int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = out ? out : calloc(1, 1);
    r.err = cli_slurp(err_path);
    if (!r.err) r.err = calloc(1, 1);
    remove(err_path);
    return r;
}

static inline void cli_result_free(cli_result *r)
{
    free(r->out);
    free(r->err);
}

/* VS_TEST_TMP/name in buf. */
static inline const char *tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", VS_TEST_TMP, name);
    return buf;
}

#endif
