/* SPDX-License-Identifier: MIT */
/* The world pass of vs_pose_update_world: each node's world matrix from its
 * parent's and its local one, parents first. One body (world_pass_with)
 * for three builds, all with the same floats: the library's baseline
 * (SSE2, world_pass.c); world_pass_avx.c, the same operations in VEX
 * encoding (no fused multiply-add), which broadcasts each local entry
 * straight from memory where SSE2 loads it and shuffles it; and
 * world_pass_avx512.c, each TRS node's product in one 512-bit register. */
#ifndef VS_POSE_WORLD_PASS_H
#define VS_POSE_WORLD_PASS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/affine.h"
#include "base/xform.h"
#include "pose/local_batch.h"
#include "vskin/vskin.h"

typedef struct world_pass_args {
    float *worlds;          /* 16 floats per node */
    const float *batch;     /* local_batch_run's matrices */
    const bool *use_matrix; /* per node: its rest matrix, not its TRS */
    const vs_node *nodes;
    const uint32_t *order; /* parents before children */
    uint32_t node_count;
} world_pass_args;

/* A TRS node's world matrix from its parent's (NULL for a root) and its
 * local matrix in the batch: local_batch_world, or a wider form of it with
 * the same floats. */
typedef void world_pass_trs_fn(const float *parent, const float *soa,
                               uint32_t i, float world[16]);

/* node_order lists parents before children, so one pass suffices. The
 * affine-only product needs only the local (right) factor affine, the
 * parent's world may be anything: TRS locals always take it, a projective
 * node.matrix (COLLADA may hold one) the general product. The arguments are
 * copied into locals: the SSE stores may alias anything for all the
 * compiler knows, which made it load them again for every node. trs_world
 * is a constant at every call, so it is inlined. */
static inline __attribute__((always_inline)) void
world_pass_with(const world_pass_args *args, world_pass_trs_fn *trs_world)
{
    float *const worlds = args->worlds;
    const float *const batch = args->batch;
    const bool *const use_matrix = args->use_matrix;
    const vs_node *const nodes = args->nodes;
    const uint32_t *const order = args->order;
    const uint32_t node_count = args->node_count;
    for (uint32_t k = 0; k < node_count; ++k) {
        uint32_t i = order[k];
        float *world = worlds + 16 * (size_t)i;
        const int32_t parent = nodes[i].parent;
        const float *pw = parent >= 0 ? worlds + 16 * (size_t)parent : NULL;
        if (!use_matrix[i]) {
            trs_world(pw, batch, i, world);
            continue;
        }
        xform_copy(nodes[i].matrix, world);
        if (!pw) continue;
        if (affine_is_affine(world))
            affine_mul(pw, world, world);
        else
            xform_mul(pw, world, world);
    }
}

/* The world pass of the library's baseline (SSE2, or plain C). */
void world_pass_baseline(const world_pass_args *args);

/* The baseline's pass in VEX encoding; only where cpu_avx2()
 * (base/cpu_avx2.h). */
void world_pass_avx(const world_pass_args *args);

/* The pass with each TRS node's product in one 512-bit register
 * (base/affine_avx512.h), its local rows spread from the batch's rows of
 * 16 floats (local_batch_at); the same floats. Only where
 * cpu_avx512_preferred() (base/cpu_avx512.h). */
void world_pass_avx512(const world_pass_args *args);

#endif
