/* SPDX-License-Identifier: MIT */
/* The portable kernel: C on GCC/Clang vectors of 4 floats, 4 vertices per
 * step, for CPUs without a dedicated kernel (NEON on ARM, scalar code where
 * there are no vectors). The same SoA template as the SIMD kernels, so every
 * kernel shares one set of formulas; the SSE2 kernel's operations in its
 * order, so the same floats as it. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "skin/lbs/kernel.h"

/* Four lanes as a GCC/Clang vector: every operation is one lane-wise IEEE
 * operation, which the compiler maps to the CPU's 128-bit vectors where it
 * has them (SSE2, NEON) and to scalar code where it does not. A struct of
 * four floats operated on in loops kept its lanes in memory: each vertex's
 * coordinates were stored lane by lane and loaded back as one wider word,
 * which waits for the narrow stores to retire. */
#define W 4
typedef float pv __attribute__((vector_size(16)));
typedef int32_t pvi __attribute__((vector_size(16)));
#define V pv
#define NAME(x) portable_##x

KERNEL_INLINE pv pv_set1(float x)
{
    return (pv){x, x, x, x};
}

/* x where FLT_MIN <= len2 <= FLT_MAX, else 0. */
KERNEL_INLINE pv pv_keep_if_unit(pv x, pv len2)
{
    const pvi keep = (len2 >= FLT_MIN) & (len2 <= FLT_MAX);
    return (pv)((pvi)x & keep);
}

/* -x where det < 0: its sign bit flipped, as negation does. */
KERNEL_INLINE pv pv_neg_if_neg(pv x, pv det)
{
    const pvi sign = (pvi){INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
    return (pv)((pvi)x ^ ((det < 0.0f) & sign));
}

/* Four square roots, then one vector division: the same two correctly
 * rounded operations per lane as 1 / sqrtf, the roots gathered into a
 * vector rather than stored lane by lane. */
KERNEL_INLINE pv pv_inv_sqrt(pv a)
{
    return pv_set1(1.0f) /
           (pv){sqrtf(a[0]), sqrtf(a[1]), sqrtf(a[2]), sqrtf(a[3])};
}

#define VADD(a, b) ((a) + (b))
#define VSUB(a, b) ((a) - (b))
#define VMUL(a, b) ((a) * (b))
#define VFMA(a, b, c) ((a) * (b) + (c))
#define VINV_SQRT(a) pv_inv_sqrt(a)
#define VKEEP_IF_UNIT(x, len2) pv_keep_if_unit(x, len2)
#define VNEG_IF_NEG(x, det) pv_neg_if_neg(x, det)

/* A 16-byte vector from p, which need only be float-aligned. */
KERNEL_INLINE pv pv_loadu(const float *p)
{
    pv v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Lanes i0..i3 of a and b side by side (0-3: a's, 4-7: b's): one shuffle
 * where the compiler has __builtin_shufflevector (Clang, GCC 12 on), else
 * built lane by lane. */
#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define PV_SHUFFLE(a, b, i0, i1, i2, i3)                                       \
    __builtin_shufflevector(a, b, i0, i1, i2, i3)
#endif
#endif
#ifndef PV_SHUFFLE
KERNEL_INLINE pv pv_pick(pv a, pv b, int i0, int i1, int i2, int i3)
{
    const int at[4] = {i0, i1, i2, i3};
    pv r;
    for (int i = 0; i < 4; ++i)
        r[i] = at[i] < 4 ? a[at[i]] : b[at[i] - 4];
    return r;
}
#define PV_SHUFFLE(a, b, i0, i1, i2, i3) pv_pick(a, b, i0, i1, i2, i3)
#endif

/* Each column of the four matrices loaded whole and transposed (the bottom
 * row dropped): vector shuffles where building each row from four scalar
 * loads cost four times the loads. */
KERNEL_INLINE void load_mat(kernel_mats mats, const int how, pv m[12])
{
    const float *p0 = kernel_mat_at(mats, how, 0),
                *p1 = kernel_mat_at(mats, how, 1),
                *p2 = kernel_mat_at(mats, how, 2),
                *p3 = kernel_mat_at(mats, how, 3);
    KERNEL_UNROLL
    for (int c = 0; c < 4; ++c) {
        const pv a = pv_loadu(p0 + 4 * c), b = pv_loadu(p1 + 4 * c),
                 d = pv_loadu(p2 + 4 * c), e = pv_loadu(p3 + 4 * c);
        const pv ab01 = PV_SHUFFLE(a, b, 0, 4, 1, 5),
                 ab23 = PV_SHUFFLE(a, b, 2, 6, 3, 7),
                 de01 = PV_SHUFFLE(d, e, 0, 4, 1, 5),
                 de23 = PV_SHUFFLE(d, e, 2, 6, 3, 7);
        m[c * 3 + 0] = PV_SHUFFLE(ab01, de01, 0, 1, 4, 5);
        m[c * 3 + 1] = PV_SHUFFLE(ab01, de01, 2, 3, 6, 7);
        m[c * 3 + 2] = PV_SHUFFLE(ab23, de23, 0, 1, 4, 5);
    }
}

/* Component c of the vector at p (attributes need only be float-aligned
 * for the caller; a float copied is one scalar load). */
KERNEL_INLINE float pv_component(const unsigned char *p, int c)
{
    float f;
    memcpy(&f, p + 4 * c, sizeof f);
    return f;
}

KERNEL_INLINE void load3(const kernel_attr *a, const size_t *vi, size_t n,
                         pv *x, pv *y, pv *z)
{
    if (a->in_packed && n >= 4) {
        /* Four consecutive vertices, three loads:
         * x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 */
        const float *p = (const float *)(const void *)(a->in + vi[0] * 12);
        const pv u = pv_loadu(p), v = pv_loadu(p + 4), w = pv_loadu(p + 8);
        *x = PV_SHUFFLE(PV_SHUFFLE(u, v, 0, 3, 6, 7), w, 0, 1, 2, 5);
        *y = PV_SHUFFLE(PV_SHUFFLE(u, v, 1, 4, 7, 0), w, 0, 1, 2, 6);
        *z = PV_SHUFFLE(PV_SHUFFLE(u, v, 2, 5, 0, 0), w, 0, 1, 4, 7);
        return;
    }
    const unsigned char *p[4];
    for (int i = 0; i < 4; ++i)
        p[i] = a->in + vi[i] * a->in_step;
    *x = (pv){pv_component(p[0], 0), pv_component(p[1], 0),
              pv_component(p[2], 0), pv_component(p[3], 0)};
    *y = (pv){pv_component(p[0], 1), pv_component(p[1], 1),
              pv_component(p[2], 1), pv_component(p[3], 1)};
    *z = (pv){pv_component(p[0], 2), pv_component(p[1], 2),
              pv_component(p[2], 2), pv_component(p[3], 2)};
}

KERNEL_INLINE void store3(const kernel_attr *a, const size_t *vi, size_t n,
                          pv x, pv y, pv z)
{
    if (a->out_packed && n >= 4) {
        /* Four consecutive vertices, three stores (load3's layout). */
        const pv xy = PV_SHUFFLE(x, y, 0, 4, 1, 5),
                 yz = PV_SHUFFLE(y, z, 1, 5, 2, 6),
                 zx = PV_SHUFFLE(z, x, 2, 7, 3, 3);
        const pv r[3] = {PV_SHUFFLE(xy, z, 0, 1, 4, 2),
                         PV_SHUFFLE(yz, x, 0, 1, 6, 2),
                         PV_SHUFFLE(zx, y, 0, 1, 7, 2)};
        memcpy(a->out + vi[0] * 12, r, sizeof r);
        return;
    }
    for (size_t i = 0; i < n && i < 4; ++i) {
        unsigned char *p = a->out + vi[i] * a->out_step;
        const float fx = x[i], fy = y[i], fz = z[i];
        memcpy(p, &fx, sizeof fx);
        memcpy(p + 4, &fy, sizeof fy);
        memcpy(p + 8, &fz, sizeof fz);
    }
}

KERNEL_INLINE void portable_blend_vertex(const float *const *jm, const float *w,
                                         float scale, float idw, float *out,
                                         const int mode, const unsigned k)
{
    /* The four columns in vectors (the bottom row is ignored later), the
     * loops over them unrolled so that they stay in registers. */
    pv c[4] = {{0}, {0}, {0}, {0}};
    if (mode == BLEND_ACCUMULATE) {
        KERNEL_UNROLL
        for (int i = 0; i < 4; ++i)
            c[i] = pv_loadu(out + 4 * i);
    } else if (mode == BLEND_SET) {
        c[0][0] = c[1][1] = c[2][2] = idw;
    }
    KERNEL_UNROLL
    for (unsigned j = 0; j < k; ++j) {
        const pv wj = pv_set1(w[j]);
        KERNEL_UNROLL
        for (int i = 0; i < 4; ++i)
            c[i] += wj * pv_loadu(jm[j] + 4 * i);
    }
    if (mode == BLEND_SCALED || mode == BLEND_SCALED_IDENTITY) {
        KERNEL_UNROLL
        for (int i = 0; i < 4; ++i)
            c[i] *= pv_set1(scale);
    }
    if (mode == BLEND_SCALED_IDENTITY) {
        /* The diagonal alone: adding a zero elsewhere would turn a -0 into
         * +0. */
        c[0][0] += idw;
        c[1][1] += idw;
        c[2][2] += idw;
    }
    memcpy(out, c, sizeof c);
}

/* W weights from element at of a chunk's weights (kernel_soa.h). */
#define VSET1(x) pv_set1(x)
#define VLOAD1(p) pv_set1(*(p))
KERNEL_INLINE pv portable_load_weights(const void *w, size_t at,
                                       const bool unorm16, const bool q)
{
    pv r;
    for (int i = 0; i < 4; ++i) {
        const float f = unorm16 ? (float)((const uint16_t *)w)[at + i]
                                : ((const float *)w)[at + i];
        r[i] = unorm16 && !q ? f * (1.0f / 65535.0f) : f;
    }
    return r;
}

#include "skin/lbs/kernel_soa.h"

#define V4 pv
#define V4_LOADU(p) pv_loadu(p)
#define V4_SHUFFLE(a, b, i0, i1, i2, i3) PV_SHUFFLE(a, b, i0, i1, i2, i3)
#include "skin/lbs/kernel_positions_vec4.h"

const kernel_ops *kernel_ops_portable(void)
{
    static const kernel_ops ops = {4,
                                   portable_blend,
                                   portable_transform,
                                   portable_transform_pointed_any,
                                   portable_transform_joints_any,
                                   portable_blend_stream,
                                   portable_blend_job,
                                   portable_transform_chunks,
                                   NULL};
    return &ops;
}
