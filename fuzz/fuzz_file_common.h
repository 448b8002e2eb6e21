/* SPDX-License-Identifier: MIT */
/* For harnesses whose code under test takes a path, not bytes: the input
 * written to a file of this process's own under the temporary folder, and
 * that folder's path for outputs. One file per process, rewritten on every
 * run, so a long campaign does not fill the disk. */
#ifndef VS_FUZZ_FILE_COMMON_H
#define VS_FUZZ_FILE_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* path (size bytes) gets "<tmp>/vskin-fuzz-<pid>-<tag>". */
static inline void fuzz_temp_path(char *path, size_t size, const char *tag)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, size, "%s/vskin-fuzz-%ld-%s", dir && dir[0] ? dir : "/tmp",
             (long)getpid(), tag);
}

/* Writes data to path; aborts when it cannot (the harness is then broken,
 * not the library). */
static inline void fuzz_write_input(const char *path, const void *data,
                                    size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        fprintf(stderr, "fuzz: cannot write %s\n", path);
        abort();
    }
}

#endif
