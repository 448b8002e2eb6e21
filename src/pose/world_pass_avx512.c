/* SPDX-License-Identifier: MIT */
/* The world pass (pose/world_pass.h) with the AVX-512 product: a TRS node with
 * a parent takes its world matrix in one 512-bit register. Its local
 * matrix's rows come from the batch: row r of a group of four nodes is 16
 * consecutive floats (entry (r, c) of node l at 4c + l), one load, and one
 * permute gives node l's row spread over the lane groups. Roots and nodes
 * with a rest matrix take the baseline's steps. */
#include "base/target.h"
#include "pose/world_pass.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>

VS_TARGET_BEGIN("avx512f")

#include "base/affine_avx512_columns.h"

static inline __attribute__((always_inline)) void
trs_world_avx512(const float *parent, const float *soa, uint32_t i,
                 float world[16])
{
    if (!parent) {
        local_batch_matrix(soa, i, world);
        return;
    }
    const float *group = soa + 48 * (size_t)(i / 4);
    /* Every lane of group c takes entry 4c + i % 4 of a row: the node is
     * lane i % 4 of its group, and this its entry in column c. */
    const __m512i pick =
        _mm512_add_epi32(_mm512_slli_epi32(affine_avx512_spread(), 2),
                         _mm512_set1_epi32((int)(i % 4)));
    const __m512 b0 = _mm512_permutexvar_ps(
        pick, _mm512_loadu_ps(group + local_batch_at(0, 0)));
    const __m512 b1 = _mm512_permutexvar_ps(
        pick, _mm512_loadu_ps(group + local_batch_at(1, 0)));
    const __m512 b2 = _mm512_permutexvar_ps(
        pick, _mm512_loadu_ps(group + local_batch_at(2, 0)));
    _mm512_storeu_ps(world, affine_avx512_columns(parent, b0, b1, b2));
}

void world_pass_avx512(const world_pass_args *args)
{
    world_pass_with(args, trs_world_avx512);
}

VS_TARGET_END
#else
void world_pass_avx512(const world_pass_args *args)
{
    world_pass_baseline(args);
}
#endif
