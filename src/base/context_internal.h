/* SPDX-License-Identifier: MIT */
/* Internal side of vs_context: per-participant scratch for jobs that need a
 * few floats per worker (joint matrices of a crowd instance), grown by the
 * dispatching thread before a parallel_for so tasks never allocate. */
#ifndef VS_BASE_CONTEXT_INTERNAL_H
#define VS_BASE_CONTEXT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "vskin/vskin.h"

typedef struct context_scratch {
    float *data;
    size_t capacity; /* floats */
} context_scratch;

/* Every participant gets at least `floats` floats; false when out of memory.
 * Call only from the thread that owns the context, outside parallel_for. */
bool context_reserve_scratch(vs_context *ctx, size_t floats);
/* Scratch of participant `worker` (0 = the calling thread). */
float *context_scratch_of(vs_context *ctx, uint32_t worker);

#endif
