/* SPDX-License-Identifier: MIT */
/* Batched local matrices (pose/local_batch.h). */
#include "pose/local_batch.h"

#if defined(__SSE2__)

#define LB_VEC __m128
#define LB_ADD _mm_add_ps
#define LB_SUB _mm_sub_ps
#define LB_MUL _mm_mul_ps
#define LB_SET1 _mm_set1_ps
#define LB_TWO_OVER(n)                                                         \
    _mm_and_ps(_mm_cmpgt_ps(n, _mm_setzero_ps()),                              \
               _mm_div_ps(_mm_set1_ps(2.0f), n))
#define LB_STORE(r, c, v) _mm_storeu_ps(out + local_batch_at(r, c), v)
#include "pose/local_batch_lanes.h"

/* Nodes trs[i..i+4) (lanes past count take padding) into 12 vectors of
 * four lanes at out. */
static void run4(const vs_trs *trs, uint32_t i, uint32_t count, float *out)
{
    const vs_trs *n0 = &trs[i];
    const vs_trs *n1 = i + 1 < count ? &trs[i + 1] : &local_lanes_padding;
    const vs_trs *n2 = i + 2 < count ? &trs[i + 2] : &local_lanes_padding;
    const vs_trs *n3 = i + 3 < count ? &trs[i + 3] : &local_lanes_padding;
    /* Three loads per node, each inside its vs_trs: (t0 t1 t2 r0),
     * (r0 r1 r2 r3), (r3 s0 s1 s2). After the transposes, lane l of each
     * vector belongs to node l. */
    __m128 t0 = _mm_loadu_ps(n0->translation),
           t1 = _mm_loadu_ps(n1->translation),
           t2 = _mm_loadu_ps(n2->translation),
           t3 = _mm_loadu_ps(n3->translation);
    __m128 x = _mm_loadu_ps(n0->rotation), y = _mm_loadu_ps(n1->rotation),
           z = _mm_loadu_ps(n2->rotation), w = _mm_loadu_ps(n3->rotation);
    __m128 s3 = _mm_loadu_ps(n0->rotation + 3),
           s0 = _mm_loadu_ps(n1->rotation + 3),
           s1 = _mm_loadu_ps(n2->rotation + 3),
           s2 = _mm_loadu_ps(n3->rotation + 3);
    _MM_TRANSPOSE4_PS(t0, t1, t2, t3); /* t3: r0, unused */
    _MM_TRANSPOSE4_PS(x, y, z, w);
    _MM_TRANSPOSE4_PS(s3, s0, s1, s2); /* s3: r3, unused */
    local_lanes(x, y, z, w, s0, s1, s2, t0, t1, t2, out);
}

void local_batch_run(const vs_trs *trs, uint32_t count, float *soa)
{
    for (uint32_t i = 0; i < count; i += 4)
        run4(trs, i, count, soa + 12 * (size_t)i);
}
#else
void local_batch_run(const vs_trs *trs, uint32_t count, float *soa)
{
    for (uint32_t i = 0; i < count; ++i) {
        float m[16];
        affine_from_trs(&trs[i], m);
        float *o = soa + 48 * (size_t)(i / 4) + i % 4;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 3; ++r)
                o[local_batch_at(r, c)] = m[4 * c + r];
    }
}
#endif
