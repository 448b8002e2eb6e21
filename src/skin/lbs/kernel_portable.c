/* SPDX-License-Identifier: MIT */
/* The portable kernel: plain C on floats, 4 vertices per step, for CPUs
 * without a dedicated kernel. The same SoA template as the SIMD kernels, so
 * every kernel shares one set of formulas. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "skin/lbs/kernel.h"

/* Four lanes held in a plain struct; every operation is a loop over the
 * lanes that the compiler may turn into vector code (SLP), and that stays
 * correct C where it does not. */
#define W 4
typedef struct pv {
    float v[4];
} pv;
#define V pv
#define NAME(x) portable_##x

#define PV_MAP2(name, expr)                                                    \
    KERNEL_INLINE pv name(pv a, pv b)                                          \
    {                                                                          \
        pv r;                                                                  \
        for (int i = 0; i < 4; ++i)                                            \
            r.v[i] = (expr);                                                   \
        return r;                                                              \
    }
PV_MAP2(pv_add, a.v[i] + b.v[i])
PV_MAP2(pv_sub, a.v[i] - b.v[i])
PV_MAP2(pv_mul, a.v[i] * b.v[i])
/* x where FLT_MIN <= len2 <= FLT_MAX, else 0. */
PV_MAP2(pv_keep_if_unit,
        (b.v[i] >= FLT_MIN && b.v[i] <= FLT_MAX) ? a.v[i] : 0.0f)
/* -x where det < 0. */
PV_MAP2(pv_neg_if_neg, b.v[i] < 0.0f ? -a.v[i] : a.v[i])
#undef PV_MAP2

KERNEL_INLINE pv pv_fma(pv a, pv b, pv c)
{
    return pv_add(pv_mul(a, b), c);
}

KERNEL_INLINE pv pv_inv_sqrt(pv a)
{
    pv r;
    for (int i = 0; i < 4; ++i)
        r.v[i] = 1.0f / sqrtf(a.v[i]);
    return r;
}

#define VADD(a, b) pv_add(a, b)
#define VSUB(a, b) pv_sub(a, b)
#define VMUL(a, b) pv_mul(a, b)
#define VFMA(a, b, c) pv_fma(a, b, c)
#define VINV_SQRT(a) pv_inv_sqrt(a)
#define VKEEP_IF_UNIT(x, len2) pv_keep_if_unit(x, len2)
#define VNEG_IF_NEG(x, det) pv_neg_if_neg(x, det)

KERNEL_INLINE void load_mat(kernel_mats mats, const int how, pv m[12])
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
            for (int i = 0; i < 4; ++i)
                m[c * 3 + r].v[i] = kernel_mat_at(mats, how, i)[c * 4 + r];
}

KERNEL_INLINE void load3(const kernel_attr *a, const size_t *vi, size_t n,
                         pv *x, pv *y, pv *z)
{
    (void)n;
    for (int i = 0; i < 4; ++i) {
        float v[3];
        memcpy(v, a->in + vi[i] * a->in_step, sizeof v);
        x->v[i] = v[0];
        y->v[i] = v[1];
        z->v[i] = v[2];
    }
}

KERNEL_INLINE void store3(const kernel_attr *a, const size_t *vi, size_t n,
                          pv x, pv y, pv z)
{
    for (size_t i = 0; i < n && i < 4; ++i) {
        const float v[3] = {x.v[i], y.v[i], z.v[i]};
        memcpy(a->out + vi[i] * a->out_step, v, sizeof v);
    }
}

KERNEL_INLINE void portable_blend_vertex(const float *const *jm, const float *w,
                                         float scale, float idw, float *out,
                                         const int mode, const unsigned k)
{
    /* All 16 entries (the bottom row is ignored later): contiguous loops the
     * compiler vectorises. */
    float acc[16];
    if (mode == BLEND_ACCUMULATE) {
        memcpy(acc, out, sizeof acc);
    } else {
        for (int e = 0; e < 16; ++e)
            acc[e] = 0.0f;
        if (mode == BLEND_SET) acc[0] = acc[5] = acc[10] = idw;
    }
    KERNEL_UNROLL
    for (unsigned j = 0; j < k; ++j) {
        const float *m = jm[j];
        const float wj = w[j];
        for (int e = 0; e < 16; ++e)
            acc[e] += wj * m[e];
    }
    if (mode == BLEND_SCALED || mode == BLEND_SCALED_IDENTITY)
        for (int e = 0; e < 16; ++e)
            acc[e] *= scale;
    if (mode == BLEND_SCALED_IDENTITY) {
        acc[0] += idw;
        acc[5] += idw;
        acc[10] += idw;
    }
    memcpy(out, acc, sizeof acc);
}

/* W weights from element at of a chunk's weights (kernel_soa.h). */
KERNEL_INLINE pv pv_set1(float x)
{
    pv r;
    for (int i = 0; i < 4; ++i)
        r.v[i] = x;
    return r;
}
#define VSET1(x) pv_set1(x)
#define VLOAD1(p) pv_set1(*(p))
KERNEL_INLINE pv portable_load_weights(const void *w, size_t at,
                                       const bool unorm16, const bool q)
{
    pv r;
    for (int i = 0; i < 4; ++i) {
        const float f = unorm16 ? (float)((const uint16_t *)w)[at + i]
                                : ((const float *)w)[at + i];
        r.v[i] = unorm16 && !q ? f * (1.0f / 65535.0f) : f;
    }
    return r;
}

#include "skin/lbs/kernel_soa.h"

const kernel_ops *kernel_ops_portable(void)
{
    static const kernel_ops ops = {4,
                                   portable_blend,
                                   portable_transform,
                                   portable_transform_pointed,
                                   portable_transform_joints,
                                   portable_blend_stream,
                                   portable_blend_job,
                                   portable_transform_chunks,
                                   NULL};
    return &ops;
}
