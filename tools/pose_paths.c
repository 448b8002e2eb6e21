/* SPDX-License-Identifier: MIT */
/* Output file names of `vskin pose` and the guard against overwriting the
 * files read or writing one file twice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_files.h"
#include "pose_output.h"

/* The extension's offset in path (at its last '.' after the last '/'), or
 * strlen(path) when there is none. */
static size_t extension_at(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot ? (size_t)(dot - path) : strlen(path);
}

char *output_path(const char *out, bool several, float time, bool joints_file)
{
    size_t stem = extension_at(out);
    char tag[48] = "";
    /* The shortest "%g" that reads back as the same float: distinct times
     * get distinct names (1234567 and 1234568 both print 1.23457e+06 with
     * six digits), and short times keep short names (0.1, not
     * 0.100000001). */
    for (int digits = 6; several && digits <= 9; ++digits) {
        snprintf(tag, sizeof tag, "_t%.*g", digits, (double)time);
        if (strtof(tag + 2, NULL) == time) break;
    }
    const char *ext = joints_file ? "_joints.json" : out + stem;
    size_t size = stem + strlen(tag) + strlen(ext) + 1;
    char *path = malloc(size);
    if (path) snprintf(path, size, "%.*s%s%s", (int)stem, out, tag, ext);
    return path;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* False (with a message) when two of the sorted names are one. */
static bool names_distinct(const char *cmd, char **paths, size_t count)
{
    qsort(paths, count, sizeof *paths, by_name);
    for (size_t i = 1; i < count; ++i)
        if (strcmp(paths[i - 1], paths[i]) == 0) {
            cli_error(cmd,
                      "%s: two --time values write this one file (give "
                      "each time once)",
                      paths[i]);
            return false;
        }
    return true;
}

bool outputs_allowed(const char *cmd, const char *out, vs_posed_format format,
                     bool joints, const float *times, size_t time_count,
                     const char *input)
{
    bool extra = joints && format != VS_POSED_FORMAT_JSON;
    size_t per_time = extra ? 2 : 1, count = time_count * per_time;
    char **paths = calloc(count, sizeof *paths);
    bool ok = paths != NULL;
    for (size_t k = 0; ok && k < count; ++k) {
        paths[k] = output_path(out, time_count > 1, times[k / per_time],
                               k % per_time == 1);
        ok = paths[k] != NULL;
    }
    if (!ok) cli_error(cmd, "out of memory");
    for (size_t k = 0; ok && k < count; ++k)
        ok = cli_output_spares_reads(cmd, input, paths[k]);
    if (ok) ok = names_distinct(cmd, paths, count);
    for (size_t k = 0; paths && k < count; ++k)
        free(paths[k]);
    free(paths);
    return ok;
}
