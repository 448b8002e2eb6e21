/* SPDX-License-Identifier: MIT */
/* What vs_crowd_streams holds, for vs_crowd_run (skin/crowd.c). */
#ifndef VS_SKIN_CROWD_STREAMS_INTERNAL_H
#define VS_SKIN_CROWD_STREAMS_INTERNAL_H

#include "vskin/vskin.h"

/* One slot of the layout: its influences as a stream, and its attributes
 * permuted into the stream's order. */
typedef struct crowd_stream_slot {
    vs_skin_stream *stream;
    float *positions;
    float *normals; /* NULL: not prepared (or the primitive has none) */
} crowd_stream_slot;

struct vs_crowd_streams {
    const vs_asset *asset;
    vs_allocator alloc; /* the asset's, which made every array here */
    bool normals;
    uint32_t flags;
    uint32_t slot_count;
    crowd_stream_slot *slots; /* in layout order */
};

#endif
