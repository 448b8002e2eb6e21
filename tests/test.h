/* SPDX-License-Identifier: MIT */
/* A minimal test harness: CHECK* record failures and go on, so one run
 * reports every broken expectation; main returns non-zero when any failed. */
#ifndef VS_TESTS_TEST_H
#define VS_TESTS_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int test_failures;
static int test_checks;

#define CHECK(cond)                                                            \
    do {                                                                       \
        ++test_checks;                                                         \
        if (!(cond)) {                                                         \
            ++test_failures;                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,   \
                    #cond);                                                    \
        }                                                                      \
    } while (0)

#define CHECK_MSG(cond, ...)                                                   \
    do {                                                                       \
        ++test_checks;                                                         \
        if (!(cond)) {                                                         \
            ++test_failures;                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__,   \
                    #cond);                                                    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                  \
    do {                                                                       \
        ++test_checks;                                                         \
        double a_ = (double)(a), b_ = (double)(b);                             \
        if (!(fabs(a_ - b_) <= (tol))) {                                       \
            ++test_failures;                                                   \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, %s = %.9g\n", \
                    __FILE__, __LINE__, #a, a_, #b, b_);                       \
        }                                                                      \
    } while (0)

/* Runs a test function and prints its name. */
#define RUN(fn)                                                                \
    do {                                                                       \
        int before_ = test_failures;                                           \
        fn();                                                                  \
        printf("%s %s\n", test_failures == before_ ? "ok  " : "FAIL", #fn);    \
    } while (0)

static inline int test_summary(void)
{
    printf("%d checks, %d failed\n", test_checks, test_failures);
    return test_failures ? 1 : 0;
}

static inline int test_path_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Up to cap bytes of the file `name` in the tests' scratch folder
 * (VS_TEST_TMP) into buf; the count read, 0 when it cannot be opened. */
static inline size_t test_slurp_tmp(const char *name, unsigned char *buf,
                                    size_t cap)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", VS_TEST_TMP, name);
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* A whole file as a malloc'd NUL-terminated string, or NULL. */
static inline char *test_read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)))
        text[fread(text, 1, (size_t)n, f)] = '\0';
    fclose(f);
    return text;
}

/* How many lines of text start with prefix. */
static inline int test_count_lines_starting(const char *text,
                                            const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *line = text; line && *line;) {
        if (strncmp(line, prefix, len) == 0) ++n;
        line = strchr(line, '\n');
        if (line) ++line;
    }
    return n;
}

/* Exits 77 (CTest "skipped") when the shared asset folder is absent. */
static inline void require_shared_assets(void)
{
    if (!test_path_exists(VS_SHARED_ASSETS)) {
        printf("skipped: %s not found\n", VS_SHARED_ASSETS);
        exit(77);
    }
}

#endif
