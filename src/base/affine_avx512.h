/* SPDX-License-Identifier: MIT */
/* AVX-512 forms of the affine products that the frame runs once per node
 * and joint (base/affine.h): a whole 4x4 column-major matrix in one 512-bit
 * register. Each column of the left factor is broadcast to all four
 * 128-bit lanes by a load, and each row of the right factor spread so that
 * lane group c holds its entry in column c, so the product is three
 * multiplies, two adds and one masked add for the translation. The same
 * products summed in the same order as affine_mul, with no fused
 * multiply-add, so the same floats bit for bit. Compiled with a target
 * attribute; callers ask cpu_avx512_preferred() (base/cpu_avx512.h)
 * first: where it is false, AVX-512 code measured slower or was not
 * measured. */
#ifndef VS_BASE_AFFINE_AVX512_H
#define VS_BASE_AFFINE_AVX512_H

#include <stdint.h>

/* affine_avx2_mul_rows_batch's product (base/affine_avx2.h) in AVX-512:
 * out + 16 j = affine_mul(a + 16 index[j], B_j), B_j affine, given by its
 * rows 0-2 at b_rows + 12 j. out must not overlap a. */
void affine_avx512_mul_rows_batch(const float *a, const uint32_t *index,
                                  const float *b_rows, uint32_t count,
                                  float *out);

#endif
