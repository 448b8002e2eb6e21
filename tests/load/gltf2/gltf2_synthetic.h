/* SPDX-License-Identifier: MIT */
/* A source the writer has to clean up, made from the hand-made
 * tests/data/render/morph_skinned.gltf (skinned, one morph target): Z-up in
 * units of 2 m, normals 3 units long, a vertex naming joint 1 twice with
 * weights summing to 0.5, and a clip with CUBICSPLINE morph weights, STEP
 * rotations that are not unit quaternions (on a child joint) and LINEAR
 * translations of a root joint. Built as shallow copies of the loaded
 * asset's structs (the writer and the pose only read the public model), so
 * the copies must not be freed; the loaded asset must outlive them. */
#ifndef VS_TESTS_IO_GLTF2_SYNTHETIC_H
#define VS_TESTS_IO_GLTF2_SYNTHETIC_H

#include <stdio.h>
#include <string.h>

#include "vskin/vskin.h"

#define SYNTHETIC_SOURCE VS_TEST_DATA "/render/morph_skinned.gltf"

typedef struct synthetic {
    vs_asset *loaded; /* owns the data; vs_asset_free it */
    vs_asset asset;   /* the edited copy */
    vs_mesh mesh;
    vs_primitive prim;
    float normals[9];
    uint16_t joints[12];
    float weights[12];
    vs_clip clip;
    vs_anim_channel channels[3];
    vs_anim_sampler samplers[3];
} synthetic;

static const float synthetic_times[3] = {0.0f, 0.5f, 1.0f};
/* CUBICSPLINE: (in-tangent, value, out-tangent) per key, one target. */
static const float synthetic_morph[9] = {0,    0,     0.5f, 0.5f, 1,
                                         0.5f, -0.5f, 0,    0};
/* 45 deg about Z, then 90 deg about Z, each scaled by 2. */
static const float synthetic_rot[8] = {0, 0, 0.76536686f, 1.847759f,
                                       0, 0, 1.41421356f, 1.41421356f};
static const float synthetic_move[9] = {0, 0, 0, 0.5f, 0, 0, 0.5f, 0.5f, 0};

/* Fills s from SYNTHETIC_SOURCE; false when it does not load or has not the
 * expected shape. */
static inline bool synthetic_make(synthetic *s)
{
    memset(s, 0, sizeof *s);
    vs_error err;
    if (vs_asset_load_file(SYNTHETIC_SOURCE, NULL, &s->loaded, &err) != VS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    const vs_asset *a = s->loaded;
    if (a->mesh_count != 1 || a->meshes[0].primitive_count != 1 ||
        a->node_count != 3 || a->meshes[0].primitives[0].vertex_count != 3 ||
        a->meshes[0].primitives[0].influence_count != 4 ||
        !a->meshes[0].primitives[0].normals)
        return false;
    s->asset = *a;
    s->asset.up_axis = VS_UP_Z;
    s->asset.unit_meters = 2.0f;
    s->mesh = a->meshes[0];
    s->prim = a->meshes[0].primitives[0];
    for (int i = 0; i < 9; ++i)
        s->normals[i] = 3.0f * s->prim.normals[i];
    memcpy(s->joints, s->prim.joints, sizeof s->joints);
    memcpy(s->weights, s->prim.weights, sizeof s->weights);
    s->joints[0] = 1;
    s->joints[1] = 1;
    s->weights[0] = 0.25f;
    s->weights[1] = 0.25f;
    s->weights[2] = s->weights[3] = 0.0f;
    s->prim.normals = s->normals;
    s->prim.joints = s->joints;
    s->prim.weights = s->weights;
    s->mesh.primitives = &s->prim;
    s->asset.meshes = &s->mesh;

    s->samplers[0] = (vs_anim_sampler){VS_INTERP_CUBICSPLINE, 3,
                                       synthetic_times, 1, synthetic_morph};
    s->samplers[1] =
        (vs_anim_sampler){VS_INTERP_STEP, 2, synthetic_times, 4, synthetic_rot};
    s->samplers[2] = (vs_anim_sampler){VS_INTERP_LINEAR, 3, synthetic_times, 3,
                                       synthetic_move};
    s->channels[0] = (vs_anim_channel){0, VS_PATH_WEIGHTS, 0};
    s->channels[1] = (vs_anim_channel){2, VS_PATH_ROTATION, 1};
    s->channels[2] = (vs_anim_channel){1, VS_PATH_TRANSLATION, 2};
    s->clip =
        (vs_clip){"synthetic", 0.0f, 1.0f, 3, s->channels, 3, s->samplers};
    s->asset.clips = &s->clip;
    s->asset.clip_count = 1;
    return true;
}

#endif
