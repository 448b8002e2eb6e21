/* SPDX-License-Identifier: MIT */
/* LINEAR rotation channels slerped together, eight at a time
 * (rotation_batch.h). */
#include "pose/rotation_batch.h"

#include <math.h>
#include <stdbool.h>

#include "pose/sample.h"
#include "base/cpu_avx2.h"

/* sin(t theta) / sin(theta) as a polynomial in x = cos(theta): D. Eberly,
 * "A Fast and Accurate Algorithm for Computing SLERP" (2011), n = 8 with the
 * corrected last term: t * (1 + d_0 (1 + d_1 (... (1 + d_7)))) where
 * d_i = (u_i t^2 - v_i)(x - 1), summed in ROTATION_POLY's order
 * (rotation_batch.h). */
#define MU 1.85298109240830f
static const float poly_u[8] = {
    1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),  1.0f / (4 * 9),
    1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), MU / (8 * 17)};
static const float poly_v[8] = {1.0f / 3,  2.0f / 5,      3.0f / 7,
                                4.0f / 9,  5.0f / 11,     6.0f / 13,
                                7.0f / 15, MU * 8.0f / 17};
#undef MU

#define SCALAR_ADD(a, b) ((a) + (b))
#define SCALAR_MUL(a, b) ((a) * (b))

float rotation_poly_weight(float t, float x, int terms)
{
    const float xm1 = x - 1.0f;
    float c[8], r;
    rotation_poly_coefficients(t, c);
    ROTATION_POLY(float, SCALAR_ADD, SCALAR_MUL, 1.0f, c, xm1, terms, r);
    return t * r;
}

void rotation_poly_coefficients(float t, float c[8])
{
    const float t2 = t * t;
    for (int i = 0; i < 8; ++i)
        c[i] = poly_u[i] * t2 - poly_v[i];
}

void rotation_block_scalar(const rotation_block *block, uint32_t n, float u,
                           vs_trs *local, const uint32_t *nodes)
{
    for (uint32_t l = 0; l < n; ++l) {
        float a[4], b[4];
        for (int c = 0; c < 4; ++c) {
            a[c] = block->a[c][l];
            b[c] = block->b[c][l];
        }
        anim_slerp(a, b, u, local[nodes[l]].rotation);
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* rotation_poly_weight of four pairs (cosines xm1 + 1) at t with its
 * first `terms` coefficients c; the same arithmetic lane by lane. */
static inline __attribute__((always_inline)) __m128
weight4(__m128 t, const __m128 c[8], __m128 xm1, int terms)
{
    __m128 r;
    ROTATION_POLY(__m128, _mm_add_ps, _mm_mul_ps, _mm_set1_ps(1.0f), c, xm1,
                  terms, r);
    return _mm_mul_ps(t, r);
}

/* Lanes [4h, 4h + 4) of a block with `terms` terms; the first n stored. */
static inline __attribute__((always_inline)) void
half_block(const rotation_block *bl, int h, uint32_t n, const __m128 c0[8],
           const __m128 c1[8], __m128 t0, __m128 t1, int terms, vs_trs *local,
           const uint32_t *nodes)
{
    const __m128 xm1 =
        _mm_sub_ps(_mm_load_ps(bl->x + 4 * h), _mm_set1_ps(1.0f));
    const __m128 w0 = weight4(t0, c0, xm1, terms);
    const __m128 w1 = weight4(t1, c1, xm1, terms);
#define LERP(c)                                                                \
    _mm_add_ps(_mm_mul_ps(w0, _mm_load_ps(bl->a[c] + 4 * h)),                  \
               _mm_mul_ps(w1, _mm_load_ps(bl->b[c] + 4 * h)))
    __m128 q0 = LERP(0), q1 = LERP(1), q2 = LERP(2), q3 = LERP(3);
#undef LERP
    /* Unit keys less than ~91 degrees apart and weights within ~1e-7 of
     * the sine ratios: |q|^2 = 1 + e with |e| of order 1e-7, where
     * 1 / sqrt(1 + e) = 1 - e / 2 + O(e^2) is exact to float precision. A
     * square root and a division here were the longest latency of the
     * batch. */
    const __m128 len2 =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(q0, q0), _mm_mul_ps(q1, q1)),
                   _mm_add_ps(_mm_mul_ps(q2, q2), _mm_mul_ps(q3, q3)));
    const __m128 inv =
        _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(_mm_set1_ps(0.5f), len2));
    q0 = _mm_mul_ps(q0, inv);
    q1 = _mm_mul_ps(q1, inv);
    q2 = _mm_mul_ps(q2, inv);
    q3 = _mm_mul_ps(q3, inv);
    _MM_TRANSPOSE4_PS(q0, q1, q2, q3);
    nodes += 4 * h;
    if (n >= 4 * (uint32_t)h + 4) {
        _mm_storeu_ps(local[nodes[0]].rotation, q0);
        _mm_storeu_ps(local[nodes[1]].rotation, q1);
        _mm_storeu_ps(local[nodes[2]].rotation, q2);
        _mm_storeu_ps(local[nodes[3]].rotation, q3);
        return;
    }
    const uint32_t left = n - 4 * (uint32_t)h;
    _mm_storeu_ps(local[nodes[0]].rotation, q0);
    if (left > 1) _mm_storeu_ps(local[nodes[1]].rotation, q1);
    if (left > 2) _mm_storeu_ps(local[nodes[2]].rotation, q2);
}

void rotation_batch_group_sse2(const rotation_block *blocks, uint32_t count,
                               float u, vs_trs *local, const uint32_t *nodes)
{
    float k0[8], k1[8];
    rotation_poly_coefficients(1.0f - u, k0);
    rotation_poly_coefficients(u, k1);
    __m128 c0[8], c1[8];
    for (int i = 0; i < 8; ++i) {
        c0[i] = _mm_set1_ps(k0[i]);
        c1[i] = _mm_set1_ps(k1[i]);
    }
    const __m128 t0 = _mm_set1_ps(1.0f - u), t1 = _mm_set1_ps(u);
    for (uint32_t i = 0; i < count; i += ROTATION_LANES, ++blocks) {
        const uint32_t n =
            count - i < ROTATION_LANES ? count - i : ROTATION_LANES;
        const __m128 x0 = _mm_load_ps(blocks->x),
                     x1 = _mm_load_ps(blocks->x + 4);
        /* Wide angles, zero-length or non-finite keys (x is
         * ROTATION_PAIR_SCALAR): the block takes the scalar path (rare in
         * real clips). */
        const __m128 poly = _mm_set1_ps(ROTATION_POLY_MIN_COS);
        if ((_mm_movemask_ps(_mm_cmpge_ps(x0, poly)) &
             _mm_movemask_ps(_mm_cmpge_ps(x1, poly))) != 0xF) {
            rotation_block_scalar(blocks, n, u, local, nodes + i);
            continue;
        }
        /* Keys a few degrees apart, as baked clips have them nearly
         * everywhere: the short polynomial, half the dependent chain. */
        const __m128 near = _mm_set1_ps(ROTATION_SHORT_MIN_COS);
        const bool short_terms =
            (_mm_movemask_ps(_mm_cmpge_ps(x0, near)) &
             _mm_movemask_ps(_mm_cmpge_ps(x1, near))) == 0xF;
        /* terms a constant in each call, so the polynomial unrolls. */
        for (int h = 0; h < 2 && n > 4 * (uint32_t)h; ++h) {
            if (short_terms)
                half_block(blocks, h, n, c0, c1, t0, t1, ROTATION_SHORT_TERMS,
                           local, nodes + i);
            else
                half_block(blocks, h, n, c0, c1, t0, t1, 8, local, nodes + i);
        }
    }
}
#else
void rotation_batch_group_sse2(const rotation_block *blocks, uint32_t count,
                               float u, vs_trs *local, const uint32_t *nodes)
{
    for (uint32_t i = 0; i < count; i += ROTATION_LANES, ++blocks)
        rotation_block_scalar(
            blocks, count - i < ROTATION_LANES ? count - i : ROTATION_LANES, u,
            local, nodes + i);
}
#endif

void rotation_batch_group(const rotation_block *blocks, uint32_t count, float u,
                          vs_trs *local, const uint32_t *nodes)
{
    if (cpu_avx2())
        rotation_batch_group_avx2(blocks, count, u, local, nodes);
    else
        rotation_batch_group_sse2(blocks, count, u, local, nodes);
}
