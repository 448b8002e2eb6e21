/* SPDX-License-Identifier: MIT */
/* Internal entry points shared by the reference and the fast skinning job. */
#ifndef VS_SKIN_SKINNING_INTERNAL_H
#define VS_SKIN_SKINNING_INTERNAL_H

#include <stddef.h>

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

#endif
