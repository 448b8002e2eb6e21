/* SPDX-License-Identifier: MIT */
/* The skeleton overlay's vertices (skeleton_lines.h). */
#include "render/skeleton_lines.h"

void skeleton_joint_flags(const vs_asset *asset, bool *is_joint)
{
    for (uint32_t n = 0; n < asset->node_count; ++n)
        is_joint[n] = false;
    /* Joint indices are below node_count: the loaders' finalisation checks
     * them. */
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        for (uint32_t j = 0; j < asset->skins[s].joint_count; ++j)
            is_joint[asset->skins[s].joints[j]] = true;
}

static void put3(float *dst, const float *world)
{
    dst[0] = world[12], dst[1] = world[13], dst[2] = world[14];
}

void skeleton_lines_fill(const vs_asset *asset, const bool *is_joint,
                         const vs_pose *pose, float *v, size_t *bones,
                         size_t *points)
{
    size_t b = 0, p = 0;
    for (uint32_t n = 0; n < asset->node_count; ++n) {
        int32_t parent = asset->nodes[n].parent;
        if (!is_joint[n] || parent < 0 || !is_joint[parent]) continue;
        put3(v + b * 6, vs_pose_world(pose, (uint32_t)parent));
        put3(v + b * 6 + 3, vs_pose_world(pose, n));
        ++b;
    }
    /* Points follow the bones in the same buffer. */
    float *pts = v + b * 6;
    for (uint32_t n = 0; n < asset->node_count; ++n)
        if (is_joint[n]) put3(pts + 3 * p++, vs_pose_world(pose, n));
    *bones = b;
    *points = p;
}
