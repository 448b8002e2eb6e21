/* SPDX-License-Identifier: MIT */
/* DQS kernels: see dqs_kernel.h. The per-vertex blend (phase 1) is plain C;
 * the per-block transform (phase 2) is dqs_kernel_body.h instantiated for
 * scalar, SSE2 and AVX2 lanes. Both phases are inlined into one run loop per
 * instruction set, so the AVX2 loop is compiled for AVX2 throughout. */
#include "skin/dqs/dqs_kernel.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "asset/weights_rule.h"
#include "skin/dqs/dqs_reference.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define DQS_X86 1
#include <immintrin.h>
#endif

#define DQS_BLOCK 8

/* One block of vertices, structure of arrays (lane = vertex in block). */
typedef struct dqs_block {
    float real[4][DQS_BLOCK], dual[4][DQS_BLOCK], s[9][DQS_BLOCK];
    float p[3][DQS_BLOCK], n[3][DQS_BLOCK], t[3][DQS_BLOCK];
    float tangent_w[DQS_BLOCK];
} dqs_block;

/* The job's buffers as byte pointers and steps. */
typedef struct dqs_streams {
    const unsigned char *joints, *weights, *in_p, *in_n, *in_t;
    unsigned char *out_p, *out_n, *out_t;
    size_t joints_step, weights_step, in_p_step, in_n_step, in_t_step;
    size_t out_p_step, out_n_step, out_t_step;
    size_t tc; /* tangent components, 3 or 4 */
} dqs_streams;

static size_t step_of(size_t stride, size_t element)
{
    return stride ? stride : element;
}

static dqs_streams make_streams(const vs_skinning_job *job)
{
    const size_t f = sizeof(float), inf = job->influence_count;
    dqs_streams s = {0};
    s.tc = job->tangent_components == 3 ? 3 : 4;
    s.joints = (const unsigned char *)job->joints;
    s.weights = (const unsigned char *)job->weights;
    s.in_p = (const unsigned char *)job->in_positions;
    s.in_n = (const unsigned char *)job->in_normals;
    s.in_t = (const unsigned char *)job->in_tangents;
    s.out_p = (unsigned char *)job->out_positions;
    s.out_n = (unsigned char *)job->out_normals;
    s.out_t = (unsigned char *)job->out_tangents;
    s.joints_step = step_of(job->joints_stride, inf * sizeof(uint16_t));
    s.weights_step = step_of(job->weights_stride, inf * f);
    s.in_p_step = step_of(job->in_positions_stride, 3 * f);
    s.out_p_step = step_of(job->out_positions_stride, 3 * f);
    s.in_n_step = step_of(job->in_normals_stride, 3 * f);
    s.out_n_step = step_of(job->out_normals_stride, 3 * f);
    s.in_t_step = step_of(job->in_tangents_stride, s.tc * f);
    s.out_t_step = step_of(job->out_tangents_stride, s.tc * f);
    return s;
}

/* Phase 1 for vertex v into lane l: the reference's weight rules and blend
 * (dqs_reference.c), in float. *keep: the vertex is unskinned and keeps its
 * input (keep_lane). Returns false when a joint index is out of range
 * (nothing stored). */
static inline __attribute__((always_inline)) bool
blend_into_lane(const vs_skinning_job *job, const dqs_streams *st,
                dq_joints *dj, size_t v, int l, dqs_block *b, bool *keep)
{
    const unsigned char *jp = st->joints + v * st->joints_step;
    const unsigned char *wp = st->weights + v * st->weights_step;
    double sum = 0.0;
    for (uint32_t i = 0; i < job->influence_count; ++i) {
        uint16_t joint;
        float w;
        memcpy(&joint, jp + i * sizeof joint, sizeof joint);
        memcpy(&w, wp + i * sizeof w, sizeof w);
        if (joint >= job->joint_count) return false;
        sum += w;
    }
    float real[4] = {0, 0, 0, 0}, dual[4] = {0, 0, 0, 0};
    float s[12] = {0};
    double divisor = 1.0;
    *keep = false;
    if (!(job->flags & VS_SKIN_RAW_WEIGHTS)) {
        if (!weights_sum_skins(sum)) {
            /* Not skinned: the identity (q = 1, S = I) in the lane, whose
             * results keep_lane replaces by the input. */
            real[3] = 1.0f;
            s[0] = s[5] = s[10] = 1.0f;
            sum = 0.0;
            *keep = true;
        }
        divisor = sum;
    }
    /* One division per vertex, not per influence. */
    const float scale = divisor != 0.0 ? (float)(1.0 / divisor) : 0.0f;
    const float *pivot = NULL;
    float pivot_copy[4];
    for (uint32_t i = 0; divisor != 0.0 && i < job->influence_count; ++i) {
        uint16_t joint;
        float wf;
        memcpy(&joint, jp + i * sizeof joint, sizeof joint);
        memcpy(&wf, wp + i * sizeof wf, sizeof wf);
        if (wf == 0.0f) continue;
        float w = wf * scale;
        float scratch[VS_DQ_JOINT_FLOATS];
        const float *d = dq_joints_get(dj, joint, scratch);
        if (!pivot) pivot = memcpy(pivot_copy, d, sizeof pivot_copy);
        float dot = pivot[0] * d[0] + pivot[1] * d[1] + pivot[2] * d[2] +
                    pivot[3] * d[3];
        float sw = dot < 0.0f ? -w : w;
        for (int k = 0; k < 4; ++k) {
            real[k] += sw * d[k];
            dual[k] += sw * d[4 + k];
        }
        for (int k = 0; k < 12; ++k)
            s[k] += w * d[8 + k];
    }
    for (int k = 0; k < 4; ++k) {
        b->real[k][l] = real[k];
        b->dual[k][l] = dual[k];
    }
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            b->s[c * 3 + r][l] = s[c * 4 + r];
    return true;
}

/* Vertex v's inputs into lane l. */
static inline __attribute__((always_inline)) void
load_lane(const dqs_streams *st, size_t v, int l, dqs_block *b)
{
    float in[4];
    memcpy(in, st->in_p + v * st->in_p_step, 3 * sizeof(float));
    for (int k = 0; k < 3; ++k)
        b->p[k][l] = in[k];
    if (st->out_n) {
        memcpy(in, st->in_n + v * st->in_n_step, 3 * sizeof(float));
        for (int k = 0; k < 3; ++k)
            b->n[k][l] = in[k];
    }
    if (st->out_t) {
        memcpy(in, st->in_t + v * st->in_t_step, st->tc * sizeof(float));
        for (int k = 0; k < 3; ++k)
            b->t[k][l] = in[k];
        b->tangent_w[l] = st->tc == 4 ? in[3] : 0.0f;
    }
}

static inline __attribute__((always_inline)) void
store_lane(const dqs_streams *st, size_t v, int l, const dqs_block *b)
{
    float out[4];
    for (int k = 0; k < 3; ++k)
        out[k] = b->p[k][l];
    memcpy(st->out_p + v * st->out_p_step, out, 3 * sizeof(float));
    if (st->out_n) {
        for (int k = 0; k < 3; ++k)
            out[k] = b->n[k][l];
        memcpy(st->out_n + v * st->out_n_step, out, 3 * sizeof(float));
    }
    if (st->out_t) {
        for (int k = 0; k < 3; ++k)
            out[k] = b->t[k][l];
        out[3] = b->tangent_w[l];
        memcpy(st->out_t + v * st->out_t_step, out, st->tc * sizeof(float));
    }
}

/* An unskinned vertex's input copied to its output bit for bit, read
 * before written (skinning in place). Only lane l writes vertex v, so its
 * input is still there. */
static inline __attribute__((always_inline)) void
keep_lane(const dqs_streams *st, size_t v)
{
    float in[4];
    memcpy(in, st->in_p + v * st->in_p_step, 3 * sizeof(float));
    memcpy(st->out_p + v * st->out_p_step, in, 3 * sizeof(float));
    if (st->out_n) {
        memcpy(in, st->in_n + v * st->in_n_step, 3 * sizeof(float));
        memcpy(st->out_n + v * st->out_n_step, in, 3 * sizeof(float));
    }
    if (st->out_t) {
        memcpy(in, st->in_t + v * st->in_t_step, st->tc * sizeof(float));
        memcpy(st->out_t + v * st->out_t_step, in, st->tc * sizeof(float));
    }
}

/* The run loop of one instruction set: blocks of DQS_BLOCK vertices; a bad
 * joint index truncates the block at that vertex, which is written up to
 * there and reported. Lanes past the block's end keep earlier data: they are
 * computed (SIMD works on whole vectors) but never stored. */
#define DEFINE_RUN(RUN_NAME, FINISH, ATTR)                                     \
    static ATTR vs_result RUN_NAME(const vs_skinning_job *job, dq_joints *dj,  \
                                   vs_error *error)                            \
    {                                                                          \
        const dqs_streams st = make_streams(job);                              \
        dqs_block b;                                                           \
        memset(&b, 0, sizeof b);                                               \
        for (size_t v0 = 0; v0 < job->vertex_count; v0 += DQS_BLOCK) {         \
            size_t left = job->vertex_count - v0;                              \
            int n = left < DQS_BLOCK ? (int)left : DQS_BLOCK;                  \
            int bad = -1;                                                      \
            bool keep[DQS_BLOCK];                                              \
            for (int l = 0; l < n && bad < 0; ++l)                             \
                if (!blend_into_lane(job, &st, dj, v0 + (size_t)l, l, &b,      \
                                     &keep[l]))                                \
                    bad = l;                                                   \
            int done = bad < 0 ? n : bad;                                      \
            for (int l = 0; l < done; ++l)                                     \
                load_lane(&st, v0 + (size_t)l, l, &b);                         \
            FINISH(&b, st.out_n != NULL, st.out_t != NULL);                    \
            for (int l = 0; l < done; ++l)                                     \
                if (keep[l])                                                   \
                    keep_lane(&st, v0 + (size_t)l);                            \
                else                                                           \
                    store_lane(&st, v0 + (size_t)l, l, &b);                    \
            if (bad >= 0) return bad_joint(job, &st, v0 + (size_t)bad, error); \
        }                                                                      \
        return VS_OK;                                                          \
    }

/* The reference's message for the first bad influence of vertex v. */
static vs_result bad_joint(const vs_skinning_job *job, const dqs_streams *st,
                           size_t v, vs_error *error)
{
    for (uint32_t i = 0; i < job->influence_count; ++i) {
        uint16_t joint;
        memcpy(&joint, st->joints + v * st->joints_step + i * sizeof joint,
               sizeof joint);
        if (joint >= job->joint_count)
            return set_error(error, VS_ERROR_INVALID,
                             "skinning job: joints: vertex %zu influence %u "
                             "uses joint %u but there are %u joint matrices",
                             v, i, joint, job->joint_count);
    }
    return set_error(error, VS_ERROR_INVALID,
                     "skinning job: joints: vertex %zu", v);
}

/* ---- scalar: one lane, any CPU. */
#define V float
#define W 1
#define V_LOAD(p) (*(p))
#define V_STORE(p, v) (*(p) = (v))
#define V_SET1(x) (x)
#define V_ADD(a, b) ((a) + (b))
#define V_SUB(a, b) ((a) - (b))
#define V_MUL(a, b) ((a) * (b))
#define V_DIV(a, b) ((a) / (b))
#define V_SQRT(a) sqrtf(a)
#define V_SEL_GT(a, b, x, y) ((a) > (b) ? (x) : (y))
#define V_SEL_EQ(a, b, x, y) ((a) == (b) ? (x) : (y))
#define FINISH_NAME finish_scalar
#define FINISH_ATTR inline __attribute__((always_inline))
#include "skin/dqs/dqs_kernel_body.h"
DEFINE_RUN(run_scalar, finish_scalar, )

#ifdef DQS_X86
/* ---- SSE2: 4 lanes (x86-64 baseline, no target attribute needed). */
#define V __m128
#define W 4
#define V_LOAD(p) _mm_loadu_ps(p)
#define V_STORE(p, v) _mm_storeu_ps(p, v)
#define V_SET1(x) _mm_set1_ps(x)
#define V_ADD _mm_add_ps
#define V_SUB _mm_sub_ps
#define V_MUL _mm_mul_ps
#define V_DIV _mm_div_ps
#define V_SQRT _mm_sqrt_ps
#define V_SEL_GT(a, b, x, y)                                                   \
    _mm_or_ps(_mm_and_ps(_mm_cmpgt_ps(a, b), x),                               \
              _mm_andnot_ps(_mm_cmpgt_ps(a, b), y))
#define V_SEL_EQ(a, b, x, y)                                                   \
    _mm_or_ps(_mm_and_ps(_mm_cmpeq_ps(a, b), x),                               \
              _mm_andnot_ps(_mm_cmpeq_ps(a, b), y))
#define FINISH_NAME finish_sse2
#define FINISH_ATTR inline __attribute__((always_inline, target("sse2")))
#include "skin/dqs/dqs_kernel_body.h"
DEFINE_RUN(run_sse2, finish_sse2, __attribute__((target("sse2"))))

/* ---- AVX2 + FMA: 8 lanes, chosen at run time. */
#define V __m256
#define W 8
#define V_LOAD(p) _mm256_loadu_ps(p)
#define V_STORE(p, v) _mm256_storeu_ps(p, v)
#define V_SET1(x) _mm256_set1_ps(x)
#define V_ADD _mm256_add_ps
#define V_SUB _mm256_sub_ps
#define V_MUL _mm256_mul_ps
#define V_DIV _mm256_div_ps
#define V_SQRT _mm256_sqrt_ps
#define V_SEL_GT(a, b, x, y)                                                   \
    _mm256_blendv_ps(y, x, _mm256_cmp_ps(a, b, _CMP_GT_OQ))
#define V_SEL_EQ(a, b, x, y)                                                   \
    _mm256_blendv_ps(y, x, _mm256_cmp_ps(a, b, _CMP_EQ_OQ))
#define FINISH_NAME finish_avx2
#define FINISH_ATTR inline __attribute__((always_inline, target("avx2,fma")))
#include "skin/dqs/dqs_kernel_body.h"
DEFINE_RUN(run_avx2, finish_avx2, __attribute__((target("avx2,fma"))))
#endif

bool dqs_isa_available(dqs_isa isa)
{
    switch (isa) {
    case DQS_ISA_AUTO:
    case DQS_ISA_SCALAR:
        return true;
#ifdef DQS_X86
    case DQS_ISA_SSE2:
        return __builtin_cpu_supports("sse2");
    case DQS_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    default:
        return false;
    }
}

dqs_isa dqs_isa_best(void)
{
    if (dqs_isa_available(DQS_ISA_AVX2)) return DQS_ISA_AVX2;
    if (dqs_isa_available(DQS_ISA_SSE2)) return DQS_ISA_SSE2;
    return DQS_ISA_SCALAR;
}

const char *dqs_isa_name(dqs_isa isa)
{
    static const char *const names[] = {"auto", "scalar", "sse2", "avx2"};
    return (unsigned)isa < 4 ? names[isa] : "unknown";
}

vs_result dqs_kernel_run(const vs_skinning_job *job, dqs_isa isa,
                         vs_error *error)
{
    if (isa == DQS_ISA_AUTO) isa = dqs_isa_best();
    if (!dqs_isa_available(isa))
        return set_error(error, VS_ERROR_UNSUPPORTED,
                         "skinning job: the %s DQS kernel needs an "
                         "instruction set this CPU lacks",
                         dqs_isa_name(isa));
    /* About 10 KB of stack: the per-run joint conversion cache. */
    dq_joints dj;
    dq_joints_init(&dj, job);
    switch (isa) {
#ifdef DQS_X86
    case DQS_ISA_AVX2:
        return run_avx2(job, &dj, error);
    case DQS_ISA_SSE2:
        return run_sse2(job, &dj, error);
#endif
    default:
        return run_scalar(job, &dj, error);
    }
}
