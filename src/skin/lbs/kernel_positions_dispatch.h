/* SPDX-License-Identifier: MIT */
/* transform_pointed and transform_joints for a kernel with a path of its
 * own for positions alone by one matrix each (the SSE2 and portable
 * kernels, kernel_positions_vec4.h; the AVX2 kernels,
 * kernel_avx2_positions.h; the AVX-512 one): included after
 * kernel_soa.h and the kernel's NAME(positions_by_matrix)(in, out, n,
 * mats, how), which transforms the n packed positions at in into out
 * (which may be in), vertex i by kernel_mat_at(mats, how, i). Jobs that
 * kernel_positions_by_matrix_ok refuses take the structure-of-arrays
 * steps. */
#ifndef VS_SKIN_LBS_KERNEL_POSITIONS_DISPATCH_H
#define VS_SKIN_LBS_KERNEL_POSITIONS_DISPATCH_H

/* The job's n packed positions from vertex vi[0] on, by the matrices
 * mats and how find. */
static inline __attribute__((always_inline)) void
NAME(positions_from)(const kernel_io *io, const size_t *vi, size_t n,
                     const kernel_mats mats, const int how)
{
    const kernel_attr *a = &io->pos;
    NAME(positions_by_matrix)
    ((const float *)(const void *)(a->in + vi[0] * 12),
     (float *)(void *)(a->out + vi[0] * 12), n, mats, how);
}

static void NAME(transform_pointed_any)(const kernel_io *io, const size_t *vi,
                                        size_t n, const float *const *mp)
{
    if (!kernel_positions_by_matrix_ok(io)) {
        NAME(transform_pointed)(io, vi, n, mp);
        return;
    }
    const kernel_mats mats = {NULL, mp, NULL, NULL, NULL, NULL, NULL};
    NAME(positions_from)(io, vi, n, mats, MATS_POINTED);
}

/* A whole block (KERNEL_BLOCK), each vertex's matrix found from its
 * joint. */
static void NAME(transform_joints_any)(const kernel_io *io, const size_t *vi,
                                       size_t n, const float *palette,
                                       const uint16_t *joints)
{
    if (!kernel_positions_by_matrix_ok(io)) {
        NAME(transform_joints)(io, vi, n, palette, joints);
        return;
    }
    const kernel_mats mats = {NULL, NULL, palette, joints, NULL, NULL, NULL};
    NAME(positions_from)(io, vi, n, mats, MATS_JOINTS);
}

#endif
