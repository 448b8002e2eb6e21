/* SPDX-License-Identifier: MIT */
/* The AVX2 + FMA kernel: 8 vertices per step. A vertex's matrix is blended
 * as two 256-bit halves (columns 0-1 and 2-3, one FMA each per influence);
 * 4x4 transposes inside the 128-bit lanes plus lane permutes turn 8 vertices
 * into structure-of-arrays. Compiled with a target attribute, run only when
 * the CPU reports AVX2 and FMA. */
#include "base/target.h"
#include "skin/lbs/kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <string.h>

VS_TARGET_BEGIN("avx2,fma")

#define NAME(x) avx2_##x
#define KERNEL_CHUNKS_BY_COUNT
#include "skin/lbs/kernel_avx2_ops.h"

#include "skin/lbs/kernel_soa.h"

#include "skin/lbs/kernel_avx2_positions.h"

void kernel_avx2_transform_chunks(const kernel_io *io, const size_t *vi,
                                  size_t n, unsigned k,
                                  const kernel_chunk_src *src, size_t lane0)
{
    avx2_transform_chunks(io, vi, n, k, src, lane0);
}

VS_TARGET_END

/* The kernel's table with one chunk function or the other. */
#define AVX2_OPS(chunks)                                                       \
    {                                                                          \
        8, avx2_blend, avx2_transform, avx2_transform_pointed_any,             \
            avx2_transform_joints_any, avx2_blend_stream, avx2_blend_job,      \
            chunks, NULL                                                       \
    }

const kernel_ops *kernel_ops_avx2(void)
{
    static const kernel_ops ops = AVX2_OPS(avx2_transform_chunks);
    return &ops;
}

#undef AVX2_OPS

/* The plain job's blend pass: the 32-register build's with one influence,
 * this one's otherwise (kernel_avx2_wide.c says what each measured). */
static int wide_blend_job(const kernel_job_src *src, size_t base, size_t n,
                          float *mat, const float **mp, float *idw)
{
    return src->k == 1 ? kernel_avx2_wide_blend_job(src, base, n, mat, mp, idw)
                       : avx2_blend_job(src, base, n, mat, mp, idw);
}

const kernel_ops *kernel_ops_avx2_wide(void)
{
    static const kernel_ops ops = {8,
                                   avx2_blend,
                                   kernel_avx2_wide_transform,
                                   kernel_avx2_wide_transform_pointed,
                                   kernel_avx2_wide_transform_joints,
                                   avx2_blend_stream,
                                   wide_blend_job,
                                   kernel_avx2_wide_transform_chunks,
                                   NULL};
    return &ops;
}

#else

const kernel_ops *kernel_ops_avx2(void)
{
    return 0;
}

const kernel_ops *kernel_ops_avx2_wide(void)
{
    return 0;
}

#endif
