/* SPDX-License-Identifier: MIT */
/* AVX2 affine products (base/affine_avx2.h). Only "avx2" is enabled, not
 * "fma": a compiler that contracts a * b + c (Clang does by default) would
 * change the floats. */
#include "base/affine_avx2.h"
#include "base/target.h"

#include "base/affine.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>

VS_TARGET_BEGIN("avx2")

/* affine_mul(a, B) with B's rows at r (4 floats each: row k is entry k of
 * every column): column c = a_0 B_0c + a_1 B_1c + a_2 B_2c (+ a_3 for
 * c = 3), columns 0-1 in one register and 2-3 in another. */
static inline void mul_rows(const float *a, const float *r, float *out)
{
    const __m256i lo = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m256i hi = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256 a0 = _mm256_broadcast_ps((const __m128 *)a);
    const __m256 a1 = _mm256_broadcast_ps((const __m128 *)(a + 4));
    const __m256 a2 = _mm256_broadcast_ps((const __m128 *)(a + 8));
    const __m256 r0 = _mm256_broadcast_ps((const __m128 *)r);
    const __m256 r1 = _mm256_broadcast_ps((const __m128 *)(r + 4));
    const __m256 r2 = _mm256_broadcast_ps((const __m128 *)(r + 8));
    const __m256 c01 = _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(a0, _mm256_permutevar8x32_ps(r0, lo)),
                      _mm256_mul_ps(a1, _mm256_permutevar8x32_ps(r1, lo))),
        _mm256_mul_ps(a2, _mm256_permutevar8x32_ps(r2, lo)));
    const __m256 c23 = _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(a0, _mm256_permutevar8x32_ps(r0, hi)),
                      _mm256_mul_ps(a1, _mm256_permutevar8x32_ps(r1, hi))),
        _mm256_mul_ps(a2, _mm256_permutevar8x32_ps(r2, hi)));
    _mm256_storeu_ps(out, c01);
    _mm_storeu_ps(out + 8, _mm256_castps256_ps128(c23));
    _mm_storeu_ps(out + 12, _mm_add_ps(_mm256_extractf128_ps(c23, 1),
                                       _mm_loadu_ps(a + 12)));
}

void affine_avx2_mul_rows_batch(const float *a, const uint32_t *index,
                                const float *b_rows, uint32_t count, float *out)
{
    for (uint32_t j = 0; j < count; ++j)
        mul_rows(a + 16 * (size_t)index[j], b_rows + 12 * (size_t)j,
                 out + 16 * (size_t)j);
}

/* affine_mul_rows(a, B): row r = a_r0 B_0 + a_r1 B_1 + a_r2 B_2 (+ a's
 * translation in the last column, + -0 elsewhere), rows 0-1 in one
 * register, row 2 in a 128-bit one. */
static inline void mul_rows_3x4(const float *a, const float *r, float *out)
{
    const __m256i lo = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m128 a0 = _mm_loadu_ps(a), a1 = _mm_loadu_ps(a + 4),
                 a2 = _mm_loadu_ps(a + 8), a3 = _mm_loadu_ps(a + 12);
    const __m128 b0 = _mm_loadu_ps(r), b1 = _mm_loadu_ps(r + 4),
                 b2 = _mm_loadu_ps(r + 8);
    const __m256 w0 = _mm256_broadcast_ps((const __m128 *)r);
    const __m256 w1 = _mm256_broadcast_ps((const __m128 *)(r + 4));
    const __m256 w2 = _mm256_broadcast_ps((const __m128 *)(r + 8));
    /* Lanes 0-3: a's row 0 entry, lanes 4-7: its row 1 entry. */
#define SPREAD(v) _mm256_permutevar8x32_ps(_mm256_castps128_ps256(v), lo)
    const __m256 t01 = _mm256_blend_ps(_mm256_set1_ps(-0.0f), SPREAD(a3), 0x88);
    const __m256 rows01 = _mm256_add_ps(
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(SPREAD(a0), w0),
                                    _mm256_mul_ps(SPREAD(a1), w1)),
                      _mm256_mul_ps(SPREAD(a2), w2)),
        t01);
#undef SPREAD
#define ROW2(v) _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2))
    const __m128 t2 = _mm_blend_ps(_mm_set1_ps(-0.0f), ROW2(a3), 0x8);
    const __m128 row2 =
        _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(ROW2(a0), b0),
                                         _mm_mul_ps(ROW2(a1), b1)),
                              _mm_mul_ps(ROW2(a2), b2)),
                   t2);
#undef ROW2
    _mm256_storeu_ps(out, rows01);
    _mm_storeu_ps(out + 8, row2);
}

uint32_t affine_avx2_mul_rows_3x4_batch(const float *a, const uint32_t *index,
                                        const float *b_rows, uint32_t count,
                                        float *out)
{
    for (uint32_t j = 0; j < count; ++j) {
        const float *g = a + 16 * (size_t)index[j];
        if (!affine_is_affine(g)) return j;
        mul_rows_3x4(g, b_rows + 12 * (size_t)j, out + 12 * (size_t)j);
    }
    return count;
}

VS_TARGET_END

#else
void affine_avx2_mul_rows_batch(const float *a, const uint32_t *index,
                                const float *b_rows, uint32_t count, float *out)
{
    (void)a, (void)index, (void)b_rows, (void)count, (void)out;
}

uint32_t affine_avx2_mul_rows_3x4_batch(const float *a, const uint32_t *index,
                                        const float *b_rows, uint32_t count,
                                        float *out)
{
    (void)a, (void)index, (void)b_rows, (void)count, (void)out;
    return 0;
}
#endif
