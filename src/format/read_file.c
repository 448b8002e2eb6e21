/* SPDX-License-Identifier: MIT */
/* Reading a whole file into memory within a size limit, with a clear error
 * (read_file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "format/read_file.h"

vs_result read_file(const char *path, uint64_t max_size, uint8_t **out,
                    size_t *size, vs_error *error)
{
    *out = NULL;
    *size = 0;
    struct stat st;
    if (stat(path, &st) != 0)
        return set_error(error, VS_ERROR_IO, "%s: cannot open: %s", path,
                         strerror(errno));
    if (!S_ISREG(st.st_mode))
        return set_error(error, VS_ERROR_IO, "%s: not a regular file", path);
    if ((uint64_t)st.st_size > max_size)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: file of %lld bytes exceeds the limit of %llu "
                         "bytes",
                         path, (long long)st.st_size,
                         (unsigned long long)max_size);
    FILE *f = fopen(path, "rb");
    if (!f)
        return set_error(error, VS_ERROR_IO, "%s: cannot open: %s", path,
                         strerror(errno));
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n + 1); /* +1: room for a terminator, n may be 0 */
    if (!buf) {
        fclose(f);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory reading %zu bytes", path, n);
    }
    size_t got = fread(buf, 1, n, f);
    int failed = ferror(f);
    fclose(f);
    if (got != n || failed) {
        free(buf);
        return set_error(error, VS_ERROR_IO, "%s: read error", path);
    }
    buf[n] = 0;
    *out = buf;
    *size = n;
    return VS_OK;
}
