/* SPDX-License-Identifier: MIT */
/* `vskin bake`: the posed mesh as static data for engines without skinning:
 * one pose as a static glTF 2.0 (.glb/.gltf) or OBJ, a clip as morph targets
 * with a weights animation, or a clip as a vertex-animation texture
 * (docs/bake.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"

#define DEFAULT_FPS 30.0f

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin bake [FILE] -o OUT.glb|OUT.gltf|OUT.obj [--time T] "
            "[--anim C]\n"
            "       vskin bake [FILE] --clip C [--fps F] [--step] -o "
            "OUT.glb|OUT.gltf\n"
            "       vskin bake [FILE] --clip C [--fps F] --vat BASE\n\n"
            "Bakes skinning away. The first form writes the mesh posed at "
            "time T of clip\n--anim (default: clip 0, t = 0) as a static "
            "mesh: no skin, no animation;\nmaterials and their textures, "
            "texcoords, colours, normals and tangents\nkept. --clip samples "
            "clip C every 1/F s (and at its end) and writes\neither one morph "
            "target per frame plus a morph-weight animation that\nreplays "
            "the clip, or, with --vat, BASE.bin\n(float32 x y z per vertex, "
            "one row per frame), BASE.normals.bin, BASE.json\n(the "
            "description) and BASE.glb "
            "(frame 0, the mesh the rows follow).\n\n"
            "  -o OUT          .glb, .gltf (+ .bin) or .obj (static bakes "
            "only)\n"
            "  --time T        the pose to bake (one time; default 0)\n"
            "  --anim C        the clip --time samples (name or index)\n"
            "  --loop          --time wraps into the clip\n"
            "  --clip C        bake every frame of clip C (name or index)\n"
            "  --fps F         frames per second for --clip (default 30)\n"
            "  --step          morph weights STEP instead of LINEAR\n"
            "  --vat BASE      write a vertex-animation texture (needs "
            "--clip)\n"
            "  --raw-weights   skin with the stored weights, unnormalized\n"
            "  --keep-axes     keep COLLADA's up axis and unit in glTF "
            "output\n"
            "  --force         overwrite existing outputs\n"
            CLI_LOAD_OPTIONS_HELP
            "  --help          this text\n");
}

typedef struct bake_args {
    cli_options common;
    const char *out, *clip, *vat;
    float fps;
    bool step, force, keep_axes;
} bake_args;

static bool parse_fps(const char *text, float *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v > 0.0) || v > 1e6) return false;
    *out = (float)v;
    return true;
}

/* Checks the combination of options; -1 to go on, else the exit status. */
static int check_args(const bake_args *a)
{
    if (a->vat && !a->clip) {
        cli_error("bake", "--vat needs --clip C (the clip to bake)");
        return 2;
    }
    if (a->vat && a->out) {
        cli_error("bake", "--vat BASE names the outputs; leave out -o");
        return 2;
    }
    if (!a->vat && !a->out) {
        cli_error("bake", "-o OUT.glb|OUT.gltf|OUT.obj (or --vat BASE) is "
                          "required");
        return 2;
    }
    if (a->out && !cli_has_ext(a->out, ".gltf") &&
        !cli_has_ext(a->out, ".glb") && !cli_has_ext(a->out, ".obj")) {
        cli_error("bake", "-o %s: unknown extension (use .glb, .gltf or .obj)",
                  a->out);
        return 2;
    }
    if (a->clip && a->out && cli_has_ext(a->out, ".obj")) {
        cli_error("bake",
                  "-o %s: OBJ has no morph targets; use .glb or .gltf "
                  "with --clip, or --vat",
                  a->out);
        return 2;
    }
    if (a->clip && (a->common.times || a->common.anim)) {
        cli_error("bake", "--clip bakes every frame; --time/--anim pick one "
                          "pose (use one or the other)");
        return 2;
    }
    if (!a->clip && (a->step || a->fps > 0.0f)) {
        cli_error("bake", "--fps and --step apply to --clip bakes");
        return 2;
    }
    if (a->common.time_count > 1) {
        cli_error("bake", "--time: one time per bake (got %zu)",
                  a->common.time_count);
        return 2;
    }
    return -1;
}

static int parse(int argc, char **argv, bake_args *a)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        }
        bool valued = strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0 ||
                      strcmp(arg, "--clip") == 0 || strcmp(arg, "--vat") == 0 ||
                      strcmp(arg, "--fps") == 0;
        if (valued && i + 1 >= argc) {
            cli_error("bake", "%s needs a value", arg);
            return 2;
        }
        if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            a->out = argv[++i];
        } else if (strcmp(arg, "--clip") == 0) {
            a->clip = argv[++i];
        } else if (strcmp(arg, "--vat") == 0) {
            a->vat = argv[++i];
        } else if (strcmp(arg, "--fps") == 0) {
            if (!parse_fps(argv[++i], &a->fps)) {
                cli_error("bake", "--fps: '%s' is not a positive number",
                          argv[i]);
                return 2;
            }
        } else if (strcmp(arg, "--step") == 0) {
            a->step = true;
        } else if (strcmp(arg, "--force") == 0) {
            a->force = true;
        } else if (strcmp(arg, "--keep-axes") == 0) {
            a->keep_axes = true;
        } else {
            int r = cli_parse_common("bake", argc, argv, &i, true, &a->common);
            if (r < 0) return 2;
            if (r == 0) return cli_unknown("bake", arg);
        }
    }
    return check_args(a);
}

static bool may_write(const bake_args *a, const char *path)
{
    return cli_may_write("bake", a->common.file, path, a->force);
}

static bool may_write_with_suffix(const bake_args *a, const char *base,
                                  const char *suffix)
{
    size_t n = strlen(base) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (!p) return false;
    snprintf(p, n, "%s%s", base, suffix);
    bool ok = may_write(a, p);
    free(p);
    return ok;
}

/* Every file this bake would write may be written. */
static bool outputs_allowed(const bake_args *a)
{
    if (a->vat)
        return may_write_with_suffix(a, a->vat, ".bin") &&
               may_write_with_suffix(a, a->vat, ".normals.bin") &&
               may_write_with_suffix(a, a->vat, ".json") &&
               may_write_with_suffix(a, a->vat, ".glb");
    if (!may_write(a, a->out)) return false;
    if (!cli_has_ext(a->out, ".gltf")) return true;
    char *bin = vs_gltf_bin_path(a->out, NULL);
    bool ok = bin && may_write(a, bin);
    free(bin);
    return ok;
}

/* One pose: --time of --anim (or clip 0) as a static mesh. */
static vs_result bake_static(const vs_asset *asset, const bake_args *a,
                             vs_error *error)
{
    int32_t clip;
    if (!cli_select_clip("bake", asset, &a->common, &clip))
        return VS_ERROR_NOT_FOUND;
    float time = a->common.times ? a->common.times[0] : 0.0f;
    vs_pose *pose = NULL;
    vs_result r = vs_pose_create(asset, &pose, error);
    if (r == VS_OK && clip >= 0)
        r = vs_pose_sample(pose, (uint32_t)clip, time,
                           a->common.loop ? VS_TIME_LOOP : VS_TIME_CLAMP,
                           error);
    vs_pose_mesh_options mo = {
        .skin_flags = a->common.raw_weights ? VS_SKIN_RAW_WEIGHTS : 0u};
    if (r == VS_OK) {
        vs_pose_update_world(pose);
        if (cli_has_ext(a->out, ".obj")) {
            vs_posed_scene_options so = {
                .mesh = mo, .clip = clip, .time = time};
            r = vs_write_pose(pose, a->out, &so, error);
        } else {
            vs_asset *baked = NULL;
            r = vs_bake_pose(pose, &mo, &baked, error);
            vs_gltf_write_options wo = {.keep_axes = a->keep_axes};
            if (r == VS_OK) r = vs_write_gltf(baked, a->out, &wo, NULL, error);
            vs_asset_free(baked);
        }
    }
    if (r == VS_OK)
        printf("wrote %s (%u mesh instances posed at t=%g%s%s)\n", a->out,
               asset->instance_count, time, clip >= 0 ? " of clip " : "",
               clip >= 0 ? (asset->clips[clip].name[0]
                                ? CLI_TEXT(asset->clips[clip].name)
                                : "0")
                         : "");
    vs_pose_free(pose);
    return r;
}

static vs_result bake_clip(const vs_asset *asset, const bake_args *a,
                           vs_error *error)
{
    int32_t clip = vs_asset_find_clip(asset, a->clip);
    if (clip < 0) {
        cli_error("bake", "%s: no clip '%s' (the file has %u clip%s)",
                  asset->source_name, a->clip, asset->clip_count,
                  asset->clip_count == 1 ? "" : "s");
        return VS_ERROR_NOT_FOUND;
    }
    vs_bake_clip_options o = {
        .mesh = {.skin_flags =
                     a->common.raw_weights ? VS_SKIN_RAW_WEIGHTS : 0u},
        .fps = a->fps > 0.0f ? a->fps : DEFAULT_FPS,
        .interpolation = a->step ? VS_INTERP_STEP : VS_INTERP_LINEAR};
    float *times = NULL;
    uint32_t frames = 0;
    vs_result r = vs_bake_frame_times(asset, (uint32_t)clip, o.fps, &times,
                                      &frames, error);
    free(times);
    if (r != VS_OK) return r;
    if (a->vat) {
        r = vs_bake_vat_write(asset, (uint32_t)clip, &o, a->vat, error);
        if (r == VS_OK)
            printf("wrote %s.bin, %s.json and %s.glb (%u frames at %g fps)\n",
                   a->vat, a->vat, a->vat, frames, o.fps);
        return r;
    }
    vs_asset *baked = NULL;
    r = vs_bake_clip_morph(asset, (uint32_t)clip, &o, &baked, error);
    vs_gltf_write_options wo = {.keep_axes = a->keep_axes};
    if (r == VS_OK) r = vs_write_gltf(baked, a->out, &wo, NULL, error);
    if (r == VS_OK)
        printf("wrote %s (%u frames at %g fps as %u morph targets, %s)\n",
               a->out, frames, o.fps, frames - 1, a->step ? "STEP" : "LINEAR");
    vs_asset_free(baked);
    return r;
}

int cmd_bake(int argc, char **argv)
{
    bake_args a = {0};
    int status = parse(argc, argv, &a);
    if (status < 0) {
        vs_asset *asset = NULL;
        status = 1;
        /* Checked again once loaded: the outputs may be none of the
         * buffers read. */
        if (outputs_allowed(&a) && cli_load("bake", &a.common, &asset) &&
            outputs_allowed(&a)) {
            vs_error error = {0};
            vs_result r = a.clip ? bake_clip(asset, &a, &error)
                                 : bake_static(asset, &a, &error);
            if (r == VS_OK)
                status = 0;
            else if (error.message[0])
                cli_error("bake", "%s", error.message);
        }
        vs_asset_free(asset);
    }
    cli_options_free(&a.common);
    return status;
}
