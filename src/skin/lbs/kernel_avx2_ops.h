/* SPDX-License-Identifier: MIT */
/* The AVX2 + FMA kernel's vector helpers (kernel_soa.h's requirements),
 * shared by kernel_avx2.c and kernel_avx2_wide.c, which compile them for
 * different targets. The includer defines NAME(x) and opens its target
 * region first. */
#ifndef VS_SKIN_LBS_KERNEL_AVX2_OPS_H
#define VS_SKIN_LBS_KERNEL_AVX2_OPS_H

#include "base/transpose_avx.h"
#include "skin/lbs/kernel_x86_io.h"

#define W 8
#define V __m256
#define VADD(a, b) _mm256_add_ps(a, b)
#define VSUB(a, b) _mm256_sub_ps(a, b)
#define VMUL(a, b) _mm256_mul_ps(a, b)
#define VFMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define VFMS(a, b, c) _mm256_fmsub_ps(a, b, c)
#define VINV_SQRT(a) _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(a))
#define VKEEP_IF_UNIT(x, len2)                                                 \
    _mm256_and_ps(                                                             \
        x, _mm256_and_ps(                                                      \
               _mm256_cmp_ps(len2, _mm256_set1_ps(FLT_MIN), _CMP_GE_OQ),       \
               _mm256_cmp_ps(len2, _mm256_set1_ps(FLT_MAX), _CMP_LE_OQ)))

#define VNEG_IF_NEG(x, det)                                                    \
    _mm256_xor_ps(                                                             \
        x, _mm256_and_ps(_mm256_cmp_ps(det, _mm256_setzero_ps(), _CMP_LT_OQ),  \
                         _mm256_set1_ps(-0.0f)))

/* Rows 0-2 of 8 vertices' matrices, lanes = vertices. Each column c is
 * loaded as vertex i paired with vertex i + 4 and transposed inside the
 * 128-bit lanes: 7 shuffles per column (row 3 is never formed), where
 * transposing whole matrices and permuting lanes took 11. */
KERNEL_INLINE void load_mat(kernel_mats mats, const int how, __m256 m[12])
{
    KERNEL_UNROLL
    for (int c = 0; c < 4; ++c) {
        /* Vertex v in the low half, vertex v + 4 in the high half. */
#define PAIR(v)                                                                \
    transpose_avx_load_pair(kernel_mat_at(mats, how, v) + 4 * c,               \
                            kernel_mat_at(mats, how, (v) + 4) + 4 * c)
        const __m256 a = PAIR(0), b = PAIR(1), d = PAIR(2), e = PAIR(3);
#undef PAIR
        const __m256 t0 = _mm256_unpacklo_ps(a, b),
                     t1 = _mm256_unpackhi_ps(a, b);
        const __m256 t2 = _mm256_unpacklo_ps(d, e),
                     t3 = _mm256_unpackhi_ps(d, e);
        m[c * 3 + 0] = _mm256_shuffle_ps(t0, t2, 0x44);
        m[c * 3 + 1] = _mm256_shuffle_ps(t0, t2, 0xEE);
        m[c * 3 + 2] = _mm256_shuffle_ps(t1, t3, 0x44);
    }
}

/* 8 consecutive packed vertices: x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 in
 * lane 0 and vertices 4-7 likewise in lane 1, deinterleaved in-lane by the
 * same 7 shuffles x86_gather4 spends on 4 vertices. */
KERNEL_INLINE void load3(const kernel_attr *a, const size_t *vi, size_t n,
                         __m256 *x, __m256 *y, __m256 *z)
{
    if (a->in_packed && n >= 8) {
        const float *p = (const float *)(const void *)(a->in + vi[0] * 12);
        const __m256 u = transpose_avx_load_pair(p, p + 12),
                     v = transpose_avx_load_pair(p + 4, p + 16),
                     w = transpose_avx_load_pair(p + 8, p + 20);
        const __m256 b2c1 = _mm256_shuffle_ps(v, w, _MM_SHUFFLE(1, 1, 2, 2));
        const __m256 a1b0 = _mm256_shuffle_ps(u, v, _MM_SHUFFLE(0, 0, 1, 1));
        const __m256 b3c2 = _mm256_shuffle_ps(v, w, _MM_SHUFFLE(2, 2, 3, 3));
        const __m256 a2b1 = _mm256_shuffle_ps(u, v, _MM_SHUFFLE(1, 1, 2, 2));
        *x = _mm256_shuffle_ps(u, b2c1, _MM_SHUFFLE(2, 0, 3, 0));
        *y = _mm256_shuffle_ps(a1b0, b3c2, _MM_SHUFFLE(2, 0, 2, 0));
        *z = _mm256_shuffle_ps(a2b1, w, _MM_SHUFFLE(3, 0, 2, 0));
        return;
    }
    __m128 x0, y0, z0, x1, y1, z1;
    x86_gather4(a, vi, n, &x0, &y0, &z0);
    x86_gather4(a, vi + 4, n > 4 ? n - 4 : 0, &x1, &y1, &z1);
    *x = _mm256_set_m128(x1, x0);
    *y = _mm256_set_m128(y1, y0);
    *z = _mm256_set_m128(z1, z0);
}

/* The inverse of load3's packed path: interleaved in-lane, each lane
 * stored as its own 48 bytes. Streamed stores on 32-byte aligned output
 * regroup the lanes into three whole 256-bit vectors first: the write-
 * combining buffers then take half as many stores per line. */
KERNEL_INLINE void store3(const kernel_attr *a, const size_t *vi, size_t n,
                          __m256 x, __m256 y, __m256 z)
{
    if (a->out_packed && n >= 8) {
        float *p = (float *)(void *)(a->out + vi[0] * 12);
        const __m256 x0y0 = _mm256_shuffle_ps(x, y, 0),
                     z0x1 = _mm256_shuffle_ps(z, x, 0x50);
        const __m256 y1z1 = _mm256_shuffle_ps(y, z, 0x55),
                     x2y2 = _mm256_shuffle_ps(x, y, 0xAA);
        const __m256 z2x3 = _mm256_shuffle_ps(z, x, 0xFA),
                     y3z3 = _mm256_shuffle_ps(y, z, 0xFF);
        const __m256 r0 =
            _mm256_shuffle_ps(x0y0, z0x1, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 r1 =
            _mm256_shuffle_ps(y1z1, x2y2, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 r2 =
            _mm256_shuffle_ps(z2x3, y3z3, _MM_SHUFFLE(2, 0, 2, 0));
        if (a->nt && !((uintptr_t)p & 31)) {
            _mm256_stream_ps(p, _mm256_permute2f128_ps(r0, r1, 0x20));
            _mm256_stream_ps(p + 8, _mm256_blend_ps(r2, r0, 0xF0));
            _mm256_stream_ps(p + 16, _mm256_permute2f128_ps(r1, r2, 0x31));
            return;
        }
        x86_put3x4(a, p, _mm256_castps256_ps128(r0), _mm256_castps256_ps128(r1),
                   _mm256_castps256_ps128(r2));
        x86_put3x4(a, p + 12, _mm256_extractf128_ps(r0, 1),
                   _mm256_extractf128_ps(r1, 1), _mm256_extractf128_ps(r2, 1));
        return;
    }
    x86_scatter4(a, vi, n, _mm256_castps256_ps128(x), _mm256_castps256_ps128(y),
                 _mm256_castps256_ps128(z));
    if (n > 4)
        x86_scatter4(a, vi + 4, n - 4, _mm256_extractf128_ps(x, 1),
                     _mm256_extractf128_ps(y, 1), _mm256_extractf128_ps(z, 1));
}

static inline __attribute__((always_inline)) void
NAME(blend_vertex)(const float *const *jm, const float *w, float scale,
                   float idw, float *out, const int mode, const unsigned k)
{
    const __m256 i01 = _mm256_setr_ps(1, 0, 0, 0, 0, 1, 0, 0),
                 i23 = _mm256_setr_ps(0, 0, 1, 0, 0, 0, 0, 0);
    __m256 c01 = _mm256_setzero_ps(), c23 = _mm256_setzero_ps();
    if (mode == BLEND_ACCUMULATE) {
        c01 = _mm256_load_ps(out);
        c23 = _mm256_load_ps(out + 8);
    } else if (mode == BLEND_SET) {
        const __m256 i = _mm256_set1_ps(idw);
        c01 = _mm256_mul_ps(i, i01);
        c23 = _mm256_mul_ps(i, i23);
    }
    /* From BLEND_CHAINS influences, two chains of FMAs (even and odd
     * influences) summed at the end: half the dependent latency per vertex.
     * Below, one chain: a second one costs an add per vertex, which counts
     * for more there than the latency it saves. */
    __m256 d01 = _mm256_setzero_ps(), d23 = _mm256_setzero_ps();
    /* With 2, 4 or 8 influences the weights are loaded as one vector and
     * each is broadcast by a permute: the blend is bound by its loads (the
     * palette's rows, the joints), not by the shuffle units, which a
     * broadcast from memory for each weight left idle. */
    const bool vec = k == 2 || k == 4 || k == 8;
    __m256 wv = _mm256_setzero_ps();
    if (k == 8)
        wv = _mm256_loadu_ps(w);
    else if (k == 4)
        wv = _mm256_castps128_ps256(_mm_loadu_ps(w));
    else if (k == 2)
        /* A 64-bit load that asks for no alignment: the careful path passes
         * the caller's weights, which are only float-aligned. */
        wv = _mm256_castps128_ps256(_mm_castsi128_ps(
            _mm_loadl_epi64((const __m128i *)(const void *)w)));
    KERNEL_UNROLL
    for (unsigned j = 0; j < k; ++j) {
        const __m256 wj =
            vec ? _mm256_permutevar8x32_ps(wv, _mm256_set1_epi32((int)j))
                : _mm256_set1_ps(w[j]);
        if (j % 2 == 0 || k < BLEND_CHAINS) {
            c01 = _mm256_fmadd_ps(wj, _mm256_loadu_ps(jm[j]), c01);
            c23 = _mm256_fmadd_ps(wj, _mm256_loadu_ps(jm[j] + 8), c23);
        } else {
            d01 = _mm256_fmadd_ps(wj, _mm256_loadu_ps(jm[j]), d01);
            d23 = _mm256_fmadd_ps(wj, _mm256_loadu_ps(jm[j] + 8), d23);
        }
    }
    if (k >= BLEND_CHAINS) {
        c01 = _mm256_add_ps(c01, d01);
        c23 = _mm256_add_ps(c23, d23);
    }
    if (mode == BLEND_SCALED || mode == BLEND_SCALED_IDENTITY) {
        const __m256 s = _mm256_set1_ps(scale);
        c01 = _mm256_mul_ps(c01, s);
        c23 = _mm256_mul_ps(c23, s);
    }
    if (mode == BLEND_SCALED_IDENTITY) {
        const __m256 i = _mm256_set1_ps(idw);
        c01 = _mm256_fmadd_ps(i, i01, c01);
        c23 = _mm256_fmadd_ps(i, i23, c23);
    }
    _mm256_store_ps(out, c01);
    _mm256_store_ps(out + 8, c23);
}

#include "skin/lbs/kernel_avx2_sums.h"

/* W weights from element at of a chunk's weights (kernel_soa.h). */
#define VSET1(x) _mm256_set1_ps(x)
#define VLOAD1(p) _mm256_broadcast_ss(p)
KERNEL_INLINE __m256 NAME(load_weights)(const void *w, size_t at,
                                        const bool unorm16, const bool q)
{
    if (!unorm16) return _mm256_loadu_ps((const float *)w + at);
    const __m256 f = _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128(
        (const __m128i *)(const void *)((const uint16_t *)w + at))));
    return q ? f : _mm256_mul_ps(f, _mm256_set1_ps(1.0f / 65535.0f));
}

#endif
