/* SPDX-License-Identifier: MIT */
/* AVX2 forms of the affine products that the frame runs once per joint
 * (base/affine.h): two columns per 256-bit instruction instead of one per
 * 128-bit one, and each factor broadcast by a load or a permute rather than
 * a scalar load and a shuffle. The same products summed in the same order
 * as affine_mul, with no fused multiply-add, so the same floats bit for
 * bit. Compiled with a target attribute; callers ask cpu_avx2()
 * (base/cpu_avx2.h) first. */
#ifndef VS_BASE_AFFINE_AVX2_H
#define VS_BASE_AFFINE_AVX2_H

#include <stdint.h>

/* out + 16 j = affine_mul(a + 16 index[j], B_j) for j in [0, count), with
 * the affine B_j given by its rows 0-2 at b_rows + 12 j (affine_rows): the
 * joint matrices G(joint_j) * IBM_j of a skin, 4x4 column-major. out must
 * not overlap a. */
void affine_avx2_mul_rows_batch(const float *a, const uint32_t *index,
                                const float *b_rows, uint32_t count,
                                float *out);

/* out + 12 j = affine_mul_rows(a + 16 index[j], b_rows + 12 j): the 3x4
 * joint matrices (rows 0-2, row-major), for j from 0 up to the first joint
 * whose a is not affine (affine_is_affine), which is left to the caller.
 * Returns how many were written. */
uint32_t affine_avx2_mul_rows_3x4_batch(const float *a, const uint32_t *index,
                                        const float *b_rows, uint32_t count,
                                        float *out);

#endif
