/* The prepared skin stream's layout, shared by its builder and its job. */
#ifndef VS_SKIN_SKIN_STREAM_INTERNAL_H
#define VS_SKIN_SKIN_STREAM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* Vertices with k kept influences occupy stream positions
 * [group_start[k], group_start[k + 1]); their joints / weights start at
 * element group_data[k] of joints / weights, k per vertex, largest weight
 * first. */
struct vs_skin_stream {
    size_t vertex_count;
    uint32_t joint_count;
    uint32_t max_k;
    bool u8_joints;      /* else u16 */
    bool unorm16;        /* else float */
    bool raw;            /* VS_SKIN_RAW_WEIGHTS */
    size_t *group_start; /* max_k + 2 entries */
    size_t *group_data;  /* max_k + 1 entries */
    size_t influence_total;
    void *joints;
    void *weights;
    uint32_t *order;
};

#endif
