/* SPDX-License-Identifier: MIT */
/* The key pairs of LINEAR rotation channels as the slerp batch reads them
 * (pose/rotation_batch.h), prepared once when the asset loads: what depends
 * only on the keys (the normalization, the hemisphere flip and the cosine
 * of the angle) is part of the immutable asset, and a pose only
 * interpolates. */
#ifndef VS_ASSET_ROTATION_KEYS_H
#define VS_ASSET_ROTATION_KEYS_H

#include <stdint.h>

/* Below this cosine between the keys (rotations more than about 91 degrees
 * apart) the batch's polynomial is not accurate enough and the pair takes
 * anim_slerp. */
#define ROTATION_POLY_MIN_COS 0.7f

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

/* The prepared pairs of ROTATION_LANES channels at one key, component by
 * component (structure of arrays, as the batch computes), so that the
 * batch loads them as they are: a[c][l] is component c of lane l's first
 * key. Lanes past a group's channels hold the identity twice (x = 1), which
 * stays on the fast path and whose result is not stored. A block is one
 * AVX2 step or two SSE2 ones, and the batch decides per block which
 * polynomial to use and whether to take the scalar path, so that both give
 * the same floats. */
#define ROTATION_LANES 8
typedef struct rotation_block {
    _Alignas(32) float a[4][ROTATION_LANES];
    float b[4][ROTATION_LANES];
    float x[ROTATION_LANES];
} rotation_block;

/* Blocks a group of count channels takes at each key. */
static inline uint32_t rotation_blocks(uint32_t count)
{
    return (count + ROTATION_LANES - 1) / ROTATION_LANES;
}

/* Lane l of *block = the prepared pair p, or the identity pair for NULL. */
void rotation_block_set(rotation_block *block, uint32_t lane,
                        const rotation_pair *p);

#endif
