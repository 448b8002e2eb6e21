/* SPDX-License-Identifier: MIT */
/* Shared by bake.c, bake_morph.c and bake_vat.c. */
#ifndef VS_BAKE_BAKE_INTERNAL_H
#define VS_BAKE_BAKE_INTERNAL_H

#include <stddef.h>

#include "vskin/vskin.h"

/* VS_ERROR_NOT_FOUND ("nothing to bake") when the asset has no mesh
 * instance in its default scene. */
vs_result bake_check_meshes(const vs_asset *asset, vs_error *error);
/* A static asset with the source's materials, up axis and unit, one node and
 * one mesh per instance whose primitives hold the source topology (mode,
 * indices, texcoords, material) and no attributes yet. Not finalized. */
vs_result bake_skeleton_asset(const vs_asset *src, vs_asset **out,
                              vs_error *error);
/* The flat_index-th primitive of the baked asset (pose_all_primitives
 * order). */
vs_primitive *bake_primitive(vs_asset *baked, uint32_t flat_index);
/* n floats copied into the asset; NULL when src is NULL or on failure. */
float *bake_copy_floats(vs_asset *a, const float *src, size_t n,
                        vs_error *error);

/* Resets pose, samples clip at time (clamped), updates the world matrices
 * and poses every primitive (pose_all_primitives). */
vs_result bake_pose_frame(vs_pose *pose, uint32_t clip, float time,
                          const vs_pose_mesh_options *options,
                          vs_posed_primitive **out, uint32_t *count,
                          vs_error *error);

#endif
