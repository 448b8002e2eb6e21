#include "anim/rotation_batch.h"

#include <math.h>
#include <stdbool.h>

#include "anim/sample.h"

/* sin(t theta) / sin(theta) as a polynomial in x = cos(theta): D. Eberly,
 * "A Fast and Accurate Algorithm for Computing SLERP" (2011), n = 8 with the
 * corrected last term: t * (1 + c_0 (1 + c_1 (... (1 + c_7)))) where
 * c_i = (u_i t^2 - v_i)(x - 1). */
#define MU 1.85298109240830f
static const float poly_u[8] = {
    1.0f / (1 * 3),  1.0f / (2 * 5),  1.0f / (3 * 7),  1.0f / (4 * 9),
    1.0f / (5 * 11), 1.0f / (6 * 13), 1.0f / (7 * 15), MU / (8 * 17)};
static const float poly_v[8] = {1.0f / 3,  2.0f / 5,      3.0f / 7,
                                4.0f / 9,  5.0f / 11,     6.0f / 13,
                                7.0f / 15, MU * 8.0f / 17};
#undef MU

float rotation_poly_weight(float t, float x, int terms)
{
    const float xm1 = x - 1.0f, t2 = t * t;
    float r = 1.0f;
    for (int i = terms - 1; i >= 0; --i)
        r = 1.0f + (poly_u[i] * t2 - poly_v[i]) * xm1 * r;
    return t * r;
}

void rotation_pair_prepare(const float *a, const float *b, rotation_pair *out)
{
    float na = 0.0f, nb = 0.0f;
    for (int c = 0; c < 4; ++c) {
        out->a[c] = a[c];
        out->b[c] = b[c];
        na += a[c] * a[c];
        nb += b[c] * b[c];
    }
    out->x = ROTATION_PAIR_SCALAR;
    /* False for NaN too. */
    if (!(na > 0.0f && na < 1e30f && nb > 0.0f && nb < 1e30f)) return;
    const float ia = 1.0f / sqrtf(na), ib = 1.0f / sqrtf(nb);
    float d = 0.0f;
    for (int c = 0; c < 4; ++c) {
        out->a[c] *= ia;
        out->b[c] *= ib;
        d += out->a[c] * out->b[c];
    }
    if (d < 0.0f) {
        for (int c = 0; c < 4; ++c)
            out->b[c] = -out->b[c];
        d = -d;
    }
    if (d >= ROTATION_POLY_MIN_COS) out->x = d < 1.0f ? d : 1.0f;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* A lane without a channel: the identity twice, which stays on the fast
 * path and whose result is not stored. */
static const rotation_pair identity_pair = {
    {0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, 1.0f};

/* The weight polynomial's coefficients at t (rotation_poly_weight's
 * u_i t^2 - v_i), broadcast: the same for every channel of the group. */
static void coefficients(float t, __m128 c[8])
{
    const float t2 = t * t;
    for (int i = 0; i < 8; ++i)
        c[i] = _mm_set1_ps(poly_u[i] * t2 - poly_v[i]);
}

/* rotation_poly_weight of four pairs (cosines xm1 + 1) at t with its
 * first `terms` coefficients c; the same arithmetic lane by lane. */
static inline __attribute__((always_inline)) __m128
weight4(__m128 t, const __m128 c[8], __m128 xm1, int terms)
{
    const __m128 one = _mm_set1_ps(1.0f);
    __m128 r = one;
    for (int i = terms - 1; i >= 0; --i)
        r = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(c[i], xm1), r));
    return _mm_mul_ps(t, r);
}

void rotation_batch_group(const rotation_pair *pairs, uint32_t count, float u,
                          vs_trs *local, const uint32_t *nodes)
{
    __m128 c0[8], c1[8];
    coefficients(1.0f - u, c0);
    coefficients(u, c1);
    const __m128 t0 = _mm_set1_ps(1.0f - u), t1 = _mm_set1_ps(u);
    const __m128 one = _mm_set1_ps(1.0f);
    for (uint32_t i = 0; i < count; i += 4) {
        const uint32_t n = count - i < 4 ? count - i : 4;
        const rotation_pair *p[4];
        for (uint32_t l = 0; l < 4; ++l)
            p[l] = l < n ? &pairs[i + l] : &identity_pair;
        const __m128 x = _mm_setr_ps(p[0]->x, p[1]->x, p[2]->x, p[3]->x);
        /* Wide angles, zero-length or non-finite keys (x is
         * ROTATION_PAIR_SCALAR): the four take the scalar path (rare in
         * real clips). */
        if (_mm_movemask_ps(
                _mm_cmpge_ps(x, _mm_set1_ps(ROTATION_POLY_MIN_COS))) != 0xF) {
            for (uint32_t l = 0; l < n; ++l)
                anim_slerp(p[l]->a, p[l]->b, u, local[nodes[i + l]].rotation);
            continue;
        }
        const __m128 xm1 = _mm_sub_ps(x, one);
        __m128 w0, w1;
        /* Keys a few degrees apart, as baked clips have them nearly
         * everywhere: the short polynomial, half the dependent chain. */
        if (_mm_movemask_ps(
                _mm_cmpge_ps(x, _mm_set1_ps(ROTATION_SHORT_MIN_COS))) == 0xF) {
            w0 = weight4(t0, c0, xm1, ROTATION_SHORT_TERMS);
            w1 = weight4(t1, c1, xm1, ROTATION_SHORT_TERMS);
        } else {
            w0 = weight4(t0, c0, xm1, 8);
            w1 = weight4(t1, c1, xm1, 8);
        }
        /* Lane l = channel i + l; after the transposes aN/bN hold
         * component N of the four a keys / b keys. */
        __m128 a0 = _mm_loadu_ps(p[0]->a), b0 = _mm_loadu_ps(p[0]->b);
        __m128 a1 = _mm_loadu_ps(p[1]->a), b1 = _mm_loadu_ps(p[1]->b);
        __m128 a2 = _mm_loadu_ps(p[2]->a), b2 = _mm_loadu_ps(p[2]->b);
        __m128 a3 = _mm_loadu_ps(p[3]->a), b3 = _mm_loadu_ps(p[3]->b);
        _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
        _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
        __m128 q0 = _mm_add_ps(_mm_mul_ps(w0, a0), _mm_mul_ps(w1, b0));
        __m128 q1 = _mm_add_ps(_mm_mul_ps(w0, a1), _mm_mul_ps(w1, b1));
        __m128 q2 = _mm_add_ps(_mm_mul_ps(w0, a2), _mm_mul_ps(w1, b2));
        __m128 q3 = _mm_add_ps(_mm_mul_ps(w0, a3), _mm_mul_ps(w1, b3));
        /* Unit keys less than ~91 degrees apart and weights within ~1e-7
         * of the sine ratios: |q|^2 = 1 + e with |e| of order 1e-7, where
         * 1 / sqrt(1 + e) = 1 - e / 2 + O(e^2) is exact to float precision.
         * A square root and a division here were the longest latency of
         * the batch. */
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
        _mm_storeu_ps(local[nodes[i]].rotation, q0);
        if (n > 1) _mm_storeu_ps(local[nodes[i + 1]].rotation, q1);
        if (n > 2) _mm_storeu_ps(local[nodes[i + 2]].rotation, q2);
        if (n > 3) _mm_storeu_ps(local[nodes[i + 3]].rotation, q3);
    }
}
#else
void rotation_batch_group(const rotation_pair *pairs, uint32_t count, float u,
                          vs_trs *local, const uint32_t *nodes)
{
    for (uint32_t i = 0; i < count; ++i)
        anim_slerp(pairs[i].a, pairs[i].b, u, local[nodes[i]].rotation);
}
#endif
