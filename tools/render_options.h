/* SPDX-License-Identifier: MIT */
/* `vskin render` options beyond the shared ones (cli_common.h): view, size,
 * camera, output and the frame range of an animated GIF. */
#ifndef VS_TOOLS_RENDER_OPTIONS_H
#define VS_TOOLS_RENDER_OPTIONS_H

#include <stdbool.h>

#include "cli_common.h"
#include "vskin/vskin_render.h"

typedef struct render_options {
    cli_options common;
    const char *output;
    vs_render_view view;
    bool skeleton;
    uint32_t width, height;
    vs_upload_path upload;
    bool has_camera;
    vs_camera camera;
    bool ortho;
    uint32_t frames; /* --frames N (0: not given) */
    float fps;       /* --fps F (0: not given) */
    bool has_from, has_to;
    float from, to;
    vs_skin_method method; /* --method linear|dq */
    bool both; /* --method both: linear left, dq right, one picture */
} render_options;

/* Parses argv[1..]; returns -1 when parsing is done and the command should
 * run, otherwise the exit status (0 after --help, 2 on a usage error). */
int render_parse(int argc, char **argv, render_options *opts);

#endif
