/* SPDX-License-Identifier: MIT */
/* The plain job's weight sums on 256-bit registers (kernel_soa.h's
 * KERNEL_JOB_SUMS_FULL) for the AVX2 builds: pairwise, the order the
 * AVX-512 kernel's one-pass scales keep (avx512_job_scales_full), so every
 * kernel with FMA scales a vertex's weights by the same float. The includer
 * defines NAME(x) and opens a target region with AVX2 first. */
#ifndef VS_SKIN_LBS_KERNEL_AVX2_SUMS_H
#define VS_SKIN_LBS_KERNEL_AVX2_SUMS_H

/* 8 weights, their lanes that are not >= 0 (negative or NaN) or'ed into
 * *neg: job_sums_full checks the weights on the loads it sums. */
KERNEL_INLINE __m256 NAME(job_weights_load)(const float *p, __m256 *neg)
{
    const __m256 x = _mm256_loadu_ps(p);
    *neg =
        _mm256_or_ps(*neg, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_NGE_UQ));
    return x;
}

/* Weight sums of a full block (block vertices, a multiple of 8) of 2, 4 or 8
 * influences by horizontal adds, 8 vertices at a time, instead of a scalar
 * chain per vertex (which cost about a tenth of the 4-influence job); *bad
 * non-zero where a weight is not >= 0, from the same loads. */
KERNEL_INLINE bool NAME(job_sums_full)(const float *w, const unsigned k,
                                       const size_t block, float *sum,
                                       unsigned *bad)
{
    if (k != 2 && k != 4 && k != 8) return false;
    __m256 neg = _mm256_setzero_ps();
#define NAME_LD(q) NAME(job_weights_load)(q, &neg)
    for (size_t i = 0; i < block; i += 8) {
        const float *p = w + i * k;
        __m256 s;
        if (k == 2) {
            /* [v0 v1 v4 v5 | v2 v3 v6 v7] */
            const __m256 h = _mm256_hadd_ps(NAME_LD(p), NAME_LD(p + 8));
            s = _mm256_castpd_ps(
                _mm256_permute4x64_pd(_mm256_castps_pd(h), 0xD8));
        } else if (k == 4) {
            /* [v0 v2 v4 v6 | v1 v3 v5 v7] */
            const __m256 a = _mm256_hadd_ps(NAME_LD(p), NAME_LD(p + 8));
            const __m256 b = _mm256_hadd_ps(NAME_LD(p + 16), NAME_LD(p + 24));
            s = _mm256_permutevar8x32_ps(
                _mm256_hadd_ps(a, b),
                _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        } else {
            /* Per lane half: [v0 v1 v2 v3 | v0 v1 v2 v3] partial sums. */
            __m256 q[2];
            for (int g = 0; g < 2; ++g) {
                const float *r = p + g * 32;
                const __m256 a = _mm256_hadd_ps(NAME_LD(r), NAME_LD(r + 8));
                const __m256 b =
                    _mm256_hadd_ps(NAME_LD(r + 16), NAME_LD(r + 24));
                q[g] = _mm256_hadd_ps(a, b);
            }
            s = _mm256_add_ps(_mm256_permute2f128_ps(q[0], q[1], 0x20),
                              _mm256_permute2f128_ps(q[0], q[1], 0x31));
        }
        _mm256_storeu_ps(sum + i, s);
    }
#undef NAME_LD
    *bad = (unsigned)_mm256_movemask_ps(neg);
    return true;
}
#define KERNEL_JOB_SUMS_FULL(w, k, block, sum, bad)                            \
    NAME(job_sums_full)(w, k, block, sum, bad)
/* Those horizontal adds sum pairwise: other blocks sum so too. */
#define KERNEL_JOB_SUMS_TREE 1
/* 256-bit registers: job_scales divides 8 sums at once (kernel_soa.h). */
#define KERNEL_SCALE_LANES 8

#endif
