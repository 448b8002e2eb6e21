#include "anim/rotation_batch.h"

#include <math.h>
#include <stdbool.h>

#include "anim/sample.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

float rotation_poly_weight(float t, float x)
{
    const float xm1 = x - 1.0f, t2 = t * t;
    float r = 1.0f;
    for (int i = 7; i >= 0; --i)
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
/* GCC's vector operators (SSE2 instructions). */
typedef float v4f __attribute__((vector_size(16)));

/* The weight at t (per lane) of pairs whose cosines are xm1 + 1, as
 * rotation_poly_weight. Unrolled, so that nothing goes through the stack
 * (GCC -O2 would keep a loop). */
static inline __attribute__((always_inline)) v4f weight4(v4f t, v4f xm1)
{
    const v4f one = {1.0f, 1.0f, 1.0f, 1.0f}, t2 = t * t;
    v4f r = one;
#if defined(__GNUC__) && !defined(__clang__) /* clang unrolls it anyway */
#pragma GCC unroll 8
#endif
    for (int i = 7; i >= 0; --i)
        r = one + (poly_u[i] * t2 - poly_v[i]) * xm1 * r;
    return t * r;
}

/* A lane without an item: the identity twice, which stays on the fast
 * path and whose result is not stored. */
static const rotation_pair identity_pair = {
    {0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, 1.0f};

/* Items it[0..n), n <= 4. */
static void run4(const rotation_item *it, uint32_t n)
{
    const rotation_pair *p0 = it[0].pair;
    const rotation_pair *p1 = n > 1 ? it[1].pair : &identity_pair;
    const rotation_pair *p2 = n > 2 ? it[2].pair : &identity_pair;
    const rotation_pair *p3 = n > 3 ? it[3].pair : &identity_pair;
    const __m128 x = _mm_setr_ps(p0->x, p1->x, p2->x, p3->x);
    /* Wide angles, zero-length or non-finite keys (x was set to
     * ROTATION_PAIR_SCALAR): every lane of the group takes the scalar path
     * (rare in real clips). */
    if (_mm_movemask_ps(_mm_cmpge_ps(x, _mm_set1_ps(ROTATION_POLY_MIN_COS))) !=
        0xF)
        goto scalar;
    /* Lane l = item l; after the transposes aN/bN hold component N of the
     * four a keys / b keys. */
    __m128 a0 = _mm_loadu_ps(p0->a), b0 = _mm_loadu_ps(p0->b);
    __m128 a1 = _mm_loadu_ps(p1->a), b1 = _mm_loadu_ps(p1->b);
    __m128 a2 = _mm_loadu_ps(p2->a), b2 = _mm_loadu_ps(p2->b);
    __m128 a3 = _mm_loadu_ps(p3->a), b3 = _mm_loadu_ps(p3->b);
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
    _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
    const __m128 u =
        _mm_setr_ps(it[0].u, n > 1 ? it[1].u : 0.5f, n > 2 ? it[2].u : 0.5f,
                    n > 3 ? it[3].u : 0.5f);
    const __m128 one = _mm_set1_ps(1.0f);
    const v4f xm1 = (v4f)_mm_sub_ps(x, one);
    const __m128 w0 = (__m128)weight4((v4f)_mm_sub_ps(one, u), xm1);
    const __m128 w1 = (__m128)weight4((v4f)u, xm1);
    __m128 q0 = _mm_add_ps(_mm_mul_ps(w0, a0), _mm_mul_ps(w1, b0));
    __m128 q1 = _mm_add_ps(_mm_mul_ps(w0, a1), _mm_mul_ps(w1, b1));
    __m128 q2 = _mm_add_ps(_mm_mul_ps(w0, a2), _mm_mul_ps(w1, b2));
    __m128 q3 = _mm_add_ps(_mm_mul_ps(w0, a3), _mm_mul_ps(w1, b3));
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
    _mm_storeu_ps(it[0].out, q0);
    if (n > 1) _mm_storeu_ps(it[1].out, q1);
    if (n > 2) _mm_storeu_ps(it[2].out, q2);
    if (n > 3) _mm_storeu_ps(it[3].out, q3);
    return;
scalar:
    for (uint32_t l = 0; l < n; ++l)
        anim_slerp(it[l].keys, it[l].keys + 4, it[l].u, it[l].out);
}

void rotation_batch_run(const rotation_item *items, uint32_t count)
{
    for (uint32_t i = 0; i < count; i += 4)
        run4(items + i, count - i < 4 ? count - i : 4);
}
#else
void rotation_batch_run(const rotation_item *items, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
        anim_slerp(items[i].keys, items[i].keys + 4, items[i].u, items[i].out);
}
#endif
