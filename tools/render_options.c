/* SPDX-License-Identifier: MIT */
/* Parsing `vskin render`'s own options: view, size, camera, output, frames. */
#include "render_options.h"

#include "cli_method.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD "render"

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: vskin render [FILE] -o OUT.png|OUT.gif [options]\n"
        "  (no FILE: the embedded SimpleSkin)\n\n"
        "  --anim N|NAME        clip to play (default: the first)\n"
        "  --time T             time of a single frame in seconds (default 0)\n"
        "  --loop               wrap times into the clip's range\n"
        "  --raw-weights        use stored weights without normalizing\n"
        "  --view V             shaded | outline | weights | joints | normals\n"
        "  --skeleton           draw bones and joints on top\n"
        "  --size WxH           picture size (default 512x512)\n"
        "  --upload P           joint matrices: auto | uniforms | texture\n"
        "  --method M           linear | dq (dual-quaternion skinning) | both"
        "\n                       (both: linear left, dq right, each WxH, "
        "so the\n                       picture is 2W x H)\n"
        "  --camera ex,ey,ez,tx,ty,tz,fov   eye, target, vertical fov in "
        "degrees\n"
        "                       (with --ortho the last value is the visible "
        "height)\n"
        "  --ortho              orthographic projection (2-D assets)\n"
        "  --frames N | --fps F animated, looping GIF of the clip\n"
        "  --from T --to T      GIF time range (default: the clip's)\n"
        "  -o, --output PATH    .png for one frame, .gif for a clip\n"
        CLI_LOAD_OPTIONS_HELP);
}

static bool parse_float(const char *s, float *out)
{
    char *end;
    errno = 0;
    float v = strtof(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || s[0] == '-' || v < lo ||
        v > hi)
        return false;
    *out = (uint32_t)v;
    return true;
}

static bool parse_size(const char *s, uint32_t *w, uint32_t *h)
{
    char buf[32];
    const char *x = strchr(s, 'x');
    if (!x || (size_t)(x - s) >= sizeof buf) return false;
    memcpy(buf, s, (size_t)(x - s));
    buf[x - s] = '\0';
    return parse_u32(buf, 1, 16384, w) && parse_u32(x + 1, 1, 16384, h);
}

static bool parse_camera(const char *s, vs_camera *cam)
{
    float v[7];
    char *end;
    const char *c = s;
    for (int k = 0; k < 7; ++k) {
        errno = 0;
        v[k] = strtof(c, &end);
        if (end == c || errno == ERANGE || !isfinite(v[k])) return false;
        if (k < 6 && *end != ',') return false;
        c = end + 1;
    }
    if (*end != '\0' || !(v[6] > 0.0f)) return false;
    *cam = (vs_camera){.eye = {v[0], v[1], v[2]},
                       .target = {v[3], v[4], v[5]},
                       .fov_y = v[6],
                       .ortho_height = v[6]};
    return true;
}

static int pick(const char *value, const char *const *names, int count)
{
    for (int i = 0; i < count; ++i)
        if (strcmp(value, names[i]) == 0) return i;
    return -1;
}

static int bad_value(const char *option, const char *value)
{
    cli_error(CMD, "%s: '%s' is not valid (see 'vskin render --help')", option,
              value);
    return 2;
}

int render_parse(int argc, char **argv, render_options *o)
{
    static const char *const views[] = {"shaded", "outline", "weights",
                                        "joints", "normals"};
    static const char *const uploads[] = {"auto", "uniforms", "texture"};
    static const char *const valued[] = {
        "-o",       "--output", "--view", "--upload", "--size",  "--camera",
        "--frames", "--fps",    "--from", "--to",     "--method"};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        }
        int r = cli_parse_common(CMD, argc, argv, &i, true, &o->common);
        if (r < 0) return 2;
        if (r > 0) continue;
        if (strcmp(arg, "--skeleton") == 0) {
            o->skeleton = true;
            continue;
        }
        if (strcmp(arg, "--ortho") == 0) {
            o->ortho = true;
            continue;
        }
        if (pick(arg, valued, (int)(sizeof valued / sizeof valued[0])) < 0)
            return cli_unknown(CMD, arg);
        if (i + 1 >= argc) {
            cli_error(CMD, "%s needs a value", arg);
            return 2;
        }
        const char *v = argv[i + 1];
        int k;
        if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            o->output = v;
        } else if (strcmp(arg, "--view") == 0) {
            if ((k = pick(v, views, 5)) < 0) return bad_value(arg, v);
            o->view = (vs_render_view)k;
        } else if (strcmp(arg, "--upload") == 0) {
            if ((k = pick(v, uploads, 3)) < 0) return bad_value(arg, v);
            o->upload = (vs_upload_path)k;
        } else if (strcmp(arg, "--method") == 0) {
            o->both = strcmp(v, "both") == 0;
            if (!o->both && !cli_parse_method(v, &o->method))
                return bad_value(arg, v);
        } else if (strcmp(arg, "--size") == 0) {
            if (!parse_size(v, &o->width, &o->height)) return bad_value(arg, v);
        } else if (strcmp(arg, "--camera") == 0) {
            if (!parse_camera(v, &o->camera)) return bad_value(arg, v);
            o->has_camera = true;
        } else if (strcmp(arg, "--frames") == 0) {
            if (!parse_u32(v, 1, 10000, &o->frames)) return bad_value(arg, v);
        } else if (strcmp(arg, "--fps") == 0) {
            if (!parse_float(v, &o->fps) || !(o->fps > 0.0f) ||
                o->fps > 1000.0f)
                return bad_value(arg, v);
        } else if (strcmp(arg, "--from") == 0) {
            if (!parse_float(v, &o->from)) return bad_value(arg, v);
            o->has_from = true;
        } else {
            if (!parse_float(v, &o->to)) return bad_value(arg, v);
            o->has_to = true;
        }
        ++i;
    }
    if (!o->output) {
        cli_error(CMD, "an output file is needed: -o OUT.png or -o OUT.gif");
        return 2;
    }
    /* The extension says what the file holds: a GIF is never written under
     * another name (nor over the input, whatever it is called). */
    bool gif = cli_has_ext(o->output, ".gif");
    if (!gif && !cli_has_ext(o->output, ".png")) {
        cli_error(CMD, "-o %s: unknown extension (use .png or .gif)",
                  o->output);
        return 2;
    }
    if (!gif && (o->frames || o->fps > 0.0f)) {
        cli_error(CMD, "-o %s: --frames and --fps render a clip: use a .gif",
                  o->output);
        return 2;
    }
    if (o->common.time_count > 1) {
        cli_error(CMD, "--time takes one time for a picture; use --frames or "
                       "--fps with --from/--to for a clip");
        return 2;
    }
    if (o->both && o->width > 8192) {
        cli_error(CMD, "--method both doubles the width: %u is over 8192",
                  o->width);
        return 2;
    }
    if (o->frames && o->fps > 0.0f) {
        cli_error(CMD, "give --frames or --fps, not both");
        return 2;
    }
    return -1;
}
