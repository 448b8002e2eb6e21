/* SPDX-License-Identifier: MIT */
/* The DQS kernels (scalar, SSE2, AVX2 where the CPU has them) against the
 * scalar double-precision reference: random rigid and scaled joints, 1 to 8
 * influences, odd vertex counts, interleaved buffers with odd byte strides,
 * zero weights, unskinned vertices, raw weights, 3- and 4-component
 * tangents; then the partial-write rule on a bad joint index. */
#include <stdint.h>

#include "dqs_fixture.h"
#include "skin/dqs/dqs_kernel.h"
#include "skin/skinning_reference.h"
#include "test.h"
#include "vskin/vskin.h"

enum { JOINTS = 40, MAX_VERTS = 203, MAX_INF = 8 };

/* Interleaved input record: joints, one pad byte (so every float after it
 * is misaligned), weights, position, normal, tangent. */
typedef struct layout {
    size_t joints, weights, pos, nrm, tan, stride;
} layout;

static layout make_layout(uint32_t inf)
{
    layout l;
    l.joints = 0;
    l.weights = inf * 2 + 1;
    l.pos = l.weights + inf * 4;
    l.nrm = l.pos + 12;
    l.tan = l.nrm + 12;
    l.stride = l.tan + 16 + 3;
    return l;
}

static void put_f(unsigned char *p, float v)
{
    memcpy(p, &v, 4);
}

static unsigned char input[MAX_VERTS * (MAX_INF * 6 + 64)];
/* Outputs: interleaved position / normal / tangent with 5 spare bytes. */
#define OUT_STRIDE (12 + 12 + 16 + 5)
static unsigned char out_ref[MAX_VERTS * OUT_STRIDE];
static unsigned char out_fast[MAX_VERTS * OUT_STRIDE];

static void fill(uint32_t *seed, uint32_t inf, size_t verts, const layout *l)
{
    for (size_t v = 0; v < verts; ++v) {
        unsigned char *rec = input + v * l->stride;
        int unskinned = fx_rand(seed) < 0.05;
        for (uint32_t i = 0; i < inf; ++i) {
            uint16_t j = (uint16_t)(fx_rand(seed) * JOINTS);
            memcpy(rec + l->joints + i * 2, &j, 2);
            float w = fx_rand(seed) < 0.2 ? 0.0f : (float)fx_rand(seed);
            put_f(rec + l->weights + i * 4, unskinned ? 0.0f : w);
        }
        rec[l->weights - 1] = 0xAB;
        for (int k = 0; k < 3; ++k) {
            put_f(rec + l->pos + k * 4, (float)fx_range(seed, -5, 5));
            put_f(rec + l->nrm + k * 4, (float)fx_range(seed, -1, 1));
            put_f(rec + l->tan + k * 4, (float)fx_range(seed, -1, 1));
        }
        put_f(rec + l->tan + 12, fx_rand(seed) < 0.5 ? -1.0f : 1.0f);
    }
}

static vs_skinning_job make_job(const float *jm, uint32_t inf, size_t verts,
                                const layout *l, uint32_t flags, uint32_t tc,
                                unsigned char *out)
{
    vs_skinning_job job = {
        .vertex_count = verts,
        .influence_count = inf,
        .joint_matrices = jm,
        .joint_count = JOINTS,
        .joints = (const uint16_t *)(const void *)(input + l->joints),
        .joints_stride = l->stride,
        .weights = (const float *)(const void *)(input + l->weights),
        .weights_stride = l->stride,
        .in_positions = (const float *)(const void *)(input + l->pos),
        .in_positions_stride = l->stride,
        .in_normals = (const float *)(const void *)(input + l->nrm),
        .in_normals_stride = l->stride,
        .in_tangents = (const float *)(const void *)(input + l->tan),
        .in_tangents_stride = l->stride,
        .out_positions = (float *)(void *)out,
        .out_positions_stride = OUT_STRIDE,
        .out_normals = (float *)(void *)(out + 12),
        .out_normals_stride = OUT_STRIDE,
        .out_tangents = (float *)(void *)(out + 24),
        .out_tangents_stride = OUT_STRIDE,
        .tangent_components = tc,
        .flags = flags,
        .method = VS_SKIN_DUAL_QUATERNION};
    return job;
}

/* Largest |fast - ref| / max(1, |ref|) over every float written. */
static double compare_outputs(size_t verts, uint32_t tc)
{
    double worst = 0.0;
    for (size_t v = 0; v < verts; ++v)
        for (size_t k = 0; k < 6 + tc; ++k) {
            float a, b;
            memcpy(&a, out_fast + v * OUT_STRIDE + k * 4, 4);
            memcpy(&b, out_ref + v * OUT_STRIDE + k * 4, 4);
            double d = fabs((double)a - b) / fmax(1.0, fabs((double)b));
            if (!(d <= worst)) worst = d;
        }
    return worst;
}

static float jm[JOINTS * 16];

/* Random joints into jm: all rigid, all scaled, or two scaled in three. */
typedef enum joint_mix { ALL_RIGID, ALL_SCALED, MIXED } joint_mix;

static void random_joints(uint32_t *seed, joint_mix mix)
{
    for (int j = 0; j < JOINTS; ++j)
        fx_random_joint(jm + j * 16, seed,
                        mix == ALL_SCALED || (mix == MIXED && j % 3 != 0));
}

static void kernels_match_reference(void)
{
    uint32_t seed = 2024;
    random_joints(&seed, MIXED);
    static const size_t counts[] = {1, 7, 8, 9, 61, MAX_VERTS};
    const dqs_isa isas[] = {DQS_ISA_SCALAR, DQS_ISA_SSE2, DQS_ISA_AVX2};
    for (int k = 0; k < 3; ++k) {
        if (!dqs_isa_available(isas[k])) {
            printf("%s: not available on this CPU, skipped\n",
                   dqs_isa_name(isas[k]));
            continue;
        }
        double worst = 0.0;
        int runs = 0;
        for (uint32_t inf = 1; inf <= MAX_INF; ++inf)
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
                for (int variant = 0; variant < 2; ++variant) {
                    layout l = make_layout(inf);
                    size_t verts = counts[c];
                    uint32_t flags = variant ? VS_SKIN_RAW_WEIGHTS : 0;
                    uint32_t tc = variant ? 3 : 4;
                    fill(&seed, inf, verts, &l);
                    memset(out_ref, 0x5A, sizeof out_ref);
                    memset(out_fast, 0x5A, sizeof out_fast);
                    vs_skinning_job ref =
                        make_job(jm, inf, verts, &l, flags, tc, out_ref);
                    vs_skinning_job fast =
                        make_job(jm, inf, verts, &l, flags, tc, out_fast);
                    CHECK(vs_skinning_job_validate(&ref, NULL) == VS_OK);
                    CHECK(skinning_job_reference(&ref, NULL) == VS_OK);
                    CHECK(dqs_kernel_run(&fast, isas[k], NULL) == VS_OK);
                    worst = fmax(worst, compare_outputs(verts, tc));
                    ++runs;
                }
        printf("%s: %d jobs, max relative difference to the reference %.3g\n",
               dqs_isa_name(isas[k]), runs, worst);
        CHECK_MSG(worst <= 1e-5, "%s: %g", dqs_isa_name(isas[k]), worst);
    }
    CHECK(dqs_isa_available(dqs_isa_best()));
    printf("auto picks %s\n", dqs_isa_name(dqs_isa_best()));
}

/* Spare bytes of the output records are never written. */
static void kernels_leave_gaps_alone(void)
{
    uint32_t seed = 5;
    random_joints(&seed, ALL_SCALED);
    layout l = make_layout(3);
    fill(&seed, 3, 13, &l);
    memset(out_fast, 0x5A, sizeof out_fast);
    vs_skinning_job job = make_job(jm, 3, 13, &l, 0, 4, out_fast);
    CHECK(dqs_kernel_run(&job, DQS_ISA_AUTO, NULL) == VS_OK);
    for (size_t v = 0; v < 13; ++v)
        for (size_t b = 40; b < OUT_STRIDE; ++b)
            CHECK(out_fast[v * OUT_STRIDE + b] == 0x5A);
    CHECK(out_fast[13 * OUT_STRIDE] == 0x5A);
}

/* An out-of-range joint at vertex 10 (second block of 8, lane 2): vertices
 * 0..9 are written, 10 and after are not, and the message is the
 * reference's. */
static void bad_joint_stops_like_reference(void)
{
    uint32_t seed = 8;
    random_joints(&seed, ALL_RIGID);
    layout l = make_layout(2);
    fill(&seed, 2, 20, &l);
    uint16_t bad = JOINTS + 3;
    memcpy(input + 10 * l.stride + 2, &bad, 2);
    vs_error e_ref = {0}, e_fast = {0};
    memset(out_ref, 0x5A, sizeof out_ref);
    vs_skinning_job ref = make_job(jm, 2, 20, &l, 0, 4, out_ref);
    CHECK(skinning_job_reference(&ref, &e_ref) == VS_ERROR_INVALID);
    for (int k = DQS_ISA_SCALAR; k <= DQS_ISA_AVX2; ++k) {
        if (!dqs_isa_available((dqs_isa)k)) continue;
        memset(out_fast, 0x5A, sizeof out_fast);
        vs_skinning_job fast = make_job(jm, 2, 20, &l, 0, 4, out_fast);
        CHECK(dqs_kernel_run(&fast, (dqs_isa)k, &e_fast) == VS_ERROR_INVALID);
        CHECK_MSG(strcmp(e_ref.message, e_fast.message) == 0, "%s vs %s",
                  e_ref.message, e_fast.message);
        CHECK(compare_outputs(10, 4) <= 1e-5);
        CHECK(out_fast[10 * OUT_STRIDE] == 0x5A);
        CHECK(out_fast[19 * OUT_STRIDE] == 0x5A);
    }
}

/* The public job: every vs_isa the CPU has, with method DQS, runs a DQS
 * kernel (not the linear ones) and matches the DQS reference; an ISA the CPU
 * lacks is refused. */
static void public_job_dispatches_every_isa(void)
{
    uint32_t seed = 77;
    random_joints(&seed, MIXED);
    layout l = make_layout(4);
    fill(&seed, 4, 61, &l);
    for (int isa = VS_ISA_AUTO; isa < VS_ISA_COUNT; ++isa) {
        memset(out_ref, 0x5A, sizeof out_ref);
        memset(out_fast, 0x5A, sizeof out_fast);
        vs_skinning_job ref = make_job(jm, 4, 61, &l, 0, 4, out_ref);
        vs_skinning_job fast = make_job(jm, 4, 61, &l, 0, 4, out_fast);
        fast.isa = (uint32_t)isa;
        CHECK(skinning_job_reference(&ref, NULL) == VS_OK);
        vs_result r = vs_skinning_job_run(&fast, NULL);
        if (!vs_isa_supported((vs_isa)isa)) {
            CHECK(r == VS_ERROR_UNSUPPORTED);
            continue;
        }
        CHECK_MSG(r == VS_OK, "isa %s", vs_isa_name((vs_isa)isa));
        double d = compare_outputs(61, 4);
        printf("vs_skinning_job_run isa %s: max relative difference %.3g\n",
               vs_isa_name((vs_isa)isa), d);
        CHECK_MSG(d <= 1e-5, "isa %s: %g", vs_isa_name((vs_isa)isa), d);
    }
}

int main(void)
{
    RUN(kernels_match_reference);
    RUN(kernels_leave_gaps_alone);
    RUN(bad_joint_stops_like_reference);
    RUN(public_job_dispatches_every_isa);
    return test_summary();
}
