/* SPDX-License-Identifier: MIT */
/* What the library's own per-frame code reads from a pose without the
 * public API's per-call checks. */
#ifndef VS_POSE_POSE_INTERNAL_H
#define VS_POSE_POSE_INTERNAL_H

#include <stdbool.h>

#include "vskin/vskin.h"

/* The world matrices of every node (16 floats each, by node index), as
 * the last vs_pose_update_world left them. */
const float *pose_worlds(const vs_pose *pose);

#endif
