/* SPDX-License-Identifier: MIT */
/* Morph targets (glTF 2.0 §3.7.2.2), applied before skinning:
 *     attribute = base + sum_k w_k * delta_k
 * for POSITION, NORMAL and TANGENT (xyz; the handedness w has no delta). */
#ifndef VS_SKIN_MORPH_H
#define VS_SKIN_MORPH_H

#include <stdbool.h>
#include <stdint.h>

#include "base/private_export.h"
#include "vskin/vskin.h"

/* True when some target would change the primitive: a non-zero weight for a
 * target that exists. Weights beyond target_count are ignored; missing ones
 * count as 0. */
VS_PRIV_EXPORT bool vs_priv_morph_active(const vs_primitive *prim,
                                         const float *weights,
                                         uint32_t weight_count);

/* Writes the morphed attributes of every vertex: positions (3 per vertex),
 * normals (3, only when prim->normals and normals are not NULL) and tangents
 * (4, w copied, only when prim->tangents and tangents are not NULL). The
 * outputs must not overlap the primitive's arrays. */
VS_PRIV_EXPORT void vs_priv_morph_apply(const vs_primitive *prim,
                                        const float *weights,
                                        uint32_t weight_count, float *positions,
                                        float *normals, float *tangents);

#endif
