/* SPDX-License-Identifier: MIT */
/* The prepared skin stream's layout, shared by its builder and its job. */
#ifndef VS_SKIN_SKIN_STREAM_INTERNAL_H
#define VS_SKIN_SKIN_STREAM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "skin/lbs/kernel.h"
#include "vskin/vskin.h"

/* Group k, stream positions [group_start[k], group_start[k + 1]), is read
 * with k influences per vertex. A group of 1..KERNEL_MAX_STAGED
 * influences starts with chunk_count[k] chunks of KERNEL_CHUNK vertices
 * that share their k joints (kernel.h: kernel_chunk_src), whose joints start
 * at element chunk_at[k] of chunk_joints and weights at element
 * chunk_at[k] * KERNEL_CHUNK of chunk_weights; the group's other vertices, from
 * tail_start(k), have their own joints / weights from element
 * group_data[k] of joints / weights, k per vertex. */
struct vs_skin_stream {
    vs_allocator alloc; /* the desc's, which made every array here */
    size_t vertex_count;
    uint32_t joint_count;
    uint32_t max_k;    /* the largest group (influences per chunk or vertex) */
    uint32_t max_kept; /* the most influences a vertex keeps */
    uint32_t groups;   /* entries of the per-group arrays */
    bool u8_joints;         /* else u16 */
    bool unorm16;           /* else float */
    bool raw;               /* VS_SKIN_RAW_WEIGHTS */
    size_t *group_start;    /* groups + 1 entries */
    size_t *group_data;     /* groups entries */
    size_t influence_total; /* in joints / weights (the tails) */
    void *joints;
    void *weights;
    uint32_t *order;
    /* groups entries each. Of group k's chunk_count[k] chunks, the
     * first exact_chunks[k] hold vertices with the very same k joints; the
     * others are union chunks: vertices with fewer joints each (at least
     * 2), k the union of their lists, a lane's weight 0 where its vertex
     * lacks that joint. */
    size_t *chunk_count, *chunk_at, *exact_chunks;
    size_t chunk_influences; /* chunk joints in all; weights: x KERNEL_CHUNK */
    void *chunk_joints;
    void *chunk_weights; /* + KERNEL_CHUNK_PAD elements */
    /* Every chunk weight of the one-influence group is exactly 1 (always,
     * unless raw weights are kept): its chunks take their joint's matrix
     * as it is, which the kernels then need not test chunk by chunk. */
    bool unit_chunks1;
};

/* Bytes per stored joint index and per stored weight. */
static inline size_t skin_stream_joint_size(const struct vs_skin_stream *s)
{
    return s->u8_joints ? 1 : 2;
}

static inline size_t skin_stream_weight_size(const struct vs_skin_stream *s)
{
    return s->unorm16 ? 2 : 4;
}

/* How many union chunks the stream has, in all groups. */
static inline size_t skin_stream_union_chunks(const struct vs_skin_stream *s)
{
    size_t count = 0;
    for (uint32_t k = 0; k <= s->max_k; ++k)
        count += s->chunk_count[k] - s->exact_chunks[k];
    return count;
}

/* The first stream position of group k's union chunks. */
static inline size_t skin_stream_union_start(const struct vs_skin_stream *s,
                                             uint32_t k)
{
    return s->group_start[k] + s->exact_chunks[k] * KERNEL_CHUNK;
}

/* The first stream position of group k's vertices outside its chunks. */
static inline size_t skin_stream_tail_start(const struct vs_skin_stream *s,
                                            uint32_t k)
{
    return s->group_start[k] + s->chunk_count[k] * KERNEL_CHUNK;
}

#endif
