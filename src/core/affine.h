/* Affine-only products of column-major 4x4 matrices whose last row is
 * (0 0 0 1): 36 multiplies instead of 64, no cglm copies, for hot loops
 * (world pass, joint matrices, crowd placement). Exact for affine inputs:
 * the skipped terms are products with the zeros of the last row. */
#ifndef VS_CORE_AFFINE_H
#define VS_CORE_AFFINE_H

#include <stdbool.h>

/* True when m's last row is exactly (0 0 0 1). */
static inline bool affine_is_affine(const float m[16])
{
    return m[3] == 0.0f && m[7] == 0.0f && m[11] == 0.0f && m[15] == 1.0f;
}

/* out = a * b for affine a and b; out may alias a or b. Written as four
 * 4-lane column updates (r_c = a_0 b_0c + a_1 b_1c + a_2 b_2c, plus a_3 for
 * the last column) so the compiler can keep each column in one SIMD
 * register; the last row comes out as exactly (0 0 0 1) for affine a. */
static inline void affine_mul(const float a[16], const float b[16],
                              float out[16])
{
    float r[16];
    for (int c = 0; c < 4; ++c) {
        const float b0 = b[4 * c], b1 = b[4 * c + 1], b2 = b[4 * c + 2];
        for (int i = 0; i < 4; ++i)
            r[4 * c + i] = a[i] * b0 + a[4 + i] * b1 + a[8 + i] * b2;
    }
    for (int i = 0; i < 4; ++i) r[12 + i] += a[12 + i];
    for (int k = 0; k < 16; ++k) out[k] = r[k];
}

#endif
