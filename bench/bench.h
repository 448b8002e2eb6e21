/* SPDX-License-Identifier: MIT */
/* The vskin benchmark: one run measures skinning throughput (reference and
 * fast kernels, 1..n threads), the machine's copy bandwidth, per-character
 * pose cost and crowd throughput, and prints a table or JSON. Shared by the
 * standalone `vskin-bench` program and `vskin bench`. */
#ifndef VS_BENCH_BENCH_H
#define VS_BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

#define BENCH_MAX_LIST 8

typedef struct bench_config {
    bool smoke;
    bool json;
    size_t sizes[BENCH_MAX_LIST];
    int size_count;
    int threads[BENCH_MAX_LIST];
    int thread_count;
    uint32_t influences[BENCH_MAX_LIST];
    int influence_count;
    const char *plot;  /* PNG path or NULL */
    const char *asset; /* character asset or NULL: CesiumMan / SimpleSkin */
    /* Blending of the skinning rows (--method linear|dq). The reference
     * rows run the scalar reference of the same method; the stream rows
     * exist for linear blending only (the stream has no DQS path). */
    vs_skin_method method;
    /* --stores auto|cached|streaming: 0, VS_SKIN_CACHED_STORES or
     * VS_SKIN_STREAMING_STORES on every linear skinning job of the run. */
    uint32_t store_flags;
    double min_time;   /* seconds of timed work per cell */
    size_t copy_bytes; /* bytes per STREAM array */
    int crowd;         /* characters in the crowd */
} bench_config;

/* One measured cell. Fields that do not apply to a kind are 0. */
typedef struct bench_row {
    const char *kind; /* "copy", "skin", "isa", "stream", "frame", "crowd" */
    const char *what; /* attributes ("pos", "pos+nrm", "pos+nrm+tan") or
                         the character's name */
    const char *impl; /* "reference", "auto:avx2", "portable", ... */
    uint32_t influences;
    size_t vertices;
    int threads;
    double per_second;        /* vertices, characters or copies per second */
    double bytes_per_vertex;  /* inputs read + outputs written */
    double gbytes_per_second; /* 1e9 bytes moved per second */
    double us_per_frame;      /* frame rows: microseconds per character-frame */
    double speedup;           /* per_second / the 1-thread reference's */
    double copy_fraction; /* gbytes_per_second / copy bandwidth, same threads */
    bool random_joints;   /* joint lists drawn per vertex, not shared */
    /* The VS_SKIN_NORMALS_BY_MATRIX row: per_second / that of the default
     * normals' row measured just before it; 0 for other rows. */
    double vs_default;
} bench_row;

typedef struct bench_results {
    bench_row *rows;
    size_t count, capacity;
    char strings[64][48]; /* impl/what names built at run time */
    int string_count;
} bench_results;

bench_row *bench_add(bench_results *r, const char *kind);
const char *bench_string(bench_results *r, const char *text);
void bench_results_free(bench_results *r);

/* ---- timing and threads */
double bench_now(void);
/* Calls fn(ctx) once to warm up, then in batches until min_time seconds have
 * passed (at least 3 batches); returns the best seconds per call. */
double bench_measure(void (*fn)(void *), void *ctx, double min_time);

typedef struct bench_pool bench_pool;
typedef void (*bench_task)(void *ctx, int index, int count);
/* `threads` workers in all, the caller being one of them. */
bench_pool *bench_pool_create(int threads);
int bench_pool_threads(const bench_pool *pool);
/* Runs task(ctx, i, n) for i in [0, n) on n = the pool's threads; returns
 * when all are done. */
void bench_pool_run(bench_pool *pool, bench_task task, void *ctx);
void bench_pool_free(bench_pool *pool);
void *bench_alloc(size_t bytes); /* 64-byte aligned, zeroed, or NULL */

/* ---- the parts; each returns false with a message on stderr on failure */
bool bench_copy(const bench_config *c, bench_results *r);
bool bench_skin(const bench_config *c, bench_results *r);
bool bench_frames(const bench_config *c, bench_results *r);
bool bench_crowd(const bench_config *c, bench_results *r);

void bench_print_table(const bench_config *c, const bench_results *r);
bool bench_print_json(const bench_config *c, const bench_results *r);
bool bench_plot(const bench_config *c, const bench_results *r,
                const char *path);

/* Parses options (argv[0] is the command name), runs, prints; returns the
 * exit status. */
int bench_main(int argc, char **argv, const char *prog);

#endif
