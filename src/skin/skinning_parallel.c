/* SPDX-License-Identifier: MIT */
/* vs_skinning_job_run_parallel and vs_skin_stream_job_run_parallel: the job
 * split into disjoint vertex ranges, each run by the serial call (so
 * whatever kernel that picks, the split result equals the whole run vertex
 * for vertex). */
#include <stdatomic.h>
#include <stdint.h>

#include "base/error.h"
#include "skin/lbs/kernel.h"
#include "skin/skinning_internal.h"
#include "vskin/vskin.h"

/* Fewer vertices than this per task cost more in hand-off than they save. */
#define VS_MIN_VERTICES_PER_TASK 2048u

/* What every range of one parallel call shares: the job (a
 * vs_skinning_job or a vs_skin_stream_job) and the first failure. */
typedef struct range_task {
    const void *job;
    size_t count, lead; /* the job's vertices; its lead (skinning_job_lead) */
    atomic_int result;  /* a failing range's code, VS_OK when none */
} range_task;

static const void *advance(const void *p, size_t stride, size_t element,
                           size_t count)
{
    if (!p) return NULL;
    return (const unsigned char *)p + (stride ? stride : element) * count;
}

/* A range bound moved past the plain job's lead, where a serial block
 * starts (range_grain); the job's own bounds stay. */
static size_t after_lead(const range_task *task, size_t at)
{
    if (at == 0 || at == task->count) return at;
    return task->count - at > task->lead ? at + task->lead : task->count;
}

static void run_range(void *user, size_t begin, size_t end, uint32_t worker)
{
    (void)worker;
    range_task *task = user;
    const vs_skinning_job *job = task->job;
    begin = after_lead(task, begin);
    end = after_lead(task, end);
    if (begin == end) return;
    const size_t inf = job->influence_count;
    const size_t tangent = skin_tangent_bytes(job->tangent_components);
    vs_skinning_job sub = *job;
    sub.vertex_count = end - begin;
    sub.joints =
        advance(job->joints, job->joints_stride, inf * sizeof(uint16_t), begin);
    sub.weights =
        advance(job->weights, job->weights_stride, inf * sizeof(float), begin);
    sub.in_positions = advance(job->in_positions, job->in_positions_stride,
                               3 * sizeof(float), begin);
    sub.out_positions =
        (float *)advance(job->out_positions, job->out_positions_stride,
                         3 * sizeof(float), begin);
    sub.in_normals = advance(job->in_normals, job->in_normals_stride,
                             3 * sizeof(float), begin);
    sub.out_normals = (float *)advance(
        job->out_normals, job->out_normals_stride, 3 * sizeof(float), begin);
    sub.in_tangents =
        advance(job->in_tangents, job->in_tangents_stride, tangent, begin);
    sub.out_tangents = (float *)advance(
        job->out_tangents, job->out_tangents_stride, tangent, begin);
    /* Packed strides stay packed: 0 still means "one element". */
    vs_result r = vs_skinning_job_run(&sub, NULL);
    if (r != VS_OK) atomic_store(&task->result, (int)r);
}

/* The range size for count vertices on `threads` participants, or 0 where
 * one serial call is better. About four ranges per participant balances
 * uneven progress, at least VS_MIN_VERTICES_PER_TASK each, and a whole
 * number of ranges per participant where there are enough: 10k vertices on
 * 2 threads made 5 ranges of 2048, 3 for one thread and 2 for the other
 * (1.3x one thread), now 4 of 2560 (1.6-1.8x). */
static size_t range_grain(const vs_context *context, size_t count)
{
    uint32_t threads = vs_context_thread_count(context);
    if (!context || threads < 2 || count < 2 * (size_t)VS_MIN_VERTICES_PER_TASK)
        return 0;
    size_t ranges = count / VS_MIN_VERTICES_PER_TASK;
    if (ranges > (size_t)threads * 4) ranges = (size_t)threads * 4;
    if (ranges >= threads) ranges -= ranges % threads;
    size_t grain = (count + ranges - 1) / ranges;
    /* Ranges start at multiples of every block size the kernels use
     * (KERNEL_RANGE_ALIGN), the plain job's after its lead (run_range):
     * the blocks are then exactly the serial run's, so the results are bit
     * for bit the same (the plain job decides some things per block, such
     * as which weight path it takes); packed output positions also begin
     * on a 64-byte line (no line written by two threads) and keep the
     * 16-byte alignment streaming stores need. A multiple of the stream's
     * chunks (8 vertices) too. */
    return (grain + KERNEL_RANGE_ALIGN - 1) / KERNEL_RANGE_ALIGN *
           KERNEL_RANGE_ALIGN;
}

/* fn (run_range or run_stream_range) over [0, count) in ranges of grain
 * across the pool, then the code of a range that failed, if any. */
static vs_result run_ranges(vs_context *context, size_t count, size_t grain,
                            size_t lead, vs_parallel_fn fn, const void *job,
                            vs_error *error)
{
    range_task task = {.job = job, .count = count, .lead = lead};
    atomic_init(&task.result, VS_OK);
    vs_result r =
        vs_context_parallel_for(context, count, grain, fn, &task, error);
    if (r != VS_OK) return r;
    const int failed = atomic_load(&task.result);
    if (failed == VS_OK) return VS_OK;
    return set_error(error, (vs_result)failed,
                     "skinning job: a vertex range failed after validation");
}

vs_result vs_skinning_job_run_parallel(vs_context *context,
                                       const vs_skinning_job *job,
                                       vs_error *error)
{
    vs_result r = vs_skinning_job_validate(job, error);
    if (r != VS_OK) return r;
    const size_t grain = range_grain(context, job->vertex_count);
    if (!grain) return vs_skinning_job_run(job, error);
    vs_skinning_job whole = *job;
    whole.flags = skinning_job_store_flags(job);
    return run_ranges(context, job->vertex_count, grain, skinning_job_lead(job),
                      run_range, &whole, error);
}

static void run_stream_range(void *user, size_t begin, size_t end,
                             uint32_t worker)
{
    (void)worker;
    range_task *task = user;
    vs_skin_stream_job sub = *(const vs_skin_stream_job *)task->job;
    /* Attributes stay where they are: the job indexes them by stream
     * position (or source vertex), not from first_vertex. */
    sub.first_vertex += begin;
    sub.vertex_count = end - begin;
    vs_result r = vs_skin_stream_job_run(&sub, NULL);
    if (r != VS_OK) atomic_store(&task->result, (int)r);
}

vs_result vs_skin_stream_job_run_parallel(vs_context *context,
                                          const vs_skin_stream_job *job,
                                          vs_error *error)
{
    vs_result r = vs_skin_stream_job_validate(job, error);
    if (r != VS_OK) return r;
    const size_t grain = range_grain(context, job->vertex_count);
    if (!grain) return vs_skin_stream_job_run(job, error);
    return run_ranges(context, job->vertex_count, grain, 0, run_stream_range,
                      job, error);
}
