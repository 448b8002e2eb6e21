/* SPDX-License-Identifier: MIT */
/* Affine-only products of column-major 4x4 matrices whose last row is
 * (0 0 0 1): 36 multiplies instead of 64, no cglm copies, for hot loops
 * (world pass, joint matrices, crowd placement). Exact for affine inputs:
 * the skipped terms are products with the zeros of the last row. */
#ifndef VS_BASE_AFFINE_H
#define VS_BASE_AFFINE_H

#include <stdbool.h>

#include "vskin/vskin.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* True when m's last row is exactly (0 0 0 1). */
static inline bool affine_is_affine(const float m[16])
{
    return m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f;
}

/* out = a * b for affine b (a any: its last row is carried through like
 * the others); out may alias a or b. Written as four 4-lane column updates
 * (r_c = a_0 b_0c + a_1 b_1c + a_2 b_2c, plus a_3 for the last column) so
 * the compiler can keep each column in one SIMD register; the last row
 * comes out as exactly (0 0 0 1) for affine a. */
static inline void affine_mul(const float a[16], const float b[16],
                              float out[16])
{
#if defined(__SSE2__)
    /* The same sums in the same order, four rows per instruction; columns
     * spelled out so they stay in registers (a loop over an array of
     * __m128 goes through the stack at -O2). */
    const __m128 a0 = _mm_loadu_ps(a), a1 = _mm_loadu_ps(a + 4),
                 a2 = _mm_loadu_ps(a + 8), a3 = _mm_loadu_ps(a + 12);
#define AFFINE_COLUMN(c)                                                       \
    _mm_add_ps(_mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(b[4 * (c)])),             \
                          _mm_mul_ps(a1, _mm_set1_ps(b[4 * (c) + 1]))),        \
               _mm_mul_ps(a2, _mm_set1_ps(b[4 * (c) + 2])))
    const __m128 r0 = AFFINE_COLUMN(0), r1 = AFFINE_COLUMN(1),
                 r2 = AFFINE_COLUMN(2), r3 = _mm_add_ps(AFFINE_COLUMN(3), a3);
#undef AFFINE_COLUMN
    _mm_storeu_ps(out, r0);
    _mm_storeu_ps(out + 4, r1);
    _mm_storeu_ps(out + 8, r2);
    _mm_storeu_ps(out + 12, r3);
#else
    float r[16];
    for (int c = 0; c < 4; ++c) {
        const float b0 = b[4 * c], b1 = b[4 * c + 1], b2 = b[4 * c + 2];
        for (int i = 0; i < 4; ++i)
            r[4 * c + i] = a[i] * b0 + a[4 + i] * b1 + a[8 + i] * b2;
    }
    for (int i = 0; i < 4; ++i)
        r[12 + i] += a[12 + i];
    for (int k = 0; k < 16; ++k)
        out[k] = r[k];
#endif
}

/* Rows 0-2 of the column-major m, row-major (12 floats): the layout of a
 * 3x4 joint matrix, and of an IBM for affine_mul_rows. */
static inline void affine_rows(const float m[16], float out[12])
{
#if defined(__SSE2__)
    __m128 c0 = _mm_loadu_ps(m), c1 = _mm_loadu_ps(m + 4),
           c2 = _mm_loadu_ps(m + 8), c3 = _mm_loadu_ps(m + 12);
    _MM_TRANSPOSE4_PS(c0, c1, c2, c3); /* c3, the last row, is dropped */
    _mm_storeu_ps(out, c0);
    _mm_storeu_ps(out + 4, c1);
    _mm_storeu_ps(out + 8, c2);
#else
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            out[4 * r + c] = m[4 * c + r];
#endif
}

/* Rows 0-2 of affine_mul(a, b), row-major (12 floats), for affine b given
 * by its rows 0-2 (affine_rows): the same products summed in the same
 * order as affine_mul, so the same floats as affine_rows of its result,
 * without the transpose. */
static inline void affine_mul_rows(const float a[16], const float b_rows[12],
                                   float out[12])
{
#if defined(__SSE2__)
    const __m128 b0 = _mm_loadu_ps(b_rows), b1 = _mm_loadu_ps(b_rows + 4),
                 b2 = _mm_loadu_ps(b_rows + 8);
    for (int r = 0; r < 3; ++r) {
        /* + a's translation in the last column; + -0 elsewhere, which
         * leaves every float as it is (where + 0 would turn -0 into +0). */
        const __m128 t = _mm_setr_ps(-0.0f, -0.0f, -0.0f, a[12 + r]);
        const __m128 sum =
            _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(a[r]), b0),
                                  _mm_mul_ps(_mm_set1_ps(a[4 + r]), b1)),
                       _mm_mul_ps(_mm_set1_ps(a[8 + r]), b2));
        _mm_storeu_ps(out + 4 * r, _mm_add_ps(sum, t));
    }
#else
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) {
            float v = a[r] * b_rows[c] + a[4 + r] * b_rows[4 + c] +
                      a[8 + r] * b_rows[8 + c];
            out[4 * r + c] = c == 3 ? v + a[12 + r] : v;
        }
#endif
}

/* out = T * R * S (glTF 2.0 §3.5.3), inline for the world pass. Written out
 * rather than through glm_quat_mat4 so that a rotation that is not exactly
 * unit length still gives the normalized rotation. */
static inline void affine_from_trs(const vs_trs *trs, float out[16])
{
    float x = trs->rotation[0], y = trs->rotation[1], z = trs->rotation[2],
          w = trs->rotation[3];
    float n = x * x + y * y + z * z + w * w;
    float s = n > 0.0f ? 2.0f / n : 0.0f;
    float xx = x * x * s, yy = y * y * s, zz = z * z * s;
    float xy = x * y * s, xz = x * z * s, yz = y * z * s;
    float wx = w * x * s, wy = w * y * s, wz = w * z * s;
    const float *sc = trs->scale;
    out[0] = (1.0f - yy - zz) * sc[0];
    out[1] = (xy + wz) * sc[0];
    out[2] = (xz - wy) * sc[0];
    out[3] = 0.0f;
    out[4] = (xy - wz) * sc[1];
    out[5] = (1.0f - xx - zz) * sc[1];
    out[6] = (yz + wx) * sc[1];
    out[7] = 0.0f;
    out[8] = (xz + wy) * sc[2];
    out[9] = (yz - wx) * sc[2];
    out[10] = (1.0f - xx - yy) * sc[2];
    out[11] = 0.0f;
    out[12] = trs->translation[0];
    out[13] = trs->translation[1];
    out[14] = trs->translation[2];
    out[15] = 1.0f;
}

#endif
