/* SPDX-License-Identifier: MIT */
/* The scalar dual-quaternion skinning reference (vskin.h, DQS section): per
 * vertex, blend the joints' dual quaternions and scale/shear matrices into
 * one affine transform, which the skinning job then applies with exactly the
 * linear path's point / normal / tangent rules. */
#ifndef VS_SKIN_DQS_DQS_REFERENCE_H
#define VS_SKIN_DQS_DQS_REFERENCE_H

#include <stdint.h>

#include "skin/lbs/vertex_transform.h"
#include "vskin/vskin.h"

/* Where a job's per-joint DQ data comes from: the caller's precomputed
 * array, or conversions made on first use into a stack table (joints below
 * VS_DQ_JOINT_CACHE), or a conversion per influence beyond it. */
typedef struct dq_joints {
    const float *given;    /* job->joint_dual_quaternions */
    const float *matrices; /* job->joint_matrices */
    uint32_t joint_count;
    uint8_t ready[VS_DQ_JOINT_CACHE];
    float cache[VS_DQ_JOINT_CACHE][20];
} dq_joints;

void dq_joints_init(dq_joints *dj, const vs_skinning_job *job);
/* VS_DQ_JOINT_FLOATS floats of joint j (scratch is used when neither the
 * caller's array nor the cache holds it). */
const float *dq_joints_get(dq_joints *dj, uint32_t j, float scratch[20]);

/* The vertex's blended transform. joints / weights point at its
 * influence_count u16 / float entries (any alignment), indices already
 * checked against joint_count; each weight is divided by divisor (the sum,
 * or 1 for raw weights). */
void dqs_blend_vertex(dq_joints *dj, uint32_t influence_count,
                      const unsigned char *joints, const unsigned char *weights,
                      double divisor, vertex_xform *x);

#endif
