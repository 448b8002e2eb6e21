/* SPDX-License-Identifier: MIT */
/* vs_context and its pool: every index visited exactly once, parallel
 * skinning equal bit for bit to the single-threaded job with 0/1/2/4
 * threads, many small calls in a row, nested and bad calls rejected. */
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "test.h"
#include "vskin/vskin.h"

static const uint32_t thread_counts[] = {0, 1, 2, 4};
#define THREAD_CASES (sizeof thread_counts / sizeof thread_counts[0])

typedef struct visit_state {
    atomic_int *hits;
    atomic_int bad_worker;
    uint32_t threads;
} visit_state;

static void visit(void *user, size_t begin, size_t end, uint32_t worker)
{
    visit_state *s = user;
    if (worker >= s->threads) atomic_fetch_add(&s->bad_worker, 1);
    for (size_t i = begin; i < end; ++i)
        atomic_fetch_add(&s->hits[i], 1);
}

static void test_every_index_once(void)
{
    enum { N = 10007 };
    static atomic_int hits[N];
    static const size_t grains[] = {0, 1, 7, 1000, N, N * 2};
    for (size_t t = 0; t < THREAD_CASES; ++t) {
        vs_context *ctx = NULL;
        vs_context_options o = {.thread_count = thread_counts[t]};
        CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
        uint32_t expect = thread_counts[t] ? thread_counts[t] : 1;
        CHECK(vs_context_thread_count(ctx) == expect);
        for (size_t g = 0; g < sizeof grains / sizeof grains[0]; ++g) {
            for (size_t i = 0; i < N; ++i)
                atomic_init(&hits[i], 0);
            visit_state s = {.hits = hits, .threads = expect};
            atomic_init(&s.bad_worker, 0);
            CHECK(vs_context_parallel_for(ctx, N, grains[g], visit, &s, NULL) ==
                  VS_OK);
            int wrong = 0;
            for (size_t i = 0; i < N; ++i)
                wrong += atomic_load(&hits[i]) != 1;
            CHECK_MSG(wrong == 0,
                      "%d threads, grain %zu: %d indices not "
                      "visited exactly once",
                      (int)expect, grains[g], wrong);
            CHECK(atomic_load(&s.bad_worker) == 0);
        }
        vs_context_free(ctx);
    }
}

/* Thousands of tiny calls: each must see its own job and finish. */
static void test_many_small_jobs(void)
{
    enum { N = 64, ROUNDS = 3000 };
    static atomic_int hits[N];
    vs_context *ctx = NULL;
    vs_context_options o = {.thread_count = 4};
    CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
    int wrong = 0;
    for (int round = 0; round < ROUNDS; ++round) {
        size_t count = 1 + (size_t)(round % N);
        for (size_t i = 0; i < N; ++i)
            atomic_init(&hits[i], 0);
        visit_state s = {.hits = hits, .threads = 4};
        atomic_init(&s.bad_worker, 0);
        CHECK(vs_context_parallel_for(ctx, count, 1, visit, &s, NULL) == VS_OK);
        for (size_t i = 0; i < N; ++i)
            wrong += atomic_load(&hits[i]) != (i < count ? 1 : 0);
    }
    CHECK_MSG(wrong == 0, "%d wrong visits over %d calls", wrong, ROUNDS);
    vs_context_free(ctx);
}

typedef struct nested_state {
    vs_context *ctx;
    atomic_int rejected, accepted;
} nested_state;

/* Calls back to back (idle workers still polling), after a pause longer
 * than the pool's polling window (asleep) and in between, on a pool that
 * polls (2 threads, where the machine has 2 CPUs) and on one too large to
 * poll (64): every call sees its own job, none hangs. */
static void test_calls_after_pauses(void)
{
    enum { N = 256, ROUNDS = 400 };
    static atomic_int hits[N];
    static const uint32_t counts[] = {2, 64};
    static const long pauses_us[] = {0, 0, 20, 120, 0, 1000};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; ++c) {
        vs_context *ctx = NULL;
        vs_context_options o = {.thread_count = counts[c]};
        CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
        int wrong = 0;
        for (int round = 0; round < ROUNDS; ++round) {
            const long us = pauses_us[round % 6];
            if (us) {
                struct timespec t = {0, us * 1000};
                nanosleep(&t, NULL);
            }
            size_t count = 1 + (size_t)(round * 37 % N);
            for (size_t i = 0; i < N; ++i)
                atomic_init(&hits[i], 0);
            visit_state s = {.hits = hits, .threads = counts[c]};
            atomic_init(&s.bad_worker, 0);
            CHECK(vs_context_parallel_for(ctx, count, 3, visit, &s, NULL) ==
                  VS_OK);
            for (size_t i = 0; i < N; ++i)
                wrong += atomic_load(&hits[i]) != (i < count ? 1 : 0);
            wrong += atomic_load(&s.bad_worker);
        }
        CHECK_MSG(wrong == 0, "%u threads: %d wrong visits over %d calls",
                  counts[c], wrong, ROUNDS);
        vs_context_free(ctx);
    }
}

static void noop(void *user, size_t b, size_t e, uint32_t w)
{
    (void)user, (void)b, (void)e, (void)w;
}

static void nested(void *user, size_t begin, size_t end, uint32_t worker)
{
    (void)worker;
    nested_state *s = user;
    for (size_t i = begin; i < end; ++i) {
        vs_error err = {0};
        if (vs_context_parallel_for(s->ctx, 8, 1, noop, NULL, &err) ==
                VS_ERROR_ARGUMENT &&
            strstr(err.message, "already running"))
            atomic_fetch_add(&s->rejected, 1);
        else
            atomic_fetch_add(&s->accepted, 1);
    }
}

static void test_nested_call_rejected(void)
{
    for (size_t t = 0; t < THREAD_CASES; ++t) {
        vs_context *ctx = NULL;
        vs_context_options o = {.thread_count = thread_counts[t]};
        CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
        nested_state s = {.ctx = ctx};
        atomic_init(&s.rejected, 0);
        atomic_init(&s.accepted, 0);
        CHECK(vs_context_parallel_for(ctx, 16, 1, nested, &s, NULL) == VS_OK);
        CHECK(atomic_load(&s.rejected) == 16);
        CHECK(atomic_load(&s.accepted) == 0);
        /* The context still works after the rejected calls. */
        CHECK(vs_context_parallel_for(ctx, 8, 1, noop, NULL, NULL) == VS_OK);
        vs_context_free(ctx);
    }
}

static void test_bad_arguments(void)
{
    vs_error err = {0};
    vs_context *ctx = (vs_context *)&err;
    vs_context_options o = {.thread_count = 100000};
    CHECK(vs_context_create(&o, &ctx, &err) == VS_ERROR_LIMIT);
    CHECK(ctx == NULL);
    CHECK(strstr(err.message, "thread_count") != NULL);
    CHECK(vs_context_create(NULL, NULL, &err) == VS_ERROR_ARGUMENT);
    CHECK(vs_context_create(NULL, &ctx, NULL) == VS_OK);
    CHECK(vs_context_parallel_for(ctx, 4, 1, NULL, NULL, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_context_parallel_for(NULL, 4, 1, noop, NULL, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_context_parallel_for(ctx, 0, 1, noop, NULL, &err) == VS_OK);
    vs_context_free(ctx);
    vs_context_free(NULL);
    CHECK(vs_context_thread_count(NULL) == 1);
}

/* ------------------------------------------------------ parallel skinning */

static uint32_t rng_state = 12345u;
static float rnd(void) /* [-1, 1) */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 8388608.0f - 1.0f;
}

enum { JOINTS = 23, INF = 4 };

/* The job writing into `out` (interleaved, 10 floats per vertex), after
 * filling it with `fill` so stale values cannot pass for results. */
static vs_skinning_job retarget(const vs_skinning_job *job, float *out,
                                int fill)
{
    memset(out, fill, job->vertex_count * 10 * sizeof(float));
    vs_skinning_job pj = *job;
    pj.out_positions = out;
    pj.out_normals = out + 3;
    pj.out_tangents = out + 6;
    return pj;
}

static void test_parallel_skinning_bit_identical(void)
{
    const size_t n = 50021; /* not a multiple of any grain */
    float *mats = malloc(JOINTS * 16 * sizeof(float));
    uint16_t *joints = malloc(n * INF * sizeof(uint16_t));
    float *weights = malloc(n * INF * sizeof(float));
    float *pos = malloc(n * 3 * sizeof(float));
    float *nrm = malloc(n * 3 * sizeof(float));
    float *tan = malloc(n * 4 * sizeof(float));
    float *ref = malloc(n * 10 * sizeof(float));
    float *out = malloc(n * 10 * sizeof(float));
    for (int j = 0; j < JOINTS; ++j) {
        for (int k = 0; k < 16; ++k)
            mats[16 * j + k] = rnd();
        mats[16 * j + 3] = mats[16 * j + 7] = mats[16 * j + 11] = 0.0f;
        mats[16 * j + 15] = 1.0f;
    }
    for (size_t v = 0; v < n * INF; ++v) {
        joints[v] = (uint16_t)((rnd() + 1.0f) * 0.5f * (JOINTS - 1));
        weights[v] = rnd() + 1.0f;
    }
    for (size_t v = 0; v < n * 3; ++v)
        pos[v] = rnd(), nrm[v] = rnd();
    for (size_t v = 0; v < n * 4; ++v)
        tan[v] = rnd();
    /* Interleaved output (stride 10 floats) exercises byte strides. */
    vs_skinning_job job = {
        .vertex_count = n,
        .influence_count = INF,
        .joint_matrices = mats,
        .joint_count = JOINTS,
        .joints = joints,
        .weights = weights,
        .in_positions = pos,
        .out_positions = ref,
        .out_positions_stride = 10 * sizeof(float),
        .in_normals = nrm,
        .out_normals = ref + 3,
        .out_normals_stride = 10 * sizeof(float),
        .in_tangents = tan,
        .out_tangents = ref + 6,
        .out_tangents_stride = 10 * sizeof(float),
    };
    /* Both methods: DQS goes through the same job, so it splits the same
     * way (its per-run joint conversion is per range, same values). */
    for (int dq = 1; dq >= 0; --dq) {
        job.method = dq ? VS_SKIN_DUAL_QUATERNION : VS_SKIN_LINEAR;
        CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
        for (size_t t = 0; t < THREAD_CASES; ++t) {
            vs_context *ctx = NULL;
            vs_context_options o = {.thread_count = thread_counts[t]};
            CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
            vs_skinning_job pj = retarget(&job, out, 0xff);
            CHECK(vs_skinning_job_run_parallel(ctx, &pj, NULL) == VS_OK);
            CHECK_MSG(memcmp(out, ref, n * 10 * sizeof(float)) == 0,
                      "%u threads, %s: parallel skinning differs",
                      vs_context_thread_count(ctx), dq ? "DQS" : "linear");
            vs_context_free(ctx);
        }
    }
    /* A NULL context runs on the caller. */
    vs_skinning_job pj = retarget(&job, out, 0);
    CHECK(vs_skinning_job_run_parallel(NULL, &pj, NULL) == VS_OK);
    CHECK(memcmp(out, ref, n * 10 * sizeof(float)) == 0);
    /* Validation happens before any thread is involved. */
    vs_error err = {0};
    pj.joint_count = 0;
    CHECK(vs_skinning_job_run_parallel(NULL, &pj, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "joint_count") != NULL);
    free(mats), free(joints), free(weights), free(pos), free(nrm), free(tan);
    free(ref), free(out);
}

int main(void)
{
    RUN(test_every_index_once);
    RUN(test_many_small_jobs);
    RUN(test_calls_after_pauses);
    RUN(test_nested_call_rejected);
    RUN(test_bad_arguments);
    RUN(test_parallel_skinning_bit_identical);
    return test_summary();
}
