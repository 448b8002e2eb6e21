/* SPDX-License-Identifier: MIT */
/* local_batch_run with AVX (pose/local_batch.h): eight nodes per step, the
 * two groups of four side by side in the halves of 256-bit vectors. A
 * node's three 16-byte loads go into the half of its group by the load
 * unit's insert, so one in-lane transpose serves two groups: half the
 * shuffles per node of the SSE2 form, whose transposes bound it. Two
 * passes over the steps: the first transposes the rotations and divides
 * for their scale (2 / |q|^2), the second does the rest. In one pass each
 * step's products waited on its own division and filled the scheduler, so
 * the next step's loads could not start; split, the divisions of all
 * steps run together, and the AVX-512 world pass after the batch starts
 * sooner (the VEX pass takes the same time either way).
 * Lane for lane the SSE2 form's arithmetic (pose/local_batch_lanes.h; no
 * fused multiply-add), so the same floats. */
#include "base/target.h"
#include "pose/local_batch.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>

VS_TARGET_BEGIN("avx")

#include "base/transpose_avx.h"

#define LB_VEC __m256
#define LB_ADD _mm256_add_ps
#define LB_SUB _mm256_sub_ps
#define LB_MUL _mm256_mul_ps
#define LB_SET1 _mm256_set1_ps
#define LB_TWO_OVER(n)                                                         \
    _mm256_and_ps(_mm256_cmp_ps(n, _mm256_setzero_ps(), _CMP_GT_OQ),           \
                  _mm256_div_ps(_mm256_set1_ps(2.0f), n))
/* The low half is the first group's, the high half the next one's. */
#define LB_STORE(r, c, v)                                                      \
    do {                                                                       \
        _mm_storeu_ps(out + local_batch_at(r, c), _mm256_castps256_ps128(v));  \
        _mm_storeu_ps(out + 48 + local_batch_at(r, c),                         \
                      _mm256_extractf128_ps(v, 1));                            \
    } while (0)
#include "pose/local_batch_lanes.h"

/* The 16 bytes at offset `at` of nodes a (low half) and b (high half). */
static inline __attribute__((always_inline)) __m256
pair_load(const vs_trs *a, const vs_trs *b, size_t at)
{
    return transpose_avx_load_pair((const float *)((const char *)a + at),
                                   (const float *)((const char *)b + at));
}

/* Nodes trs[i..i+8) as n0..n7 (lanes past count take padding), and four
 * pair loads of one field: node l in half l / 4 of vector l % 4, which
 * the transpose turns into lane l % 4 of that half. */
#define NODE(l) (i + (l) < count ? &trs[i + (l)] : &local_lanes_padding)
#define NODES8                                                                 \
    const vs_trs *n0 = &trs[i], *n1 = NODE(1), *n2 = NODE(2), *n3 = NODE(3);   \
    const vs_trs *n4 = NODE(4), *n5 = NODE(5), *n6 = NODE(6), *n7 = NODE(7)
#define LOADS(at)                                                              \
    {pair_load(n0, n4, at), pair_load(n1, n5, at), pair_load(n2, n6, at),      \
     pair_load(n3, n7, at)}

/* First pass of a step: its rotations transposed and their scale, kept in
 * the step's own place in the batch (40 of its 96 floats) until the second
 * pass reads them back. */
static inline __attribute__((always_inline)) void
prepare8(const vs_trs *trs, uint32_t i, uint32_t count, float *out)
{
    NODES8;
    __m256 r[4] = LOADS(offsetof(vs_trs, rotation));
    transpose_avx_halves(r);
    _mm256_storeu_ps(out, r[0]);
    _mm256_storeu_ps(out + 8, r[1]);
    _mm256_storeu_ps(out + 16, r[2]);
    _mm256_storeu_ps(out + 24, r[3]);
    _mm256_storeu_ps(out + 32, local_lanes_scale(r[0], r[1], r[2], r[3]));
}

/* Second pass: translations and scales loaded and transposed, the
 * first pass's values read back (before any store of the step's entries
 * overwrites them), the two groups' entries stored. The loads of each
 * node are the SSE2 form's: (t0 t1 t2 r0) and (r3 s0 s1 s2) here,
 * (r0 r1 r2 r3) in the first pass. */
static inline __attribute__((always_inline)) void
run8(const vs_trs *trs, uint32_t i, uint32_t count, float *out)
{
    NODES8;
    __m256 t[4] = LOADS(offsetof(vs_trs, translation));
    __m256 s[4] = LOADS(offsetof(vs_trs, rotation) + 3 * sizeof(float));
    transpose_avx_halves(t); /* t[3]: r0, unused */
    transpose_avx_halves(s); /* s[0]: r3, unused */
    const __m256 x = _mm256_loadu_ps(out), y = _mm256_loadu_ps(out + 8),
                 z = _mm256_loadu_ps(out + 16), w = _mm256_loadu_ps(out + 24),
                 scale = _mm256_loadu_ps(out + 32);
    local_lanes_scaled(x, y, z, w, scale, s[1], s[2], s[3], t[0], t[1], t[2],
                       out);
}

void local_batch_run_avx(const vs_trs *trs, uint32_t count, float *soa)
{
    for (uint32_t i = 0; i < count; i += 8)
        prepare8(trs, i, count, soa + 12 * (size_t)i);
    for (uint32_t i = 0; i < count; i += 8)
        run8(trs, i, count, soa + 12 * (size_t)i);
}
#undef LOADS
#undef NODES8
#undef NODE

VS_TARGET_END

#else
void local_batch_run_avx(const vs_trs *trs, uint32_t count, float *soa)
{
    local_batch_run(trs, count, soa);
}
#endif
