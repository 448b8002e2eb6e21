/* SPDX-License-Identifier: MIT */
/* Helpers shared by the COLLADA loader tests: loading with a checked
 * result, node lookup, posing into world space and the bind pose. */
#ifndef VS_TESTS_COLLADA_FIXTURE_H
#define VS_TESTS_COLLADA_FIXTURE_H

#include <stdint.h>

#include "base/xform.h"
#include "test.h"
#include "vskin/vskin.h"

#define COLLADA_DATA VS_TEST_DATA "/collada/"

static inline vs_asset *collada_load_checked(const char *path)
{
    vs_asset *asset = NULL;
    vs_error err;
    vs_result r = vs_asset_load_file(path, NULL, &asset, &err);
    CHECK_MSG(r == VS_OK, "%s: %s", path, err.message);
    return r == VS_OK ? asset : NULL;
}

static inline int32_t collada_node(const vs_asset *a, const char *id)
{
    for (uint32_t i = 0; i < a->node_count; ++i)
        if (a->nodes[i].id && strcmp(a->nodes[i].id, id) == 0)
            return (int32_t)i;
    return -1;
}

/* Posed world positions of primitive `prim` of the mesh on `node`. */
static inline bool collada_posed(const vs_pose *pose, uint32_t node,
                                 uint32_t prim, vs_posed_primitive *out)
{
    vs_error err;
    vs_result r = vs_pose_mesh_primitive(pose, node, prim, NULL, out, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    return r == VS_OK;
}

static inline int32_t collada_joint_index(const vs_skin *s, uint32_t node)
{
    for (uint32_t j = 0; j < s->joint_count; ++j)
        if (s->joints[j] == node) return (int32_t)j;
    return -1;
}

/* Puts every joint of skin `skin` at its bind pose (world = IBM^-1), other
 * nodes at rest, and updates the world matrices. */
static inline void collada_bind_pose(vs_pose *pose, uint32_t skin)
{
    const vs_asset *a = vs_pose_asset(pose);
    const vs_skin *s = &a->skins[skin];
    float *world = calloc((size_t)a->node_count * 16, sizeof *world);
    if (!world) return;
    vs_pose_reset(pose);
    for (uint32_t k = 0; k < a->node_count; ++k) {
        uint32_t n = a->node_order[k];
        int32_t parent = a->nodes[n].parent;
        float pw[16], local[16];
        if (parent >= 0)
            xform_copy(world + 16 * (size_t)parent, pw);
        else
            xform_identity(pw);
        int32_t j = collada_joint_index(s, n);
        if (j >= 0 && s->inverse_bind_matrices) {
            float bind[16], pinv[16];
            xform_invert(s->inverse_bind_matrices + 16 * (size_t)j, bind);
            xform_invert(pw, pinv);
            xform_mul(pinv, bind, local);
            vs_trs trs;
            xform_decompose(local, &trs);
            vs_pose_set_local(pose, n, &trs);
        }
        vs_pose_get_local(pose, n, local);
        xform_mul(pw, local, world + 16 * (size_t)n);
    }
    free(world);
    vs_pose_update_world(pose);
}

#endif
