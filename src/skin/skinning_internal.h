/* SPDX-License-Identifier: MIT */
/* Internal entry points shared by the reference and the fast skinning job. */
#ifndef VS_SKIN_SKINNING_INTERNAL_H
#define VS_SKIN_SKINNING_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* The reference loop over vertices [first, vertex_count) of a validated job:
 * the fast job hands a block over to it when it meets a bad joint index, so
 * the error and the vertices written before it are exactly the reference's. */
vs_result skinning_job_reference_from(const vs_skinning_job *job, size_t first,
                                      vs_error *error);

/* The vertices vs_skinning_job_run takes as a short first block
 * (kernel_job_lead) on its kernel path, 0 on the others: a parallel job
 * starts its later ranges that far past their block-aligned starts, so
 * that every range's blocks are the serial run's. */
size_t skinning_job_lead(const vs_skinning_job *job);

/* The two flags that fix a job's store choice (vs_skin_flags). */
#define SKIN_STORE_FLAGS (VS_SKIN_STREAMING_STORES | VS_SKIN_CACHED_STORES)

/* Bytes of one packed tangent: tangent_components floats, 0 meaning 4. */
static inline size_t skin_tangent_bytes(uint32_t tangent_components)
{
    return (tangent_components == 3 ? 3u : 4u) * sizeof(float);
}

/* VS_ERROR_ARGUMENT, naming `what` (the job kind), where flags ask for
 * both VS_SKIN_STREAMING_STORES and VS_SKIN_CACHED_STORES. */
vs_result skin_check_store_flags(uint32_t flags, const char *what,
                                 vs_error *error);

/* The bytes a job reads and writes: vertex_count times the packed sizes of
 * its joints, weights and attributes, in and out (SIZE_MAX past it). */
size_t skinning_job_bytes(const vs_skinning_job *job);

/* job->flags with its store choice made: VS_SKIN_STREAMING_STORES or
 * VS_SKIN_CACHED_STORES as the caller set one, else by skinning_job_bytes
 * against VS_SKIN_STREAMING_AUTO_BYTES. A parallel job makes it once for
 * the whole job, so that its ranges, each smaller, store as one run would. */
uint32_t skinning_job_store_flags(const vs_skinning_job *job);

#endif
