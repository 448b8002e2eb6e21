/* SPDX-License-Identifier: MIT */
/* The AVX2 kernels' transforms of positions alone by one matrix each
 * (kernel_avx2.c and kernel_avx2_wide.c, which include it after
 * kernel_soa.h, NAME defined): where each vertex takes one matrix as it is
 * (one influence with normalised weights: transform_joints,
 * transform_pointed) and the job skins positions alone, packed on both
 * sides with cached stores, two vertices per register, one per 128-bit
 * lane: each lane's matrix columns loaded straight into it (a 128-bit load
 * inserted from memory, no shuffle), its x, y and z spread across it by
 * one permute each. The structure-of-arrays steps transpose every vertex's
 * matrix first, which costs more shuffles than the transform itself where
 * no normal shares them. The columns are summed in the steps' order
 * (c0 x + (c1 y + (c2 z + c3)), fused), lane for lane, so the floats are
 * the steps' (docs/design/skinning.md). Other jobs take the steps
 * (kernel_positions_dispatch.h). */
#ifndef VS_SKIN_LBS_KERNEL_AVX2_POSITIONS_H
#define VS_SKIN_LBS_KERNEL_AVX2_POSITIONS_H

/* The columns c (0: x, 4: y, 8: z, 12: translation) of vertices i and
 * i + 1's matrices (kernel_mat_at), one per 128-bit lane. */
KERNEL_INLINE __m256 NAME(pair_columns)(const kernel_mats mats, const int how,
                                        int i, int c)
{
    return _mm256_insertf128_ps(
        _mm256_castps128_ps256(_mm_loadu_ps(kernel_mat_at(mats, how, i) + c)),
        _mm_loadu_ps(kernel_mat_at(mats, how, i + 1) + c), 1);
}

/* Vertices i and i + 1's positions from the 8 floats p, whose entries at
 * and at + 3 are their x (y and z follow): each lane's coordinates spread
 * across it, then the steps' sums. Returns x y z (and an unused fourth
 * float) per lane. */
KERNEL_INLINE __m256 NAME(pair_transform)(const kernel_mats mats, const int how,
                                          int i, __m256 p, int at)
{
    const __m256i lane = _mm256_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3);
#define NAME_SPREAD(c)                                                         \
    _mm256_permutevar8x32_ps(                                                  \
        p, _mm256_add_epi32(lane, _mm256_set1_epi32(at + (c))))
    __m256 r =
        _mm256_fmadd_ps(NAME(pair_columns)(mats, how, i, 8), NAME_SPREAD(2),
                        NAME(pair_columns)(mats, how, i, 12));
    r = _mm256_fmadd_ps(NAME(pair_columns)(mats, how, i, 4), NAME_SPREAD(1), r);
    return _mm256_fmadd_ps(NAME(pair_columns)(mats, how, i, 0), NAME_SPREAD(0),
                           r);
#undef NAME_SPREAD
}

/* The six floats of pair_transform's result r, packed, at out: a 128-bit
 * store and a 64-bit one, so nothing past them is written (a job in place
 * has the next vertices' inputs there). */
KERNEL_INLINE void NAME(pair_store)(float *out, __m256 r)
{
    const __m256 packed =
        _mm256_permutevar8x32_ps(r, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 6, 6));
    _mm_storeu_ps(out, _mm256_castps256_ps128(packed));
    _mm_storel_pi((__m64 *)(void *)(out + 4), _mm256_extractf128_ps(packed, 1));
}

/* n packed positions from in to out (which may be in), vertex i by
 * kernel_mat_at(mats, how, i), which must be readable up to an even count
 * (transform_pointed's repeated last pointer, a whole block's joints).
 * Eight vertices per step: three full loads, each pair's 8 floats from the
 * load that holds them (the last pair's from the third load, 2 floats in);
 * a last odd vertex alone, by its own loads. */
KERNEL_INLINE void NAME(positions_by_matrix)(const float *in, float *out,
                                             size_t n, const kernel_mats mats,
                                             const int how)
{
    int i = 0;
    for (; i + 8 <= (int)n; i += 8) {
        const float *p = in + 3 * i;
        /* All loads first: in place, the stores overwrite them. */
        const __m256 p0 = _mm256_loadu_ps(p), p1 = _mm256_loadu_ps(p + 6),
                     p2 = _mm256_loadu_ps(p + 12), p3 = _mm256_loadu_ps(p + 16);
        const __m256 r0 = NAME(pair_transform)(mats, how, i, p0, 0),
                     r1 = NAME(pair_transform)(mats, how, i + 2, p1, 0),
                     r2 = NAME(pair_transform)(mats, how, i + 4, p2, 0),
                     r3 = NAME(pair_transform)(mats, how, i + 6, p3, 2);
        float *o = out + 3 * i;
        NAME(pair_store)(o, r0);
        NAME(pair_store)(o + 6, r1);
        NAME(pair_store)(o + 12, r2);
        NAME(pair_store)(o + 18, r3);
    }
    for (; i < (int)n; i += 2) {
        /* One or two vertices: their own floats only. */
        const bool two = i + 1 < (int)n;
        float buf[8] = {0};
        memcpy(buf, in + 3 * i, (two ? 6 : 3) * sizeof(float));
        const __m256 r =
            NAME(pair_transform)(mats, how, i, _mm256_loadu_ps(buf), 0);
        NAME(pair_store)(buf, r);
        memcpy(out + 3 * i, buf, (two ? 6 : 3) * sizeof(float));
    }
}

#include "skin/lbs/kernel_positions_dispatch.h"

#endif
