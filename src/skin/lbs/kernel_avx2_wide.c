/* SPDX-License-Identifier: MIT */
/* The AVX2 kernel (kernel_avx2.c) compiled once more for CPUs that also
 * have AVX-512VL: the same 256-bit operations, but the compiler may use the
 * 32 vector registers AVX-512VL adds to 256-bit code. A step's transform
 * keeps its 12 matrix entries, 9 cofactor entries, the attributes and the
 * pipelined step's pending normals live at once; with 16 registers it
 * spills, and its dependent chains leave little to overlap. The stream's
 * chunks and the plain job's transforms are faster in this build; of its
 * blend passes only the plain job's one-influence pass is used, the others
 * measured slower than the 16-register ones (docs/design/rejected.md). Chosen at run time (isa.c) for VS_ISA_AUTO;
 * VS_ISA_AVX2 keeps the 16-register build, so both stay tested here (the
 * same operations, so the same floats). */
#include "base/target.h"
#include "skin/lbs/kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <string.h>

VS_TARGET_BEGIN("avx2,fma,avx512f,avx512vl")

#define NAME(x) avx2w_##x
/* x * inv where FLT_MIN <= len2 <= FLT_MAX, else +0 (VKEEP_IF_UNIT's
 * bits): the two compares into one mask register and a zero-masked
 * multiply, where AVX2 needs the compares, an and of them and an and per
 * component. */
#define VMUL_KEEP_IF_UNIT(x, inv, len2)                                        \
    _mm256_maskz_mul_ps(                                                       \
        _mm256_mask_cmp_ps_mask(                                               \
            _mm256_cmp_ps_mask(len2, _mm256_set1_ps(FLT_MIN), _CMP_GE_OQ),     \
            len2, _mm256_set1_ps(FLT_MAX), _CMP_LE_OQ),                        \
        x, inv)
#define KERNEL_CHUNKS_BY_COUNT
#include "skin/lbs/kernel_avx2_ops.h"

/* This build's NAME(blend) and NAME(blend_stream) are not used (above). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "skin/lbs/kernel_soa.h"
#pragma GCC diagnostic pop

#include "skin/lbs/kernel_avx2_positions.h"

void kernel_avx2_wide_transform(const kernel_io *io, const size_t *vi, size_t n,
                                const float *mat)
{
    avx2w_transform(io, vi, n, mat);
}

void kernel_avx2_wide_transform_pointed(const kernel_io *io, const size_t *vi,
                                        size_t n, const float *const *mp)
{
    avx2w_transform_pointed_any(io, vi, n, mp);
}

void kernel_avx2_wide_transform_joints(const kernel_io *io, const size_t *vi,
                                       size_t n, const float *palette,
                                       const uint16_t *joints)
{
    avx2w_transform_joints_any(io, vi, n, palette, joints);
}

int kernel_avx2_wide_blend_job(const kernel_job_src *src, size_t base, size_t n,
                               float *mat, const float **mp, float *idw)
{
    return avx2w_blend_job(src, base, n, mat, mp, idw);
}

void kernel_avx2_wide_transform_chunks(const kernel_io *io, const size_t *vi,
                                       size_t n, unsigned k,
                                       const kernel_chunk_src *src,
                                       size_t lane0)
{
    avx2w_transform_chunks(io, vi, n, k, src, lane0);
}

VS_TARGET_END

#endif
