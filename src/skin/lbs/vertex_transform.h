/* SPDX-License-Identifier: MIT */
/* One vertex's affine transform, shared by the scalar skinning job and the
 * rigid (unskinned) path of posed meshes so both apply exactly the same
 * position / normal / tangent rules. Arithmetic is in double: this is the
 * reference the SIMD kernels are measured against, so it should be the most
 * exact answer, not the fastest. */
#ifndef VS_SKIN_LBS_VERTEX_TRANSFORM_H
#define VS_SKIN_LBS_VERTEX_TRANSFORM_H

#include <math.h>
#include <string.h>

/* The affine part of a column-major 4x4: columns x, y, z and translation.
 * The bottom row is ignored: joint and world matrices are affine, and with
 * raw weights it would only hold the weight sum. */
typedef struct vertex_xform {
    double col[4][3];
} vertex_xform;

static inline void vertex_xform_zero(vertex_xform *x)
{
    memset(x, 0, sizeof *x);
}

/* x += w * m (m column-major float[16]). */
static inline void vertex_xform_add(vertex_xform *x, const float m[16],
                                    double w)
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r)
            x->col[c][r] += w * (double)m[c * 4 + r];
}

static inline void vertex_xform_point(const vertex_xform *x, const float p[3],
                                      double out[3])
{
    for (int r = 0; r < 3; ++r)
        out[r] = x->col[0][r] * p[0] + x->col[1][r] * p[1] +
                 x->col[2][r] * p[2] + x->col[3][r];
}

static inline void vertex_xform_vector(const vertex_xform *x, const float v[3],
                                       double out[3])
{
    for (int r = 0; r < 3; ++r)
        out[r] =
            x->col[0][r] * v[0] + x->col[1][r] * v[1] + x->col[2][r] * v[2];
}

static inline void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* The normal matrix as columns: sign(det A) * cofactor(A), where A is the
 * 3x3 part. cofactor(A) = det(A) * A^-T, so this is A^-T up to a positive
 * factor, which the normalisation removes. Using it instead of the inverse
 * avoids dividing by a tiny determinant, still works for singular A, and the
 * sign keeps normals pointing outwards under mirroring (det < 0). The columns
 * of det(A) * A^-T are y x z, z x x and x x y of A's columns x, y, z. */
typedef struct normal_matrix {
    double col[3][3];
} normal_matrix;

static inline void vertex_xform_normal_matrix(const vertex_xform *x,
                                              normal_matrix *n)
{
    cross3(x->col[1], x->col[2], n->col[0]);
    cross3(x->col[2], x->col[0], n->col[1]);
    cross3(x->col[0], x->col[1], n->col[2]);
    double det = x->col[0][0] * n->col[0][0] + x->col[0][1] * n->col[0][1] +
                 x->col[0][2] * n->col[0][2];
    if (det < 0.0)
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                n->col[c][r] = -n->col[c][r];
}

static inline void normal_matrix_apply(const normal_matrix *n, const float v[3],
                                       double out[3])
{
    for (int r = 0; r < 3; ++r)
        out[r] =
            n->col[0][r] * v[0] + n->col[1][r] * v[1] + n->col[2][r] * v[2];
}

/* Unit-length float copy of v; a zero (or non-finite) length gives zero, so a
 * degenerate normal stays visibly degenerate instead of becoming NaN. */
static inline void normalize_to_float(const double v[3], float out[3])
{
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 0.0) || !isfinite(len)) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    for (int i = 0; i < 3; ++i)
        out[i] = (float)(v[i] / len);
}

#endif
