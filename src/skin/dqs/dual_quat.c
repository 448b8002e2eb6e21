/* SPDX-License-Identifier: MIT */
/* Joint matrices to unit dual quaternions plus scale/shear (vskin.h, DQS
 * section). Everything is in double: this feeds the reference. */
#include "skin/dqs/dual_quat.h"

#include <math.h>
#include <string.h>

#include "base/error.h"
#include "vskin/vskin.h"

/* M_rc of a column-major 4x4. */
#define M(m, r, c) ((double)(m)[(c)*4 + (r)])

/* Cyclic Jacobi on a symmetric 4x4: a becomes diagonal (eigenvalues), v
 * holds the eigenvectors as columns. A fixed sweep limit bounds the work
 * even for NaN input, where no off-diagonal element ever looks small. */
static void jacobi4(double a[4][4], double v[4][4])
{
    memset(v, 0, 16 * sizeof(double));
    for (int i = 0; i < 4; ++i)
        v[i][i] = 1.0;
    for (int sweep = 0; sweep < 32; ++sweep) {
        double off = 0.0, diag = 0.0;
        for (int p = 0; p < 4; ++p) {
            diag += a[p][p] * a[p][p];
            for (int q = p + 1; q < 4; ++q)
                off += a[p][q] * a[p][q];
        }
        if (!(off > 1e-32 * diag)) break;
        for (int p = 0; p < 3; ++p)
            for (int q = p + 1; q < 4; ++q) {
                if (a[p][q] == 0.0) continue;
                /* Rotation angle that zeroes a[p][q] (Numerical Recipes
                 * §11.1: the smaller root of t^2 + 2 theta t - 1 = 0). */
                double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                double t = (theta >= 0.0 ? 1.0 : -1.0) /
                           (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 4; ++k) {
                    double kp = a[k][p], kq = a[k][q];
                    a[k][p] = c * kp - s * kq;
                    a[k][q] = s * kp + c * kq;
                }
                for (int k = 0; k < 4; ++k) {
                    double pk = a[p][k], qk = a[q][k];
                    a[p][k] = c * pk - s * qk;
                    a[q][k] = s * pk + c * qk;
                }
                for (int k = 0; k < 4; ++k) {
                    double kp = v[k][p], kq = v[k][q];
                    v[k][p] = c * kp - s * kq;
                    v[k][q] = s * kp + c * kq;
                }
            }
    }
}

/* The unit quaternion (xyzw) of the rotation R maximising trace(R^T M):
 * Bar-Itzhack (2000), the dominant eigenvector of a symmetric 4x4 built from
 * M. For det M > 0 that R is the polar factor of M; it exists for any M,
 * singular ones included. sign = -1 uses -M instead. */
static void nearest_rotation(const float m[16], double sign, double q[4])
{
    double k[4][4], v[4][4];
    double m00 = sign * M(m, 0, 0), m01 = sign * M(m, 0, 1),
           m02 = sign * M(m, 0, 2), m10 = sign * M(m, 1, 0),
           m11 = sign * M(m, 1, 1), m12 = sign * M(m, 1, 2),
           m20 = sign * M(m, 2, 0), m21 = sign * M(m, 2, 1),
           m22 = sign * M(m, 2, 2);
    k[0][0] = m00 - m11 - m22;
    k[1][1] = m11 - m00 - m22;
    k[2][2] = m22 - m00 - m11;
    k[3][3] = m00 + m11 + m22;
    k[0][1] = k[1][0] = m10 + m01;
    k[0][2] = k[2][0] = m20 + m02;
    k[1][2] = k[2][1] = m21 + m12;
    k[0][3] = k[3][0] = m21 - m12;
    k[1][3] = k[3][1] = m02 - m20;
    k[2][3] = k[3][2] = m10 - m01;
    jacobi4(k, v);
    /* Ties go to the later index, so w (index 3) wins them: a zero M,
     * or one scaled to zero on two axes, gets the identity rather than an
     * arbitrary half turn, and blends like the linear path. */
    int best = 0;
    for (int i = 1; i < 4; ++i)
        if (k[i][i] >= k[best][best]) best = i;
    double len = 0.0;
    for (int i = 0; i < 4; ++i)
        len += v[i][best] * v[i][best];
    len = sqrt(len);
    /* q and -q are one rotation; w >= 0 makes the choice reproducible. */
    double s = v[3][best] < 0.0 ? -1.0 / len : 1.0 / len;
    for (int i = 0; i < 4; ++i)
        q[i] = v[i][best] * s;
}

/* The quaternion of a rotation matrix (Shepperd 1978: divide by the
 * largest of 4w^2, 4x^2, 4y^2, 4z^2, so no division by a small number),
 * normalised, w >= 0. Only for matrices that passed is_rotation. */
static void rotation_quaternion(const float m[16], double q[4])
{
    double m00 = M(m, 0, 0), m11 = M(m, 1, 1), m22 = M(m, 2, 2);
    double trace = m00 + m11 + m22;
    if (trace > 0.0) {
        double s = 2.0 * sqrt(trace + 1.0);
        q[3] = 0.25 * s;
        q[0] = (M(m, 2, 1) - M(m, 1, 2)) / s;
        q[1] = (M(m, 0, 2) - M(m, 2, 0)) / s;
        q[2] = (M(m, 1, 0) - M(m, 0, 1)) / s;
    } else if (m00 > m11 && m00 > m22) {
        double s = 2.0 * sqrt(1.0 + m00 - m11 - m22);
        q[3] = (M(m, 2, 1) - M(m, 1, 2)) / s;
        q[0] = 0.25 * s;
        q[1] = (M(m, 0, 1) + M(m, 1, 0)) / s;
        q[2] = (M(m, 0, 2) + M(m, 2, 0)) / s;
    } else if (m11 > m22) {
        double s = 2.0 * sqrt(1.0 + m11 - m00 - m22);
        q[3] = (M(m, 0, 2) - M(m, 2, 0)) / s;
        q[0] = (M(m, 0, 1) + M(m, 1, 0)) / s;
        q[1] = 0.25 * s;
        q[2] = (M(m, 1, 2) + M(m, 2, 1)) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + m22 - m00 - m11);
        q[3] = (M(m, 1, 0) - M(m, 0, 1)) / s;
        q[0] = (M(m, 0, 2) + M(m, 2, 0)) / s;
        q[1] = (M(m, 1, 2) + M(m, 2, 1)) / s;
        q[2] = 0.25 * s;
    }
    double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double k = q[3] < 0.0 ? -1.0 / len : 1.0 / len;
    for (int i = 0; i < 4; ++i)
        q[i] *= k;
}

void dual_quat_rotation(const double q[4], double col[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    col[0][0] = 1 - 2 * (y * y + z * z);
    col[0][1] = 2 * (x * y + z * w);
    col[0][2] = 2 * (x * z - y * w);
    col[1][0] = 2 * (x * y - z * w);
    col[1][1] = 1 - 2 * (x * x + z * z);
    col[1][2] = 2 * (y * z + x * w);
    col[2][0] = 2 * (x * z + y * w);
    col[2][1] = 2 * (y * z - x * w);
    col[2][2] = 1 - 2 * (x * x + y * y);
}

static double det3(const float m[16])
{
    return M(m, 0, 0) * (M(m, 1, 1) * M(m, 2, 2) - M(m, 2, 1) * M(m, 1, 2)) -
           M(m, 0, 1) * (M(m, 1, 0) * M(m, 2, 2) - M(m, 2, 0) * M(m, 1, 2)) +
           M(m, 0, 2) * (M(m, 1, 0) * M(m, 2, 1) - M(m, 2, 0) * M(m, 1, 1));
}

/* M^T M = I within 1e-5 per element: float joint matrices built from a
 * chain of rotations carry about 1e-7 of rounding per product. */
static int is_rotation(const float m[16], double det)
{
    if (!(det > 0.0)) return 0;
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            double d = 0.0;
            for (int r = 0; r < 3; ++r)
                d += M(m, r, a) * M(m, r, b);
            if (!(fabs(d - (a == b ? 1.0 : 0.0)) <= 1e-5)) return 0;
        }
    return 1;
}

void vs_priv_dual_quat_from_matrix(const float m[16], float out[20])
{
    double det = det3(m);
    double q[4], rot[3][3];
    /* Rigid joints, the common case, skip the eigen solve. */
    int rigid = is_rotation(m, det);
    if (rigid)
        rotation_quaternion(m, q);
    else
        nearest_rotation(m, det < 0.0 ? -1.0 : 1.0, q);
    dual_quat_rotation(q, rot);

    /* dual = 0.5 * (t, 0) * q, the translation applied after rotating. */
    double t[3] = {M(m, 0, 3), M(m, 1, 3), M(m, 2, 3)};
    double d[4] = {
        0.5 * (t[0] * q[3] + t[1] * q[2] - t[2] * q[1]),
        0.5 * (t[1] * q[3] + t[2] * q[0] - t[0] * q[2]),
        0.5 * (t[2] * q[3] + t[0] * q[1] - t[1] * q[0]),
        -0.5 * (t[0] * q[0] + t[1] * q[1] + t[2] * q[2]),
    };
    for (int i = 0; i < 4; ++i) {
        out[i] = (float)q[i];
        out[4 + i] = (float)d[i];
    }
    /* S = R^T M, column c: row r = dot(R column r, M column c). Not
     * symmetrised: R S = M to rounding is what makes a lone joint exact. */
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) {
            double s = 0.0;
            for (int k = 0; k < 3; ++k)
                s += rot[r][k] * M(m, k, c);
            out[8 + c * 4 + r] = rigid ? (r == c ? 1.0f : 0.0f) : (float)s;
        }
        out[8 + c * 4 + 3] = 0.0f;
    }
}

vs_result vs_joint_dual_quaternions(const float *joint_matrices, uint32_t count,
                                    float *out, vs_error *error)
{
    if (!joint_matrices || !out)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_joint_dual_quaternions: joint_matrices and out "
                         "must not be NULL");
    vs_result r = VS_OK;
    for (uint32_t j = 0; j < count; ++j) {
        const float *m = joint_matrices + (size_t)j * 16;
        vs_priv_dual_quat_from_matrix(m, out + (size_t)j * VS_DQ_JOINT_FLOATS);
        for (int e = 0; e < 16 && r == VS_OK; ++e)
            if (!isfinite(m[e]))
                r = set_error(error, VS_ERROR_INVALID,
                              "vs_joint_dual_quaternions: joint_matrices[%u]: "
                              "element %d is not finite",
                              j, e);
    }
    return r;
}
