/* SPDX-License-Identifier: MIT */
/* Random skinned meshes for the kernel tests: joint matrices that rotate,
 * scale (non-uniformly, sometimes mirrored) and translate, influences with
 * zero weights and wholly unweighted vertices, and attribute buffers laid out
 * packed or interleaved at odd, unaligned byte offsets. */
#ifndef VS_TESTS_RANDOM_MESH_H
#define VS_TESTS_RANDOM_MESH_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static inline uint32_t rng_u32(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static inline float rng_float(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_u32() & 0xFFFFFF) / (float)0xFFFFFF;
}

/* When set, every joint matrix mirrors x (det < 0). All joints of a mesh
 * mirror or none does: a vertex blending mirrored with unmirrored bones has a
 * near-singular matrix whose normal no float kernel can match to 1e-5. */
static int random_mirror;

/* Column-major affine: rotation * non-uniform scale, + translation. The
 * rotation is within about 80 degrees of the identity, as neighbouring bones
 * of one vertex are in real skins, so blends stay well conditioned. */
static inline void random_joint_matrix(float m[16])
{
    float q[4], len = 0.0f;
    for (int i = 0; i < 4; ++i) {
        q[i] = i == 3 ? rng_float(2, 3) : rng_float(-1, 1);
        len += q[i] * q[i];
    }
    len = sqrtf(len > 1e-6f ? len : 1.0f);
    float x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
    const float r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z),
                        2 * (x * z - w * y),     2 * (x * y - w * z),
                        1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                        2 * (x * z + w * y),     2 * (y * z - w * x),
                        1 - 2 * (x * x + y * y)};
    float s[3];
    for (int c = 0; c < 3; ++c)
        s[c] = rng_float(0.5f, 2.0f) * (c == 0 && random_mirror ? -1.0f : 1.0f);
    memset(m, 0, 16 * sizeof(float));
    for (int c = 0; c < 3; ++c)
        for (int rr = 0; rr < 3; ++rr)
            m[c * 4 + rr] = r[c * 3 + rr] * s[c];
    for (int rr = 0; rr < 3; ++rr)
        m[12 + rr] = rng_float(-5, 5);
    m[15] = 1.0f;
}

/* Joints and weights, k per vertex, packed. About one weight in five is
 * zero and about one vertex in 29 has no weight at all. */
static inline void random_influences(size_t count, uint32_t k,
                                     uint32_t joint_count, uint16_t *joints,
                                     float *weights)
{
    for (size_t v = 0; v < count; ++v) {
        const int unweighted = rng_u32() % 29 == 0;
        for (uint32_t i = 0; i < k; ++i) {
            joints[v * k + i] = (uint16_t)(rng_u32() % joint_count);
            weights[v * k + i] =
                unweighted || rng_u32() % 5 == 0 ? 0.0f : rng_float(0.01f, 1);
        }
    }
}

/* Writes n floats at p (any alignment). */
static inline void put_floats(unsigned char *p, const float *v, size_t n)
{
    memcpy(p, v, n * sizeof(float));
}

static inline float get_float(const unsigned char *p)
{
    float f;
    memcpy(&f, p, sizeof f);
    return f;
}

/* |a - b| <= 1e-5 * max(1, |b|): the kernels' promise against the
 * reference. */
static inline int close_to_reference(float a, float b)
{
    double scale = fabs((double)b) > 1.0 ? fabs((double)b) : 1.0;
    return fabs((double)a - (double)b) <= 1e-5 * scale;
}

#endif
