/* SPDX-License-Identifier: MIT */
/* Baking a posed or animated skinned asset into static data for engines that
 * do no skinning (docs/bake.md):
 * - bake_pose: one pose as a static vs_asset (posed positions, normals and
 *   tangents; texcoords, indices and materials kept; no skin, no animation),
 *   written with the glTF 2.0 writer or as OBJ;
 * - bake_clip_morph: every frame of a clip as one morph target (deltas
 *   against frame 0) plus a morph-weight animation that replays the clip;
 * - bake_vat_write: a vertex-animation texture, raw float32 rows per frame
 *   with a JSON description.
 * The posed primitives are in pose_all_primitives' order
 * (write/posed_scene.h). */
#ifndef VS_BAKE_BAKE_H
#define VS_BAKE_BAKE_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* Frames above this are refused (VS_ERROR_LIMIT): a morph target or a VAT
 * row each. */
#define BAKE_MAX_FRAMES 10000u
/* Bytes of baked vertex data (frames x vertices x attributes) above this are
 * refused (VS_ERROR_LIMIT). */
#define BAKE_MAX_BYTES (1ull << 30)

/* The public options (vskin_tools.h) under the bakers' short name; here
 * fps must be > 0 (the public functions turn 0 into the default). */
typedef vs_bake_clip_options bake_clip_options;

/* Frame times of `clip` at fps: start, start + 1/fps, ... and the clip's end
 * as the last frame (so the whole clip is covered); one frame when the clip
 * has no duration. malloc'd. */
vs_result bake_frame_times(const vs_asset *asset, uint32_t clip, float fps,
                           float **out_times, uint32_t *out_count,
                           vs_error *error);

/* The current pose of `pose` as a static asset (see the top). */
vs_result bake_pose(const vs_pose *pose, const vs_pose_mesh_options *options,
                    vs_asset **out, vs_error *error);

/* Clip `clip` of `asset` as a morph-target animation (see the top). Tangents
 * are left out (they have no morph deltas here). */
vs_result bake_clip_morph(const vs_asset *asset, uint32_t clip,
                          const bake_clip_options *options, vs_asset **out,
                          vs_error *error);

/* Writes base.bin (positions: one row per frame, every vertex of every
 * primitive in pose_all_primitives order, x y z float32 little-endian),
 * base.normals.bin (the same for normals, when every primitive has them),
 * base.json (the description) and base.glb (frame 0 as a static mesh whose
 * vertices are the rows' order). `base` is the path without extension.
 * No file is renamed into place before all four are complete. */
vs_result bake_vat_write(const vs_asset *asset, uint32_t clip,
                         const bake_clip_options *options, const char *base,
                         vs_error *error);

#endif
