/* The portable kernel: plain C on floats, one vertex per step, for CPUs
 * without a dedicated kernel. The same SoA template as the SIMD kernels with
 * one lane, so every kernel shares one set of formulas. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "skin/kernel.h"

#define W 1
#define V float
#define NAME(x) portable_##x
#define VSET1(a) (a)
#define VADD(a, b) ((a) + (b))
#define VSUB(a, b) ((a) - (b))
#define VMUL(a, b) ((a) * (b))
#define VFMA(a, b, c) ((a) * (b) + (c))
#define VRSQRT(a) (1.0f / sqrtf(a))
#define VKEEP_IF_UNIT(x, len2)                                                 \
    (((len2) >= FLT_MIN && (len2) <= FLT_MAX) ? (x) : 0.0f)
#define VNEG_IF_NEG(x, det) ((det) < 0.0f ? -(x) : (x))

KERNEL_INLINE void load_mat(const float *mat, float m[12])
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
            m[c * 3 + r] = mat[c * 4 + r];
}

KERNEL_INLINE void load3(const kernel_attr *a, const size_t *vi, size_t n, float *x,
                         float *y, float *z)
{
    (void)n;
    float v[3];
    memcpy(v, a->in + vi[0] * a->in_step, sizeof v);
    *x = v[0];
    *y = v[1];
    *z = v[2];
}

KERNEL_INLINE void store3(const kernel_attr *a, const size_t *vi, size_t n,
                          float x, float y, float z)
{
    (void)n;
    const float v[3] = {x, y, z};
    memcpy(a->out + vi[0] * a->out_step, v, sizeof v);
}

static inline __attribute__((always_inline)) void
portable_blend_vertex(const float *const *jm, const float *w, float idw,
                      float *out, int accumulate, const unsigned k)
{
    float acc[12];
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
            acc[c * 3 + r] = accumulate ? out[c * 4 + r]
                                        : (c == r ? idw : 0.0f);
    for (unsigned j = 0; j < k; ++j)
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 3; ++r)
                acc[c * 3 + r] += w[j] * jm[j][c * 4 + r];
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
            out[c * 4 + r] = acc[c * 3 + r];
}

#include "skin/kernel_soa.h"

const kernel_ops *kernel_ops_portable(void)
{
    static const kernel_ops ops = {1, portable_blend, portable_transform};
    return &ops;
}
