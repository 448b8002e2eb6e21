/* SPDX-License-Identifier: MIT */
/* The 4-lane kernels' transform of positions alone by one matrix each
 * (kernel_sse2.c and kernel_portable.c, which include it after
 * kernel_soa.h, NAME defined): where each vertex takes one matrix as it is
 * (one influence with normalised weights: transform_joints,
 * transform_pointed) and the job skins positions alone, packed on both
 * sides with cached stores. Vertex by vertex, as ozz-animation does: each
 * matrix's columns loaded as they are, each coordinate spread across a
 * register, where the structure-of-arrays steps transpose every four
 * matrices first (more shuffles than the transform itself when no normal
 * shares them). The columns are summed in the steps' order
 * (c0 x + (c1 y + (c2 z + c3)), unfused), component for component, so the
 * floats are the steps' (docs/design/skinning.md). The includer defines:
 *   V4                         a GCC/Clang vector of 4 floats (__m128 is one)
 *   V4_LOADU(p)                the 4 floats at p, which need only be
 *                              float-aligned
 *   V4_SHUFFLE(a, b, i0, i1, i2, i3)  lanes i0, i1 of a (0-3) and i2, i3 of
 *                              b (4-7): the one form SSE2's shufps has
 * Other jobs take the steps (kernel_positions_dispatch.h). */
#ifndef VS_SKIN_LBS_KERNEL_POSITIONS_VEC4_H
#define VS_SKIN_LBS_KERNEL_POSITIONS_VEC4_H

/* Lane l of v in every lane. */
#define NAME_SPREAD(v, l) V4_SHUFFLE(v, v, l, l, (l) + 4, (l) + 4)

/* The position whose coordinates are spread across x, y and z by the
 * matrix m. Returns x y z and an unused fourth float. */
KERNEL_INLINE V4 NAME(position_by)(const float *m, V4 x, V4 y, V4 z)
{
    V4 r = V4_LOADU(m + 8) * z + V4_LOADU(m + 12);
    r = V4_LOADU(m + 4) * y + r;
    return V4_LOADU(m) * x + r;
}

/* n packed positions from in to out (which may be in), vertex i by
 * kernel_mat_at(mats, how, i), read for i < n only. Four vertices per step:
 * three loads of their 12 floats, the four results packed back into three
 * stores; a last one to three vertices one by one, by their own floats. */
KERNEL_INLINE void NAME(positions_by_matrix)(const float *in, float *out,
                                             size_t n, const kernel_mats mats,
                                             const int how)
{
    int i = 0;
    for (; i + 4 <= (int)n; i += 4) {
        const float *p = in + 3 * i;
        /* x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3, all loaded first: in
         * place, the stores overwrite them. */
        const V4 p0 = V4_LOADU(p), p1 = V4_LOADU(p + 4), p2 = V4_LOADU(p + 8);
        const V4 r0 = NAME(position_by)(kernel_mat_at(mats, how, i),
                                        NAME_SPREAD(p0, 0), NAME_SPREAD(p0, 1),
                                        NAME_SPREAD(p0, 2)),
                 r1 = NAME(position_by)(kernel_mat_at(mats, how, i + 1),
                                        NAME_SPREAD(p0, 3), NAME_SPREAD(p1, 0),
                                        NAME_SPREAD(p1, 1)),
                 r2 = NAME(position_by)(kernel_mat_at(mats, how, i + 2),
                                        NAME_SPREAD(p1, 2), NAME_SPREAD(p1, 3),
                                        NAME_SPREAD(p2, 0)),
                 r3 = NAME(position_by)(kernel_mat_at(mats, how, i + 3),
                                        NAME_SPREAD(p2, 1), NAME_SPREAD(p2, 2),
                                        NAME_SPREAD(p2, 3));
        const V4 z0x1 = V4_SHUFFLE(r0, r1, 2, 2, 4, 4),
                 z2x3 = V4_SHUFFLE(r2, r3, 2, 2, 4, 4);
        const V4 packed[3] = {V4_SHUFFLE(r0, z0x1, 0, 1, 4, 6),
                              V4_SHUFFLE(r1, r2, 1, 2, 4, 5),
                              V4_SHUFFLE(z2x3, r3, 0, 2, 5, 6)};
        memcpy(out + 3 * i, packed, sizeof packed);
    }
    for (; i < (int)n; ++i) {
        float buf[4] = {0};
        memcpy(buf, in + 3 * i, 3 * sizeof(float));
        const V4 p = V4_LOADU(buf);
        const V4 r =
            NAME(position_by)(kernel_mat_at(mats, how, i), NAME_SPREAD(p, 0),
                              NAME_SPREAD(p, 1), NAME_SPREAD(p, 2));
        memcpy(out + 3 * i, &r, 3 * sizeof(float));
    }
}

#undef NAME_SPREAD

#include "skin/lbs/kernel_positions_dispatch.h"

#endif
