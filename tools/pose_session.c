/* SPDX-License-Identifier: MIT */
/* One `vskin pose` run: a pose plus buffers sized once from the asset, then
 * for each time sample -> update world -> skin every instance -> write or
 * summarize. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pose_output.h"

enum { NAME_SIZE = 24 }; /* "node4294967295" and a terminator fit */

static size_t total_primitives(const vs_asset *asset)
{
    size_t n = 0;
    for (uint32_t i = 0; i < asset->instance_count; ++i)
        n += asset->meshes[asset->nodes[asset->instances[i]].mesh]
                 .primitive_count;
    return n;
}

static size_t total_joints(const vs_asset *asset)
{
    size_t n = 0;
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        n += asset->skins[s].joint_count;
    return n;
}

static bool init_skins(pose_session *s, char *names)
{
    const vs_asset *asset = s->asset;
    size_t joints = total_joints(asset);
    s->skins = calloc(asset->skin_count + 1, sizeof *s->skins);
    s->joint_data = calloc(joints + 1, sizeof *s->joint_data);
    s->matrices = calloc(16 * joints + 1, sizeof *s->matrices);
    if (!s->skins || !s->joint_data || !s->matrices) return false;
    size_t at = 0;
    for (uint32_t k = 0; k < asset->skin_count; ++k) {
        const vs_skin *skin = &asset->skins[k];
        posed_skin *ps = &s->skins[k];
        ps->skin = k;
        ps->name = skin->name ? skin->name : "";
        ps->joint_count = skin->joint_count;
        ps->joints = s->joint_data + at;
        ps->joint_matrices = s->matrices + 16 * at;
        for (uint32_t j = 0; j < skin->joint_count; ++j, ++at) {
            s->joint_data[at].node = skin->joints[j];
            s->joint_data[at].name = cli_node_name(
                asset, skin->joints[j], names + NAME_SIZE * at, NAME_SIZE);
        }
    }
    return true;
}

bool pose_session_init(pose_session *s, const vs_asset *asset, bool joints)
{
    vs_error error = {0};
    s->asset = asset;
    s->joints = joints;
    if (vs_pose_create(asset, &s->pose, &error) != VS_OK) {
        cli_error("pose", "%s", error.message);
        return false;
    }
    size_t names = asset->instance_count + (joints ? total_joints(asset) : 0);
    s->objects = calloc(asset->instance_count + 1, sizeof *s->objects);
    s->posed = calloc(total_primitives(asset) + 1, sizeof *s->posed);
    s->names = malloc(NAME_SIZE * (names + 1));
    bool ok =
        s->objects && s->posed && s->names &&
        (!joints ||
         init_skins(s, s->names + NAME_SIZE * (size_t)asset->instance_count));
    if (!ok) {
        cli_error("pose", "out of memory");
        return false;
    }
    vs_posed_primitive *posed = s->posed;
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        s->objects[i] = (posed_object){
            .name = cli_node_name(asset, node, s->names + NAME_SIZE * (size_t)i,
                                  NAME_SIZE),
            .node = node,
            .primitive_count = mesh->primitive_count,
            .primitives = mesh->primitives,
            .posed = posed};
        posed += mesh->primitive_count;
    }
    return true;
}

static void release_posed(pose_session *s)
{
    size_t n = total_primitives(s->asset);
    for (size_t k = 0; k < n; ++k) {
        vs_posed_primitive_free(&s->posed[k]);
        memset(&s->posed[k], 0, sizeof s->posed[k]);
    }
}

static bool pose_at(pose_session *s, int32_t clip, float time,
                    const cli_options *opts, vs_error *error)
{
    vs_pose_reset(s->pose);
    if (clip >= 0 && vs_pose_sample(s->pose, (uint32_t)clip, time,
                                    opts->loop ? VS_TIME_LOOP : VS_TIME_CLAMP,
                                    error) != VS_OK)
        return false;
    vs_pose_update_world(s->pose);
    vs_pose_mesh_options mesh_options = {
        .skin_flags = opts->raw_weights ? VS_SKIN_RAW_WEIGHTS : 0u,
        .space = s->space,
        .method = s->method};
    vs_posed_primitive *posed = s->posed;
    for (uint32_t i = 0; i < s->asset->instance_count; ++i)
        for (uint32_t p = 0; p < s->objects[i].primitive_count; ++p, ++posed)
            if (vs_pose_mesh_primitive(s->pose, s->objects[i].node, p,
                                       &mesh_options, posed, error) != VS_OK)
                return false;
    if (!s->joints) return true;
    size_t at = 0; /* the skin's first joint in joint_data / matrices */
    for (uint32_t k = 0; k < s->asset->skin_count; ++k) {
        /* The joint matrices the mesh was skinned with: world space
         * (relative_to -1) or relative to the skeleton root; a joint's
         * position is its world matrix's translation either way. */
        int32_t relative_to = s->space == VS_SPACE_SKELETON
                                  ? s->asset->skins[k].skeleton
                                  : -1;
        if (vs_pose_joint_matrices(s->pose, k, relative_to,
                                   s->matrices + 16 * at, error) != VS_OK)
            return false;
        for (uint32_t j = 0; j < s->skins[k].joint_count; ++j, ++at) {
            posed_joint *pj = &s->joint_data[at];
            memcpy(pj->world_position, vs_pose_world(s->pose, pj->node) + 12,
                   sizeof pj->world_position);
        }
    }
    return true;
}

static void print_summary(const pose_session *s, const posed_scene *scene)
{
    if (scene->clip >= 0)
        printf("t = %.9g (clip %d \"%s\")\n", (double)scene->time, scene->clip,
               scene->clip_name);
    else
        printf("t = %.9g (rest pose: no clip)\n", (double)scene->time);
    for (uint32_t i = 0; i < scene->object_count; ++i) {
        const posed_object *obj = &scene->objects[i];
        float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        uint64_t count = 0;
        for (uint32_t p = 0; p < obj->primitive_count; ++p)
            for (uint32_t v = 0; v < obj->posed[p].vertex_count; ++v, ++count)
                for (int c = 0; c < 3; ++c) {
                    float x = obj->posed[p].positions[3 * (size_t)v + c];
                    lo[c] = count == 0 || x < lo[c] ? x : lo[c];
                    hi[c] = count == 0 || x > hi[c] ? x : hi[c];
                }
        printf("  %s: %llu vertices", obj->name, (unsigned long long)count);
        if (count > 0)
            printf(", min (%.9g %.9g %.9g), max (%.9g %.9g %.9g)",
                   (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0],
                   (double)hi[1], (double)hi[2]);
        putchar('\n');
    }
    for (uint32_t k = 0; s->joints && k < scene->skin_count; ++k)
        for (uint32_t j = 0; j < scene->skins[k].joint_count; ++j) {
            const posed_joint *pj = &scene->skins[k].joints[j];
            printf("  skin %u joint %s: (%.9g %.9g %.9g)\n", k, pj->name,
                   (double)pj->world_position[0], (double)pj->world_position[1],
                   (double)pj->world_position[2]);
        }
}

static vs_result write_outputs(const posed_scene *scene, const char *out,
                               output_kind kind, bool several, bool joints,
                               vs_error *error)
{
    bool joints_file = joints && kind != OUTPUT_JSON;
    char *path = output_path(out, several, scene->time, false);
    char *jpath =
        joints_file ? output_path(out, several, scene->time, true) : NULL;
    vs_result r;
    if (!path || (joints_file && !jpath)) {
        snprintf(error->message, sizeof error->message, "%s: out of memory",
                 out);
        r = VS_ERROR_OUT_OF_MEMORY;
    } else if (kind == OUTPUT_OBJ) {
        r = obj_write(path, scene, error);
    } else if (kind == OUTPUT_PLY) {
        r = ply_write(path, scene, error);
    } else {
        r = pose_json_write(path, scene, true, error);
    }
    if (r == VS_OK && jpath) r = pose_json_write(jpath, scene, false, error);
    free(path);
    free(jpath);
    return r;
}

int pose_session_emit(pose_session *s, int32_t clip, float time,
                      const cli_options *opts, const char *out,
                      output_kind kind, bool several)
{
    vs_error error = {0};
    int status = 0;
    if (!pose_at(s, clip, time, opts, &error)) {
        cli_error("pose", "%s", error.message);
        status = 1;
    } else {
        posed_scene scene = {.source = s->asset->source_name,
                             .clip = clip,
                             .clip_name =
                                 clip >= 0 && s->asset->clips[clip].name
                                     ? s->asset->clips[clip].name
                                     : "",
                             .time = time,
                             .object_count = s->asset->instance_count,
                             .objects = s->objects,
                             .skin_count = s->joints ? s->asset->skin_count : 0,
                             .skins = s->skins};
        if (!out) {
            print_summary(s, &scene);
        } else if (write_outputs(&scene, out, kind, several, s->joints,
                                 &error) != VS_OK) {
            cli_error("pose", "%s", error.message);
            status = 1;
        }
    }
    release_posed(s);
    return status;
}

void pose_session_free(pose_session *s)
{
    if (s->posed) release_posed(s);
    vs_pose_free(s->pose);
    free(s->objects);
    free(s->posed);
    free(s->names);
    free(s->skins);
    free(s->joint_data);
    free(s->matrices);
}
