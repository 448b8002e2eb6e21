/* LINEAR rotation channels interpolated together, four at a time in
 * structure-of-arrays form: one call slerps the rotations of a time group
 * from their prepared key pairs, so the arithmetic of four channels shares
 * each instruction instead of forming a chain per channel. Same rules as
 * anim_slerp (keys normalized, shortest path, result normalized), but what
 * depends only on the keys is done once per key pair when the asset loads
 * (anim/clip_plans.h): the normalization, the hemisphere flip and the cosine of
 * the angle. The weights sin(u theta) / sin(theta) come from Eberly's
 * polynomial instead of acos and sin, within about 1e-7 of them for keys up to
 * ~91 degrees apart; wider pairs and zero-length or non-finite keys take
 * anim_slerp itself, on the pair's keys (the raw keys where they could not be
 * normalized). */
#ifndef VS_ANIM_ROTATION_BATCH_H
#define VS_ANIM_ROTATION_BATCH_H

#include <stdint.h>

#include "vskin/vskin.h"

/* Keys k and k + 1 of a rotation sampler, ready for the batch: both
 * normalized, b negated where that is the shorter path, x = a . b >= 0.
 * x is ROTATION_PAIR_SCALAR where the pair takes anim_slerp instead. */
typedef struct rotation_pair {
    float a[4];
    float b[4];
    float x;
} rotation_pair;
#define ROTATION_PAIR_SCALAR (-1.0f)

/* Prepares the pair of raw keys a and b (x, y, z, w each). */
void rotation_pair_prepare(const float *a, const float *b, rotation_pair *out);

/* Slerps count channels that share their fraction u (the channels of one
 * time group, at key k): channel i's prepared pair is pairs[i], its result
 * goes to local[nodes[i]].rotation. The polynomial's coefficients depend
 * only on u, so they are computed once for all channels. */
void rotation_batch_group(const rotation_pair *pairs, uint32_t count, float u,
                          vs_trs *local, const uint32_t *nodes);

/* Eberly's polynomial weight for one pair: sin(u theta) / sin(theta) with
 * x = cos(theta) >= ROTATION_POLY_MIN_COS, from its first `terms` terms:
 * 8 (Eberly's, with his corrected last coefficient) for any such x, or
 * ROTATION_SHORT_TERMS where x >= ROTATION_SHORT_MIN_COS (keys at most
 * ~16 degrees apart): there the terms left out add up to about
 * (1 - x)^5 <= 1e-10 of the sum (each coefficient is below 1 in size), far
 * under float precision. The batch takes the short form
 * for a group of four whose cosines all allow it. Exposed for the tests. */
float rotation_poly_weight(float u, float x, int terms);
#define ROTATION_POLY_MIN_COS 0.7f
#define ROTATION_SHORT_MIN_COS 0.99f
#define ROTATION_SHORT_TERMS 4

#endif
