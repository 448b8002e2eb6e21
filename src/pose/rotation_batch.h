/* SPDX-License-Identifier: MIT */
/* LINEAR rotation channels interpolated together, eight at a time in
 * structure-of-arrays form (one AVX2 step, or two SSE2 steps of four): one
 * call slerps the rotations of a time group from their prepared key pairs,
 * stored as the batch reads them, so the arithmetic of several channels
 * shares each instruction instead of forming a chain per channel. Same rules as
 * anim_slerp (keys normalized, shortest path, result normalized), but what
 * depends only on the keys is done once per key pair when the asset loads
 * (asset/clip_plans.h): the normalization, the hemisphere flip and the cosine of
 * the angle. The weights sin(u theta) / sin(theta) come from Eberly's
 * polynomial instead of acos and sin, within about 1e-7 of them for keys up to
 * ~91 degrees apart; wider pairs and zero-length or non-finite keys take
 * anim_slerp itself, on the pair's keys (the raw keys where they could not be
 * normalized). */
#ifndef VS_POSE_ROTATION_BATCH_H
#define VS_POSE_ROTATION_BATCH_H

#include <stdint.h>

#include "asset/rotation_keys.h"
#include "vskin/vskin.h"

/* Slerps count channels that share their fraction u (the channels of one
 * time group, at key k): channel i's prepared pair is lane i % 8 of
 * blocks[i / 8], its result goes to local[nodes[i]].rotation. The
 * polynomial's coefficients depend only on u, so they are computed once
 * for all channels. With AVX2 where the CPU has it, else SSE2 (or plain C
 * on other CPUs); the two give the same floats. */
void rotation_batch_group(const rotation_block *blocks, uint32_t count, float u,
                          vs_trs *local, const uint32_t *nodes);
/* The SSE2 and AVX2 forms, for the tests; the AVX2 one only where
 * cpu_avx2() (base/cpu_avx2.h). */
void rotation_batch_group_sse2(const rotation_block *blocks, uint32_t count,
                               float u, vs_trs *local, const uint32_t *nodes);
void rotation_batch_group_avx2(const rotation_block *blocks, uint32_t count,
                               float u, vs_trs *local, const uint32_t *nodes);

/* Shared by the forms: the polynomial's coefficients at t
 * (rotation_poly_weight's u_i t^2 - v_i, i = 0..7), and the scalar path of
 * a block (anim_slerp of the first n lanes' pairs), taken by a block with
 * a lane that is too wide for the polynomial or was not normalized. */
void rotation_poly_coefficients(float t, float c[8]);
void rotation_block_scalar(const rotation_block *block, uint32_t n, float u,
                           vs_trs *local, const uint32_t *nodes);

/* Eberly's polynomial weight for one pair: sin(u theta) / sin(theta) with
 * x = cos(theta) >= ROTATION_POLY_MIN_COS, from its first `terms` terms:
 * 8 (Eberly's, with his corrected last coefficient) for any such x, or
 * ROTATION_SHORT_TERMS where x >= ROTATION_SHORT_MIN_COS (keys at most
 * ~16 degrees apart): there the terms left out add up to about
 * (1 - x)^5 <= 1e-10 of the sum (each coefficient is below 1 in size), far
 * under float precision. The batch takes the short form
 * for a block whose cosines all allow it. Exposed for the tests. */
float rotation_poly_weight(float u, float x, int terms);
#define ROTATION_SHORT_MIN_COS 0.99f
#define ROTATION_SHORT_TERMS 4

#endif
