/* SPDX-License-Identifier: MIT */
/* Opening and closing output files so that every failure, including a write
 * error only noticed at fclose (disk full), becomes a vs_error naming the
 * file. */
#include <errno.h>
#include <string.h>

#include "base/error.h"
#include "write/mesh_writers.h"

vs_result writer_open(const char *path, FILE **out, vs_error *error)
{
    *out = fopen(path, "w");
    if (!*out)
        return set_error(error, VS_ERROR_IO, "%s: cannot open for writing: %s",
                         path, strerror(errno));
    return VS_OK;
}

vs_result writer_close(FILE *f, const char *path, vs_error *error)
{
    int failed = ferror(f);
    int err = errno;
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (failed)
        return set_error(error, VS_ERROR_IO, "%s: write error: %s", path,
                         strerror(err));
    return VS_OK;
}
