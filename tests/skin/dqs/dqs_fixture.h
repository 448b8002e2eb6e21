/* SPDX-License-Identifier: MIT */
/* Joint matrices for the DQS tests, built independently of the code under
 * test: rotations from axis-angle, scales, translations, random draws from a
 * fixed-seed generator. */
#ifndef VS_TESTS_DQS_FIXTURE_H
#define VS_TESTS_DQS_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#define FX_PI 3.14159265358979323846

static inline void fx_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

/* Rotation by angle (radians) about the unit axis (Rodrigues), then
 * translation t: column-major [R | t]. */
static inline void fx_rigid(float m[16], const double axis[3], double angle,
                            const double t[3])
{
    double c = cos(angle), s = sin(angle), k = 1.0 - c;
    double x = axis[0], y = axis[1], z = axis[2];
    double r[3][3] = {{c + x * x * k, x * y * k - z * s, x * z * k + y * s},
                      {y * x * k + z * s, c + y * y * k, y * z * k - x * s},
                      {z * x * k - y * s, z * y * k + x * s, c + z * z * k}};
    fx_identity(m);
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col)
            m[col * 4 + row] = (float)r[row][col];
        m[12 + row] = (float)t[row];
    }
}

/* m = m * diag(sx, sy, sz): scale in the joint's own frame. */
static inline void fx_scale_after(float m[16], double sx, double sy, double sz)
{
    double s[3] = {sx, sy, sz};
    for (int col = 0; col < 3; ++col)
        for (int row = 0; row < 3; ++row)
            m[col * 4 + row] = (float)(m[col * 4 + row] * s[col]);
}

/* m = m * shear (x += k * y): a matrix that is no rotation times a
 * diagonal, so S has off-diagonal terms. */
static inline void fx_shear_after(float m[16], double k)
{
    for (int row = 0; row < 3; ++row)
        m[4 + row] = (float)(m[4 + row] + k * m[row]);
}

/* xorshift32 in [0, 1). */
static inline double fx_rand(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (double)(x >> 8) / 16777216.0;
}

static inline double fx_range(uint32_t *state, double lo, double hi)
{
    return lo + (hi - lo) * fx_rand(state);
}

/* A random rigid joint; with `scaled`, a random non-uniform scale (0.3..2)
 * and sometimes a shear or a mirror as well. */
static inline void fx_random_joint(float m[16], uint32_t *state, int scaled)
{
    double axis[3], len = 0.0;
    for (int k = 0; k < 3; ++k) {
        axis[k] = fx_range(state, -1.0, 1.0);
        len += axis[k] * axis[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 3; ++k)
        axis[k] = len > 1e-6 ? axis[k] / len : (k == 2);
    double t[3] = {fx_range(state, -3, 3), fx_range(state, -3, 3),
                   fx_range(state, -3, 3)};
    fx_rigid(m, axis, fx_range(state, -3.14159, 3.14159), t);
    if (!scaled) return;
    fx_scale_after(m, fx_range(state, 0.3, 2.0), fx_range(state, 0.3, 2.0),
                   fx_range(state, 0.3, 2.0));
    double pick = fx_rand(state);
    if (pick < 0.3)
        fx_shear_after(m, fx_range(state, -0.5, 0.5));
    else if (pick < 0.4)
        fx_scale_after(m, -1.0, 1.0, 1.0);
}

#endif
