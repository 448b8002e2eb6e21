/* SPDX-License-Identifier: MIT */
/* vs_context: a small pthread pool owned by the caller. No global state and
 * no threads unless asked for (thread_count 0 or 1 runs everything on the
 * calling thread). The calling thread always works too, so thread_count = N
 * starts N - 1 workers.
 *
 * One parallel_for at a time: a dispatch publishes (fn, user, count, grain)
 * under the mutex and bumps a generation counter; every worker and the caller
 * then take chunks from one atomic counter until none is left. The caller
 * returns only after every worker has reported the generation done, so the
 * job's memory may live on the caller's stack.
 *
 * Waking a sleeping thread takes as long as skinning tens of thousands of
 * vertices (docs/threads.md), so both sides spin a little before they sleep: a
 * worker for up to CONTEXT_SPIN_NS after its last generation (back-to-back
 * calls, a frame's several jobs, then find it awake), the caller for up to
 * the same while the workers finish. Only when the pool has no more
 * participants than the machine has online CPUs: an oversubscribed spinner
 * would take the CPU from a thread with work. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#include "base/alloc.h"
#include "base/context_internal.h"
#include "base/error.h"

/* A pool larger than this is a mistake (and an unbounded allocation). */
#define VS_MAX_THREADS 256u
/* How long an idle participant polls before it sleeps. */
#define CONTEXT_SPIN_NS 50000

typedef struct worker_arg {
    vs_context *ctx;
    uint32_t index;
} worker_arg;

struct vs_context {
    vs_allocator alloc;    /* vs_context_options.allocator */
    uint32_t thread_count; /* participants, caller included, >= 1 */
    pthread_t *threads;    /* thread_count - 1 workers */
    /* What each worker starts with, owned by the context so that only the
     * thread that creates and frees it calls the allocator. */
    worker_arg *args;
    uint32_t started;      /* workers actually running */

    bool spin; /* participants <= online CPUs: poll before sleeping */

    /* generation and quit change under lock (so a sleeper cannot miss
     * them) but are atomic, so a spinning participant may poll them. */
    pthread_mutex_t lock;
    pthread_cond_t wake; /* workers wait here for a new generation */
    pthread_cond_t done; /* the caller waits here for the workers */
    atomic_uint_fast64_t generation;
    atomic_uint finished; /* workers done with the current generation */
    atomic_bool quit;

    /* The job in flight (read by workers after they see the generation). */
    vs_parallel_fn fn;
    void *user;
    size_t count, grain;
    atomic_size_t next; /* first index not yet handed out */
    atomic_bool busy;   /* a parallel_for is running: reject re-entry */

    /* Per-participant scratch, grown only by the dispatching thread. */
    context_scratch *scratch;
};

static void run_chunks(vs_context *ctx, uint32_t worker)
{
    for (;;) {
        size_t begin = atomic_fetch_add_explicit(&ctx->next, ctx->grain,
                                                 memory_order_relaxed);
        if (begin >= ctx->count) return;
        size_t end =
            ctx->count - begin < ctx->grain ? ctx->count : begin + ctx->grain;
        ctx->fn(ctx->user, begin, end, worker);
    }
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Polls until done(ctx, arg) or CONTEXT_SPIN_NS have passed (the clock read
 * once every 64 polls). Returns done's last answer. */
static bool spin_until(const vs_context *ctx,
                       bool (*done)(const vs_context *, uint64_t), uint64_t arg)
{
    if (!ctx->spin) return done(ctx, arg);
    const uint64_t start = now_ns();
    for (unsigned i = 1;; ++i) {
        if (done(ctx, arg)) return true;
        CPU_RELAX();
        if (i % 64 == 0 && now_ns() - start > CONTEXT_SPIN_NS) return false;
    }
}

static bool new_generation(const vs_context *ctx, uint64_t seen)
{
    return atomic_load_explicit(&ctx->quit, memory_order_acquire) ||
           atomic_load_explicit(&ctx->generation, memory_order_acquire) != seen;
}

static bool workers_finished(const vs_context *ctx, uint64_t unused)
{
    (void)unused;
    return atomic_load_explicit(&ctx->finished, memory_order_acquire) >=
           ctx->started;
}

static void *worker_main(void *p)
{
    vs_context *ctx = ((worker_arg *)p)->ctx;
    uint32_t index = ((worker_arg *)p)->index;
    uint64_t seen = 0;
    for (;;) {
        if (!spin_until(ctx, new_generation, seen)) {
            pthread_mutex_lock(&ctx->lock);
            while (!new_generation(ctx, seen))
                pthread_cond_wait(&ctx->wake, &ctx->lock);
            pthread_mutex_unlock(&ctx->lock);
        }
        if (atomic_load_explicit(&ctx->quit, memory_order_acquire)) break;
        seen = atomic_load_explicit(&ctx->generation, memory_order_acquire);
        run_chunks(ctx, index);
        /* The last one wakes the caller, under the lock so that a caller
         * between its check and its wait cannot miss the signal. */
        if (atomic_fetch_add_explicit(&ctx->finished, 1, memory_order_acq_rel) +
                1 ==
            ctx->started) {
            pthread_mutex_lock(&ctx->lock);
            pthread_cond_signal(&ctx->done);
            pthread_mutex_unlock(&ctx->lock);
        }
    }
    return NULL;
}

vs_result vs_context_create(const vs_context_options *options, vs_context **out,
                            vs_error *error)
{
    if (out) *out = NULL;
    if (!out)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_context_create: out must not be NULL");
    uint32_t n = options ? options->thread_count : 0;
    if (n > VS_MAX_THREADS)
        return set_error(error, VS_ERROR_LIMIT,
                         "vs_context_create: thread_count %u exceeds the "
                         "limit of %u",
                         n, VS_MAX_THREADS);
    const vs_allocator *alloc = options ? &options->allocator : NULL;
    vs_result r = mem_check_allocator(alloc, "vs_context_create",
                                      "options->allocator", error);
    if (r != VS_OK) return r;
    if (n == 0) n = 1;
    vs_context *ctx = mem_calloc(alloc, 1, sizeof *ctx);
    if (!ctx)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "vs_context_create: out of memory");
    if (alloc) ctx->alloc = *alloc;
    ctx->thread_count = n;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ctx->spin = cpus > 0 && n <= (unsigned long)cpus;
    atomic_init(&ctx->next, 0);
    atomic_init(&ctx->busy, false);
    atomic_init(&ctx->generation, 0);
    atomic_init(&ctx->finished, 0);
    atomic_init(&ctx->quit, false);
    ctx->scratch = mem_calloc(alloc, n, sizeof *ctx->scratch);
    if (n > 1) {
        ctx->threads = mem_calloc(alloc, n - 1, sizeof *ctx->threads);
        ctx->args = mem_calloc(alloc, n - 1, sizeof *ctx->args);
    }
    if (!ctx->scratch || (n > 1 && (!ctx->threads || !ctx->args))) {
        mem_free(alloc, ctx->scratch);
        mem_free(alloc, ctx->threads);
        mem_free(alloc, ctx->args);
        mem_free(alloc, ctx);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "vs_context_create: out of memory for %u threads", n);
    }
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_cond_init(&ctx->wake, NULL);
    pthread_cond_init(&ctx->done, NULL);
    for (uint32_t i = 1; i < n; ++i) {
        worker_arg *arg = &ctx->args[i - 1];
        *arg = (worker_arg){ctx, i};
        if (pthread_create(&ctx->threads[i - 1], NULL, worker_main, arg) != 0) {
            vs_context_free(ctx);
            return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                             "vs_context_create: could not start worker "
                             "thread %u of %u",
                             i, n - 1);
        }
        ctx->started = i;
    }
    *out = ctx;
    return VS_OK;
}

void vs_context_free(vs_context *ctx)
{
    if (!ctx) return;
    pthread_mutex_lock(&ctx->lock);
    atomic_store_explicit(&ctx->quit, true, memory_order_release);
    pthread_cond_broadcast(&ctx->wake);
    pthread_mutex_unlock(&ctx->lock);
    for (uint32_t i = 0; i < ctx->started; ++i)
        pthread_join(ctx->threads[i], NULL);
    pthread_cond_destroy(&ctx->done);
    pthread_cond_destroy(&ctx->wake);
    pthread_mutex_destroy(&ctx->lock);
    const vs_allocator alloc = ctx->alloc;
    for (uint32_t i = 0; i < ctx->thread_count; ++i)
        mem_free(&alloc, ctx->scratch[i].data);
    mem_free(&alloc, ctx->scratch);
    mem_free(&alloc, ctx->threads);
    mem_free(&alloc, ctx->args);
    mem_free(&alloc, ctx);
}

uint32_t vs_context_thread_count(const vs_context *ctx)
{
    return ctx ? ctx->thread_count : 1;
}

vs_result vs_context_parallel_for(vs_context *ctx, size_t count, size_t grain,
                                  vs_parallel_fn fn, void *user,
                                  vs_error *error)
{
    if (!ctx || !fn)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_context_parallel_for: ctx and fn must not be "
                         "NULL");
    if (count == 0) return VS_OK;
    if (grain == 0) grain = 1;
    bool expected = false;
    if (!atomic_compare_exchange_strong(&ctx->busy, &expected, true))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_context_parallel_for: the context is already "
                         "running a parallel_for (a nested call from a task, "
                         "or one context shared by two threads)");
    /* Nothing to share: skip the wake-up round trip. */
    if (ctx->started == 0 || count <= grain) {
        for (size_t b = 0; b < count; b += grain)
            fn(user, b, count - b < grain ? count : b + grain, 0);
        atomic_store(&ctx->busy, false);
        return VS_OK;
    }
    /* Every worker finished the last generation before it returned, so
     * none reads the job's fields while they change here; the release
     * increment of generation publishes them to spinning workers, the
     * mutex to sleeping ones. */
    ctx->fn = fn;
    ctx->user = user;
    ctx->count = count;
    ctx->grain = grain;
    atomic_store_explicit(&ctx->next, 0, memory_order_relaxed);
    atomic_store_explicit(&ctx->finished, 0, memory_order_relaxed);
    pthread_mutex_lock(&ctx->lock);
    atomic_fetch_add_explicit(&ctx->generation, 1, memory_order_release);
    pthread_cond_broadcast(&ctx->wake);
    pthread_mutex_unlock(&ctx->lock);

    run_chunks(ctx, 0);

    if (!spin_until(ctx, workers_finished, 0)) {
        pthread_mutex_lock(&ctx->lock);
        while (!workers_finished(ctx, 0))
            pthread_cond_wait(&ctx->done, &ctx->lock);
        pthread_mutex_unlock(&ctx->lock);
    }
    ctx->fn = NULL;
    ctx->user = NULL;
    atomic_store(&ctx->busy, false);
    return VS_OK;
}

bool context_reserve_scratch(vs_context *ctx, size_t floats)
{
    if (floats > SIZE_MAX / sizeof(float)) return false;
    for (uint32_t i = 0; i < ctx->thread_count; ++i) {
        context_scratch *s = &ctx->scratch[i];
        if (s->capacity >= floats) continue;
        /* The old contents need not survive: scratch is rewritten by every
         * call that uses it. */
        float *p = mem_alloc(&ctx->alloc, floats * sizeof *p);
        if (!p) return false;
        mem_free(&ctx->alloc, s->data);
        s->data = p;
        s->capacity = floats;
    }
    return true;
}

float *context_scratch_of(vs_context *ctx, uint32_t worker)
{
    return ctx->scratch[worker].data;
}
