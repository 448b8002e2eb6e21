/* SPDX-License-Identifier: MIT */
/* Scalar DQS reference: clarity and exactness (double) before speed; the
 * SIMD kernel is measured against this one. */
#include "skin/dqs/dqs_reference.h"

#include <math.h>
#include <string.h>

#include "skin/dqs/dual_quat.h"

void dq_joints_init(dq_joints *dj, const vs_skinning_job *job)
{
    dj->given = job->joint_dual_quaternions;
    dj->matrices = job->joint_matrices;
    dj->joint_count = job->joint_count;
    /* Only the flags: the cache fills on first use, so a job touching few
     * joints converts few. */
    if (!dj->given) memset(dj->ready, 0, sizeof dj->ready);
}

const float *dq_joints_get(dq_joints *dj, uint32_t j, float scratch[20])
{
    if (dj->given) return dj->given + (size_t)j * VS_DQ_JOINT_FLOATS;
    const float *m = dj->matrices + (size_t)j * 16;
    if (j >= VS_DQ_JOINT_CACHE) {
        vs_priv_dual_quat_from_matrix(m, scratch);
        return scratch;
    }
    if (!dj->ready[j]) {
        vs_priv_dual_quat_from_matrix(m, dj->cache[j]);
        dj->ready[j] = 1;
    }
    return dj->cache[j];
}

void dqs_blend_vertex(dq_joints *dj, uint32_t influence_count,
                      const unsigned char *joints, const unsigned char *weights,
                      double divisor, vertex_xform *x)
{
    double real[4] = {0}, dual[4] = {0}, s[3][3] = {{0}};
    double pivot[4] = {0};
    int have_pivot = 0;
    for (uint32_t i = 0; i < influence_count; ++i) {
        uint16_t joint;
        float wf;
        memcpy(&joint, joints + i * sizeof joint, sizeof joint);
        memcpy(&wf, weights + i * sizeof wf, sizeof wf);
        /* A zero weight contributes nothing, even from a NaN matrix. */
        if (wf == 0.0f) continue;
        double w = (double)wf / divisor;
        float scratch[20];
        const float *d = dq_joints_get(dj, joint, scratch);
        if (!have_pivot) {
            for (int k = 0; k < 4; ++k)
                pivot[k] = d[k];
            have_pivot = 1;
        }
        double dot = 0.0;
        for (int k = 0; k < 4; ++k)
            dot += pivot[k] * d[k];
        /* q and -q are one rotation: take the one in the pivot's
         * hemisphere so the blend goes the short way round. */
        double sw = dot < 0.0 ? -w : w;
        for (int k = 0; k < 4; ++k) {
            real[k] += sw * d[k];
            dual[k] += sw * d[4 + k];
        }
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                s[c][r] += w * d[8 + c * 4 + r];
    }

    double len = sqrt(real[0] * real[0] + real[1] * real[1] +
                      real[2] * real[2] + real[3] * real[3]);
    double rot[3][3], t[3] = {0, 0, 0};
    if (len == 0.0) {
        /* Raw weights summing to 0: no rotation, no translation. */
        double id[4] = {0, 0, 0, 1};
        dual_quat_rotation(id, rot);
    } else {
        for (int k = 0; k < 4; ++k) {
            real[k] /= len;
            dual[k] /= len;
        }
        dual_quat_rotation(real, rot);
        /* t = 2 * vec(dual * conj(real)) (Kavan et al. 2008, eq. 4). */
        double rx = real[0], ry = real[1], rz = real[2], rw = real[3];
        double dx = dual[0], dy = dual[1], dz = dual[2], dw = dual[3];
        t[0] = 2.0 * (rw * dx - dw * rx + ry * dz - rz * dy);
        t[1] = 2.0 * (rw * dy - dw * ry + rz * dx - rx * dz);
        t[2] = 2.0 * (rw * dz - dw * rz + rx * dy - ry * dx);
    }
    /* A = rot * S, column c = rot * (S column c). */
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            x->col[c][r] =
                rot[0][r] * s[c][0] + rot[1][r] * s[c][1] + rot[2][r] * s[c][2];
    for (int r = 0; r < 3; ++r)
        x->col[3][r] = t[r];
}
