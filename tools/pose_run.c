/* SPDX-License-Identifier: MIT */
/* One `vskin pose` run: one pose for the whole run, then for each time
 * sample -> update world -> skin every instance (vs_posed_scene_create) ->
 * write or summarize. */
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

static vs_result pose_at(pose_run *s, int32_t clip, float time,
                         const cli_options *opts, vs_posed_scene **out,
                         vs_error *error)
{
    vs_pose_reset(s->pose);
    vs_result r = VS_OK;
    if (clip >= 0)
        r = vs_pose_sample(s->pose, (uint32_t)clip, time,
                           opts->loop ? VS_TIME_LOOP : VS_TIME_CLAMP, error);
    if (r != VS_OK) return r;
    vs_pose_update_world(s->pose);
    vs_posed_scene_options options = {
        .mesh = {.skin_flags = opts->raw_weights ? VS_SKIN_RAW_WEIGHTS : 0u,
                 .space = s->space,
                 .method = s->method},
        .clip = clip,
        .time = time,
        .joints = s->joints};
    return vs_posed_scene_create(s->pose, &options, out, error);
}

static void print_summary(const pose_run *s, const vs_posed_scene *scene)
{
    if (scene->clip >= 0)
        printf("t = %.9g (clip %d \"%s\")\n", (double)scene->time, scene->clip,
               CLI_TEXT(scene->clip_name));
    else
        printf("t = %.9g (rest pose: no clip)\n", (double)scene->time);
    for (uint32_t i = 0; i < scene->object_count; ++i) {
        const vs_posed_object *obj = &scene->objects[i];
        float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        uint64_t count = 0;
        for (uint32_t p = 0; p < obj->primitive_count; ++p)
            for (uint32_t v = 0; v < obj->posed[p].vertex_count; ++v, ++count)
                for (int c = 0; c < 3; ++c) {
                    float x = obj->posed[p].positions[3 * (size_t)v + c];
                    lo[c] = count == 0 || x < lo[c] ? x : lo[c];
                    hi[c] = count == 0 || x > hi[c] ? x : hi[c];
                }
        printf("  %s: %llu vertices", CLI_TEXT(obj->name),
               (unsigned long long)count);
        if (count > 0)
            printf(", min (%.9g %.9g %.9g), max (%.9g %.9g %.9g)",
                   (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0],
                   (double)hi[1], (double)hi[2]);
        putchar('\n');
    }
    for (uint32_t k = 0; s->joints && k < scene->skin_count; ++k)
        for (uint32_t j = 0; j < scene->skins[k].joint_count; ++j) {
            const vs_posed_joint *pj = &scene->skins[k].joints[j];
            printf("  skin %u joint %s: (%.9g %.9g %.9g)\n", k, CLI_TEXT(pj->name),
                   (double)pj->world_position[0], (double)pj->world_position[1],
                   (double)pj->world_position[2]);
        }
}

/* The file for the time, and with --joints beside OBJ or PLY (which hold
 * no joints) a JSON file of the joints alone. */
static vs_result write_outputs(const vs_posed_scene *scene, const char *out,
                               vs_posed_format format, bool several,
                               bool joints, vs_error *error)
{
    bool joints_file = joints && format != VS_POSED_FORMAT_JSON;
    char *path = output_path(out, several, scene->time, false);
    char *jpath =
        joints_file ? output_path(out, several, scene->time, true) : NULL;
    vs_result r;
    if (!path || (joints_file && !jpath)) {
        snprintf(error->message, sizeof error->message, "%s: out of memory",
                 out);
        r = VS_ERROR_OUT_OF_MEMORY;
    } else {
        r = vs_write_posed_scene(scene, path, format, error);
    }
    if (r == VS_OK && jpath) {
        vs_posed_scene joints_only = *scene;
        joints_only.object_count = 0;
        joints_only.objects = NULL;
        r = vs_write_posed_scene(&joints_only, jpath, VS_POSED_FORMAT_JSON,
                                 error);
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
    vs_posed_scene *scene = NULL;
    int status = 0;
    if (pose_at(s, clip, time, opts, &scene, &error) != VS_OK) {
        cli_error("pose", "%s", error.message);
        status = 1;
    } else if (!out) {
        print_summary(s, scene);
    } else if (write_outputs(scene, out, format, several, s->joints, &error) !=
               VS_OK) {
        cli_error("pose", "%s", error.message);
        status = 1;
    }
    vs_posed_scene_free(scene);
    return status;
}

void pose_run_free(pose_run *s)
{
    vs_pose_free(s->pose);
}
