/* SPDX-License-Identifier: MIT */
/* The scalar reference loop of the skinning job (skinning_job.c), for both
 * methods, without validation: vs_skinning_job_run validates, then takes it
 * for linear skinning and the DQS kernels (dqs_kernel.c) for dual
 * quaternions. Tests call it to measure the kernels against. */
#ifndef VS_SKIN_SKINNING_REFERENCE_H
#define VS_SKIN_SKINNING_REFERENCE_H

#include "vskin/vskin.h"

/* `job` must have passed vs_skinning_job_validate. */
vs_result skinning_job_reference(const vs_skinning_job *job, vs_error *error);

#endif
