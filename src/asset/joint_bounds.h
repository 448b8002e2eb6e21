/* SPDX-License-Identifier: MIT */
/* Per-joint bind-space bounds, built once at the end of loading, so that a
 * conservative box of the posed mesh needs only the joint matrices (no
 * vertex work). docs/design/bounds.md states the rule and why it is conservative. */
#ifndef VS_ASSET_JOINT_BOUNDS_H
#define VS_ASSET_JOINT_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* An axis-aligned box; empty when min[0] > max[0]. */
typedef struct bounds_box {
    float min[3], max[3];
} bounds_box;

/* Bounds of one primitive of one mesh instance. */
typedef struct prim_bounds {
    /* Positions (morph extents included) in the mesh's own space: what a
     * rigid instance's world matrix acts on. */
    bounds_box mesh;
    /* Skinned instances only (joint_count > 0): per joint the box of
     * IBM_j * BSM * p over the vertices with a weight > 0 on joint j, i.e.
     * in the joint's own bind space, where J_j = R^-1 * G(joint_j) acts by
     * G alone; and the box of the vertices whose weights sum to no positive
     * number (the skinning job leaves those where they are). */
    uint32_t joint_count;
    const bounds_box *joints;
    bounds_box unweighted;
    /* Tighter, and what vs_pose_fast_bounds uses (docs/bounds.md): per
     * distinct influence set S (the joints with a weight > 0 on a vertex),
     * over the vertices whose set is exactly S. Set s has the members
     * set_joints[set_start[s] .. set_start[s + 1] - 1]; per member j the box
     * of L_j p (member_boxes) and j's least normalized weight, lowered a
     * little for rounding (member_lo); per set the box of p in the mesh's
     * space (set_boxes). Vertices whose set would be a new one past
     * INFLUENCE_SETS_MAX sets add instead to one L_j box per joint over
     * those vertices only (overflow_joints, overflow_boxes). */
    uint32_t set_count;
    const uint32_t *set_start;
    const uint16_t *set_joints;
    const bounds_box *member_boxes;
    const float *member_lo;
    const bounds_box *set_boxes;
    uint32_t overflow_count;
    const uint16_t *overflow_joints;
    const bounds_box *overflow_boxes;
    /* L_j = IBM_j * BSM per joint of the skin, 16 floats each. */
    const float *bind;
    /* Some vertex has a negative (or non-finite) weight with a positive sum:
     * the skinned point is then no convex combination of J_i p, so the joint
     * boxes do not bound it and callers must skin that primitive. */
    bool not_convex;
} prim_bounds;

/* Builds the bounds of every (instance, primitive) into the asset's
 * internal data. Called by vs_priv_asset_finalize after the instances are known. */
vs_result joint_bounds_build(vs_asset *asset, vs_error *error);

/* Bounds of primitive `primitive` of asset->instances[instance], or NULL
 * when out of range. */
const prim_bounds *joint_bounds_get(const vs_asset *asset, uint32_t instance,
                                    uint32_t primitive);

void bounds_box_empty(bounds_box *b);
bool bounds_box_is_empty(const bounds_box *b);
void bounds_box_add(bounds_box *b, const float p[3]);
/* Adds the 8 corners of `box` transformed by the affine column-major m. */
void bounds_box_add_transformed(bounds_box *b, const float m[16],
                                const bounds_box *box);

#endif
