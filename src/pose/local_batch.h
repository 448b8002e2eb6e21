/* SPDX-License-Identifier: MIT */
/* The local matrices of many nodes at once, for the world pass: the
 * quaternion-to-matrix conversions of four nodes (SSE2) or eight (AVX, two
 * groups of four) share each instruction, structure of arrays, and the
 * results stay in that layout in groups of four, where the world pass reads
 * each entry as a broadcast or a group's row as one vector. Converted one
 * node at a time, as affine_from_trs does, they had been half the
 * instructions of the pass. */
#ifndef VS_POSE_LOCAL_BATCH_H
#define VS_POSE_LOCAL_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/affine.h"
#include "vskin/vskin.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Floats the batch takes for count nodes: whole steps of the widest form
 * (eight nodes, two groups), the lanes past count padding. */
static inline size_t local_batch_floats(uint32_t count)
{
    return 12 * (((size_t)count + 7) / 8 * 8);
}

/* Where entry (row r, column c) of a group's matrices starts (r 0..2, c
 * 0..3: the upper 3x4 part): the batch holds, per group of four nodes,
 * each entry of the four nodes as four consecutive floats, row by row, so
 * that a row of the group is 16 consecutive floats (one 512-bit load for
 * world_pass_avx512, which spreads a node's row from it). */
static inline size_t local_batch_at(int r, int c)
{
    return 16 * (size_t)r + 4 * (size_t)c;
}

/* Node i's local matrix out of the batch (column-major 4x4, last row
 * 0 0 0 1). */
static inline void local_batch_matrix(const float *soa, uint32_t i, float m[16])
{
    const float *b = soa + 48 * (size_t)(i / 4) + i % 4;
    for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 3; ++r)
            m[4 * c + r] = b[local_batch_at(r, c)];
        m[4 * c + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

/* world = parent * (node i's local matrix in the batch), with
 * affine_mul's arithmetic (so the same floats as affine_from_trs followed by
 * affine_mul), or the local matrix itself where parent is NULL. world must
 * not alias parent. */
static inline void local_batch_world(const float *parent, const float *soa,
                                     uint32_t i, float world[16])
{
    if (!parent) {
        local_batch_matrix(soa, i, world);
        return;
    }
#if defined(__SSE2__)
    /* affine_mul with each entry of the local matrix broadcast straight
     * from the batch. */
    const float *b = soa + 48 * (size_t)(i / 4) + i % 4;
    const __m128 a0 = _mm_loadu_ps(parent), a1 = _mm_loadu_ps(parent + 4),
                 a2 = _mm_loadu_ps(parent + 8), a3 = _mm_loadu_ps(parent + 12);
#define BATCH_COLUMN(c)                                                        \
    _mm_add_ps(                                                                \
        _mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(b[local_batch_at(0, c)])),       \
                   _mm_mul_ps(a1, _mm_set1_ps(b[local_batch_at(1, c)]))),      \
        _mm_mul_ps(a2, _mm_set1_ps(b[local_batch_at(2, c)])))
    _mm_storeu_ps(world, BATCH_COLUMN(0));
    _mm_storeu_ps(world + 4, BATCH_COLUMN(1));
    _mm_storeu_ps(world + 8, BATCH_COLUMN(2));
    _mm_storeu_ps(world + 12, _mm_add_ps(BATCH_COLUMN(3), a3));
#undef BATCH_COLUMN
#else
    float m[16];
    local_batch_matrix(soa, i, m);
    affine_mul(parent, m, world);
#endif
}

/* affine_from_trs of trs[0..count) into soa (local_batch_floats(count)
 * floats), with its arithmetic, so entry for entry the same floats. */
void local_batch_run(const vs_trs *trs, uint32_t count, float *soa);
/* The same, eight nodes per step with AVX (half the shuffles per node);
 * the same floats. Only where cpu_avx2() (base/cpu_avx2.h). */
void local_batch_run_avx(const vs_trs *trs, uint32_t count, float *soa);

#endif
