/* SPDX-License-Identifier: MIT */
/* `vskin joints`: joint matrices of one skin at given times, as JSON for
 * people and tools, or as the raw RGBA32F texture rows the renderer's vertex
 * shader reads (docs/gpu.md), for engines that upload them themselves. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli_common.h"
#include "cli_files.h"
#include "cli_json.h"
#include "commands.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin joints [FILE] [--anim N|NAME] [--time T[,T...]] "
            "[--loop]\n                    [--skin N] [--relative-to NODE] "
            "[--format json|texture] [-o OUT]\n\n"
            "Writes the joint matrices J_j = R^-1 * G(joint_j) * IBM_j * BSM "
            "of one skin\n(R = identity: world space, or the node given with "
            "--relative-to).\n\n"
            "  --skin N          skin index (default 0)\n"
            "  --relative-to N   node index for object-space matrices\n"
            "  --format json     (default) joints with names, world positions "
            "and matrices\n"
            "  --format texture  raw little-endian float32, 4 RGBA texels per "
            "joint row:\n"
            "                    texel c of row j = column c of J_j; several "
            "times are\n"
            "                    written one after the other (needs -o)\n"
            "  -o OUT            output file, .json or (texture) .bin "
            "(default: JSON on\n                    stdout)\n"
            CLI_LOAD_OPTIONS_HELP
            "  --help            this text\n"
            "Other options as in 'vskin pose --help'.\n");
}

typedef struct joints_args {
    cli_options common;
    const char *out;
    const char *format;
    long skin;
    long relative_to;
} joints_args;

static bool parse_index(const char *text, long *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (!end || *end || end == text || v < 0) return false;
    *out = v;
    return true;
}

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, joints_args *args)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        }
        bool takes_value = strcmp(arg, "-o") == 0 ||
                           strcmp(arg, "--format") == 0 ||
                           strcmp(arg, "--skin") == 0 ||
                           strcmp(arg, "--relative-to") == 0;
        if (takes_value) {
            if (i + 1 >= argc) {
                cli_error("joints", "%s needs a value", arg);
                return 2;
            }
            const char *value = argv[++i];
            if (strcmp(arg, "-o") == 0) {
                args->out = value;
            } else if (strcmp(arg, "--format") == 0) {
                if (strcmp(value, "json") && strcmp(value, "texture")) {
                    cli_error("joints", "--format %s: use json or texture",
                              value);
                    return 2;
                }
                args->format = value;
            } else if (!parse_index(value, strcmp(arg, "--skin") == 0
                                                ? &args->skin
                                                : &args->relative_to)) {
                cli_error("joints", "%s %s: not a non-negative integer", arg,
                          value);
                return 2;
            }
            continue;
        }
        int r = cli_parse_common("joints", argc, argv, &i, true, &args->common);
        if (r < 0) return 2;
        if (r == 0) return cli_unknown("joints", arg);
    }
    return -1;
}

static cJSON *number_array(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; ++i)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static void add_json_frame(cJSON *frames, const vs_pose *pose,
                           const vs_asset *asset, const vs_skin *skin,
                           float time, const float *mats)
{
    cJSON *frame = cJSON_CreateObject();
    cJSON_AddNumberToObject(frame, "time", time);
    cJSON *joints = cJSON_AddArrayToObject(frame, "joints");
    char buf[32];
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        uint32_t node = skin->joints[j];
        cJSON *joint = cJSON_CreateObject();
        cJSON_AddNumberToObject(joint, "node", node);
        cJSON_AddStringToObject(joint, "name",
                                vs_node_label(asset, node, buf, sizeof buf));
        const float *world = vs_pose_world(pose, node);
        cJSON_AddItemToObject(joint, "world_position",
                              number_array(world + 12, 3));
        cJSON_AddItemToObject(joint, "matrix", number_array(mats + 16 * j, 16));
        cJSON_AddItemToArray(joints, joint);
    }
    cJSON_AddItemToArray(frames, frame);
}

/* Beside and renamed (vs_write_bytes): a failed write leaves an existing
 * OUT whole. Prints why it failed. */
static bool write_all(const char *path, const void *data, size_t size)
{
    vs_error err;
    if (vs_write_bytes(data, size, path, NULL, &err) == VS_OK) return true;
    cli_error("joints", "%s", err.message);
    return false;
}

/* The texture is little-endian float32; on a big-endian host the bytes of
 * each float are swapped so the file means the same everywhere. */
static void to_little_endian(float *v, size_t n)
{
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe == 1) return;
    for (size_t i = 0; i < n; ++i) {
        uint8_t b[4];
        memcpy(b, &v[i], 4);
        uint8_t s[4] = {b[3], b[2], b[1], b[0]};
        memcpy(&v[i], s, 4);
    }
}

static int emit(const joints_args *args, const vs_asset *asset, int32_t clip)
{
    static const float zero = 0.0f;
    const float *times = args->common.times ? args->common.times : &zero;
    size_t count = args->common.times ? args->common.time_count : 1;
    const vs_skin *skin = &asset->skins[args->skin];
    bool texture = args->format && strcmp(args->format, "texture") == 0;
    size_t per_frame = (size_t)16 * skin->joint_count;
    float *mats = malloc(sizeof(float) * per_frame * count);
    cli_json_begin();
    cJSON *root = cJSON_CreateObject();
    vs_pose *pose = NULL;
    vs_error err;
    int status = 1;
    if (!mats || !root) {
        cli_error("joints", "out of memory");
        goto done;
    }
    if (vs_pose_create(asset, &pose, &err) != VS_OK) {
        cli_error("joints", "%s", err.message);
        goto done;
    }
    cJSON_AddNumberToObject(root, "skin", (double)args->skin);
    cJSON_AddStringToObject(root, "skin_name", skin->name ? skin->name : "");
    cJSON_AddNumberToObject(root, "relative_to", (double)args->relative_to);
    cJSON *frames = cJSON_AddArrayToObject(root, "frames");
    for (size_t t = 0; t < count; ++t) {
        vs_pose_reset(pose);
        if (clip >= 0 &&
            vs_pose_sample(pose, (uint32_t)clip, times[t],
                           args->common.loop ? VS_TIME_LOOP : VS_TIME_CLAMP,
                           &err) != VS_OK) {
            cli_error("joints", "%s", err.message);
            goto done;
        }
        vs_pose_update_world(pose);
        float *frame = mats + per_frame * t;
        if (vs_pose_joint_matrices(pose, (uint32_t)args->skin,
                                   (int32_t)args->relative_to, frame,
                                   &err) != VS_OK) {
            cli_error("joints", "%s", err.message);
            goto done;
        }
        if (!texture) add_json_frame(frames, pose, asset, skin, times[t], frame);
    }
    if (texture) {
        to_little_endian(mats, per_frame * count);
        if (!write_all(args->out, mats, sizeof(float) * per_frame * count))
            goto done;
    } else {
        char *text = cli_json_print(root);
        if (!text) {
            cli_error("joints", "out of memory building the JSON output");
            goto done;
        }
        bool ok;
        if (args->out) {
            ok = write_all(args->out, text, strlen(text));
        } else {
            ok = fputs(text, stdout) >= 0 && fputc('\n', stdout) != EOF &&
                 fflush(stdout) == 0;
            if (!ok) cli_error("joints", "stdout: cannot write");
        }
        cJSON_free(text);
        if (!ok) goto done;
    }
    status = 0;
done:
    vs_pose_free(pose);
    cJSON_Delete(root);
    free(mats);
    return status;
}

static int run(joints_args *args)
{
    bool texture = args->format && strcmp(args->format, "texture") == 0;
    if (texture && !args->out) {
        cli_error("joints", "--format texture writes binary data: give -o OUT");
        return 2;
    }
    /* The extension says what the file holds. */
    const char *ext = texture ? ".bin" : ".json";
    if (args->out && !cli_has_ext(args->out, ext)) {
        cli_error("joints", "-o %s: --format %s writes %s files", args->out,
                  texture ? "texture" : "json", ext);
        return 2;
    }
    /* By identity, before and after loading: no spelling of the input or of
     * a buffer it uses is written over. */
    if (args->out &&
        !cli_output_spares_reads("joints", args->common.file, args->out))
        return 1;
    vs_asset *asset;
    if (!cli_load("joints", &args->common, &asset)) return 1;
    int status = 1;
    int32_t clip;
    bool spared = !args->out || cli_output_spares_reads(
                                    "joints", args->common.file, args->out);
    if (!spared)
        status = 1; /* the message is printed */
    else if (asset->skin_count == 0)
        cli_error("joints", "%s: the asset has no skin", asset->source_name);
    else if (args->skin >= (long)asset->skin_count)
        cli_error("joints", "--skin %ld: the asset has %u skin(s)", args->skin,
                  asset->skin_count);
    else if (args->relative_to >= (long)asset->node_count)
        cli_error("joints", "--relative-to %ld: the asset has %u nodes",
                  args->relative_to, asset->node_count);
    else if (cli_select_clip("joints", asset, &args->common, &clip))
        status = emit(args, asset, clip);
    vs_asset_free(asset);
    return status;
}

int cmd_joints(int argc, char **argv)
{
    joints_args args = {.relative_to = -1};
    int status = parse(argc, argv, &args);
    if (status < 0) status = run(&args);
    cli_options_free(&args.common);
    return status;
}
