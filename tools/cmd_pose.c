/* SPDX-License-Identifier: MIT */
/* `vskin pose`: samples a clip at one or more times, poses and skins every
 * mesh instance, and writes OBJ / PLY / JSON files or prints a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_method.h"
#include "commands.h"
#include "pose_output.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin pose [FILE] [--anim N|NAME] [--time T[,T...]] "
            "[--loop]\n                  [--raw-weights] [--space world|skeleton] "
            "[--joints] [-o OUT]\n"
            "                  [--method linear|dq]\n\n"
            "Samples a clip, updates the world matrices and skins every mesh "
            "instance\n(in node-index order). Without -o, prints per time and "
            "instance the vertex\ncount and posed bounds.\n\n"
            "  FILE            glTF 2.0, glTF 1.0 or COLLADA; default: the "
            "embedded\n                  SimpleSkin\n"
            "  --anim N|NAME   clip index or name (default: clip 0; none: "
            "rest pose)\n"
            "  --time LIST     comma-separated times in seconds (default 0); "
            "with\n                  several, one file per time: "
            "out.obj -> out_t0.obj, out_t2.5.obj\n"
            "  --loop          wrap times into the clip's range (default: "
            "clamp)\n"
            "  --raw-weights   use stored weights as they are (default: "
            "divide by their sum)\n"
            "  --space S       world (default) or skeleton: skinned results "
            "relative to\n                  the skin's skeleton root "
            "(COLLADA <skeleton>, glTF skin.skeleton)\n"
            "  --method M      linear (default: linear blend skinning) or dq "
            "(dual-\n                  quaternion skinning with scale, "
            "docs/skinning.md)\n"
            "  --joints        also write joint world positions and joint "
            "matrices\n                  (into OUT.json, or OUT_joints.json "
            "beside .obj/.ply)\n"
            "  -o OUT          write OUT; the extension picks the format: "
            ".obj, .ply, .json\n"
            CLI_LOAD_OPTIONS_HELP
            "  --help          this text\n");
}

typedef struct pose_args {
    cli_options common;
    const char *out;
    bool joints;
    vs_skin_space space;
    vs_skin_method method;
} pose_args;

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, pose_args *args)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--joints") == 0) {
            args->joints = true;
            continue;
        }
        if (strcmp(arg, "--space") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            if (v && strcmp(v, "world") == 0) {
                args->space = VS_SPACE_WORLD;
            } else if (v && strcmp(v, "skeleton") == 0) {
                args->space = VS_SPACE_SKELETON;
            } else {
                cli_error("pose", "--space needs 'world' or 'skeleton'");
                return 2;
            }
            continue;
        }
        if (strcmp(arg, "--method") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : NULL;
            if (!cli_parse_method(v, &args->method)) {
                cli_error("pose", "--method needs 'linear' or 'dq'");
                return 2;
            }
            continue;
        }
        if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("pose", "%s needs a value", arg);
                return 2;
            }
            args->out = argv[++i];
            continue;
        }
        int r = cli_parse_common("pose", argc, argv, &i, true, &args->common);
        if (r < 0) return 2;
        if (r == 0) return cli_unknown("pose", arg);
    }
    return -1;
}

static int run(const pose_args *args)
{
    static const float default_time = 0.0f;
    const float *times =
        args->common.times ? args->common.times : &default_time;
    size_t time_count = args->common.times ? args->common.time_count : 1;
    vs_posed_format format = VS_POSED_FORMAT_AUTO;
    if (args->out) {
        format = vs_posed_format_of(args->out);
        if (format == VS_POSED_FORMAT_AUTO) {
            cli_error("pose",
                      "-o %s: unknown extension (use .obj, .ply or "
                      ".json)",
                      args->out);
            return 2;
        }
        /* Every output name is checked before loading or writing anything,
         * so a refused run leaves no partial set of files behind. */
        if (!outputs_allowed("pose", args->out, format, args->joints, times,
                             time_count, args->common.file))
            return 1;
    }
    vs_asset *asset;
    if (!cli_load("pose", &args->common, &asset)) return 1;
    /* Again once loaded: the outputs may be none of the buffers read. */
    if (args->out &&
        !outputs_allowed("pose", args->out, format, args->joints, times,
                         time_count, args->common.file)) {
        vs_asset_free(asset);
        return 1;
    }
    int32_t clip;
    int status = 1;
    pose_run batch = {0};
    if (cli_select_clip("pose", asset, &args->common, &clip) &&
        pose_run_init(&batch, asset, args->joints)) {
        batch.space = args->space;
        batch.method = args->method;
        status = 0;
        for (size_t t = 0; t < time_count && status == 0; ++t)
            status = pose_run_emit(&batch, clip, times[t], &args->common,
                                   args->out, format, time_count > 1);
    }
    pose_run_free(&batch);
    vs_asset_free(asset);
    return status;
}

int cmd_pose(int argc, char **argv)
{
    pose_args args = {0};
    int status = parse(argc, argv, &args);
    if (status < 0) status = run(&args);
    cli_options_free(&args.common);
    return status;
}
