/* SPDX-License-Identifier: MIT */
/* Helpers for the tests of the public tools API (vskin_tools.h): a scratch
 * folder per test program, file contents, leftover temporary files, and a
 * file size limit that makes every write past it fail as a full disk
 * would. */
#ifndef VS_TESTS_WRITE_TOOLS_API_SUPPORT_H
#define VS_TESTS_WRITE_TOOLS_API_SUPPORT_H

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

/* VS_TEST_TMP/<folder>, emptied of plain files (made when missing). */
static inline void scratch_reset(const char *dir)
{
    mkdir(dir, 0777);
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    while (d && (e = readdir(d))) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            remove(path);
    }
    if (d) closedir(d);
}

/* dir/name in buf. */
static inline const char *scratch_path(char *buf, size_t size, const char *dir,
                                       const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

/* Files in dir whose names end in ".tmp": what a writer left behind. */
static inline int leftover_temps(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        n += len > 4 && strcmp(e->d_name + len - 4, ".tmp") == 0;
    }
    if (d) closedir(d);
    return n;
}

/* A whole file (malloc'd, NUL-terminated; *size bytes), or NULL. */
static inline char *read_whole(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) buf[n] = 0;
    if (buf && size) *size = (size_t)n;
    return buf;
}

static inline bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

/* The file holds exactly `text`. */
static inline bool file_is(const char *path, const char *text)
{
    size_t n = 0;
    char *got = read_whole(path, &n);
    bool same = got && n == strlen(text) && memcmp(got, text, n) == 0;
    free(got);
    return same;
}

/* The two files hold the same bytes (and both exist). */
static inline bool same_bytes(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    char *x = read_whole(a, &na), *y = read_whole(b, &nb);
    bool same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

/* Writes past `bytes` fail with EFBIG from here on (SIGXFSZ ignored), as on
 * a full disk; bytes 0 lifts the limit again. */
static inline void limit_file_size(rlim_t bytes)
{
    static struct rlimit saved;
    static bool have_saved;
    if (!have_saved) {
        getrlimit(RLIMIT_FSIZE, &saved);
        have_saved = true;
        signal(SIGXFSZ, SIG_IGN);
    }
    struct rlimit now = saved;
    if (bytes) now.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &now);
}

#endif
