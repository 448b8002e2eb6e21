/* SPDX-License-Identifier: MIT */
/* The prepared skin stream against the scalar reference: every kernel, both
 * weight formats, raw and normalised weights, source and stream order, and a
 * stream split into two ranges as a thread pool would. unorm16 streams are
 * compared with the reference run on the same quantised weights (raw), with
 * unskinned vertices keeping their inputs, as the reference's own rule. */
#include <stdint.h>

#include "skin/random_mesh.h"
#include "skin/skin_stream_internal.h"
#include "test.h"
#include "vskin/vskin.h"

static const vs_isa isas[] = {VS_ISA_PORTABLE, VS_ISA_SSE2, VS_ISA_AVX2,
                              VS_ISA_AVX512, VS_ISA_AUTO};
#define ISA_COUNT (sizeof isas / sizeof *isas)

typedef struct case_data {
    size_t n;
    uint32_t k, joint_count;
    float *jm;
    uint16_t *joints;
    float *weights;
    float *pos, *nrm, *tan;
    float *rpos, *rnrm, *rtan; /* reference results, source order */
} case_data;

/* The weights a unorm16 stream keeps for one vertex, as the reference
 * should see them (raw). Returns false for an unskinned vertex. */
static int quantised(const float *w, uint32_t k, uint32_t flags, float *out)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < k; ++i)
        sum += w[i];
    double scale = 1.0;
    if (!(flags & VS_SKIN_RAW_WEIGHTS)) {
        if (!(sum > 0.0) || !isfinite(sum)) return 0;
        scale = 1.0 / sum;
    }
    for (uint32_t i = 0; i < k; ++i) {
        float x = (float)(w[i] * scale);
        out[i] = (float)lrintf(x * 65535.0f) / 65535.0f;
    }
    return 1;
}

static void reference(case_data *c, uint32_t flags, int unorm16)
{
    const size_t nk = c->n * c->k + 1;
    uint16_t *joints = malloc(nk * sizeof *joints);
    float *weights = malloc(nk * sizeof *weights);
    unsigned char *kept = calloc(c->n + 1, 1);
    memcpy(joints, c->joints, c->n * c->k * sizeof *joints);
    memcpy(weights, c->weights, c->n * c->k * sizeof *weights);
    if (unorm16) {
        const uint32_t source_flags = flags;
        flags = VS_SKIN_RAW_WEIGHTS;
        for (size_t v = 0; v < c->n; ++v)
            kept[v] = !quantised(c->weights + v * c->k, c->k, source_flags,
                                 weights + v * c->k);
    }
    vs_skinning_job job = {.vertex_count = c->n,
                           .influence_count = c->k,
                           .joint_matrices = c->jm,
                           .joint_count = c->joint_count,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = c->pos,
                           .out_positions = c->rpos,
                           .in_normals = c->nrm,
                           .out_normals = c->rnrm,
                           .in_tangents = c->tan,
                           .out_tangents = c->rtan,
                           .flags = flags};
    CHECK(vs_skinning_job_run_reference(&job, NULL) == VS_OK);
    /* Unskinned under the source's normalised weights: the input as it is
     * (the raw quantised weights cannot say so). */
    for (size_t v = 0; v < c->n; ++v)
        if (kept[v]) {
            memcpy(c->rpos + v * 3, c->pos + v * 3, 3 * sizeof(float));
            memcpy(c->rnrm + v * 3, c->nrm + v * 3, 3 * sizeof(float));
            memcpy(c->rtan + v * 4, c->tan + v * 4, 4 * sizeof(float));
        }
    free(kept);
    free(joints);
    free(weights);
}

static int same(const float *a, const float *ref, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (!close_to_reference(a[i], ref[i])) {
            fprintf(stderr, "  element %zu: %.9g vs ref %.9g\n", i, a[i],
                    ref[i]);

            return 0;
        }
    return 1;
}

/* Which attributes a run skins: positions alone, + normals, + normals and
 * 4-component tangents (interleaved with nothing, but 16 bytes a vertex, so
 * not packed), + normals and 3-component tangents (every attribute packed:
 * the kernels' packed chunk loop). */
enum { ATTRS_POS, ATTRS_NRM, ATTRS_TAN4, ATTRS_TAN3, ATTRS_COUNT };

/* Runs the stream in three ranges and compares in source order. */
static int run_stream(const case_data *c, const vs_skin_stream *s, vs_isa isa,
                      uint32_t order, uint32_t store_flags, int attrs)
{
    const size_t n = c->n;
    const uint32_t *perm = vs_skin_stream_vertex_order(s);
    float *in = malloc((n * 10 + 1) * sizeof(float));
    float *out = malloc((n * 10 + 1) * sizeof(float));
    float *back = malloc((n * 10 + 1) * sizeof(float));
    /* Stream order: the caller permutes its vertex buffers once. */
    const size_t tc = attrs == ATTRS_TAN3 ? 3 : 4; /* tangent floats */
    for (size_t p = 0; p < n; ++p) {
        size_t v = order == VS_STREAM_ORDER_STREAM ? perm[p] : p;
        memcpy(in + p * 3, c->pos + v * 3, 12);
        memcpy(in + n * 3 + p * 3, c->nrm + v * 3, 12);
        memcpy(in + n * 6 + p * tc, c->tan + v * 4, tc * 4);
    }
    vs_skin_stream_job job = {.stream = s,
                              .joint_matrices = c->jm,
                              .order = order,
                              .in_positions = in,
                              .out_positions = out,
                              .in_normals = in + n * 3,
                              .out_normals = out + n * 3,
                              .in_tangents = in + n * 6,
                              .out_tangents = out + n * 6,
                              .tangent_components = (uint32_t)tc,
                              .isa = isa,
                              .flags = store_flags};
    if (attrs < ATTRS_TAN4) job.in_tangents = job.out_tangents = NULL;
    if (attrs < ATTRS_NRM) job.in_normals = job.out_normals = NULL;
    vs_error err;
    int ok = 1;
    /* Three ranges, the middle one short: ranges that start and end inside
     * the stream's chunks and groups. */
    const size_t cut[4] = {0, n / 3, n / 3 + (n - n / 3 < 5 ? 0 : 5), n};
    for (int r = 0; r < 3; ++r) {
        job.first_vertex = cut[r];
        job.vertex_count = cut[r + 1] - cut[r];
        ok &= vs_skin_stream_job_run(&job, &err) == VS_OK;
    }
    if (!ok) fprintf(stderr, "  run failed: %s\n", err.message);
    for (size_t p = 0; p < n; ++p) {
        size_t v = order == VS_STREAM_ORDER_STREAM ? perm[p] : p;
        memcpy(back + v * 3, out + p * 3, 12);
        memcpy(back + n * 3 + v * 3, out + n * 3 + p * 3, 12);
        memcpy(back + n * 6 + v * 4, out + n * 6 + p * tc, tc * 4);
        if (tc == 3) back[n * 6 + v * 4 + 3] = c->rtan[v * 4 + 3];
    }
    ok = ok && same(back, c->rpos, n * 3);
    if (attrs >= ATTRS_NRM) ok = ok && same(back + n * 3, c->rnrm, n * 3);
    if (attrs >= ATTRS_TAN4) ok = ok && same(back + n * 6, c->rtan, n * 4);
    free(in);
    free(out);
    free(back);
    return ok;
}

/* The stream's own promises: a permutation, grouped by kept count, fewer
 * bytes than the source. */
static void check_layout(const case_data *c, const vs_skin_stream *s,
                         int unorm16)
{
    const size_t n = c->n;
    CHECK(vs_skin_stream_vertex_count(s) == n);
    CHECK(vs_skin_stream_max_influences(s) <= c->k);
    const uint32_t *perm = vs_skin_stream_vertex_order(s);
    unsigned char *seen = calloc(n + 1, 1);
    int perm_ok = 1;
    for (size_t p = 0; p < n; ++p) {
        perm_ok &= perm[p] < n && !seen[perm[p]];
        if (perm[p] < n) seen[perm[p]] = 1;
    }
    CHECK(perm_ok);
    free(seen);
    /* A union chunk may hold twice a vertex's influences (weight 0 for the
     * joints its vertex lacks); its joints are stored once per chunk. */
    const double per_influence =
        (c->joint_count <= 256 ? 1 : 2) + (unorm16 ? 2 : 4);
    CHECK(vs_skin_stream_bytes_per_vertex(s) <=
          per_influence * 2 * c->k + 1e-9);
}

/* Vertices that share their joints, as real skins do (CesiumMan: 54
 * distinct joint lists for 3273 vertices), so the stream forms chunks:
 * each vertex takes the joints of one of three template vertices, its
 * slots rotated, keeping its own weights (some zero, so the kept lists
 * vary). */
static void share_joints(size_t n, uint32_t k, uint16_t *joints)
{
    if (n < 3) return;
    for (size_t v = 3; v < n; ++v) {
        const size_t t = rng_u32() % 3;
        for (uint32_t i = 0; i < k; ++i)
            joints[v * k + i] = joints[t * k + (i + v) % k];
    }
}

/* Every order and attribute set with cached stores, and the widest set
 * with streaming stores, against the reference. */
static void check_runs(const case_data *c, const vs_skin_stream *s, vs_isa isa,
                       int unorm16, uint32_t flags, int lists)
{
    for (uint32_t order = 0; order < 2; ++order)
        for (int nt = 0; nt < 2; ++nt)
            for (int attrs = nt ? ATTRS_TAN4 : 0;
                 attrs < (nt ? ATTRS_TAN4 + 1 : ATTRS_COUNT); ++attrs)
                CHECK_MSG(run_stream(c, s, isa, order,
                                     nt ? VS_SKIN_STREAMING_STORES : 0, attrs),
                          "isa %s, %zu vertices, %u influences, %u joints, "
                          "unorm16 %d, flags %u, order %u, streaming stores "
                          "%d, joint lists %d (random, shared, dense), "
                          "attributes %d",
                          vs_isa_name(isa), c->n, c->k, c->joint_count, unorm16,
                          flags, order, nt, lists, attrs);
}

/* Kinds of joint lists a case draws: random ones, lists shared by many
 * vertices (exact chunks), and lists over so few joints that they seldom
 * repeat but the stream forms union chunks (vertices of different lists
 * blended as one chunk, weight 0 where a vertex lacks a slot's joint). */
enum { LISTS_RANDOM, LISTS_SHARED, LISTS_DENSE };

/* A case of n vertices with k influences over `joints` joints. */
static void new_case(case_data *c, size_t n, uint32_t k, uint32_t joints,
                     int lists)
{
    *c = (case_data){.n = n, .k = k, .joint_count = joints};
    c->jm = malloc(joints * 16 * sizeof(float));
    for (uint32_t j = 0; j < joints; ++j)
        random_joint_matrix(c->jm + j * 16);
    c->joints = malloc((n * k + 1) * sizeof(uint16_t));
    c->weights = malloc((n * k + 1) * sizeof(float));
    random_influences(n, k, joints, c->joints, c->weights);
    if (lists == LISTS_SHARED) share_joints(n, k, c->joints);
    c->pos = malloc((n * 3 + 1) * 4);
    c->nrm = malloc((n * 3 + 1) * 4);
    c->tan = malloc((n * 4 + 1) * 4);
    c->rpos = malloc((n * 3 + 1) * 4);
    c->rnrm = malloc((n * 3 + 1) * 4);
    c->rtan = malloc((n * 4 + 1) * 4);
    for (size_t i = 0; i < n * 3; ++i) {
        c->pos[i] = rng_float(-3, 3);
        c->nrm[i] = rng_float(-1, 1);
    }
    for (size_t i = 0; i < n * 4; ++i)
        c->tan[i] =
            i % 4 == 3 ? (rng_u32() % 2 ? 1.0f : -1.0f) : rng_float(-1, 1);
}

/* The stream description of a case's influences. */
static vs_skin_stream_desc case_desc(const case_data *c, uint32_t flags,
                                     int unorm16)
{
    return (vs_skin_stream_desc){.vertex_count = c->n,
                                 .influence_count = c->k,
                                 .joint_count = c->joint_count,
                                 .joints = c->joints,
                                 .weights = c->weights,
                                 .flags = flags,
                                 .weight_format = unorm16
                                                      ? VS_SKIN_WEIGHTS_UNORM16
                                                      : VS_SKIN_WEIGHTS_FLOAT};
}

static void free_case(case_data *c)
{
    free(c->jm);
    free(c->joints);
    free(c->weights);
    free(c->pos);
    free(c->nrm);
    free(c->tan);
    free(c->rpos);
    free(c->rnrm);
    free(c->rtan);
}

/* The case's streams, both weight formats, raw and normalised weights,
 * against the reference on every kernel. A dense case must form union
 * chunks, none of more slots than twice its vertices' influences nor more
 * than the kernels blend at once. */
static void check_case(case_data *c, int lists)
{
    for (int unorm16 = 0; unorm16 < 2; ++unorm16)
        for (uint32_t flags = 0; flags < 2; ++flags) {
            /* Random raw weights exceed 1 only in sums; each one is in
             * [0, 1], so unorm16 holds them. */
            const vs_skin_stream_desc d = case_desc(c, flags, unorm16);
            vs_skin_stream *s = NULL;
            vs_error err;
            if (!(vs_skin_stream_create(&d, &s, &err) == VS_OK)) {
                CHECK_MSG(0, "create: %s", err.message);
                continue;
            }
            if (lists == LISTS_DENSE) {
                CHECK_MSG(skin_stream_union_chunks(s) > 0,
                          "%u influences: no union chunk", c->k);
                for (uint32_t k = 0; k <= s->max_k; ++k)
                    CHECK(s->chunk_count[k] == s->exact_chunks[k] ||
                          (k <= 2 * c->k && k <= 8));
            }
            check_layout(c, s, unorm16);
            reference(c, flags, unorm16);
            for (size_t ii = 0; ii < ISA_COUNT; ++ii) {
                if (!vs_isa_supported(isas[ii])) continue;
                check_runs(c, s, isas[ii], unorm16, flags, lists);
            }
            vs_skin_stream_free(s);
        }
}

static void streams_match_the_reference(void)
{
    static const size_t counts[] = {0, 1, 3, 7, 1001};
    static const uint32_t ks[] = {1, 2, 3, 4, 5, 6, 7, 8, 12};
    static const uint32_t joint_counts[] = {1, 256, 257, 1000};
    unsigned combo = 0;
    for (size_t ci = 0; ci < 5 * 2; ++ci)
        for (size_t ki = 0; ki < 9; ++ki, ++combo) {
            const int lists = ci >= 5 ? LISTS_SHARED : LISTS_RANDOM;
            random_mirror = combo % 3 == 1;
            case_data c;
            new_case(&c, counts[ci % 5], ks[ki], joint_counts[combo % 4],
                     lists);
            check_case(&c, lists);
            free_case(&c);
        }
}

/* Union chunks against the reference: every kernel, order, attribute set,
 * weight format and flag, cut into ranges inside chunks. */
static void union_chunks_match_the_reference(void)
{
    static const uint32_t ks[] = {2, 3, 4, 5, 7};
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ++ki) {
        case_data c;
        new_case(&c, 1500, ks[ki], 11, LISTS_DENSE);
        check_case(&c, LISTS_DENSE);
        free_case(&c);
    }
}

/* Vertices in union chunks and the slots they take, over all groups. */
static void union_stats(const vs_skin_stream *s, size_t *vertices,
                        size_t *slots)
{
    *vertices = *slots = 0;
    for (uint32_t k = 0; k <= s->max_k; ++k) {
        const size_t chunks = s->chunk_count[k] - s->exact_chunks[k];
        *vertices += chunks * KERNEL_CHUNK;
        *slots += chunks * KERNEL_CHUNK * k;
    }
}

/* Joint lists that seldom repeat, as in the side-by-side benchmark's
 * random lists: 4 distinct joints of 32 per vertex, drawn at random, and
 * weights that are all kept. Nearly every vertex lands in a union chunk,
 * and the unions stay small: most vertices of such a mesh share all but
 * one joint with others, and a union grown joint by joint around them
 * needs about 6 slots where one grown from sorted neighbours (whose lists
 * share their first joints and differ in the rest) took more than 7.
 * The search depends on the records alone: the same stream twice. The
 * chunks then skin as the reference does on every kernel. */
static void scattered_lists_form_small_unions(void)
{
    case_data c;
    new_case(&c, 20000, 4, 32, LISTS_RANDOM);
    for (size_t v = 0; v < c.n; ++v)
        for (uint32_t i = 0; i < c.k; ++i) {
            uint16_t j;
            int fresh;
            do {
                j = (uint16_t)(rng_u32() % c.joint_count);
                fresh = 1;
                for (uint32_t q = 0; q < i; ++q)
                    fresh &= c.joints[v * c.k + q] != j;
            } while (!fresh);
            c.joints[v * c.k + i] = j;
            c.weights[v * c.k + i] = rng_float(0.05f, 1);
        }
    const vs_skin_stream_desc d = case_desc(&c, 0, 1);
    vs_skin_stream *s = NULL, *again = NULL;
    CHECK(vs_skin_stream_create(&d, &s, NULL) == VS_OK);
    CHECK(vs_skin_stream_create(&d, &again, NULL) == VS_OK);
    if (s && again) {
        size_t vertices = 0, slots = 0;
        union_stats(s, &vertices, &slots);
        CHECK_MSG(vertices >= c.n * 95 / 100,
                  "%zu of %zu vertices in union chunks", vertices, c.n);
        CHECK_MSG(vertices && slots <= vertices * 65 / 10,
                  "union chunks take %.2f slots on average",
                  vertices ? (double)slots / (double)vertices : 0.0);
        CHECK(!memcmp(s->order, again->order, c.n * sizeof *s->order));
        CHECK(s->chunk_influences == again->chunk_influences &&
              !memcmp(s->chunk_joints, again->chunk_joints,
                      s->chunk_influences) &&
              !memcmp(s->chunk_weights, again->chunk_weights,
                      s->chunk_influences * KERNEL_CHUNK * 2));
    }
    vs_skin_stream_free(s);
    vs_skin_stream_free(again);
    check_case(&c, LISTS_DENSE);
    free_case(&c);
}

/* A joint matrix that is not finite poisons only the vertices weighted by
 * it, as in the reference: a union chunk's lane with weight 0 for that
 * joint stays finite. */
static void union_chunks_skip_a_matrix_that_is_not_finite(void)
{
    case_data c;
    new_case(&c, 1500, 4, 11, LISTS_DENSE);
    const vs_skin_stream_desc d = case_desc(&c, 0, 0);
    vs_skin_stream *s = NULL;
    CHECK(vs_skin_stream_create(&d, &s, NULL) == VS_OK);
    /* Joint 3 is in union chunks whose lanes do not all use it. */
    size_t lanes_without = 0;
    for (uint32_t k = 1; s && k <= s->max_k; ++k)
        for (size_t ch = s->exact_chunks[k]; ch < s->chunk_count[k]; ++ch)
            for (uint32_t j = 0; j < k; ++j) {
                const size_t at = s->chunk_at[k] + ch * k + j;
                if (((const uint8_t *)s->chunk_joints)[at] != 3) continue;
                for (size_t lane = 0; lane < KERNEL_CHUNK; ++lane)
                    lanes_without +=
                        ((const float *)
                             s->chunk_weights)[at * KERNEL_CHUNK + lane] == 0;
            }
    CHECK(lanes_without > 0);
    for (int bad = 0; bad < 2; ++bad) {
        c.jm[3 * 16 + 5] = bad ? NAN : INFINITY;
        reference(&c, 0, 0);
        for (size_t ii = 0; s && ii < ISA_COUNT; ++ii) {
            if (!vs_isa_supported(isas[ii])) continue;
            float *out = malloc(c.n * 3 * sizeof(float));
            vs_skin_stream_job job = {.stream = s,
                                      .joint_matrices = c.jm,
                                      .vertex_count = c.n,
                                      .in_positions = c.pos,
                                      .out_positions = out,
                                      .isa = isas[ii]};
            CHECK(vs_skin_stream_job_run(&job, NULL) == VS_OK);
            size_t wrong = 0;
            for (size_t i = 0; i < c.n * 3; ++i)
                wrong += isfinite(c.rpos[i])
                             ? !close_to_reference(out[i], c.rpos[i])
                             : isfinite(out[i]);
            CHECK_MSG(wrong == 0, "isa %s, bad %d: %zu floats differ",
                      vs_isa_name(isas[ii]), bad, wrong);
            free(out);
        }
    }
    vs_skin_stream_free(s);
    free_case(&c);
}

static void bad_inputs_are_refused(void)
{
    const uint16_t joints[4] = {0, 1, 2, 1};
    const float weights[4] = {0.5f, 0.5f, 1.5f, 0.0f};
    vs_skin_stream_desc d = {.vertex_count = 2,
                             .influence_count = 2,
                             .joint_count = 2,
                             .joints = joints,
                             .weights = weights,
                             .flags = VS_SKIN_RAW_WEIGHTS,
                             .weight_format = VS_SKIN_WEIGHTS_FLOAT};
    vs_skin_stream *s = NULL;
    vs_error err;
    CHECK(vs_skin_stream_create(&d, &s, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "vertex 1") != NULL);
    CHECK(s == NULL);
    d.joint_count = 3;
    d.weight_format = VS_SKIN_WEIGHTS_UNORM16;
    CHECK(vs_skin_stream_create(&d, &s, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "unorm16") != NULL);
    d.weight_format = VS_SKIN_WEIGHTS_FLOAT;
    CHECK(vs_skin_stream_create(&d, &s, &err) == VS_OK);
    d.vertex_count = 3;
    d.joints_stride = SIZE_MAX / 2;
    vs_skin_stream *huge = NULL;
    CHECK(vs_skin_stream_create(&d, &huge, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "address space") != NULL);
    d.vertex_count = 2;
    d.joints_stride = 0;
    d.influence_count = 0;
    CHECK(vs_skin_stream_create(&d, NULL, &err) == VS_ERROR_ARGUMENT);
    vs_skin_stream *none = NULL;
    CHECK(vs_skin_stream_create(NULL, &none, &err) == VS_ERROR_ARGUMENT);
    CHECK(none == NULL);

    float jm[48] = {0}, pos[6] = {0}, out[6];
    vs_skin_stream_job job = {.stream = s,
                              .joint_matrices = jm,
                              .first_vertex = 1,
                              .vertex_count = 2,
                              .in_positions = pos,
                              .out_positions = out};
    CHECK(vs_skin_stream_job_run(&job, &err) == VS_ERROR_ARGUMENT);
    job.vertex_count = 1;
    job.isa = 99;
    CHECK(vs_skin_stream_job_run(&job, &err) == VS_ERROR_UNSUPPORTED);
    job.isa = 0;
    job.in_normals = pos;
    CHECK(vs_skin_stream_job_run(&job, &err) == VS_ERROR_ARGUMENT);
    job.in_normals = NULL;
    job.flags = VS_SKIN_STREAMING_STORES | VS_SKIN_CACHED_STORES;
    CHECK(vs_skin_stream_job_run(&job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "opposite stores") != NULL);
    job.flags = VS_SKIN_CACHED_STORES;
    CHECK(vs_skin_stream_job_run(&job, &err) == VS_OK);
    job.flags = 0;
    CHECK(vs_skin_stream_job_run(&job, &err) == VS_OK);
    vs_skin_stream_free(s);
}

/* Compactness: <= 256 joints and unorm16 give 3 bytes per kept influence
 * (two vertices form no chunk); zero weights are dropped. */
static void stream_is_compact(void)
{
    uint16_t joints[8] = {3, 1, 0, 2, 5, 5, 5, 5};
    float weights[8] = {0.25f, 0.75f, 0.0f, 0.0f, 0, 0, 0, 0};
    vs_skin_stream_desc d = {.vertex_count = 2,
                             .influence_count = 4,
                             .joint_count = 6,
                             .joints = joints,
                             .weights = weights};
    vs_skin_stream *s = NULL;
    CHECK(vs_skin_stream_create(&d, &s, NULL) == VS_OK);
    CHECK_NEAR(vs_skin_stream_bytes_per_vertex(s), 3.0, 1e-12);
    CHECK(vs_skin_stream_max_influences(s) == 2);
    /* The unweighted vertex (1) comes first: group 0. */
    CHECK(vs_skin_stream_vertex_order(s)[0] == 1);
    vs_skin_stream_free(s);
    d.joint_count = 300;
    CHECK(vs_skin_stream_create(&d, &s, NULL) == VS_OK);
    CHECK_NEAR(vs_skin_stream_bytes_per_vertex(s), 4.0, 1e-12);
    vs_skin_stream_free(s);
}

/* vs_skin_stream_job_run_parallel: on pools of 2 to 4 threads, bit for bit
 * one vs_skin_stream_job_run, in both orders, over the whole stream and
 * over a range that starts and ends inside chunks (nothing outside it
 * written), with shared joint lists (exact chunks) and with lists over few
 * joints (union chunks); a bad job refused before anything runs. */
static void parallel_run(int dense)
{
    enum { N = 20011, K = 4, JOINTS = 40 };
    float *jm = malloc(JOINTS * 16 * sizeof(float));
    uint16_t *joints = malloc(N * K * sizeof(uint16_t));
    float *weights = malloc(N * K * sizeof(float));
    float *in = malloc(N * 6 * sizeof(float));
    float *one = malloc(N * 6 * sizeof(float));
    float *split = malloc(N * 6 * sizeof(float));
    for (uint32_t j = 0; j < JOINTS; ++j)
        random_joint_matrix(jm + 16 * j);
    random_influences(N, K, dense ? 11 : JOINTS, joints, weights);
    if (!dense) share_joints(N, K, joints); /* exact chunks, and tails */
    for (size_t i = 0; i < N * 6; ++i)
        in[i] = rng_float(-2, 2);
    const vs_skin_stream_desc d = {.vertex_count = N,
                                   .influence_count = K,
                                   .joint_count = JOINTS,
                                   .joints = joints,
                                   .weights = weights};
    vs_skin_stream *s = NULL;
    CHECK(vs_skin_stream_create(&d, &s, NULL) == VS_OK);
    CHECK(!s || !dense || skin_stream_union_chunks(s) > 0);
    int differing = 0;
    for (uint32_t threads = 2; s && threads <= 4; ++threads) {
        vs_context *ctx = NULL;
        const vs_context_options o = {.thread_count = threads};
        CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
        for (uint32_t order = 0; order < 2; ++order)
            for (int part = 0; part < 2; ++part) {
                vs_skin_stream_job job = {.stream = s,
                                          .joint_matrices = jm,
                                          .first_vertex = part ? 1237 : 0,
                                          .vertex_count = part ? 15001 : N,
                                          .order = order,
                                          .in_positions = in,
                                          .out_positions = one,
                                          .in_normals = in + 3 * N,
                                          .out_normals = one + 3 * N};
                memset(one, 0x55, N * 6 * sizeof(float));
                memset(split, 0x55, N * 6 * sizeof(float));
                CHECK(vs_skin_stream_job_run(&job, NULL) == VS_OK);
                job.out_positions = split;
                job.out_normals = split + 3 * N;
                vs_error err = {0};
                CHECK_MSG(vs_skin_stream_job_run_parallel(ctx, &job, &err) ==
                              VS_OK,
                          "%s", err.message);
                differing += memcmp(one, split, N * 6 * sizeof(float)) != 0;
            }
        vs_skin_stream_job bad = {.stream = s,
                                  .joint_matrices = NULL,
                                  .vertex_count = N,
                                  .in_positions = in,
                                  .out_positions = split};
        vs_error err = {0};
        memset(split, 0x55, N * 3 * sizeof(float));
        CHECK(vs_skin_stream_job_run_parallel(ctx, &bad, &err) ==
              VS_ERROR_ARGUMENT);
        CHECK(err.message[0] != '\0');
        bad.joint_matrices = jm;
        bad.vertex_count = N + 1;
        CHECK(vs_skin_stream_job_run_parallel(ctx, &bad, &err) != VS_OK);
        CHECK(((const unsigned char *)split)[0] == 0x55);
        vs_context_free(ctx);
    }
    CHECK_MSG(differing == 0, "%d parallel runs differ from one run",
              differing);
    vs_skin_stream_free(s);
    free(jm);
    free(joints);
    free(weights);
    free(in);
    free(one);
    free(split);
}

static void parallel_runs_equal_one_run(void)
{
    parallel_run(0);
    parallel_run(1);
}

int main(void)
{
    RUN(streams_match_the_reference);
    RUN(union_chunks_match_the_reference);
    RUN(scattered_lists_form_small_unions);
    RUN(union_chunks_skip_a_matrix_that_is_not_finite);
    RUN(bad_inputs_are_refused);
    RUN(stream_is_compact);
    RUN(parallel_runs_equal_one_run);
    return test_summary();
}
