/* SPDX-License-Identifier: MIT */
/* Non-temporal output stores (VS_SKIN_STREAMING_STORES): which outputs
 * stream, which jobs choose them by size, and a job of many blocks on every
 * SIMD kernel this CPU runs, whole and split over a context's threads, with
 * packed normals at every 4-byte offset within a cache line (the kernels stream
 * whole lines, 16-byte pieces or plain stores by the alignment they find),
 * giving bit for bit what cached stores give. (The kernel tests run every ISA
 * with the flag on small and odd-sized meshes too.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skin/lbs/kernel.h"
#include "skin/skinning_internal.h"
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

/* A job that sets neither store flag streams from
 * VS_SKIN_STREAMING_AUTO_BYTES moved, counting every attribute it has in and
 * out; one flag fixes the choice, both are refused. */
static void jobs_choose_their_stores_by_size(void)
{
    const float dummy[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float out[6] = {0};
    const uint16_t joint[4] = {0};
    /* Positions and normals, 4 influences: 48 + 4 * (2 + 4) bytes. */
    const size_t per = 72;
    const size_t edge = VS_SKIN_STREAMING_AUTO_BYTES / per;
    vs_skinning_job job = {.vertex_count = edge,
                           .influence_count = 4,
                           .joint_matrices = dummy,
                           .joint_count = 1,
                           .joints = joint,
                           .weights = dummy,
                           .in_positions = dummy,
                           .out_positions = out,
                           .in_normals = dummy,
                           .out_normals = out + 3};
    CHECK(skinning_job_bytes(&job) == edge * per);
    CHECK((skinning_job_store_flags(&job) & SKIN_STORE_FLAGS) ==
          (edge * per >= VS_SKIN_STREAMING_AUTO_BYTES ? VS_SKIN_STREAMING_STORES
                                                      : VS_SKIN_CACHED_STORES));
    job.vertex_count = edge + 1;
    CHECK((skinning_job_store_flags(&job) & SKIN_STORE_FLAGS) ==
          VS_SKIN_STREAMING_STORES);
    /* Tangents of 4 floats, in and out, count too. */
    job.vertex_count = VS_SKIN_STREAMING_AUTO_BYTES / (per + 32) + 1;
    job.in_tangents = dummy, job.out_tangents = out;
    CHECK(skinning_job_bytes(&job) == job.vertex_count * (per + 32));
    CHECK((skinning_job_store_flags(&job) & SKIN_STORE_FLAGS) ==
          VS_SKIN_STREAMING_STORES);
    job.in_tangents = NULL, job.out_tangents = NULL;
    /* Below the size, and with RAW_WEIGHTS kept as it is. */
    job.vertex_count = 1000;
    job.flags = VS_SKIN_RAW_WEIGHTS;
    CHECK(skinning_job_store_flags(&job) ==
          (VS_SKIN_RAW_WEIGHTS | VS_SKIN_CACHED_STORES));
    /* The caller's flag wins either way. */
    job.flags = VS_SKIN_STREAMING_STORES;
    CHECK(skinning_job_store_flags(&job) == VS_SKIN_STREAMING_STORES);
    job.vertex_count = edge * 4;
    job.flags = VS_SKIN_CACHED_STORES;
    CHECK(skinning_job_store_flags(&job) == VS_SKIN_CACHED_STORES);
    /* A count past the address space saturates instead of wrapping. */
    job.vertex_count = SIZE_MAX / 8;
    CHECK(skinning_job_bytes(&job) == SIZE_MAX);
    /* Opposite asks are refused, by name (test_skin_stream: the stream
     * job's). */
    job.vertex_count = 1;
    job.flags = SKIN_STORE_FLAGS;
    vs_error err;
    CHECK(vs_skinning_job_validate(&job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "VS_SKIN_CACHED_STORES") != NULL);
    job.flags = VS_SKIN_CACHED_STORES;
    CHECK(vs_skinning_job_validate(&job, NULL) == VS_OK);
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
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

/* The first 64-byte boundary in p. */
static unsigned char *line_start(unsigned char *p)
{
    return (unsigned char *)(((uintptr_t)p + 63) & ~(uintptr_t)63);
}

static vs_result run(vs_skinning_job *job, vs_context *ctx, int parallel)
{
    return parallel ? vs_skinning_job_run_parallel(ctx, job, NULL)
                    : vs_skinning_job_run(job, NULL);
}

/* Positions from out, normals from the skew-th byte past the first 64-byte
 * boundary after them. The job's lead puts its packed positions on a line
 * whatever their start, so the skew reaches the kernels through the
 * normals. Returns the bytes the outputs span. */
static size_t place_outputs(vs_skinning_job *job, unsigned char *out,
                            size_t skew)
{
    unsigned char *normals = line_start(out + (size_t)N * 12) + skew;
    job->out_positions = (float *)(void *)out;
    job->out_normals = (float *)(void *)normals;
    return (size_t)(normals - out) + (size_t)N * 12;
}

/* Runs job streamed into oa and cached into ob, each with its outputs
 * placed by place_outputs over different fill bytes, and compares the
 * positions and the normals the two wrote. */
static void streams_as_cached(vs_skinning_job *job, vs_context *ctx,
                              int parallel, unsigned char *oa,
                              unsigned char *ob, size_t skew)
{
    const size_t span = place_outputs(job, oa, skew);
    memset(oa, 0xAB, span);
    memset(ob, 0xCD, span);
    job->flags = VS_SKIN_STREAMING_STORES;
    CHECK(run(job, ctx, parallel) == VS_OK);
    place_outputs(job, ob, skew);
    job->flags = VS_SKIN_CACHED_STORES;
    CHECK(run(job, ctx, parallel) == VS_OK);
    const size_t normals = span - (size_t)N * 12;
    CHECK_MSG(memcmp(oa, ob, (size_t)N * 12) == 0 &&
                  memcmp(oa + normals, ob + normals, (size_t)N * 12) == 0,
              "%s, skew %zu, parallel %d: streamed and cached outputs differ",
              vs_isa_name((vs_isa)job->isa), skew, parallel);
}

static void big_jobs_stream_the_same_bits(void)
{
    float *jm = malloc(JOINTS * 16 * sizeof *jm);
    uint16_t *joints = malloc((size_t)N * K * sizeof *joints);
    float *weights = malloc((size_t)N * K * sizeof *weights);
    float *in = malloc((size_t)N * 6 * sizeof *in);
    /* Room for two roundings up to a 64-byte boundary and two skews. */
    unsigned char *a = malloc((size_t)N * 24 + 256);
    unsigned char *b = malloc((size_t)N * 24 + 256);
    vs_context *ctx = NULL;
    const vs_context_options two = {.thread_count = 2};
    CHECK(vs_context_create(&two, &ctx, NULL) == VS_OK);
    vs_skinning_job job = {.vertex_count = N,
                           .influence_count = K,
                           .joint_matrices = jm,
                           .joint_count = JOINTS,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = in};
    if (!jm || !joints || !weights || !in || !a || !b || !ctx) goto done;
    job.in_normals = in + (size_t)N * 3;
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
        job.isa = (uint32_t)isa;
        for (size_t skew = 0; skew < 64; skew += 4)
            for (int parallel = 0; parallel < 2; ++parallel)
                streams_as_cached(&job, ctx, parallel, line_start(a),
                                  line_start(b), skew);
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
    RUN(jobs_choose_their_stores_by_size);
    RUN(big_jobs_stream_the_same_bits);
    return test_summary();
}
