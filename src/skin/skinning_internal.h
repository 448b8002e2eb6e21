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

#endif
