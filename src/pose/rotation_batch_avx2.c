/* SPDX-License-Identifier: MIT */
/* The slerp batch with AVX2 (pose/rotation_batch.h): a block's eight lanes
 * in one step, lane for lane the arithmetic of the SSE2 form (no fused
 * multiply-add: "fma" is not enabled), so the same floats. */
#include "base/target.h"
#include "pose/rotation_batch.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>

VS_TARGET_BEGIN("avx2")

#include "base/transpose_avx.h"

static inline __attribute__((always_inline)) __m256
weight8(__m256 t, const __m256 c[8], __m256 xm1, int terms)
{
    __m256 r;
    ROTATION_POLY(__m256, _mm256_add_ps, _mm256_mul_ps, _mm256_set1_ps(1.0f), c,
                  xm1, terms, r);
    return _mm256_mul_ps(t, r);
}

static inline __attribute__((always_inline)) void
block8(const rotation_block *bl, uint32_t n, const __m256 c0[8],
       const __m256 c1[8], __m256 t0, __m256 t1, int terms, vs_trs *local,
       const uint32_t *nodes)
{
    const __m256 xm1 =
        _mm256_sub_ps(_mm256_load_ps(bl->x), _mm256_set1_ps(1.0f));
    const __m256 w0 = weight8(t0, c0, xm1, terms);
    const __m256 w1 = weight8(t1, c1, xm1, terms);
#define LERP(c)                                                                \
    _mm256_add_ps(_mm256_mul_ps(w0, _mm256_load_ps(bl->a[c])),                 \
                  _mm256_mul_ps(w1, _mm256_load_ps(bl->b[c])))
    __m256 q0 = LERP(0), q1 = LERP(1), q2 = LERP(2), q3 = LERP(3);
#undef LERP
    /* The SSE2 form's first-order normalization (rotation_batch.c). */
    const __m256 len2 = _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(q0, q0), _mm256_mul_ps(q1, q1)),
        _mm256_add_ps(_mm256_mul_ps(q2, q2), _mm256_mul_ps(q3, q3)));
    const __m256 inv = _mm256_sub_ps(_mm256_set1_ps(1.5f),
                                     _mm256_mul_ps(_mm256_set1_ps(0.5f), len2));
    q0 = _mm256_mul_ps(q0, inv);
    q1 = _mm256_mul_ps(q1, inv);
    q2 = _mm256_mul_ps(q2, inv);
    q3 = _mm256_mul_ps(q3, inv);
    /* r[l] holds lane l's quaternion in its low half and lane l + 4's in
     * its high half. */
    __m256 r[4] = {q0, q1, q2, q3};
    transpose_avx_halves(r);
    if (n == ROTATION_LANES) {
        for (int l = 0; l < 4; ++l) {
            _mm_storeu_ps(local[nodes[l]].rotation,
                          _mm256_castps256_ps128(r[l]));
            _mm_storeu_ps(local[nodes[l + 4]].rotation,
                          _mm256_extractf128_ps(r[l], 1));
        }
        return;
    }
    for (uint32_t l = 0; l < n; ++l)
        _mm_storeu_ps(local[nodes[l]].rotation,
                      l < 4 ? _mm256_castps256_ps128(r[l])
                            : _mm256_extractf128_ps(r[l - 4], 1));
}

void rotation_batch_group_avx2(const rotation_block *blocks, uint32_t count,
                               float u, vs_trs *local, const uint32_t *nodes)
{
    float k0[8], k1[8];
    rotation_poly_coefficients(1.0f - u, k0);
    rotation_poly_coefficients(u, k1);
    __m256 c0[8], c1[8];
    for (int i = 0; i < 8; ++i) {
        c0[i] = _mm256_set1_ps(k0[i]);
        c1[i] = _mm256_set1_ps(k1[i]);
    }
    const __m256 t0 = _mm256_set1_ps(1.0f - u), t1 = _mm256_set1_ps(u);
    for (uint32_t i = 0; i < count; i += ROTATION_LANES, ++blocks) {
        const uint32_t n =
            count - i < ROTATION_LANES ? count - i : ROTATION_LANES;
        const __m256 x = _mm256_load_ps(blocks->x);
        if (_mm256_movemask_ps(_mm256_cmp_ps(
                x, _mm256_set1_ps(ROTATION_POLY_MIN_COS), _CMP_GE_OQ)) !=
            0xFF) {
            rotation_block_scalar(blocks, n, u, local, nodes + i);
            continue;
        }
        if (_mm256_movemask_ps(_mm256_cmp_ps(
                x, _mm256_set1_ps(ROTATION_SHORT_MIN_COS), _CMP_GE_OQ)) == 0xFF)
            block8(blocks, n, c0, c1, t0, t1, ROTATION_SHORT_TERMS, local,
                   nodes + i);
        else
            block8(blocks, n, c0, c1, t0, t1, 8, local, nodes + i);
    }
}

VS_TARGET_END

#else
void rotation_batch_group_avx2(const rotation_block *blocks, uint32_t count,
                               float u, vs_trs *local, const uint32_t *nodes)
{
    rotation_batch_group_sse2(blocks, count, u, local, nodes);
}
#endif
