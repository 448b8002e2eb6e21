/* SPDX-License-Identifier: MIT */
/* Every mesh instance of a pose skinned at once, in one order (instances,
 * then each mesh's primitives) that the posed scenes, the bakes and the
 * vertex-animation rows share. */
#ifndef VS_WRITE_POSED_SCENE_H
#define VS_WRITE_POSED_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* The primitives over all mesh instances into *out_count, after checking
 * what posing all of them `frames` times at once would take: the count
 * must fit 32 bits and the posed vertices (positions, normals, tangents)
 * the load's vs_limits.max_total_memory, which bounds everything made from
 * the asset; VS_ERROR_LIMIT, saying how much, when not. A small file can
 * instance a mesh many times, so this is checked before any posing. */
vs_result instance_primitives_budget(const vs_asset *asset, uint64_t frames,
                                     uint32_t *out_count, vs_error *error);

/* Every primitive of every mesh instance posed (vs_pose_mesh_primitive;
 * call vs_pose_update_world first): *count entries, the array and the
 * vertices from the pose's asset's allocator; free with
 * posed_primitives_free. */
vs_result pose_all_primitives(const vs_pose *pose,
                              const vs_pose_mesh_options *options,
                              vs_posed_primitive **out, uint32_t *count,
                              vs_error *error);
/* vs_posed_scene_create's scene for the options *o (joints when o->joints
 * or o->joints_only), with every mesh instance posed when `objects`, else
 * none (objects NULL, object_count 0): the labels and skins a streamed
 * file takes from a scene while its objects are posed one at a time. */
vs_result posed_scene_build(const vs_pose *pose,
                            const vs_posed_scene_options *o, bool objects,
                            vs_posed_scene **out_scene, vs_error *error);
/* Frees the posed primitives and the array, which came from alloc (the
 * asset's allocator); NULL is ignored. */
void posed_primitives_free(const vs_allocator *alloc, vs_posed_primitive *posed,
                           uint32_t count);

#endif
