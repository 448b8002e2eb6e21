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

/* The polynomial's sum, one order for every form (the scalar weight, SSE2,
 * AVX2), so that all give the same floats. With d_i = c_i (x - 1), Eberly's
 * nested form 1 + d_0 (1 + d_1 (1 + d_2 (1 + d_3 (...)))) is regrouped so
 * that its first steps do not wait on one another:
 *   4 terms: 1 + ((d_0 + d_0 d_1) + (d_0 d_1)(d_2 (1 + d_3)))
 *   8 terms: the same with d_3 replaced by
 *            d_3 (1 + ((d_4 + d_4 d_5) + (d_4 d_5)(d_6 (1 + d_7))))
 * The longest chain of dependent operations is 6 for four terms and 12 for
 * eight, against the nested form's 9 and 17, and the batch waits on that
 * chain. The 1 is added last, to terms that are all >= 0 (x <= 1, and
 * c_i <= 0 for t in [0, 1]), so the sum rounds about as the nested form
 * does: adding 1 to the first group before the rest doubled the error
 * against the sine ratio. TYPE, ADD, MUL and ONE are the form's; c[0..7]
 * its coefficients (c[0..3] for four terms) and xm1 its x - 1; terms 4 or
 * 8; r receives the sum. The d_i are named values, not an array: GCC kept
 * an array of them in memory, and the chain waited on its stores. */
#define ROTATION_POLY(TYPE, ADD, MUL, ONE, c, xm1, terms, r)                   \
    do {                                                                       \
        const TYPE d0 = MUL(c[0], xm1), d1 = MUL(c[1], xm1),                   \
                   d2 = MUL(c[2], xm1), d3 = MUL(c[3], xm1);                   \
        const TYPE p2 = MUL(d0, d1);                                           \
        TYPE tail = ONE;                                                       \
        if ((terms) == 8) {                                                    \
            const TYPE d4 = MUL(c[4], xm1), d5 = MUL(c[5], xm1),               \
                       d6 = MUL(c[6], xm1), d7 = MUL(c[7], xm1);               \
            const TYPE d45 = MUL(d4, d5);                                      \
            tail =                                                             \
                ADD(ONE, ADD(ADD(d4, d45), MUL(d45, MUL(d6, ADD(ONE, d7)))));  \
        }                                                                      \
        (r) = ADD(                                                             \
            ONE, ADD(ADD(d0, p2), MUL(p2, MUL(d2, ADD(ONE, MUL(d3, tail)))))); \
    } while (0)

#endif
