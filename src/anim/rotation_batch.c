#include "anim/rotation_batch.h"

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

#if defined(__SSE2__)
static __m128 weight4(__m128 t, __m128 xm1)
{
    const __m128 one = _mm_set1_ps(1.0f), t2 = _mm_mul_ps(t, t);
    __m128 r = one;
    for (int i = 7; i >= 0; --i) {
        __m128 c = _mm_sub_ps(_mm_mul_ps(_mm_set1_ps(poly_u[i]), t2),
                              _mm_set1_ps(poly_v[i]));
        r = _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(c, xm1), r));
    }
    return _mm_mul_ps(t, r);
}

static const float identity[4] = {0, 0, 0, 1};

/* Items it[0..n), n <= 4; missing lanes slerp identity keys. */
static void run4(const rotation_item *it, uint32_t n)
{
    __m128 qa[4], qb[4];
    float uu[4];
    for (uint32_t l = 0; l < 4; ++l) {
        qa[l] = _mm_loadu_ps(l < n ? it[l].a : identity);
        qb[l] = _mm_loadu_ps(l < n ? it[l].b : identity);
        uu[l] = l < n ? it[l].u : 0.5f;
    }
    _MM_TRANSPOSE4_PS(qa[0], qa[1], qa[2], qa[3]); /* qa[c] = component c */
    _MM_TRANSPOSE4_PS(qb[0], qb[1], qb[2], qb[3]);
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    __m128 na = zero, nb = zero, dot = zero;
    for (int c = 0; c < 4; ++c) {
        na = _mm_add_ps(na, _mm_mul_ps(qa[c], qa[c]));
        nb = _mm_add_ps(nb, _mm_mul_ps(qb[c], qb[c]));
        dot = _mm_add_ps(dot, _mm_mul_ps(qa[c], qb[c]));
    }
    /* Wide angles, zero-length or non-finite keys: every lane of the group
     * takes the scalar path (rare in real clips). */
    const __m128 ok_norms =
        _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(na, zero), _mm_cmpgt_ps(nb, zero)),
                   _mm_and_ps(_mm_cmplt_ps(na, _mm_set1_ps(1e30f)),
                              _mm_cmplt_ps(nb, _mm_set1_ps(1e30f))));
    if (_mm_movemask_ps(ok_norms) != 0xF) goto scalar;
    const __m128 ia = _mm_div_ps(one, _mm_sqrt_ps(na));
    const __m128 ib = _mm_div_ps(one, _mm_sqrt_ps(nb));
    __m128 d = _mm_mul_ps(_mm_mul_ps(dot, ia), ib);
    const __m128 sign_bit = _mm_and_ps(d, _mm_set1_ps(-0.0f));
    d = _mm_xor_ps(d, sign_bit); /* |d|; the sign goes onto b's weight */
    if (_mm_movemask_ps(_mm_cmpge_ps(d, _mm_set1_ps(ROTATION_POLY_MIN_COS))) !=
        0xF)
        goto scalar;
    d = _mm_min_ps(d, one);
    const __m128 u = _mm_loadu_ps(uu);
    const __m128 xm1 = _mm_sub_ps(d, one);
    const __m128 w0 = _mm_mul_ps(weight4(_mm_sub_ps(one, u), xm1), ia);
    const __m128 w1 = _mm_mul_ps(_mm_xor_ps(weight4(u, xm1), sign_bit), ib);
    __m128 q[4], len = zero;
    for (int c = 0; c < 4; ++c) {
        q[c] = _mm_add_ps(_mm_mul_ps(w0, qa[c]), _mm_mul_ps(w1, qb[c]));
        len = _mm_add_ps(len, _mm_mul_ps(q[c], q[c]));
    }
    /* len is about 1: unit keys less than ~91 degrees apart. */
    const __m128 inv = _mm_div_ps(one, _mm_sqrt_ps(len));
    for (int c = 0; c < 4; ++c)
        q[c] = _mm_mul_ps(q[c], inv);
    _MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
    for (uint32_t l = 0; l < n; ++l)
        _mm_storeu_ps(it[l].out, q[l]);
    return;
scalar:
    for (uint32_t l = 0; l < n; ++l)
        anim_slerp(it[l].a, it[l].b, it[l].u, it[l].out);
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
        anim_slerp(items[i].a, items[i].b, items[i].u, items[i].out);
}
#endif
