/* SPDX-License-Identifier: MIT */
/* AVX-512 affine products (base/affine_avx512.h). The target has fused
 * multiply-adds; the build's -ffp-contract=off keeps every a * b + c two
 * roundings, as in the SSE2 products. */
#include "base/affine_avx512.h"
#include "base/target.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>

VS_TARGET_BEGIN("avx512f")

#include "base/affine_avx512_columns.h"

void affine_avx512_mul_rows_batch(const float *a, const uint32_t *index,
                                  const float *b_rows, uint32_t count,
                                  float *out)
{
    const __m512i spread = affine_avx512_spread();
    for (uint32_t j = 0; j < count; ++j) {
        const float *r = b_rows + 12 * (size_t)j;
        const __m512 b0 = _mm512_permutexvar_ps(
            spread, _mm512_broadcast_f32x4(_mm_loadu_ps(r)));
        const __m512 b1 = _mm512_permutexvar_ps(
            spread, _mm512_broadcast_f32x4(_mm_loadu_ps(r + 4)));
        const __m512 b2 = _mm512_permutexvar_ps(
            spread, _mm512_broadcast_f32x4(_mm_loadu_ps(r + 8)));
        _mm512_storeu_ps(
            out + 16 * (size_t)j,
            affine_avx512_columns(a + 16 * (size_t)index[j], b0, b1, b2));
    }
}

VS_TARGET_END

#else
void affine_avx512_mul_rows_batch(const float *a, const uint32_t *index,
                                  const float *b_rows, uint32_t count,
                                  float *out)
{
    (void)a, (void)index, (void)b_rows, (void)count, (void)out;
}
#endif
