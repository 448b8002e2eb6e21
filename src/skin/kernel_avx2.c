/* The AVX2 + FMA kernel: 8 vertices per step. A vertex's matrix is blended
 * as two 256-bit halves (columns 0-1 and 2-3, one FMA each per influence);
 * 4x4 transposes inside the 128-bit lanes plus lane permutes turn 8 vertices
 * into structure-of-arrays. Compiled with a target attribute, run only when
 * the CPU reports AVX2 and FMA. */
#include "skin/kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <string.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))),              \
                             apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

#include "skin/kernel_x86_io.h"

#define W 8
#define V __m256
#define NAME(x) avx2_##x
#define VADD(a, b) _mm256_add_ps(a, b)
#define VSUB(a, b) _mm256_sub_ps(a, b)
#define VMUL(a, b) _mm256_mul_ps(a, b)
#define VFMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define VRSQRT(a) avx2_rsqrt(a)
#define VKEEP_IF_UNIT(x, len2)                                                 \
    _mm256_and_ps(                                                             \
        x, _mm256_and_ps(                                                      \
               _mm256_cmp_ps(len2, _mm256_set1_ps(FLT_MIN), _CMP_GE_OQ),       \
               _mm256_cmp_ps(len2, _mm256_set1_ps(FLT_MAX), _CMP_LE_OQ)))

/* The 12-bit estimate and one Newton-Raphson step: about 23 bits. */
KERNEL_INLINE __m256 avx2_rsqrt(__m256 x)
{
    __m256 y = _mm256_rsqrt_ps(x);
    __m256 hx = _mm256_mul_ps(_mm256_set1_ps(0.5f), x);
    return _mm256_mul_ps(
        y, _mm256_fnmadd_ps(hx, _mm256_mul_ps(y, y), _mm256_set1_ps(1.5f)));
}
#define VNEG_IF_NEG(x, det)                                                    \
    _mm256_xor_ps(                                                             \
        x, _mm256_and_ps(_mm256_cmp_ps(det, _mm256_setzero_ps(), _CMP_LT_OQ),  \
                         _mm256_set1_ps(-0.0f)))

/* Transposes 4x4 blocks inside both 128-bit lanes of a..d. */
#define AVX2_TRANSPOSE4_LANES(a, b, c, d)                                      \
    do {                                                                       \
        __m256 t0_ = _mm256_unpacklo_ps(a, b), t1_ = _mm256_unpackhi_ps(a, b); \
        __m256 t2_ = _mm256_unpacklo_ps(c, d), t3_ = _mm256_unpackhi_ps(c, d); \
        a = _mm256_shuffle_ps(t0_, t2_, 0x44);                                 \
        b = _mm256_shuffle_ps(t0_, t2_, 0xEE);                                 \
        c = _mm256_shuffle_ps(t1_, t3_, 0x44);                                 \
        d = _mm256_shuffle_ps(t1_, t3_, 0xEE);                                 \
    } while (0)

/* Columns (half * 2) and (half * 2 + 1) of 8 vertices' matrices. */
KERNEL_INLINE void load_mat_half(const float *mat, int half, __m256 m[12])
{
    __m256 lo[4], hi[4];
    for (int i = 0; i < 4; ++i) {
        lo[i] = _mm256_load_ps(mat + i * 16 + half * 8);
        hi[i] = _mm256_load_ps(mat + (i + 4) * 16 + half * 8);
    }
    AVX2_TRANSPOSE4_LANES(lo[0], lo[1], lo[2], lo[3]);
    AVX2_TRANSPOSE4_LANES(hi[0], hi[1], hi[2], hi[3]);
    /* lo[r] lane 0 = column 2h row r of vertices 0-3, lane 1 = column 2h+1. */
    for (int r = 0; r < 3; ++r) {
        m[(half * 2) * 3 + r] = _mm256_permute2f128_ps(lo[r], hi[r], 0x20);
        m[(half * 2 + 1) * 3 + r] = _mm256_permute2f128_ps(lo[r], hi[r], 0x31);
    }
}

KERNEL_INLINE void load_mat(const float *mat, __m256 m[12])
{
    load_mat_half(mat, 0, m);
    load_mat_half(mat, 1, m);
}

KERNEL_INLINE void load3(const kernel_attr *a, const size_t *vi, size_t n,
                         __m256 *x, __m256 *y, __m256 *z)
{
    __m128 x0, y0, z0, x1, y1, z1;
    x86_gather4(a, vi, n, &x0, &y0, &z0);
    x86_gather4(a, vi + 4, n > 4 ? n - 4 : 0, &x1, &y1, &z1);
    *x = _mm256_set_m128(x1, x0);
    *y = _mm256_set_m128(y1, y0);
    *z = _mm256_set_m128(z1, z0);
}

KERNEL_INLINE void store3(const kernel_attr *a, const size_t *vi, size_t n,
                          __m256 x, __m256 y, __m256 z)
{
    x86_scatter4(a, vi, n, _mm256_castps256_ps128(x), _mm256_castps256_ps128(y),
                 _mm256_castps256_ps128(z));
    if (n > 4)
        x86_scatter4(a, vi + 4, n - 4, _mm256_extractf128_ps(x, 1),
                     _mm256_extractf128_ps(y, 1), _mm256_extractf128_ps(z, 1));
}

static inline __attribute__((always_inline)) void
avx2_blend_vertex(const float *const *jm, const float *w, float idw, float *out,
                  int accumulate, const unsigned k)
{
    __m256 c01, c23;
    if (accumulate) {
        c01 = _mm256_load_ps(out);
        c23 = _mm256_load_ps(out + 8);
    } else {
        const __m256 i = _mm256_set1_ps(idw);
        c01 = _mm256_mul_ps(i, _mm256_setr_ps(1, 0, 0, 0, 0, 1, 0, 0));
        c23 = _mm256_mul_ps(i, _mm256_setr_ps(0, 0, 1, 0, 0, 0, 0, 0));
    }
    KERNEL_UNROLL
    for (unsigned j = 0; j < k; ++j) {
        const __m256 wj = _mm256_set1_ps(w[j]);
        c01 = _mm256_fmadd_ps(wj, _mm256_loadu_ps(jm[j]), c01);
        c23 = _mm256_fmadd_ps(wj, _mm256_loadu_ps(jm[j] + 8), c23);
    }
    _mm256_store_ps(out, c01);
    _mm256_store_ps(out + 8, c23);
}

#include "skin/kernel_soa.h"

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

const kernel_ops *kernel_ops_avx2(void)
{
    static const kernel_ops ops = {8, avx2_blend, avx2_transform,
                                   avx2_blend_stream, avx2_blend_job};
    return &ops;
}

#else

const kernel_ops *kernel_ops_avx2(void)
{
    return 0;
}

#endif
