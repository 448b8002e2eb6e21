/* SPDX-License-Identifier: MIT */
/* The AVX-512F kernel: 16 vertices per step. A vertex's 4x4 matrix is one
 * 512-bit register (one FMA per influence); 4x4 transposes inside the
 * 128-bit lanes and a 4x4 transpose of the lanes turn 16 vertices into
 * structure-of-arrays. Every vertex goes through the AVX2 kernel's
 * operations in the AVX2 kernel's order, so the floats are the same and
 * VS_ISA_AUTO may take either (isa.c). Run only when the CPU reports
 * AVX-512F. */
#include "base/cpu_avx512.h"
#include "base/target.h"
#include "skin/lbs/kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <string.h>

VS_TARGET_BEGIN("avx512f,avx2,fma")

#include "skin/lbs/kernel_x86_io.h"

#define W 16
#define V __m512
#define NAME(x) avx512_##x
#define VSET1(x) _mm512_set1_ps(x)
#define VADD(a, b) _mm512_add_ps(a, b)
#define VSUB(a, b) _mm512_sub_ps(a, b)
#define VMUL(a, b) _mm512_mul_ps(a, b)
#define VFMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define VFMS(a, b, c) _mm512_fmsub_ps(a, b, c)
#define VINV_SQRT(a) _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_sqrt_ps(a))
#define VKEEP_IF_UNIT(x, len2)                                                 \
    _mm512_maskz_mov_ps(                                                       \
        _mm512_cmp_ps_mask(len2, _mm512_set1_ps(FLT_MIN), _CMP_GE_OQ) &        \
            _mm512_cmp_ps_mask(len2, _mm512_set1_ps(FLT_MAX), _CMP_LE_OQ),     \
        x)

/* The sign bit flipped, as the AVX2 kernel does (0 - x would turn +0 into
 * +0, not -0). */
#define VNEG_IF_NEG(x, det)                                                    \
    _mm512_castsi512_ps(_mm512_mask_xor_epi32(                                 \
        _mm512_castps_si512(x),                                                \
        _mm512_cmp_ps_mask(det, _mm512_setzero_ps(), _CMP_LT_OQ),              \
        _mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN)))

/* c + sum_j w[j] * jm[j]: from BLEND_CHAINS influences with even and odd
 * influences on two FMA chains (c and a zero), summed at the end, below
 * that on one chain: the AVX2 kernel's order for each of the 16 entries,
 * so its floats. */
KERNEL_INLINE __m512 blend_chains(const float *const *jm, const float *w,
                                  __m512 c, const unsigned k)
{
    __m512 d = _mm512_setzero_ps();
    KERNEL_UNROLL
    for (unsigned j = 0; j < k; ++j) {
        const __m512 wj = _mm512_set1_ps(w[j]);
        if (j % 2 == 0 || k < BLEND_CHAINS)
            c = _mm512_fmadd_ps(wj, _mm512_loadu_ps(jm[j]), c);
        else
            d = _mm512_fmadd_ps(wj, _mm512_loadu_ps(jm[j]), d);
    }
    return k >= BLEND_CHAINS ? _mm512_add_ps(c, d) : c;
}

/* The blend in the transform (MATS_FUSED) finds the matrices of 4 and 8
 * influences from the joints themselves, four indices per 64-bit load,
 * shifted and masked in general registers: a load per influence fewer than
 * palette offsets staged by job_prepare, and no pass writing them. 2 and 3
 * influences keep the offsets (a 32-bit pair of indices measured slower
 * than two offset loads); with 2, one 64-bit load brings a vertex's pair:
 * the blend in the transform is bound by its operations, loads included. */
KERNEL_INLINE bool fused_reads_joints(unsigned k)
{
    return k % 4 == 0;
}

/* Vertex i's 4x4: loaded, or with MATS_FUSED blended here as
 * avx512_blend_vertex's BLEND_SCALED does it, but for the scale, which
 * load_mat applies after the transposes' first step. */
KERNEL_INLINE __m512 vertex_mat(kernel_mats mats, const int how, int i)
{
    if (how < MATS_FUSED) return _mm512_loadu_ps(kernel_mat_at(mats, how, i));
    const unsigned k = (unsigned)(how - MATS_FUSED);
    const unsigned char *palette = (const unsigned char *)mats.palette;
    const float *jm[KERNEL_MAX_STAGED];
    if (fused_reads_joints(k)) {
        KERNEL_UNROLL
        for (unsigned j = 0; j < k; j += 4) {
            uint64_t q;
            memcpy(&q, mats.joints + i * k + j, sizeof q);
            KERNEL_UNROLL
            for (unsigned e = 0; e < 4; ++e) {
                const size_t at = (size_t)((q >> (16 * e)) & 0xFFFF) << 6;
                jm[j + e] = (const float *)(const void *)(palette + at);
            }
        }
    } else if (k == 2) {
        uint64_t q;
        memcpy(&q, mats.off + i * 2, sizeof q);
        jm[0] = (const float *)(const void *)(palette + (uint32_t)q);
        jm[1] = (const float *)(const void *)(palette + (q >> 32));
    } else {
        KERNEL_UNROLL
        for (unsigned j = 0; j < k; ++j)
            jm[j] =
                (const float *)(const void *)(palette + mats.off[i * k + j]);
    }
    return blend_chains(jm, mats.w + i * k, _mm512_setzero_ps(), k);
}

KERNEL_INLINE void load_mat(kernel_mats mats, const int how, __m512 m[12])
{
    /* t[g][r]: lane c = column c, row r, of vertices 4g..4g+3. Both loops
     * unrolled, so that t lives in registers: left as loops, GCC kept it
     * on the stack, a store and a load of every vector per step. */
    __m512 t[4][4];
    KERNEL_UNROLL
    for (int g = 0; g < 4; ++g) {
        __m512 a = vertex_mat(mats, how, 4 * g + 0);
        __m512 b = vertex_mat(mats, how, 4 * g + 1);
        __m512 c = vertex_mat(mats, how, 4 * g + 2);
        __m512 d = vertex_mat(mats, how, 4 * g + 3);
        __m512 t0 = _mm512_unpacklo_ps(a, b), t1 = _mm512_unpackhi_ps(a, b);
        __m512 t2 = _mm512_unpacklo_ps(c, d), t3 = _mm512_unpackhi_ps(c, d);
        t[g][0] = _mm512_shuffle_ps(t0, t2, 0x44);
        t[g][1] = _mm512_shuffle_ps(t0, t2, 0xEE);
        t[g][2] = _mm512_shuffle_ps(t1, t3, 0x44);
        t[g][3] = _mm512_shuffle_ps(t1, t3, 0xEE);
        if (how >= MATS_FUSED) {
            /* The blend's scale, element by element as BLEND_SCALED
             * multiplies (the same floats): here lane c holds vertices
             * 4g..4g+3, so one 128-bit load of their scales serves three
             * rows, where each vertex's own broadcast and multiply cost a
             * load and a multiply apiece. */
            const __m512 s =
                _mm512_broadcast_f32x4(_mm_loadu_ps(mats.scale + 4 * g));
            KERNEL_UNROLL
            for (int r = 0; r < 3; ++r)
                t[g][r] = _mm512_mul_ps(t[g][r], s);
        }
    }
    KERNEL_UNROLL
    for (int r = 0; r < 3; ++r) {
        __m512 u0 = _mm512_shuffle_f32x4(t[0][r], t[1][r], 0x44);
        __m512 u1 = _mm512_shuffle_f32x4(t[0][r], t[1][r], 0xEE);
        __m512 u2 = _mm512_shuffle_f32x4(t[2][r], t[3][r], 0x44);
        __m512 u3 = _mm512_shuffle_f32x4(t[2][r], t[3][r], 0xEE);
        m[0 * 3 + r] = _mm512_shuffle_f32x4(u0, u2, 0x88);
        m[1 * 3 + r] = _mm512_shuffle_f32x4(u0, u2, 0xDD);
        m[2 * 3 + r] = _mm512_shuffle_f32x4(u1, u3, 0x88);
        m[3 * 3 + r] = _mm512_shuffle_f32x4(u1, u3, 0xDD);
    }
}

KERNEL_INLINE __m512 join4(__m128 a, __m128 b, __m128 c, __m128 d)
{
    __m256 lo = _mm256_set_m128(b, a), hi = _mm256_set_m128(d, c);
    return _mm512_castpd_ps(_mm512_insertf64x4(
        _mm512_castpd256_pd512(_mm256_castps_pd(lo)), _mm256_castps_pd(hi), 1));
}

/* 16 consecutive packed vertices (48 floats, three 512-bit loads) as x, y
 * and z: each is two two-source permutes, the first over loads 0 and 1, the
 * second taking the last lanes from load 2. Six permutes where gathering
 * four vertices at a time spent 28 shuffles and 9 inserts. */
KERNEL_INLINE void load3(const kernel_attr *a, const size_t *vi, size_t n,
                         __m512 *x, __m512 *y, __m512 *z)
{
    if (a->in_packed && n >= 16) {
        const float *p = (const float *)(const void *)(a->in + vi[0] * 12);
        const __m512 u0 = _mm512_loadu_ps(p), u1 = _mm512_loadu_ps(p + 16),
                     u2 = _mm512_loadu_ps(p + 32);
        /* Component c of vertex i is float 3i + c of the 48. */
        const __m512i x01 = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24,
                                              27, 30, 0, 0, 0, 0, 0),
                      y01 = _mm512_setr_epi32(1, 4, 7, 10, 13, 16, 19, 22, 25,
                                              28, 31, 0, 0, 0, 0, 0),
                      z01 = _mm512_setr_epi32(2, 5, 8, 11, 14, 17, 20, 23, 26,
                                              29, 0, 0, 0, 0, 0, 0);
        const __m512i x2 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                             17, 20, 23, 26, 29),
                      y2 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                             18, 21, 24, 27, 30),
                      z2 = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16,
                                             19, 22, 25, 28, 31);
        *x =
            _mm512_permutex2var_ps(_mm512_permutex2var_ps(u0, x01, u1), x2, u2);
        *y =
            _mm512_permutex2var_ps(_mm512_permutex2var_ps(u0, y01, u1), y2, u2);
        *z =
            _mm512_permutex2var_ps(_mm512_permutex2var_ps(u0, z01, u1), z2, u2);
        return;
    }
    __m128 gx[4], gy[4], gz[4];
    for (int g = 0; g < 4; ++g)
        x86_gather4(a, vi + 4 * g, n > 4u * g ? n - 4u * g : 0, &gx[g], &gy[g],
                    &gz[g]);
    *x = join4(gx[0], gx[1], gx[2], gx[3]);
    *y = join4(gy[0], gy[1], gy[2], gy[3]);
    *z = join4(gz[0], gz[1], gz[2], gz[3]);
}

/* The inverse of load3's packed path: each 512-bit store is x and y
 * interleaved by one permute, z put in by a second. Streamed stores write
 * the same three vectors: whole when they fill three aligned cache lines,
 * else as twelve 128-bit pieces on 16-byte alignment; output that is not
 * 16-byte aligned cannot stream and takes the cached stores. Never through
 * x86_scatter4's per-quarter transposes, which would cost more than the
 * cache reads the streaming saves. */
KERNEL_INLINE void store3(const kernel_attr *a, const size_t *vi, size_t n,
                          __m512 x, __m512 y, __m512 z)
{
    if (a->out_packed && n >= 16) {
        float *p = (float *)(void *)(a->out + vi[0] * 12);
        /* Float e of the 48 is component e % 3 of vertex e / 3: the first
         * permute takes x (0-15) and y (16-31), leaving z's places, the
         * second keeps those (0-15) and takes z (16-31). */
        const __m512i xy0 = _mm512_setr_epi32(0, 16, 0, 1, 17, 0, 2, 18, 0, 3,
                                              19, 0, 4, 20, 0, 5),
                      z0 = _mm512_setr_epi32(0, 1, 16, 3, 4, 17, 6, 7, 18, 9,
                                             10, 19, 12, 13, 20, 15),
                      xy1 = _mm512_setr_epi32(21, 0, 6, 22, 0, 7, 23, 0, 8, 24,
                                              0, 9, 25, 0, 10, 26),
                      z1 = _mm512_setr_epi32(0, 21, 2, 3, 22, 5, 6, 23, 8, 9,
                                             24, 11, 12, 25, 14, 15),
                      xy2 = _mm512_setr_epi32(0, 11, 27, 0, 12, 28, 0, 13, 29,
                                              0, 14, 30, 0, 15, 31, 0),
                      z2 = _mm512_setr_epi32(26, 1, 2, 27, 4, 5, 28, 7, 8, 29,
                                             10, 11, 30, 13, 14, 31);
        const __m512 r0 = _mm512_permutex2var_ps(
                         _mm512_permutex2var_ps(x, xy0, y), z0, z),
                     r1 = _mm512_permutex2var_ps(
                         _mm512_permutex2var_ps(x, xy1, y), z1, z),
                     r2 = _mm512_permutex2var_ps(
                         _mm512_permutex2var_ps(x, xy2, y), z2, z);
        if (!a->nt || ((uintptr_t)p & 15)) {
            _mm512_storeu_ps(p, r0);
            _mm512_storeu_ps(p + 16, r1);
            _mm512_storeu_ps(p + 32, r2);
        } else if (!((uintptr_t)p & 63)) {
            _mm512_stream_ps(p, r0);
            _mm512_stream_ps(p + 16, r1);
            _mm512_stream_ps(p + 32, r2);
        } else {
            x86_put3x4(a, p, _mm512_extractf32x4_ps(r0, 0),
                       _mm512_extractf32x4_ps(r0, 1),
                       _mm512_extractf32x4_ps(r0, 2));
            x86_put3x4(a, p + 12, _mm512_extractf32x4_ps(r0, 3),
                       _mm512_extractf32x4_ps(r1, 0),
                       _mm512_extractf32x4_ps(r1, 1));
            x86_put3x4(a, p + 24, _mm512_extractf32x4_ps(r1, 2),
                       _mm512_extractf32x4_ps(r1, 3),
                       _mm512_extractf32x4_ps(r2, 0));
            x86_put3x4(a, p + 36, _mm512_extractf32x4_ps(r2, 1),
                       _mm512_extractf32x4_ps(r2, 2),
                       _mm512_extractf32x4_ps(r2, 3));
        }
        return;
    }
    x86_scatter4(a, vi, n, _mm512_extractf32x4_ps(x, 0),
                 _mm512_extractf32x4_ps(y, 0), _mm512_extractf32x4_ps(z, 0));
    if (n > 4)
        x86_scatter4(a, vi + 4, n - 4, _mm512_extractf32x4_ps(x, 1),
                     _mm512_extractf32x4_ps(y, 1),
                     _mm512_extractf32x4_ps(z, 1));
    if (n > 8)
        x86_scatter4(a, vi + 8, n - 8, _mm512_extractf32x4_ps(x, 2),
                     _mm512_extractf32x4_ps(y, 2),
                     _mm512_extractf32x4_ps(z, 2));
    if (n > 12)
        x86_scatter4(a, vi + 12, n - 12, _mm512_extractf32x4_ps(x, 3),
                     _mm512_extractf32x4_ps(y, 3),
                     _mm512_extractf32x4_ps(z, 3));
}

static inline __attribute__((always_inline)) void
avx512_blend_vertex(const float *const *jm, const float *w, float scale,
                    float idw, float *out, const int mode, const unsigned k)
{
    const __m512 id =
        _mm512_setr_ps(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0);
    __m512 c = _mm512_setzero_ps();
    if (mode == BLEND_ACCUMULATE)
        c = _mm512_load_ps(out);
    else if (mode == BLEND_SET)
        c = _mm512_mul_ps(_mm512_set1_ps(idw), id);
    c = blend_chains(jm, w, c, k);
    if (mode == BLEND_SCALED || mode == BLEND_SCALED_IDENTITY)
        c = _mm512_mul_ps(c, _mm512_set1_ps(scale));
    if (mode == BLEND_SCALED_IDENTITY)
        c = _mm512_fmadd_ps(_mm512_set1_ps(idw), id, c);
    _mm512_store_ps(out, c);
}

/* Lanes of the pair (a, b) (a: 0-15, b: 16-31) at even places plus those
 * at odd places: sums of neighbouring pairs, the lanes in order. */
KERNEL_INLINE __m512 pair_sums(__m512 a, __m512 b)
{
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                           20, 22, 24, 26, 28, 30),
                  odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21,
                                          23, 25, 27, 29, 31);
    return _mm512_add_ps(_mm512_permutex2var_ps(a, even, b),
                         _mm512_permutex2var_ps(a, odd, b));
}

/* kernel_soa.h's job_scales for a full block of 2, 4 or 8 influences, 16
 * vertices per step: their k * 16 weights are k full loads, summed by
 * rounds of pair_sums (each round adds neighbouring partial sums, so 4
 * weights are (w0 + w1) + (w2 + w3), vertex_sum's tree order) into one
 * vector of 16 sums; each load's weights checked in a mask, each sum's
 * range in masks, and one division per 16 sums. The AVX2 sums (horizontal
 * adds, each two shuffles and an add) and the scales' 8-lane loop after
 * them, with the sums stored and reloaded between the two, took several
 * times the operations. -1 for other k. */
KERNEL_INLINE int avx512_job_scales_full(const float *w, const unsigned k,
                                         const size_t block, float *scale,
                                         float *idw, bool *any_unskinned)
{
    _Static_assert(KERNEL_JOB_BLOCK % 16 == 0 && KERNEL_FUSED_BLOCK % 16 == 0,
                   "full blocks of whole steps");
    if (k != 2 && k != 4 && k != 8) return -1;
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
    __mmask16 bad = 0, ok = 0xFFFF, zeros = 0;
    for (size_t i = 0; i < block; i += 16) {
        const float *p = w + i * k;
        __m512 x[8];
        KERNEL_UNROLL
        for (unsigned l = 0; l < k; ++l) {
            x[l] = _mm512_loadu_ps(p + 16 * l);
            bad |= _mm512_cmp_ps_mask(x[l], zero, _CMP_NGE_UQ);
        }
        KERNEL_UNROLL
        for (unsigned l = k; l > 1; l /= 2) {
            KERNEL_UNROLL
            for (unsigned h = 0; h < l / 2; ++h)
                x[h] = pair_sums(x[2 * h], x[2 * h + 1]);
        }
        const __m512 s = x[0];
        const __mmask16 is_zero = _mm512_cmp_ps_mask(s, zero, _CMP_EQ_OQ),
                        positive = _mm512_cmp_ps_mask(s, zero, _CMP_GT_OQ);
        ok &= is_zero |
              (_mm512_cmp_ps_mask(s, _mm512_set1_ps(FLT_MIN), _CMP_GE_OQ) &
               _mm512_cmp_ps_mask(s, _mm512_set1_ps(FLT_MAX), _CMP_LE_OQ));
        zeros |= is_zero;
        _mm512_storeu_ps(scale + i, _mm512_maskz_div_ps(positive, one, s));
        _mm512_storeu_ps(idw + i, _mm512_maskz_mov_ps(~positive, one));
    }
    *any_unskinned = zeros != 0;
    return !bad && ok == 0xFFFF;
}
#define KERNEL_JOB_SCALES_FULL(w, k, block, scale, idw, any_unskinned)         \
    avx512_job_scales_full(w, k, block, scale, idw, any_unskinned)
/* Those pair sums add pairwise, as the AVX2 kernel's horizontal adds do:
 * short blocks and the careful path sum so too (vertex_sum), and the other
 * blocks divide eight sums at a time, as AVX2 does. With the blend's two
 * FMA chains and the sign flip above, this kernel gives the AVX2 kernel's
 * floats. */
#define KERNEL_JOB_SUMS_TREE 1
#define KERNEL_SCALE_LANES 8

/* Stream chunks are 8 vertices: this kernel takes the AVX2 one's
 * (kernel_avx2_transform_chunks). */
#define KERNEL_NO_CHUNKS
#define KERNEL_FUSED_BLEND
#include "skin/lbs/kernel_soa.h"

/* Positions alone, each vertex by one matrix (its one joint's), packed on
 * both sides: four vertices per register, one per 128-bit lane, whose
 * matrix columns are loaded straight into the lanes and whose coordinates
 * are spread across their lane (x x x x, y y y y, z z z z). The
 * structure-of-arrays steps transpose every vertex's matrix first, which
 * costs more shuffles than the transform itself where no normal shares
 * them. The columns are summed in the steps' order, fused, lane for lane,
 * so the floats are theirs. */

/* The columns c (0: x, 4: y, 8: z, 12: translation) of vertices i..i+3's
 * matrices (kernel_mat_at), one per 128-bit lane. Each pointer is found
 * where it is used: gathered into an array first, the compiler computes
 * them in vector registers and takes each out with a shuffle. */
KERNEL_INLINE __m512 lane_columns(const kernel_mats mats, const int how, int i,
                                  int c)
{
    __m512 r =
        _mm512_castps128_ps512(_mm_loadu_ps(kernel_mat_at(mats, how, i) + c));
    r = _mm512_insertf32x4(r, _mm_loadu_ps(kernel_mat_at(mats, how, i + 1) + c),
                           1);
    r = _mm512_insertf32x4(r, _mm_loadu_ps(kernel_mat_at(mats, how, i + 2) + c),
                           2);
    return _mm512_insertf32x4(
        r, _mm_loadu_ps(kernel_mat_at(mats, how, i + 3) + c), 3);
}

/* Vertices i..i+3's positions, given each one's x, y and z spread across
 * its lane: the steps' c0 x + (c1 y + (c2 z + c3)). */
KERNEL_INLINE __m512 lane_transform(const kernel_mats mats, const int how,
                                    int i, __m512 x, __m512 y, __m512 z)
{
    __m512 r = _mm512_fmadd_ps(lane_columns(mats, how, i, 8), z,
                               lane_columns(mats, how, i, 12));
    r = _mm512_fmadd_ps(lane_columns(mats, how, i, 4), y, r);
    return _mm512_fmadd_ps(lane_columns(mats, how, i, 0), x, r);
}

/* Vertex l's coordinate c spread across lane l, from 12 packed floats
 * starting at entry `at` of the pair (a, b) (entries 0-15 of a, 16-31 of
 * b). */
KERNEL_INLINE __m512 spread(__m512 a, __m512 b, int at, int c)
{
    const __m512i lane =
        _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 6, 6, 6, 6, 9, 9, 9, 9);
    return _mm512_permutex2var_ps(
        a, _mm512_add_epi32(lane, _mm512_set1_epi32(at + c)), b);
}

/* Sixteen packed positions, vertices i..i+15's: three full loads, each
 * group of four spread from the two registers that hold it, and the four
 * results packed back into three full stores. */
KERNEL_INLINE void positions16(const kernel_mats mats, const int how, int i,
                               const float *in, float *out)
{
    const __m512 p0 = _mm512_loadu_ps(in), p1 = _mm512_loadu_ps(in + 16),
                 p2 = _mm512_loadu_ps(in + 32);
    __m512 r[4];
    KERNEL_UNROLL
    for (int g = 0; g < 4; ++g) {
        /* Group g's 12 floats start at entry 12 g: in (p0, p1) for the
         * first two groups, in (p1, p2), from entry 16, for the others. */
        const __m512 a = g < 2 ? p0 : p1, b = g < 2 ? p1 : p2;
        const int at = g < 2 ? 12 * g : 12 * g - 16;
        r[g] = lane_transform(mats, how, i + 4 * g, spread(a, b, at, 0),
                              spread(a, b, at, 1), spread(a, b, at, 2));
    }
    /* x y z of each lane, in order, across the four results. */
    const __m512i o0 = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14,
                                         16, 17, 18, 20),
                  o1 = _mm512_setr_epi32(5, 6, 8, 9, 10, 12, 13, 14, 16, 17, 18,
                                         20, 21, 22, 24, 25),
                  o2 = _mm512_setr_epi32(10, 12, 13, 14, 16, 17, 18, 20, 21, 22,
                                         24, 25, 26, 28, 29, 30);
    _mm512_storeu_ps(out, _mm512_permutex2var_ps(r[0], o0, r[1]));
    _mm512_storeu_ps(out + 16, _mm512_permutex2var_ps(r[1], o1, r[2]));
    _mm512_storeu_ps(out + 32, _mm512_permutex2var_ps(r[2], o2, r[3]));
}

/* n (1..4) packed positions, vertices i..i+n-1's (the matrices of the
 * next 4 - n are read, not used), reading and writing only their own floats
 * (masked). */
KERNEL_INLINE void positions_tail(const kernel_mats mats, const int how, int i,
                                  const float *in, float *out, size_t n)
{
    const __mmask16 mask = (__mmask16)((1u << (3 * n)) - 1u);
    const __m512 p = _mm512_maskz_loadu_ps(mask, in);
    const __m512 r = lane_transform(mats, how, i, spread(p, p, 0, 0),
                                    spread(p, p, 0, 1), spread(p, p, 0, 2));
    const __m512i packed = _mm512_setr_epi32(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13,
                                             14, 15, 15, 15, 15);
    _mm512_mask_storeu_ps(out, mask, _mm512_permutexvar_ps(packed, r));
}

/* n packed positions (at most KERNEL_BLOCK) from in to out (which may be
 * in), vertex i by kernel_mat_at(mats, how, i), which must be readable up to a
 * multiple of 4 (transform_pointed's repeated last pointer, a whole
 * block's joints). */
KERNEL_INLINE void NAME(positions_by_matrix)(const float *in, float *out,
                                             size_t n, const kernel_mats mats,
                                             const int how)
{
    int i = 0;
    for (; i + 16 <= (int)n; i += 16)
        positions16(mats, how, i, in + 3 * i, out + 3 * i);
    for (; i < (int)n; i += 4)
        positions_tail(mats, how, i, in + 3 * i, out + 3 * i,
                       n - (size_t)i < 4 ? n - (size_t)i : 4);
}

#include "skin/lbs/kernel_positions_dispatch.h"
/* A whole block of joints runs in steps of sixteen, with no masked tail. */
_Static_assert(KERNEL_BLOCK % 16 == 0, "whole blocks of sixteen");

VS_TARGET_END

/* The kernel's table with one chunk function or the other. */
#define AVX512_OPS(chunks)                                                     \
    {                                                                          \
        16, avx512_blend, avx512_transform, avx512_transform_pointed_any,      \
            avx512_transform_joints_any, avx512_blend_stream,                  \
            avx512_blend_job, chunks, avx512_skin_job                          \
    }

const kernel_ops *kernel_ops_avx512(void)
{
    static const kernel_ops ops = AVX512_OPS(kernel_avx2_transform_chunks);
    static const kernel_ops ops_wide =
        AVX512_OPS(kernel_avx2_wide_transform_chunks);
    return cpu_avx512() ? &ops_wide : &ops;
}
#undef AVX512_OPS

#else

const kernel_ops *kernel_ops_avx512(void)
{
    return 0;
}

#endif
