/* SPDX-License-Identifier: MIT */
/* One `vskin pose` run: one pose for the whole run, then for each time
 * sample -> update world -> skin the instances one at a time while writing
 * (vs_write_pose) or summarizing them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pose_output.h"

bool pose_run_init(pose_run *s, const vs_asset *asset, bool joints)
{
    vs_error error = {0};
    s->asset = asset;
    s->joints = joints;
    if (vs_pose_create(asset, &s->pose, &error) != VS_OK) {
        cli_error("pose", "%s", error.message);
        return false;
    }
    return true;
}

/* The pose at `time`, world matrices updated. */
static vs_result pose_at(pose_run *s, int32_t clip, float time,
                         const cli_options *opts, vs_error *error)
{
    vs_pose_reset(s->pose);
    vs_result r = VS_OK;
    if (clip >= 0)
        r = vs_pose_sample(s->pose, (uint32_t)clip, time,
                           opts->loop ? VS_TIME_LOOP : VS_TIME_CLAMP, error);
    if (r == VS_OK) vs_pose_update_world(s->pose);
    return r;
}

/* One instance's vertex count and posed bounds, posing one primitive at a
 * time: the summary holds one primitive's vertices, never the scene's. */
static vs_result print_instance(const pose_run *s, uint32_t node,
                                const vs_pose_mesh_options *options,
                                vs_error *error)
{
    const vs_mesh *mesh = &s->asset->meshes[s->asset->nodes[node].mesh];
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    uint64_t count = 0;
    for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
        vs_posed_primitive posed;
        vs_result r =
            vs_pose_mesh_primitive(s->pose, node, p, options, &posed, error);
        if (r != VS_OK) return r;
        for (uint32_t v = 0; v < posed.vertex_count; ++v, ++count)
            for (int c = 0; c < 3; ++c) {
                float x = posed.positions[3 * (size_t)v + c];
                lo[c] = count == 0 || x < lo[c] ? x : lo[c];
                hi[c] = count == 0 || x > hi[c] ? x : hi[c];
            }
        vs_posed_primitive_free(&posed);
    }
    char label[24];
    printf("  %s: %llu vertices",
           CLI_TEXT(vs_node_label(s->asset, node, label, sizeof label)),
           (unsigned long long)count);
    if (count > 0)
        printf(", min (%.9g %.9g %.9g), max (%.9g %.9g %.9g)", (double)lo[0],
               (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1],
               (double)hi[2]);
    putchar('\n');
    return VS_OK;
}

static vs_result print_summary(const pose_run *s, int32_t clip, float time,
                               const vs_pose_mesh_options *options,
                               vs_error *error)
{
    const vs_asset *asset = s->asset;
    if (clip >= 0)
        printf(
            "t = %.9g (clip %d \"%s\")\n", (double)time, clip,
            CLI_TEXT(asset->clips[clip].name ? asset->clips[clip].name : ""));
    else
        printf("t = %.9g (rest pose: no clip)\n", (double)time);
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        vs_result r = print_instance(s, asset->instances[i], options, error);
        if (r != VS_OK) return r;
    }
    for (uint32_t k = 0; s->joints && k < asset->skin_count; ++k)
        for (uint32_t j = 0; j < asset->skins[k].joint_count; ++j) {
            uint32_t node = asset->skins[k].joints[j];
            const float *world = vs_pose_world(s->pose, node);
            char label[24];
            printf("  skin %u joint %s: (%.9g %.9g %.9g)\n", k,
                   CLI_TEXT(vs_node_label(asset, node, label, sizeof label)),
                   (double)world[12], (double)world[13], (double)world[14]);
        }
    return VS_OK;
}

/* The file for the time, and with --joints beside OBJ or PLY (which hold
 * no joints) a JSON file of the joints alone. vs_write_pose poses and
 * writes one mesh instance at a time. */
static vs_result write_outputs(const pose_run *s,
                               const vs_posed_scene_options *options,
                               const char *out, vs_posed_format format,
                               bool several, vs_error *error)
{
    bool joints_file = s->joints && format != VS_POSED_FORMAT_JSON;
    char *path = output_path(out, several, options->time, false);
    char *jpath =
        joints_file ? output_path(out, several, options->time, true) : NULL;
    vs_posed_scene_options o = *options;
    o.joints = s->joints && !joints_file;
    vs_result r;
    if (!path || (joints_file && !jpath)) {
        snprintf(error->message, sizeof error->message, "%s: out of memory",
                 out);
        r = VS_ERROR_OUT_OF_MEMORY;
    } else {
        r = vs_write_pose(s->pose, path, &o, error);
    }
    if (r == VS_OK && jpath) {
        o.joints_only = true;
        r = vs_write_pose(s->pose, jpath, &o, error);
    }
    free(path);
    free(jpath);
    return r;
}

int pose_run_emit(pose_run *s, int32_t clip, float time,
                  const cli_options *opts, const char *out,
                  vs_posed_format format, bool several)
{
    vs_error error = {0};
    vs_posed_scene_options options = {
        .mesh = {.skin_flags = opts->raw_weights ? VS_SKIN_RAW_WEIGHTS : 0u,
                 .space = s->space,
                 .method = s->method},
        .clip = clip,
        .time = time};
    vs_result r = pose_at(s, clip, time, opts, &error);
    if (r == VS_OK && !out)
        r = print_summary(s, clip, time, &options.mesh, &error);
    else if (r == VS_OK)
        r = write_outputs(s, &options, out, format, several, &error);
    if (r == VS_OK) return 0;
    cli_error("pose", "%s", error.message);
    return 1;
}

void pose_run_free(pose_run *s)
{
    vs_pose_free(s->pose);
}
