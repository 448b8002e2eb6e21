/* SPDX-License-Identifier: MIT */
/* The SSE2 kernel (x86-64 baseline): 4 vertices per step. Each vertex's
 * matrix is blended as four 128-bit columns, four vertices are transposed
 * into structure-of-arrays and transformed together. */
#include "base/target.h"
#include "skin/lbs/kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <string.h>

VS_TARGET_BEGIN("sse2")

#include "skin/lbs/kernel_x86_io.h"

#define W 4
#define V __m128
#define NAME(x) sse2_##x
#define VADD(a, b) _mm_add_ps(a, b)
#define VSUB(a, b) _mm_sub_ps(a, b)
#define VMUL(a, b) _mm_mul_ps(a, b)
#define VFMA(a, b, c) _mm_add_ps(_mm_mul_ps(a, b), c)
#define VINV_SQRT(a) _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(a))
#define VKEEP_IF_UNIT(x, len2)                                                 \
    _mm_and_ps(x, _mm_and_ps(_mm_cmpge_ps(len2, _mm_set1_ps(FLT_MIN)),         \
                             _mm_cmple_ps(len2, _mm_set1_ps(FLT_MAX))))

#define VNEG_IF_NEG(x, det)                                                    \
    _mm_xor_ps(x, _mm_and_ps(_mm_cmplt_ps(det, _mm_setzero_ps()),              \
                             _mm_set1_ps(-0.0f)))

KERNEL_INLINE void load_mat(kernel_mats mats, const int how, __m128 m[12])
{
    KERNEL_UNROLL
    for (int c = 0; c < 4; ++c) {
        __m128 a = _mm_loadu_ps(kernel_mat_at(mats, how, 0) + c * 4);
        __m128 b = _mm_loadu_ps(kernel_mat_at(mats, how, 1) + c * 4);
        __m128 d = _mm_loadu_ps(kernel_mat_at(mats, how, 2) + c * 4);
        __m128 e = _mm_loadu_ps(kernel_mat_at(mats, how, 3) + c * 4);
        _MM_TRANSPOSE4_PS(a, b, d, e);
        m[c * 3 + 0] = a;
        m[c * 3 + 1] = b;
        m[c * 3 + 2] = d;
    }
}

KERNEL_INLINE void load3(const kernel_attr *a, const size_t *vi, size_t n,
                         __m128 *x, __m128 *y, __m128 *z)
{
    x86_gather4(a, vi, n, x, y, z);
}

KERNEL_INLINE void store3(const kernel_attr *a, const size_t *vi, size_t n,
                          __m128 x, __m128 y, __m128 z)
{
    x86_scatter4(a, vi, n, x, y, z);
}

static inline __attribute__((always_inline)) void
sse2_blend_vertex(const float *const *jm, const float *w, float scale,
                  float idw, float *out, const int mode, const unsigned k)
{
    __m128 c0 = _mm_setzero_ps(), c1 = c0, c2 = c0, c3 = c0;
    if (mode == BLEND_ACCUMULATE) {
        c0 = _mm_load_ps(out);
        c1 = _mm_load_ps(out + 4);
        c2 = _mm_load_ps(out + 8);
        c3 = _mm_load_ps(out + 12);
    } else if (mode == BLEND_SET) {
        c0 = _mm_set_ss(idw);
        c1 = _mm_shuffle_ps(c0, c0, _MM_SHUFFLE(1, 1, 0, 1));
        c2 = _mm_shuffle_ps(c0, c0, _MM_SHUFFLE(1, 0, 1, 1));
    }
    KERNEL_UNROLL
    for (unsigned j = 0; j < k; ++j) {
        const __m128 wj = _mm_set1_ps(w[j]);
        const float *p = jm[j];
        c0 = _mm_add_ps(c0, _mm_mul_ps(wj, _mm_loadu_ps(p)));
        c1 = _mm_add_ps(c1, _mm_mul_ps(wj, _mm_loadu_ps(p + 4)));
        c2 = _mm_add_ps(c2, _mm_mul_ps(wj, _mm_loadu_ps(p + 8)));
        c3 = _mm_add_ps(c3, _mm_mul_ps(wj, _mm_loadu_ps(p + 12)));
    }
    if (mode == BLEND_SCALED || mode == BLEND_SCALED_IDENTITY) {
        const __m128 s = _mm_set1_ps(scale);
        c0 = _mm_mul_ps(c0, s);
        c1 = _mm_mul_ps(c1, s);
        c2 = _mm_mul_ps(c2, s);
        c3 = _mm_mul_ps(c3, s);
    }
    if (mode == BLEND_SCALED_IDENTITY) {
        const __m128 i = _mm_set_ss(idw);
        c0 = _mm_add_ps(c0, i);
        c1 = _mm_add_ps(c1, _mm_shuffle_ps(i, i, _MM_SHUFFLE(1, 1, 0, 1)));
        c2 = _mm_add_ps(c2, _mm_shuffle_ps(i, i, _MM_SHUFFLE(1, 0, 1, 1)));
    }
    _mm_store_ps(out, c0);
    _mm_store_ps(out + 4, c1);
    _mm_store_ps(out + 8, c2);
    _mm_store_ps(out + 12, c3);
}

/* W weights from element at of a chunk's weights (kernel_soa.h). */
#define VSET1(x) _mm_set1_ps(x)
#define VLOAD1(p) _mm_load1_ps(p)
KERNEL_INLINE __m128 sse2_load_weights(const void *w, size_t at,
                                       const bool unorm16, const bool q)
{
    if (!unorm16) return _mm_loadu_ps((const float *)w + at);
    const __m128 f = _mm_cvtepi32_ps(_mm_unpacklo_epi16(
        _mm_loadl_epi64(
            (const __m128i *)(const void *)((const uint16_t *)w + at)),
        _mm_setzero_si128()));
    return q ? f : _mm_mul_ps(f, _mm_set1_ps(1.0f / 65535.0f));
}

#include "skin/lbs/kernel_soa.h"

#define V4 __m128
#define V4_LOADU(p) _mm_loadu_ps(p)
#define V4_SHUFFLE(a, b, i0, i1, i2, i3)                                       \
    _mm_shuffle_ps(a, b, _MM_SHUFFLE((i3)-4, (i2)-4, i1, i0))
#include "skin/lbs/kernel_positions_vec4.h"

VS_TARGET_END

const kernel_ops *kernel_ops_sse2(void)
{
    static const kernel_ops ops = {4,
                                   sse2_blend,
                                   sse2_transform,
                                   sse2_transform_pointed_any,
                                   sse2_transform_joints_any,
                                   sse2_blend_stream,
                                   sse2_blend_job,
                                   sse2_transform_chunks,
                                   NULL};
    return &ops;
}

#else

const kernel_ops *kernel_ops_sse2(void)
{
    return 0;
}

#endif
