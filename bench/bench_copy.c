/* SPDX-License-Identifier: MIT */
/* STREAM-style copy bandwidth (McCalpin's "Copy": b[i] = a[i], counted as
 * 2 * array bytes per pass) with 1..n threads, each copying its own slice,
 * so skinning's bytes per second can be compared with what memory gives in
 * the same run. bench_main measures it before and after the skinning and
 * keeps the best of the two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct copy_ctx {
    const double *a;
    double *b;
    size_t n;
} copy_ctx;

static void copy_slice(void *arg, int index, int count)
{
    copy_ctx *c = arg;
    size_t lo = c->n * (size_t)index / (size_t)count;
    size_t hi = c->n * (size_t)(index + 1) / (size_t)count;
    const double *restrict a = c->a;
    double *restrict b = c->b;
    for (size_t i = lo; i < hi; ++i)
        b[i] = a[i];
}

typedef struct copy_run {
    bench_pool *pool;
    copy_ctx ctx;
} copy_run;

static void copy_once(void *arg)
{
    copy_run *run = arg;
    bench_pool_run(run->pool, copy_slice, &run->ctx);
}

bool bench_copy(const bench_config *c, bench_results *r)
{
    size_t n = c->copy_bytes / sizeof(double);
    double *a = bench_alloc(n * sizeof *a), *b = bench_alloc(n * sizeof *b);
    if (!a || !b) {
        fprintf(stderr, "bench: cannot allocate 2 x %zu bytes for the copy\n",
                c->copy_bytes);
        free(a);
        free(b);
        return false;
    }
    for (size_t i = 0; i < n; ++i)
        a[i] = (double)i;
    bool ok = true;
    for (int t = 0; t < c->thread_count && ok; ++t) {
        copy_run run = {bench_pool_create(c->threads[t]), {a, b, n}};
        if (!run.pool) {
            ok = false;
            break;
        }
        double s = bench_measure(copy_once, &run, c->min_time);
        int threads = bench_pool_threads(run.pool);
        /* Called before and after the skinning: keep the best, as STREAM
         * does, so a burst of other load on the machine counts less. */
        bench_row *row = NULL;
        for (size_t i = 0; i < r->count && !row; ++i)
            if (!strcmp(r->rows[i].kind, "copy") &&
                r->rows[i].threads == threads)
                row = &r->rows[i];
        double gbs = 2.0 * (double)(n * sizeof *a) / s / 1e9;
        if (row && row->gbytes_per_second >= gbs) {
            bench_pool_free(run.pool);
            continue;
        }
        if (!row) row = bench_add(r, "copy");
        row->what = "copy";
        row->impl = "stream";
        row->threads = threads;
        row->vertices = n;
        row->per_second = 1.0 / s;
        row->gbytes_per_second = gbs;
        bench_pool_free(run.pool);
    }
    free(a);
    free(b);
    return ok;
}
