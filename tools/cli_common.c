/* SPDX-License-Identifier: MIT */
/* Option parsing, loading and messages shared by the vskin commands. */
#include "cli_common.h"

#include "cli_files.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

void cli_error(const char *cmd, const char *fmt, ...)
{
    /* Messages quote names and paths from files: escaped as one piece, as a
     * message is one line of its own. */
    char message[1024], shown[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    vs_escape_text(shown, sizeof shown, message);
    fprintf(stderr, "vskin %s: %s\n", cmd, shown);
}

const char *cli_text_(char *buf, size_t size, const char *text)
{
    vs_escape_text(buf, size, text);
    return buf;
}

bool cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

bool cli_has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), m = strlen(ext);
    return n >= m && strcasecmp(path + n - m, ext) == 0;
}

bool cli_parse_times(const char *text, float **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    size_t n = 1;
    for (const char *c = text; *c; ++c)
        n += *c == ',';
    float *times = malloc(n * sizeof *times);
    if (!times) return false;
    const char *c = text;
    for (size_t k = 0; k < n; ++k) {
        char *end;
        errno = 0;
        float t = strtof(c, &end);
        /* Each item is one whole finite number: "1,,2", "1x" and "nan" are
         * refused instead of being read as 0 or carried into the sampler. */
        if (end == c || errno == ERANGE || !isfinite(t) ||
            (*end != ',' && *end != '\0')) {
            free(times);
            return false;
        }
        times[k] = t;
        c = end + (*end == ',');
    }
    *out = times;
    *count = n;
    return true;
}

static const char *option_value(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        cli_error(cmd, "%s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int cli_parse_common(const char *cmd, int argc, char **argv, int *i,
                     bool animation, cli_options *opts)
{
    const char *arg = argv[*i];
    if (arg[0] != '-' || strcmp(arg, "-") == 0) {
        if (opts->file) {
            cli_error(cmd, "only one FILE may be given ('%s' and '%s')",
                      opts->file, arg);
            return -1;
        }
        opts->file = arg;
        return 1;
    }
    if (cli_parse_load_option(arg, opts)) return 1;
    if (!animation) return 0;
    if (strcmp(arg, "--anim") == 0) {
        opts->anim = option_value(cmd, argc, argv, i);
        return opts->anim ? 1 : -1;
    }
    if (strcmp(arg, "--time") == 0) {
        const char *value = option_value(cmd, argc, argv, i);
        if (!value) return -1;
        free(opts->times);
        if (!cli_parse_times(value, &opts->times, &opts->time_count)) {
            cli_error(cmd,
                      "--time: '%s' is not a comma-separated list of "
                      "numbers",
                      value);
            return -1;
        }
        return 1;
    }
    if (strcmp(arg, "--loop") == 0) {
        opts->loop = true;
        return 1;
    }
    if (strcmp(arg, "--raw-weights") == 0) {
        opts->raw_weights = true;
        return 1;
    }
    return 0;
}

bool cli_parse_load_option(const char *arg, cli_options *opts)
{
    if (strcmp(arg, "--strict") == 0) {
        opts->strict = true;
        return true;
    }
    if (strcmp(arg, "--quiet") == 0) {
        opts->quiet = true;
        return true;
    }
    return false;
}

int cli_unknown(const char *cmd, const char *arg)
{
    cli_error(cmd, "unknown option '%s' (see 'vskin %s --help')", arg, cmd);
    return 2;
}

void cli_options_free(cli_options *opts)
{
    free(opts->times);
    opts->times = NULL;
    opts->time_count = 0;
}

bool cli_load(const char *cmd, const cli_options *opts, vs_asset **out)
{
    vs_error error = {0};
    vs_result r;
    if (opts->file) {
        /* Through the recording reader: the commands then keep their
         * outputs off every file the load read (cli_files.h). */
        vs_load_options load = {.file_reader = cli_file_reader(opts->file),
                                .strict = opts->strict};
        r = vs_asset_load_file(opts->file, &load, out, &error);
    } else {
        size_t size;
        const void *data = vs_default_asset_data(&size);
        vs_load_options load = {.strict = opts->strict};
        r = vs_asset_load_memory(data, size, CLI_DEFAULT_ASSET_NAME, &load,
                                 out, &error);
    }
    if (r != VS_OK) {
        /* The library's message already names the file, the object path and
         * the problem. */
        cli_error(cmd, "%s",
                  error.message[0] ? error.message : vs_result_string(r));
        return false;
    }
    /* On stderr, so that a command's output (JSON, a mesh on stdout) stays
     * what it is; the load's warnings are a list in info --json and
     * validate --json. */
    const vs_asset *asset = *out;
    for (uint32_t i = 0; !opts->quiet && i < asset->warning_count; ++i) {
        const vs_warning *w = &asset->warnings[i];
        cli_error(cmd, "warning: %s: %s%s%s", asset->source_name, w->object,
                  w->object[0] ? ": " : "", w->message);
    }
    return true;
}

bool cli_select_clip(const char *cmd, const vs_asset *asset,
                     const cli_options *opts, int32_t *out_clip)
{
    if (!opts->anim) {
        *out_clip = asset->clip_count > 0 ? 0 : -1;
        return true;
    }
    *out_clip = vs_asset_find_clip(asset, opts->anim);
    if (*out_clip < 0) {
        cli_error(cmd, "%s: no clip '%s' (the file has %u clip%s)",
                  asset->source_name, opts->anim, asset->clip_count,
                  asset->clip_count == 1 ? "" : "s");
        return false;
    }
    return true;
}

bool cli_may_write(const char *cmd, const char *input, const char *path,
                   bool force)
{
    struct stat out;
    if (stat(path, &out) != 0) return true;
    if (!cli_output_spares_reads(cmd, input, path)) return false;
    if (!force) {
        cli_error(cmd, "%s: already exists (use --force to overwrite it)",
                  path);
        return false;
    }
    return true;
}
