/* SPDX-License-Identifier: MIT */
/* Timing, the bench's pool (a vs_context created before timing, so no
 * thread is created inside a timed region) and the result list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bench_measure(void (*fn)(void *), void *ctx, double min_time)
{
    double t0 = bench_now();
    fn(ctx); /* warm-up: caches, branch predictors, page faults */
    double once = bench_now() - t0;
    /* Batches of about a tenth of the budget, so the best batch is not one
     * lucky call yet timer resolution does not matter. */
    long per_batch = 1;
    if (once > 0 && once < min_time / 10)
        per_batch = (long)(min_time / 10 / once);
    if (per_batch < 1) per_batch = 1;
    double best = 1e300, start = bench_now();
    int batches = 0;
    while (batches < 3 || bench_now() - start < min_time) {
        double b0 = bench_now();
        for (long i = 0; i < per_batch; ++i)
            fn(ctx);
        double per_call = (bench_now() - b0) / (double)per_batch;
        if (per_call < best) best = per_call;
        ++batches;
    }
    return best;
}

void *bench_alloc(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p) memset(p, 0, rounded ? rounded : 64); /* first touch */
    return p;
}

/* The bench's pool is a vs_context (the library's own pool, whose idle
 * threads poll briefly before they sleep): task index i of n is chunk i of
 * a parallel_for over n indices, grain 1. */
struct bench_pool {
    vs_context *ctx;
    int threads;
};

bench_pool *bench_pool_create(int threads)
{
    if (threads < 1) threads = 1;
    bench_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    vs_context_options o = {.thread_count = (uint32_t)threads};
    vs_error err;
    if (vs_context_create(&o, &p->ctx, &err) != VS_OK) {
        fprintf(stderr, "bench: %s\n", err.message);
        free(p);
        return NULL;
    }
    p->threads = threads;
    return p;
}

int bench_pool_threads(const bench_pool *pool)
{
    return pool->threads;
}

typedef struct pool_call {
    bench_task task;
    void *ctx;
    int count;
} pool_call;

static void pool_chunk(void *user, size_t begin, size_t end, uint32_t worker)
{
    (void)worker;
    const pool_call *c = user;
    for (size_t i = begin; i < end; ++i)
        c->task(c->ctx, (int)i, c->count);
}

void bench_pool_run(bench_pool *p, bench_task task, void *ctx)
{
    pool_call call = {task, ctx, p->threads};
    vs_error err;
    if (vs_context_parallel_for(p->ctx, (size_t)p->threads, 1, pool_chunk,
                                &call, &err) != VS_OK) {
        /* Only a nested or concurrent call fails; the bench makes none. */
        fprintf(stderr, "bench: %s\n", err.message);
        abort();
    }
}

void bench_pool_free(bench_pool *p)
{
    if (!p) return;
    vs_context_free(p->ctx);
    free(p);
}

bench_row *bench_add(bench_results *r, const char *kind)
{
    if (r->count == r->capacity) {
        size_t cap = r->capacity ? r->capacity * 2 : 64;
        bench_row *rows = realloc(r->rows, cap * sizeof *rows);
        if (!rows) {
            fprintf(stderr, "bench: out of memory\n");
            exit(1);
        }
        r->rows = rows;
        r->capacity = cap;
    }
    bench_row *row = &r->rows[r->count++];
    memset(row, 0, sizeof *row);
    row->kind = kind;
    row->what = "";
    row->impl = "";
    return row;
}

const char *bench_string(bench_results *r, const char *text)
{
    for (int i = 0; i < r->string_count; ++i)
        if (strcmp(r->strings[i], text) == 0) return r->strings[i];
    if (r->string_count == 64) return "?";
    snprintf(r->strings[r->string_count], sizeof r->strings[0], "%s", text);
    return r->strings[r->string_count++];
}

void bench_results_free(bench_results *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}
