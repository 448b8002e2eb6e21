/* Timing, a tiny persistent thread pool (so threads are not created inside
 * timed regions) and the result list. */
#include <pthread.h>
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

typedef struct worker_arg {
    struct bench_pool *pool;
    int index;
} worker_arg;

struct bench_pool {
    int threads;
    pthread_t *ids;
    worker_arg *args;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    unsigned long generation;
    int pending;
    bool quit;
    bench_task task;
    void *ctx;
};

static void *worker(void *arg)
{
    worker_arg *w = arg;
    bench_pool *p = w->pool;
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        seen = p->generation;
        bench_task task = p->task;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->lock);
        task(ctx, w->index, p->threads);
        pthread_mutex_lock(&p->lock);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->lock);
    }
}

bench_pool *bench_pool_create(int threads)
{
    if (threads < 1) threads = 1;
    bench_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->threads = threads;
    p->ids = calloc((size_t)threads, sizeof *p->ids);
    p->args = calloc((size_t)threads, sizeof *p->args);
    if (!p->ids || !p->args) {
        free(p->ids);
        free(p->args);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    for (int i = 1; i < threads; ++i) {
        p->args[i] = (worker_arg){p, i};
        if (pthread_create(&p->ids[i], NULL, worker, &p->args[i]) != 0) {
            p->threads = i; /* run with the workers that started */
            break;
        }
    }
    return p;
}

int bench_pool_threads(const bench_pool *pool)
{
    return pool->threads;
}

void bench_pool_run(bench_pool *p, bench_task task, void *ctx)
{
    pthread_mutex_lock(&p->lock);
    p->task = task;
    p->ctx = ctx;
    p->pending = p->threads - 1;
    ++p->generation;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    task(ctx, 0, p->threads);
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void bench_pool_free(bench_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 1; i < p->threads; ++i)
        pthread_join(p->ids[i], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p->ids);
    free(p->args);
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
