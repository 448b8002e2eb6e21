/* SPDX-License-Identifier: MIT */
/* Non-temporal output stores (VS_SKIN_STREAMING_STORES): which outputs
 * stream, and a job of many blocks on every SIMD kernel this CPU runs, whole
 * and split over a context's threads, with packed outputs at every 4-byte
 * offset within a cache line (the kernels stream whole lines, 16-byte pieces or
 * plain stores by the alignment they find), giving bit for bit what cached
 * stores give. (The kernel tests run every ISA with the flag on small and
 * odd-sized meshes too.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skin/lbs/kernel.h"
#include "test.h"

static void only_packed_outputs_stream_and_only_when_asked(void)
{
    kernel_io io;
    float dummy[3] = {0};
    kernel_io_init(&io, dummy, 0, dummy, 0, dummy, 0, dummy, 0, NULL, 0, NULL,
                   0, 4, true);
    CHECK(!kernel_io_streaming(&io, 0));
    CHECK(!io.pos.nt && !io.nrm.nt);
    CHECK(kernel_io_streaming(&io, VS_SKIN_STREAMING_STORES));
    CHECK(io.pos.nt && io.nrm.nt);
    /* Interleaved outputs never stream; a packed one beside them does. */
    kernel_io_init(&io, dummy, 0, dummy, 24, dummy, 0, dummy, 24, NULL, 0, NULL,
                   0, 4, true);
    CHECK(!kernel_io_streaming(&io, VS_SKIN_STREAMING_STORES));
    kernel_io_init(&io, dummy, 0, dummy, 0, dummy, 0, dummy, 24, NULL, 0, NULL,
                   0, 4, true);
    CHECK(kernel_io_streaming(&io, VS_SKIN_STREAMING_STORES));
    CHECK(io.pos.nt && !io.nrm.nt);
    /* Scattered (source-order stream) outputs never stream. */
    kernel_io_init(&io, dummy, 0, dummy, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0,
                   4, false);
    CHECK(!kernel_io_streaming(&io, VS_SKIN_STREAMING_STORES));
}

/* Enough vertices for the parallel run to cut several ranges, and few
 * enough that 16 offsets times every kernel stay quick under the emulated
 * CPUs' test runs. */
enum { N = 24001, K = 4, JOINTS = 40 };

static uint32_t seed = 99u;
static float rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return (float)(seed >> 8) / 16777216.0f;
}

static void big_jobs_stream_the_same_bits(void)
{
    float *jm = malloc(JOINTS * 16 * sizeof *jm);
    uint16_t *joints = malloc((size_t)N * K * sizeof *joints);
    float *weights = malloc((size_t)N * K * sizeof *weights);
    float *in = malloc((size_t)N * 6 * sizeof *in);
    /* Outputs at 0, 4, ..., 60 bytes past a 64-byte boundary. */
    unsigned char *a = malloc((size_t)N * 24 + 128);
    unsigned char *b = malloc((size_t)N * 24 + 128);
    vs_context *ctx = NULL;
    const vs_context_options two = {.thread_count = 2};
    CHECK(vs_context_create(&two, &ctx, NULL) == VS_OK);
    if (!jm || !joints || !weights || !in || !a || !b || !ctx) goto done;
    for (int j = 0; j < JOINTS; ++j) {
        memset(jm + 16 * j, 0, 16 * sizeof *jm);
        for (int i = 0; i < 12; ++i)
            jm[16 * j + i] = rnd() * 2 - 1;
        jm[16 * j + 15] = 1.0f;
    }
    for (size_t v = 0; v < (size_t)N * K; ++v) {
        joints[v] = (uint16_t)(rnd() * JOINTS);
        weights[v] = rnd();
    }
    for (size_t v = 0; v < (size_t)N * 6; ++v)
        in[v] = rnd() * 2 - 1;
    for (int isa = VS_ISA_SSE2; isa < VS_ISA_COUNT; ++isa) {
        if (!vs_isa_supported((vs_isa)isa)) continue;
        for (size_t skew = 0; skew < 64; skew += 4) {
            unsigned char *oa =
                (unsigned char *)(((uintptr_t)a + 63) & ~(uintptr_t)63) + skew;
            unsigned char *ob =
                (unsigned char *)(((uintptr_t)b + 63) & ~(uintptr_t)63) + skew;
            for (int parallel = 0; parallel < 2; ++parallel) {
                vs_skinning_job job = {.vertex_count = N,
                                       .influence_count = K,
                                       .joint_matrices = jm,
                                       .joint_count = JOINTS,
                                       .joints = joints,
                                       .weights = weights,
                                       .in_positions = in,
                                       .in_normals = in + (size_t)N * 3,
                                       .isa = (uint32_t)isa};
                memset(oa, 0xAB, (size_t)N * 24);
                memset(ob, 0xCD, (size_t)N * 24);
                job.out_positions = (float *)(void *)oa;
                job.out_normals = (float *)(void *)(oa + (size_t)N * 12);
                job.flags = VS_SKIN_STREAMING_STORES;
                CHECK((parallel ? vs_skinning_job_run_parallel(ctx, &job, NULL)
                                : vs_skinning_job_run(&job, NULL)) == VS_OK);
                job.out_positions = (float *)(void *)ob;
                job.out_normals = (float *)(void *)(ob + (size_t)N * 12);
                job.flags = 0;
                CHECK((parallel ? vs_skinning_job_run_parallel(ctx, &job, NULL)
                                : vs_skinning_job_run(&job, NULL)) == VS_OK);
                CHECK_MSG(memcmp(oa, ob, (size_t)N * 24) == 0,
                          "%s, skew %zu, parallel %d: streamed and cached "
                          "outputs differ",
                          vs_isa_name((vs_isa)isa), skew, parallel);
            }
        }
    }
done:
    vs_context_free(ctx);
    free(jm);
    free(joints);
    free(weights);
    free(in);
    free(a);
    free(b);
}

int main(void)
{
    RUN(only_packed_outputs_stream_and_only_when_asked);
    RUN(big_jobs_stream_the_same_bits);
    return test_summary();
}
