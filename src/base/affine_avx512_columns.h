/* SPDX-License-Identifier: MIT */
/* The AVX-512 affine product itself (base/affine_avx512.h), for the files
 * that build AVX-512 forms: include it where the "avx512f" target is
 * already enabled, as its intrinsics need it. */
#ifndef VS_BASE_AFFINE_AVX512_COLUMNS_H
#define VS_BASE_AFFINE_AVX512_COLUMNS_H

#include <immintrin.h>

/* The lanes of a 128-bit row spread over the four lane groups: lane 4c + i
 * takes entry c. */
static inline __m512i affine_avx512_spread(void)
{
    return _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
}

/* affine_mul(a, B) column-major in one register (lane 4c + i: row i of
 * column c), for affine B given by its rows 0-2 spread (b_r lane 4c + i:
 * B's row r, column c). Column c = a_0 B_0c + a_1 B_1c + a_2 B_2c, + a_3
 * in column 3 alone: a masked add leaves the other columns as the sum gave
 * them (an add of 0 would turn -0 into +0). */
static inline __m512 affine_avx512_columns(const float *a, __m512 b0, __m512 b1,
                                           __m512 b2)
{
    const __m512 a0 = _mm512_broadcast_f32x4(_mm_loadu_ps(a));
    const __m512 a1 = _mm512_broadcast_f32x4(_mm_loadu_ps(a + 4));
    const __m512 a2 = _mm512_broadcast_f32x4(_mm_loadu_ps(a + 8));
    const __m512 a3 = _mm512_broadcast_f32x4(_mm_loadu_ps(a + 12));
    const __m512 sum = _mm512_add_ps(
        _mm512_add_ps(_mm512_mul_ps(a0, b0), _mm512_mul_ps(a1, b1)),
        _mm512_mul_ps(a2, b2));
    return _mm512_mask_add_ps(sum, 0xF000, sum, a3);
}

#endif
