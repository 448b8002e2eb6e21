/* SPDX-License-Identifier: MIT */
/* The bounds calls as the tests ask them: true when the call succeeded and
 * found a vertex (the box is then in lo / hi). */
#ifndef VS_TESTS_BOUNDS_ANY_H
#define VS_TESTS_BOUNDS_ANY_H

#include <stdbool.h>

#include "vskin/vskin.h"

static inline bool bounds_any(const vs_pose *pose,
                              const vs_pose_mesh_options *options, float lo[3],
                              float hi[3])
{
    bool any = false;
    return vs_pose_bounds(pose, options, lo, hi, &any, NULL) == VS_OK && any;
}

static inline bool fast_bounds_any(const vs_pose *pose,
                                   const vs_pose_mesh_options *options,
                                   float lo[3], float hi[3])
{
    bool any = false;
    return vs_pose_fast_bounds(pose, options, lo, hi, &any, NULL) == VS_OK &&
           any;
}

#endif
