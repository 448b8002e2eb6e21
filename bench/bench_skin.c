/* SPDX-License-Identifier: MIT */
/* Skinning throughput: vertices per second for positions / +normals /
 * +tangents x influence counts x vertex counts x threads, for the scalar
 * reference, the dispatched kernel (VS_ISA_AUTO), each ISA this CPU runs,
 * and the prepared compact stream. Inputs are random but deterministic;
 * every buffer is allocated once per vertex count and touched before timing. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define BENCH_JOINTS 64u

static const char *ATTR_NAMES[3] = {"pos", "pos+nrm", "pos+nrm+tan"};

typedef struct skin_buffers {
    size_t n;
    float *in_p, *out_p, *in_n, *out_n, *in_t, *out_t;
    uint16_t *joints;
    float *weights;
    float matrices[BENCH_JOINTS * 16];
    vs_skin_method method;
    uint32_t store_flags; /* bench_config.store_flags */
} skin_buffers;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* A draw in [0, n) from the generator's high bits: "lcg() % n" keeps its
 * low bits, whose period is far shorter (for n = 64, 16384 draws), so
 * "random" joint lists would repeat and vertices share them after all. */
static uint32_t lcg_below(uint32_t *s, uint32_t n)
{
    return (uint32_t)(((uint64_t)lcg(s) * n) >> 24);
}

static float unit(uint32_t *s)
{
    return (float)lcg(s) / 16777216.0f;
}

static void fill_matrices(float *m, uint32_t *seed)
{
    for (uint32_t j = 0; j < BENCH_JOINTS; ++j) {
        /* A rotation about a random axis plus a translation: the rigid
         * transforms skeletons produce. */
        float ax = unit(seed) - 0.5f, ay = unit(seed) - 0.5f,
              az = unit(seed) - 0.5f;
        float len = sqrtf(ax * ax + ay * ay + az * az) + 1e-6f;
        ax /= len, ay /= len, az /= len;
        float a = 3.0f * unit(seed), c = cosf(a), s = sinf(a), t = 1 - c;
        float *o = m + j * 16;
        o[0] = t * ax * ax + c, o[1] = t * ax * ay + s * az,
        o[2] = t * ax * az - s * ay, o[3] = 0;
        o[4] = t * ax * ay - s * az, o[5] = t * ay * ay + c,
        o[6] = t * ay * az + s * ax, o[7] = 0;
        o[8] = t * ax * az + s * ay, o[9] = t * ay * az - s * ax,
        o[10] = t * az * az + c, o[11] = 0;
        o[12] = unit(seed), o[13] = unit(seed), o[14] = unit(seed), o[15] = 1;
    }
}

static bool alloc_buffers(skin_buffers *b, size_t n, uint32_t max_k)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    b->in_p = bench_alloc(n * 12), b->out_p = bench_alloc(n * 12);
    b->in_n = bench_alloc(n * 12), b->out_n = bench_alloc(n * 12);
    b->in_t = bench_alloc(n * 16), b->out_t = bench_alloc(n * 16);
    b->joints = bench_alloc(n * max_k * 2);
    b->weights = bench_alloc(n * max_k * 4);
    if (!b->in_p || !b->out_p || !b->in_n || !b->out_n || !b->in_t ||
        !b->out_t || !b->joints || !b->weights)
        return false;
    uint32_t seed = 12345u;
    for (size_t i = 0; i < n * 3; ++i)
        b->in_p[i] = unit(&seed) * 2 - 1;
    for (size_t v = 0; v < n; ++v) {
        float x = unit(&seed) - 0.5f, y = unit(&seed) - 0.5f,
              z = unit(&seed) - 0.5f, l = sqrtf(x * x + y * y + z * z) + 1e-6f;
        b->in_n[v * 3] = x / l, b->in_n[v * 3 + 1] = y / l,
                    b->in_n[v * 3 + 2] = z / l;
        b->in_t[v * 4] = -y / l, b->in_t[v * 4 + 1] = x / l,
                    b->in_t[v * 4 + 2] = 0, b->in_t[v * 4 + 3] = 1;
    }
    fill_matrices(b->matrices, &seed);
    return true;
}

static void free_buffers(skin_buffers *b)
{
    free(b->in_p), free(b->out_p), free(b->in_n), free(b->out_n);
    free(b->in_t), free(b->out_t), free(b->joints), free(b->weights);
}

/* k packed influences per vertex: distinct joints, random weights summing
 * to 1 (as exporters write them). Banded joints (a random first joint, the
 * rest at fixed steps) give at most BENCH_JOINTS joint sets, which vertices
 * share as on a real mesh; random joints draw each vertex's set afresh, so
 * vertices do not share sets and nothing can reuse one vertex's joint
 * lookups for the next. */
static void fill_influences(skin_buffers *b, uint32_t k, bool random_joints)
{
    uint32_t seed = 777u + k;
    for (size_t v = 0; v < b->n; ++v) {
        uint32_t first = lcg(&seed) % BENCH_JOINTS;
        float sum = 0, *w = b->weights + v * k;
        for (uint32_t i = 0; i < k; ++i) {
            uint32_t joint = (first + i * 7u) % BENCH_JOINTS;
            for (bool fresh = !random_joints; !fresh;) {
                joint = lcg_below(&seed, BENCH_JOINTS);
                fresh = true;
                for (uint32_t e = 0; e < i; ++e)
                    fresh = fresh && b->joints[v * k + e] != joint;
            }
            b->joints[v * k + i] = (uint16_t)joint;
            w[i] = 0.05f + unit(&seed);
            sum += w[i];
        }
        for (uint32_t i = 0; i < k; ++i)
            w[i] /= sum;
    }
}

static vs_skinning_job make_job(const skin_buffers *b, uint32_t k, int attrs)
{
    vs_skinning_job job = {
        .vertex_count = b->n,
        .influence_count = k,
        .joint_matrices = b->matrices,
        .joint_count = BENCH_JOINTS,
        .joints = b->joints,
        .weights = b->weights,
        .in_positions = b->in_p,
        .out_positions = b->out_p,
        .tangent_components = 4,
        .flags = b->store_flags,
        .method = b->method,
    };
    if (attrs >= 1) job.in_normals = b->in_n, job.out_normals = b->out_n;
    if (attrs >= 2) job.in_tangents = b->in_t, job.out_tangents = b->out_t;
    return job;
}

static double bytes_per_vertex(int attrs, double influence_bytes)
{
    double bytes = 24.0; /* positions: 12 in + 12 out */
    if (attrs >= 1) bytes += 24.0;
    if (attrs >= 2) bytes += 32.0;
    return bytes + influence_bytes;
}

/* -------------------------------------------------- running one cell */

typedef struct skin_cell {
    bench_pool *pool;
    /* When set, vs_skinning_job_run_parallel splits the job over this
     * context's threads instead of bench_pool. */
    vs_context *context;
    vs_skinning_job job;
    bool reference;
    const vs_skin_stream *stream;
    atomic_bool failed; /* written by any worker */
} skin_cell;

/* Each thread skins a contiguous slice, cut at multiples of SLICE_ALIGN
 * vertices (a multiple of every block size the kernels use, as the
 * library's parallel jobs cut theirs) so SIMD blocks and cache lines do not
 * straddle threads. */
enum { SLICE_ALIGN = 384 };
static void slice(size_t n, int index, int count, size_t *lo, size_t *hi)
{
    size_t blocks = (n + SLICE_ALIGN - 1) / SLICE_ALIGN;
    *lo = blocks * (size_t)index / (size_t)count * SLICE_ALIGN;
    *hi = blocks * (size_t)(index + 1) / (size_t)count * SLICE_ALIGN;
    if (*lo > n) *lo = n;
    if (*hi > n) *hi = n;
}

static void offset_job(vs_skinning_job *j, size_t lo, size_t hi)
{
    uint32_t k = j->influence_count;
    j->vertex_count = hi - lo;
    j->joints += lo * k, j->weights += lo * k;
    j->in_positions += lo * 3, j->out_positions += lo * 3;
    if (j->in_normals) j->in_normals += lo * 3, j->out_normals += lo * 3;
    if (j->in_tangents) j->in_tangents += lo * 4, j->out_tangents += lo * 4;
}

static void skin_task(void *arg, int index, int count)
{
    skin_cell *c = arg;
    size_t lo, hi;
    slice(c->stream ? vs_skin_stream_vertex_count(c->stream)
                    : c->job.vertex_count,
          index, count, &lo, &hi);
    if (hi <= lo) return;
    vs_result r;
    if (c->stream) {
        vs_skin_stream_job sj = {
            .stream = c->stream,
            .joint_matrices = c->job.joint_matrices,
            .first_vertex = lo,
            .vertex_count = hi - lo,
            .order = VS_STREAM_ORDER_STREAM,
            .in_positions = c->job.in_positions,
            .out_positions = c->job.out_positions,
            .in_normals = c->job.in_normals,
            .out_normals = c->job.out_normals,
            .in_tangents = c->job.in_tangents,
            .out_tangents = c->job.out_tangents,
            .tangent_components = 4,
            .isa = c->job.isa,
            .flags = c->job.flags,
        };
        r = vs_skin_stream_job_run(&sj, NULL);
    } else {
        vs_skinning_job j = c->job;
        offset_job(&j, lo, hi);
        r = c->reference ? vs_skinning_job_run_reference(&j, NULL)
                         : vs_skinning_job_run(&j, NULL);
    }
    if (r != VS_OK) c->failed = true;
}

static void skin_once(void *arg)
{
    skin_cell *c = arg;
    if (c->context) {
        if (vs_skinning_job_run_parallel(c->context, &c->job, NULL) != VS_OK)
            c->failed = true;
        return;
    }
    bench_pool_run(c->pool, skin_task, c);
}

static bool measure(const bench_config *cfg, skin_cell *cell, bench_row *row,
                    double bpv)
{
    double s = bench_measure(skin_once, cell, cfg->min_time);
    if (cell->failed) {
        fprintf(stderr, "bench: skinning failed (%s, %s, %u influences)\n",
                row->what, row->impl, row->influences);
        return false;
    }
    row->per_second = (double)row->vertices / s;
    row->bytes_per_vertex = bpv;
    row->gbytes_per_second = row->per_second * bpv / 1e9;
    return true;
}

/* --------------------------------------------------------- the grid */

typedef struct skin_grid {
    const bench_config *cfg;
    bench_results *r;
    bench_pool *pools[BENCH_MAX_LIST];
    vs_context *contexts[BENCH_MAX_LIST];
    skin_buffers b;
} skin_grid;

static bench_row *new_row(skin_grid *g, const char *kind, int attrs, uint32_t k,
                          const char *impl, int threads)
{
    bench_row *row = bench_add(g->r, kind);
    row->what = ATTR_NAMES[attrs];
    row->impl = impl;
    row->influences = k;
    row->vertices = g->b.n;
    row->threads = threads;
    return row;
}

static bool plain_rows(skin_grid *g, uint32_t k, int attrs,
                       const char *auto_name)
{
    double bpv = bytes_per_vertex(attrs, 6.0 * k); /* u16 joint + f32 weight */
    skin_cell cell = {.pool = g->pools[0],
                      .job = make_job(&g->b, k, attrs),
                      .reference = true};
    /* The scalar reference, one thread: the baseline of every ratio. */
    if (!measure(g->cfg, &cell, new_row(g, "skin", attrs, k, "reference", 1),
                 bpv))
        return false;
    /* The library's own threading: vs_skinning_job_run_parallel. */
    cell.reference = false;
    for (int t = 0; t < g->cfg->thread_count; ++t) {
        cell.context = g->contexts[t];
        bench_row *row = new_row(g, "skin", attrs, k, auto_name,
                                 (int)vs_context_thread_count(cell.context));
        if (!measure(g->cfg, &cell, row, bpv)) return false;
    }
    return true;
}

/* Positions + normals on one thread, the dispatched kernel with the
 * default normals and then with VS_SKIN_NORMALS_BY_MATRIX, measured one
 * after the other so their ratio compares like with like. */
static bool normals_rows(skin_grid *g, uint32_t k, const char *auto_name)
{
    double bpv = bytes_per_vertex(1, 6.0 * k);
    skin_cell cell = {.pool = g->pools[0], .job = make_job(&g->b, k, 1)};
    bench_row *def =
        new_row(g, "isa", 1, k, auto_name, bench_pool_threads(cell.pool));
    if (!measure(g->cfg, &cell, def, bpv)) return false;
    cell.job.flags |= VS_SKIN_NORMALS_BY_MATRIX;
    bench_row *nbm =
        new_row(g, "isa", 1, k, "nrm-by-matrix", bench_pool_threads(cell.pool));
    if (!measure(g->cfg, &cell, nbm, bpv)) return false;
    /* new_row may have moved the rows: the default one is the row before. */
    nbm->vs_default = nbm->per_second / (nbm - 1)->per_second;
    return true;
}

/* Positions + normals on one thread through each kernel this CPU runs. */
static bool isa_rows(skin_grid *g, uint32_t k)
{
    double bpv = bytes_per_vertex(1, 6.0 * k);
    for (int isa = VS_ISA_PORTABLE; isa < VS_ISA_COUNT; ++isa) {
        if (!vs_isa_supported((vs_isa)isa)) continue;
        skin_cell cell = {.pool = g->pools[0], .job = make_job(&g->b, k, 1)};
        cell.job.isa = (uint32_t)isa;
        bench_row *row = new_row(g, "isa", 1, k, vs_isa_name((vs_isa)isa),
                                 bench_pool_threads(cell.pool));
        if (!measure(g->cfg, &cell, row, bpv)) return false;
    }
    return true;
}

/* The prepared stream (u8 joints, unorm16 weights, stream order) of the
 * current influences, positions + normals, on the first `pools` pools. */
static bool stream_cells(skin_grid *g, uint32_t k, const char *auto_name,
                         int pools, bool random_joints)
{
    vs_skin_stream_desc d = {.vertex_count = g->b.n,
                             .influence_count = k,
                             .joint_count = BENCH_JOINTS,
                             .joints = g->b.joints,
                             .weights = g->b.weights};
    vs_skin_stream *stream = NULL;
    vs_error err;
    if (vs_skin_stream_create(&d, &stream, &err) != VS_OK) {
        fprintf(stderr, "bench: %s\n", err.message);
        return false;
    }
    double bpv = bytes_per_vertex(1, vs_skin_stream_bytes_per_vertex(stream));
    bool ok = true;
    for (int t = 0; t < pools && ok; ++t) {
        skin_cell cell = {.pool = g->pools[t],
                          .job = make_job(&g->b, k, 1),
                          .stream = stream};
        bench_row *row = new_row(g, "stream", 1, k, auto_name,
                                 bench_pool_threads(cell.pool));
        row->random_joints = random_joints;
        ok = measure(g->cfg, &cell, row, bpv);
    }
    vs_skin_stream_free(stream);
    return ok;
}

/* The prepared stream beside the plain job on positions only (the cell
 * where the job's own per-vertex work weighs most), and at 4 influences the
 * stream again on joint lists drawn per vertex. */
static bool stream_rows(skin_grid *g, uint32_t k, const char *auto_name,
                        const char *plain_name)
{
    if (!stream_cells(g, k, auto_name, g->cfg->thread_count, false))
        return false;
    skin_cell cell = {.pool = g->pools[0], .job = make_job(&g->b, k, 0)};
    bench_row *row =
        new_row(g, "stream", 0, k, plain_name, bench_pool_threads(cell.pool));
    if (!measure(g->cfg, &cell, row, bytes_per_vertex(0, 6.0 * k)))
        return false;
    if (k != 4) return true;
    fill_influences(&g->b, k, true);
    bool ok = stream_cells(g, k, auto_name, 1, true);
    fill_influences(&g->b, k, false);
    return ok;
}

static bool has_influence(const bench_config *c, uint32_t k)
{
    for (int i = 0; i < c->influence_count; ++i)
        if (c->influences[i] == k) return true;
    return false;
}

bool bench_skin(const bench_config *cfg, bench_results *r)
{
    skin_grid g = {.cfg = cfg, .r = r};
    char name[48];
    snprintf(name, sizeof name, "auto:%s", vs_isa_name(vs_cpu_best_isa()));
    const char *auto_name = bench_string(r, name);
    snprintf(name, sizeof name, "job:%s", vs_isa_name(vs_cpu_best_isa()));
    const char *plain_name = bench_string(r, name);
    bool ok = true;
    for (int t = 0; t < cfg->thread_count && ok; ++t) {
        vs_context_options o = {.thread_count = (uint32_t)cfg->threads[t]};
        ok = (g.pools[t] = bench_pool_create(cfg->threads[t])) != NULL &&
             vs_context_create(&o, &g.contexts[t], NULL) == VS_OK;
    }
    uint32_t max_k = 1;
    for (int i = 0; i < cfg->influence_count; ++i)
        if (cfg->influences[i] > max_k) max_k = cfg->influences[i];
    for (int s = 0; s < cfg->size_count && ok; ++s) {
        if (!alloc_buffers(&g.b, cfg->sizes[s], max_k)) {
            fprintf(stderr, "bench: cannot allocate buffers for %zu vertices\n",
                    cfg->sizes[s]);
            ok = false;
        }
        for (int i = 0; i < cfg->influence_count && ok; ++i) {
            uint32_t k = cfg->influences[i];
            g.b.method = cfg->method;
            g.b.store_flags = cfg->store_flags;
            fill_influences(&g.b, k, false);
            for (int attrs = 0; attrs < 3 && ok; ++attrs)
                ok = plain_rows(&g, k, attrs, auto_name);
            if (ok && k == 4) ok = isa_rows(&g, k);
            if (ok && k == 4 && cfg->method == VS_SKIN_LINEAR)
                ok = normals_rows(&g, k, auto_name);
            if (ok && (k == 1 || k == 4) && cfg->method == VS_SKIN_LINEAR)
                ok = stream_rows(&g, k, auto_name, plain_name);
        }
        free_buffers(&g.b);
    }
    if (ok && !has_influence(cfg, 4))
        fprintf(stderr, "bench: no 4-influence cells, so no per-ISA rows\n");
    for (int t = 0; t < cfg->thread_count; ++t) {
        bench_pool_free(g.pools[t]);
        vs_context_free(g.contexts[t]);
    }
    return ok;
}
