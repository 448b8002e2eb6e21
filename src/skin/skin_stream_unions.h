/* SPDX-License-Identifier: MIT */
/* The prepared stream's union chunks: eight vertices whose joint lists
 * differ, blended as one chunk over the union of their lists. Shared by the
 * stream's builder (skin_stream.c) and the search for them
 * (skin_stream_unions.c). */
#ifndef VS_SKIN_SKIN_STREAM_UNIONS_H
#define VS_SKIN_SKIN_STREAM_UNIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skin/lbs/kernel.h"
#include "vskin/vskin.h"

/* A vertex of 1..KERNEL_MAX_STAGED kept influences, in joint order (then
 * weight): vertices with equal joint lists share their chunks. */
typedef struct vertex_record {
    uint32_t v;
    uint16_t k;
    uint16_t joint[KERNEL_MAX_STAGED];
    float weight[KERNEL_MAX_STAGED];
} vertex_record;

/* Where the builder puts a sorted record. */
enum { PLACE_TAIL, PLACE_EXACT, PLACE_UNION };

/* KERNEL_CHUNK vertices of k influences each whose joint lists differ,
 * blended as one chunk of u slots: the union of their lists. */
typedef struct union_chunk {
    uint32_t member[KERNEL_CHUNK]; /* sorted record indices */
    uint16_t joint[KERNEL_MAX_STAGED];
    uint32_t u;
} union_chunk;

/* The union chunks of the records (sorted by record_cmp: by influence
 * count, then joints) left outside the exact chunks (place[i] ==
 * PLACE_TAIL): marks their records PLACE_UNION and stores the chunks in
 * out, *made of them, at most count / KERNEL_CHUNK (the size of out).
 * bits and left (count entries each) are scratch, and the search's index
 * comes from alloc: false when it refuses (the records' places are then
 * partly set). The result depends on the records alone. */
bool make_unions(const vs_allocator *alloc, const vertex_record *rec,
                 size_t count, uint8_t *place, uint64_t *bits, uint32_t *left,
                 union_chunk *out, size_t *made);

#endif
