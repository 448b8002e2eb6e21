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
/* Both weights of four pairs, w0 at 1 - u and w1 at u, the two Horner
 * chains interleaved. Spelled out step by step: GCC -O2 neither unrolls
 * the loop nor keeps its vectors out of the stack. */
static inline __attribute__((always_inline)) void
weights4(__m128 u, __m128 xm1, __m128 *w0, __m128 *w1)
{
    const __m128 one = _mm_set1_ps(1.0f), t0 = _mm_sub_ps(one, u);
    const __m128 s0 = _mm_mul_ps(t0, t0), s1 = _mm_mul_ps(u, u);
    __m128 r0 = one, r1 = one;
#define WEIGHT_STEP(i)                                                         \
    do {                                                                       \
        const __m128 pu = _mm_set1_ps(poly_u[i]), pv = _mm_set1_ps(poly_v[i]); \
        r0 = _mm_add_ps(                                                       \
            one,                                                               \
            _mm_mul_ps(_mm_mul_ps(_mm_sub_ps(_mm_mul_ps(pu, s0), pv), xm1),    \
                       r0));                                                   \
        r1 = _mm_add_ps(                                                       \
            one,                                                               \
            _mm_mul_ps(_mm_mul_ps(_mm_sub_ps(_mm_mul_ps(pu, s1), pv), xm1),    \
                       r1));                                                   \
    } while (0)
    WEIGHT_STEP(7);
    WEIGHT_STEP(6);
    WEIGHT_STEP(5);
    WEIGHT_STEP(4);
    WEIGHT_STEP(3);
    WEIGHT_STEP(2);
    WEIGHT_STEP(1);
    WEIGHT_STEP(0);
#undef WEIGHT_STEP
    *w0 = _mm_mul_ps(t0, r0);
    *w1 = _mm_mul_ps(u, r1);
}

static const float identity[4] = {0, 0, 0, 1};

static inline __m128 dot4(__m128 x0, __m128 x1, __m128 x2, __m128 x3, __m128 y0,
                          __m128 y1, __m128 y2, __m128 y3)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(x0, y0), _mm_mul_ps(x1, y1)),
                      _mm_add_ps(_mm_mul_ps(x2, y2), _mm_mul_ps(x3, y3)));
}

/* Items it[0..n), n <= 4; missing lanes slerp identity keys. */
static void run4(const rotation_item *it, uint32_t n)
{
    /* Lane l = item l; after the transposes xN/yN hold component N of the
     * four a keys / b keys. */
    __m128 x0 = _mm_loadu_ps(it[0].a), y0 = _mm_loadu_ps(it[0].b);
    __m128 x1 = _mm_loadu_ps(n > 1 ? it[1].a : identity);
    __m128 y1 = _mm_loadu_ps(n > 1 ? it[1].b : identity);
    __m128 x2 = _mm_loadu_ps(n > 2 ? it[2].a : identity);
    __m128 y2 = _mm_loadu_ps(n > 2 ? it[2].b : identity);
    __m128 x3 = _mm_loadu_ps(n > 3 ? it[3].a : identity);
    __m128 y3 = _mm_loadu_ps(n > 3 ? it[3].b : identity);
    const __m128 u =
        _mm_setr_ps(it[0].u, n > 1 ? it[1].u : 0.5f, n > 2 ? it[2].u : 0.5f,
                    n > 3 ? it[3].u : 0.5f);
    _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
    _MM_TRANSPOSE4_PS(y0, y1, y2, y3);
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128 na = dot4(x0, x1, x2, x3, x0, x1, x2, x3);
    const __m128 nb = dot4(y0, y1, y2, y3, y0, y1, y2, y3);
    const __m128 dot = dot4(x0, x1, x2, x3, y0, y1, y2, y3);
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
    __m128 w0, w1;
    weights4(u, _mm_sub_ps(d, one), &w0, &w1);
    w0 = _mm_mul_ps(w0, ia);
    w1 = _mm_mul_ps(_mm_xor_ps(w1, sign_bit), ib);
    __m128 q0 = _mm_add_ps(_mm_mul_ps(w0, x0), _mm_mul_ps(w1, y0));
    __m128 q1 = _mm_add_ps(_mm_mul_ps(w0, x1), _mm_mul_ps(w1, y1));
    __m128 q2 = _mm_add_ps(_mm_mul_ps(w0, x2), _mm_mul_ps(w1, y2));
    __m128 q3 = _mm_add_ps(_mm_mul_ps(w0, x3), _mm_mul_ps(w1, y3));
    /* The length is about 1: unit keys less than ~91 degrees apart. */
    const __m128 inv =
        _mm_div_ps(one, _mm_sqrt_ps(dot4(q0, q1, q2, q3, q0, q1, q2, q3)));
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
