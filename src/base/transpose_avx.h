/* SPDX-License-Identifier: MIT */
/* Two 4x4 transposes at once, one in each 128-bit half of four 256-bit
 * vectors (_MM_TRANSPOSE4_PS's steps, twice as wide), and the pair load
 * that fills the halves: for the files that build AVX forms, included where
 * the "avx" target is already enabled, as its intrinsics need it. In-lane
 * shuffles only, so no lane crosses between the halves: eight shuffles for
 * two transposes. */
#ifndef VS_BASE_TRANSPOSE_AVX_H
#define VS_BASE_TRANSPOSE_AVX_H

#include <immintrin.h>

/* Two 128-bit loads as one vector: lo in the low half, hi in the high
 * half (the insert takes its operand from memory, so no shuffle unit is
 * spent). */
static inline __attribute__((always_inline)) __m256
transpose_avx_load_pair(const float *lo, const float *hi)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)),
                                _mm_loadu_ps(hi), 1);
}

/* Entry j of v[i] goes to entry i of v[j], within each half. */
static inline __attribute__((always_inline)) void
transpose_avx_halves(__m256 v[4])
{
    const __m256 lo01 = _mm256_unpacklo_ps(v[0], v[1]),
                 lo23 = _mm256_unpacklo_ps(v[2], v[3]),
                 hi01 = _mm256_unpackhi_ps(v[0], v[1]),
                 hi23 = _mm256_unpackhi_ps(v[2], v[3]);
    v[0] = _mm256_shuffle_ps(lo01, lo23, _MM_SHUFFLE(1, 0, 1, 0));
    v[1] = _mm256_shuffle_ps(lo01, lo23, _MM_SHUFFLE(3, 2, 3, 2));
    v[2] = _mm256_shuffle_ps(hi01, hi23, _MM_SHUFFLE(1, 0, 1, 0));
    v[3] = _mm256_shuffle_ps(hi01, hi23, _MM_SHUFFLE(3, 2, 3, 2));
}

#endif
