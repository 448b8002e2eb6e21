/* SPDX-License-Identifier: MIT */
/* Fast dual-quaternion skinning kernels, tested against the scalar
 * reference (dqs_reference.c) to 1e-5 relative. One source, compiled for
 * several instruction sets and picked at run time:
 *   DQS_ISA_SCALAR  plain C, one lane (portable fallback, any CPU)
 *   DQS_ISA_SSE2    4 lanes, SSE2 (x86-64 baseline)
 *   DQS_ISA_AVX2    8 lanes, AVX2 + FMA via __attribute__((target)), used
 *                   only when __builtin_cpu_supports says so
 * Per block of DQS_BLOCK vertices: each vertex's influences are blended into
 * (dual quaternion, S) one vertex at a time, then normalisation, the
 * rotation matrix, A = R * S and the point / normal / tangent transforms run
 * across the block's vertices in SIMD lanes. */
#ifndef VS_SKIN_DQS_DQS_KERNEL_H
#define VS_SKIN_DQS_DQS_KERNEL_H

#include <stdbool.h>

#include "vskin/vskin.h"

typedef enum dqs_isa {
    DQS_ISA_AUTO = 0, /* the widest available */
    DQS_ISA_SCALAR,
    DQS_ISA_SSE2,
    DQS_ISA_AVX2
} dqs_isa;

bool dqs_isa_available(dqs_isa isa);
/* The kernel AUTO resolves to on this CPU. */
dqs_isa dqs_isa_best(void);
const char *dqs_isa_name(dqs_isa isa);

/* Runs an already validated DQS job (vs_skinning_job_validate) with `isa`
 * (AUTO: dqs_isa_best). Same results, error rules and partial-write rule as
 * the reference: an out-of-range joint index at vertex v leaves vertices
 * [0, v) written and nothing after. VS_ERROR_UNSUPPORTED when `isa` is not
 * available on this CPU. */
vs_result dqs_kernel_run(const vs_skinning_job *job, dqs_isa isa,
                         vs_error *error);

#endif
