/* SPDX-License-Identifier: MIT */
/* The arithmetic of local_batch_run (pose/local_batch.h) on a vector of
 * nodes, one node per lane: affine_from_trs lane by lane, in its order of
 * operations, so every width gives its floats. One body for the SSE2 form
 * (four lanes, local_batch.c) and the AVX form (eight, local_batch_avx.c);
 * the includer defines, before including it:
 *   LB_VEC             the vector type
 *   LB_ADD, LB_SUB, LB_MUL (a, b)
 *   LB_SET1 (x)        every lane x
 *   LB_TWO_OVER (n)    2 / n where n > 0, else 0 (NaN too)
 *   LB_STORE (r, c, v) entry (r, c) of the lanes' matrices, to the batch
 * and gets local_lanes. */
#ifndef VS_POSE_LOCAL_BATCH_LANES_H
#define VS_POSE_LOCAL_BATCH_LANES_H

/* What a lane past the end of the nodes converts: any valid TRS will do,
 * its lane is never read. */
static const vs_trs local_lanes_padding = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};

/* The scale affine_from_trs gives the rotation x y z w (one vector per
 * component, one lane per node): 2 / |q|^2, or 0 where |q|^2 is not > 0. */
static inline __attribute__((always_inline)) LB_VEC
local_lanes_scale(LB_VEC x, LB_VEC y, LB_VEC z, LB_VEC w)
{
    const LB_VEC n = LB_ADD(
        LB_ADD(LB_ADD(LB_MUL(x, x), LB_MUL(y, y)), LB_MUL(z, z)), LB_MUL(w, w));
    return LB_TWO_OVER(n);
}

/* The lanes' matrices from their rotations (x y z w) and its scale s
 * (local_lanes_scale), their scales (s0 s1 s2) and translations
 * (t0 t1 t2), each a vector of one component of every lane's node. */
static inline __attribute__((always_inline)) void
local_lanes_scaled(LB_VEC x, LB_VEC y, LB_VEC z, LB_VEC w, LB_VEC s, LB_VEC s0,
                   LB_VEC s1, LB_VEC s2, LB_VEC t0, LB_VEC t1, LB_VEC t2,
                   float *out)
{
    const LB_VEC xx = LB_MUL(LB_MUL(x, x), s), yy = LB_MUL(LB_MUL(y, y), s),
                 zz = LB_MUL(LB_MUL(z, z), s);
    const LB_VEC xy = LB_MUL(LB_MUL(x, y), s), xz = LB_MUL(LB_MUL(x, z), s),
                 yz = LB_MUL(LB_MUL(y, z), s);
    const LB_VEC wx = LB_MUL(LB_MUL(w, x), s), wy = LB_MUL(LB_MUL(w, y), s),
                 wz = LB_MUL(LB_MUL(w, z), s);
    const LB_VEC one = LB_SET1(1.0f);
    LB_STORE(0, 0, LB_MUL(LB_SUB(LB_SUB(one, yy), zz), s0));
    LB_STORE(1, 0, LB_MUL(LB_ADD(xy, wz), s0));
    LB_STORE(2, 0, LB_MUL(LB_SUB(xz, wy), s0));
    LB_STORE(0, 1, LB_MUL(LB_SUB(xy, wz), s1));
    LB_STORE(1, 1, LB_MUL(LB_SUB(LB_SUB(one, xx), zz), s1));
    LB_STORE(2, 1, LB_MUL(LB_ADD(yz, wx), s1));
    LB_STORE(0, 2, LB_MUL(LB_ADD(xz, wy), s2));
    LB_STORE(1, 2, LB_MUL(LB_SUB(yz, wx), s2));
    LB_STORE(2, 2, LB_MUL(LB_SUB(LB_SUB(one, xx), yy), s2));
    LB_STORE(0, 3, t0);
    LB_STORE(1, 3, t1);
    LB_STORE(2, 3, t2);
}

/* Both steps at once. */
static inline __attribute__((always_inline)) void
local_lanes(LB_VEC x, LB_VEC y, LB_VEC z, LB_VEC w, LB_VEC s0, LB_VEC s1,
            LB_VEC s2, LB_VEC t0, LB_VEC t1, LB_VEC t2, float *out)
{
    local_lanes_scaled(x, y, z, w, local_lanes_scale(x, y, z, w), s0, s1, s2,
                       t0, t1, t2, out);
}

#endif
