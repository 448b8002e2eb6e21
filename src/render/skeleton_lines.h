/* SPDX-License-Identifier: MIT */
/* The skeleton overlay's vertices on the CPU, without GL: a segment from
 * every joint to its parent when the parent is a joint too, then a point on
 * every joint, at their world positions in a pose. */
#ifndef VS_RENDER_SKELETON_LINES_H
#define VS_RENDER_SKELETON_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "vskin/vskin.h"

/* Sets is_joint[n] (node_count entries) for every node that is a joint of
 * some skin, false for the others. */
void skeleton_joint_flags(const vs_asset *asset, bool *is_joint);

/* SKELETON_FLOATS_PER_NODE * node_count floats hold any pose's lines:
 * per node at most one bone (2 endpoints) and one point, 3 floats each. */
#define SKELETON_FLOATS_PER_NODE 9

/* Writes 2 points per bone, then a point per joint, 3 floats each, to v;
 * *bones and *points say how many. pose is of `asset`, its world matrices
 * up to date. */
void skeleton_lines_fill(const vs_asset *asset, const bool *is_joint,
                         const vs_pose *pose, float *v, size_t *bones,
                         size_t *points);

#endif
