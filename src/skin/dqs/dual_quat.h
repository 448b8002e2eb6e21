/* SPDX-License-Identifier: MIT */
/* Joint matrix -> (unit dual quaternion, scale/shear) conversion shared by
 * the DQS reference, the SIMD kernel and the renderer. Layout: vskin.h,
 * VS_DQ_JOINT_FLOATS. */
#ifndef VS_SKIN_DQS_DUAL_QUAT_H
#define VS_SKIN_DQS_DUAL_QUAT_H

#include "base/private_export.h"

/* One joint: m column-major float[16] -> out[VS_DQ_JOINT_FLOATS]. Never
 * fails; a non-finite m gives NaNs. */
VS_PRIV_EXPORT void vs_priv_dual_quat_from_matrix(const float m[16],
                                                  float out[20]);

/* The 3x3 rotation (column-major, col[c][r]) of a unit quaternion xyzw. */
void dual_quat_rotation(const double q[4], double col[3][3]);

#endif
