/* SPDX-License-Identifier: MIT */
/* Output file names of `vskin pose` and the guard against overwriting the
 * input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    if (several) snprintf(tag, sizeof tag, "_t%g", (double)time);
    const char *ext = joints_file ? "_joints.json" : out + stem;
    size_t size = stem + strlen(tag) + strlen(ext) + 1;
    char *path = malloc(size);
    if (path) snprintf(path, size, "%.*s%s%s", (int)stem, out, tag, ext);
    return path;
}

static bool same_file(const struct stat *in, const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_dev == in->st_dev &&
           st.st_ino == in->st_ino;
}

bool outputs_spare_input(const char *cmd, const char *out,
                         vs_posed_format format, bool joints,
                         const float *times, size_t time_count,
                         const char *input)
{
    struct stat in;
    if (!input || stat(input, &in) != 0) return true; /* nothing to protect */
    bool extra = joints && format != VS_POSED_FORMAT_JSON;
    for (size_t t = 0; t < time_count; ++t)
        for (int j = 0; j <= (int)extra; ++j) {
            char *path = output_path(out, time_count > 1, times[t], j == 1);
            if (!path) {
                cli_error(cmd, "out of memory");
                return false;
            }
            bool clash = same_file(&in, path);
            if (clash)
                cli_error(cmd, "%s: refusing to write over the input file",
                          path);
            free(path);
            if (clash) return false;
        }
    return true;
}
