/* SPDX-License-Identifier: MIT */
/* Rotation key pairs prepared for the slerp batch (rotation_keys.h). */
#include "asset/rotation_keys.h"

#include <math.h>

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

void rotation_block_set(rotation_block *block, uint32_t lane,
                        const rotation_pair *p)
{
    static const rotation_pair identity = {
        {0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, 1.0f};
    if (!p) p = &identity;
    for (int c = 0; c < 4; ++c) {
        block->a[c][lane] = p->a[c];
        block->b[c][lane] = p->b[c];
    }
    block->x[lane] = p->x;
}
