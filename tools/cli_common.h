/* SPDX-License-Identifier: MIT */
/* What the vskin commands share: loading FILE or the embedded SimpleSkin,
 * the animation options (--anim, --time, --loop, --raw-weights) and error
 * printing in the form "vskin CMD: message". The commands use the public
 * headers only (vskin.h, vskin_tools.h, vskin_render.h); nodes are named as
 * the files name them (vs_node_label). */
#ifndef VS_TOOLS_CLI_COMMON_H
#define VS_TOOLS_CLI_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* The name the embedded default asset carries in messages. */
#define CLI_DEFAULT_ASSET_NAME "SimpleSkin.gltf (embedded)"

typedef struct cli_options {
    const char *file; /* NULL: the embedded SimpleSkin */
    const char *anim; /* --anim N|NAME; NULL: clip 0 when the file has one */
    float *times;     /* --time list (malloc'd); NULL: the single time 0 */
    size_t time_count;
    bool loop;        /* --loop: times wrap into the clip's range */
    bool raw_weights; /* --raw-weights: no weight normalization */
    bool strict;      /* --strict: refuse what the load would repair */
    bool quiet;       /* --quiet: do not print the load's warnings */
} cli_options;

/* The help lines of --strict and --quiet, which every command that loads
 * FILE takes. */
#define CLI_LOAD_OPTIONS_HELP                                                 \
    "  --strict        refuse a file with flaws vskin would repair "        \
    "(docs/formats.md)\n"                                                   \
    "  --quiet         do not print what the load repaired\n"

/* Prints "vskin CMD: message" to stderr, the message escaped as
 * vs_escape_text does (it quotes names from files). */
void cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A name from a file, escaped (vs_escape_text) for printing, in a buffer
 * that lives until the end of the enclosing block; long names are cut. */
#define CLI_TEXT_MAX 512
#define CLI_TEXT(s) cli_text_((char[CLI_TEXT_MAX]){0}, CLI_TEXT_MAX, (s))
const char *cli_text_(char *buf, size_t size, const char *text);

bool cli_is_help(const char *arg);
/* True when path ends in ext (".glb"), in any case. */
bool cli_has_ext(const char *path, const char *ext);

/* Consumes argv[*i] (and its value) when it is FILE or one of the options
 * above; `animation` false makes --anim/--time/--loop/--raw-weights unknown
 * (for commands that do not pose). Returns 1 when consumed (with *i on the
 * last argument used), 0 when argv[*i] is not one of them, -1 on an error it
 * has printed (missing value, bad time list, second FILE). */
int cli_parse_common(const char *cmd, int argc, char **argv, int *i,
                     bool animation, cli_options *opts);
/* Consumes argv[i] when it is --strict or --quiet (true), for commands
 * that parse their own options; cli_parse_common takes them too. */
bool cli_parse_load_option(const char *arg, cli_options *opts);
/* Reports an argument no option took ("unknown option"). Returns 2. */
int cli_unknown(const char *cmd, const char *arg);
void cli_options_free(cli_options *opts);

/* False (with "vskin CMD: PATH: ..." printed) when `path` must not be
 * written: it is the input file or a file the load read (never, even with
 * --force; cli_output_spares_reads), or it exists and `force` is false.
 * Nothing the user gave is overwritten without asking. Commands call it for
 * every output before loading (to refuse early) and again after (when the
 * files the load read are known). */
bool cli_may_write(const char *cmd, const char *input, const char *path,
                   bool force);

/* Parses "0,1,2.5" into a malloc'd array of finite floats. */
bool cli_parse_times(const char *text, float **out, size_t *count);

/* Loads opts->file or the embedded asset (strict with --strict); prints
 * the library's message on failure, and what the load repaired as
 * "vskin CMD: warning: FILE: OBJECT: MESSAGE" lines unless --quiet. */
bool cli_load(const char *cmd, const cli_options *opts, vs_asset **out);

/* The clip to sample: --anim when given (an error when not found), else 0
 * when the asset has clips, else -1 (rest pose). */
bool cli_select_clip(const char *cmd, const vs_asset *asset,
                     const cli_options *opts, int32_t *out_clip);

#endif
