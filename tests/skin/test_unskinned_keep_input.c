/* SPDX-License-Identifier: MIT */
/* An unskinned vertex (normalised weights summing to 0, less, or not a
 * finite number) keeps its input position, normal and tangent bit for bit,
 * on every path: the reference, every kernel of the plain job (one
 * influence, the block blend, the careful per-vertex blend, staged
 * influences beyond 8), dual-quaternion skinning, and the prepared stream
 * in both orders, separate buffers or in place. Its neighbours are skinned
 * as the reference skins them. The inputs are chosen so that anything but
 * a copy shows: -0 coordinates (+0 after 1 * x + 0), normals and tangents
 * that are not unit length (normalised again, they change). */
#include <stdbool.h>
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"

enum { N = 150, MAX_K = 12, JOINTS = 3 };

static const vs_isa isas[] = {VS_ISA_SCALAR, VS_ISA_PORTABLE, VS_ISA_SSE2,
                              VS_ISA_AVX2,   VS_ISA_AVX512,   VS_ISA_AUTO};
#define ISA_COUNT (sizeof isas / sizeof *isas)

typedef struct mesh {
    uint32_t k;
    uint16_t joints[N * MAX_K];
    float weights[N * MAX_K];
    float pos[N * 3], nrm[N * 3], tan[N * 4];
    unsigned char unskinned[N];
} mesh;

/* Rotations about z by 0, 90 and 30 degrees with translations: rigid, so
 * dual-quaternion skinning takes them too. */
static void joint_matrices(float jm[JOINTS * 16])
{
    memset(jm, 0, JOINTS * 16 * sizeof(float));
    const float c[JOINTS] = {1.0f, 0.0f, 0.8660254f};
    const float s[JOINTS] = {0.0f, 1.0f, 0.5f};
    for (int j = 0; j < JOINTS; ++j) {
        float *m = jm + j * 16;
        m[0] = c[j], m[1] = s[j], m[4] = -s[j], m[5] = c[j];
        m[10] = m[15] = 1.0f;
        m[12] = 1.0f + (float)j, m[13] = -2.0f, m[14] = 0.5f * (float)j;
    }
}

/* Vertex v's weights: every fifth vertex (and a run of them at the start of
 * the second block) unskinned in one of the ways the rule names, the
 * others skinned with positive weights. */
static void vertex_weights(mesh *m, size_t v)
{
    float *w = m->weights + v * m->k;
    uint16_t *j = m->joints + v * m->k;
    const int kind = v % 5 == 2 || (v >= 64 && v < 72) ? (int)(v % 4) : -1;
    for (uint32_t i = 0; i < m->k; ++i) {
        j[i] = (uint16_t)((v + i) % JOINTS);
        w[i] = 0.25f + 0.125f * (float)((v + i) % 3);
    }
    m->unskinned[v] = kind >= 0;
    switch (kind) {
    case 0: /* all zero */
        for (uint32_t i = 0; i < m->k; ++i)
            w[i] = 0.0f;
        break;
    case 1: /* a negative weight outweighs the rest */
        w[0] = -1000.0f;
        break;
    case 2: /* NaN */
        w[m->k - 1] = NAN;
        break;
    case 3: /* infinite */
        w[0] = INFINITY;
        break;
    default:
        break;
    }
}

static void make_mesh(mesh *m, uint32_t k)
{
    memset(m, 0, sizeof *m);
    m->k = k;
    for (size_t v = 0; v < N; ++v) {
        vertex_weights(m, v);
        const float f = (float)v;
        float *p = m->pos + v * 3, *n = m->nrm + v * 3, *t = m->tan + v * 4;
        p[0] = -0.0f, p[1] = 0.5f + f, p[2] = v % 2 ? -0.0f : -3.0f;
        n[0] = 0.0f, n[1] = 2.0f + 0.01f * f, n[2] = -0.0f; /* length > 1 */
        t[0] = 0.3f, t[1] = -0.0f, t[2] = 0.1f * f, t[3] = v % 2 ? 1.0f : -1.0f;
    }
}

typedef struct outputs {
    float pos[N * 3], nrm[N * 3], tan[N * 4];
} outputs;

/* Within 1e-5 of the reference, relative to its magnitude where above 1. */
static bool near(float got, float ref)
{
    return fabsf(got - ref) <= 1e-5f * fmaxf(1.0f, fabsf(ref));
}

/* The vertices' outputs: unskinned ones bit for bit their inputs, skinned
 * ones near the reference's. */
static int check(const mesh *m, const outputs *got, const outputs *ref,
                 uint32_t tc, const char *what)
{
    int bad = 0;
    for (size_t v = 0; v < N && !bad; ++v) {
        const float *gp = got->pos + v * 3, *gn = got->nrm + v * 3,
                    *gt = got->tan + v * tc;
        if (m->unskinned[v]) {
            bad = memcmp(gp, m->pos + v * 3, 12) ||
                  memcmp(gn, m->nrm + v * 3, 12) ||
                  memcmp(gt, m->tan + v * 4, tc * 4);
        } else {
            for (int c = 0; c < 3; ++c)
                bad |= !near(gp[c], ref->pos[v * 3 + c]) ||
                       !near(gn[c], ref->nrm[v * 3 + c]) ||
                       !near(gt[c], ref->tan[v * tc + c]);
            bad |= tc == 4 && memcmp(gt + 3, m->tan + v * 4 + 3, 4);
        }
        if (bad)
            fprintf(stderr, "  %s: vertex %zu (%s) differs\n", what, v,
                    m->unskinned[v] ? "unskinned" : "skinned");
    }
    return !bad;
}

/* The inputs in out's buffers (for a run in place), tangents packed to tc
 * floats. */
static void copy_inputs(const mesh *m, uint32_t tc, outputs *o)
{
    memcpy(o->pos, m->pos, sizeof o->pos);
    memcpy(o->nrm, m->nrm, sizeof o->nrm);
    for (size_t v = 0; v < N; ++v)
        memcpy(o->tan + v * tc, m->tan + v * 4, tc * sizeof(float));
}

static vs_result run_job(const mesh *m, const float *jm, vs_isa isa,
                         vs_skin_method method, uint32_t tc, bool in_place,
                         outputs *o, vs_error *e)
{
    static float tan_in[N * 4];
    for (size_t v = 0; v < N; ++v)
        memcpy(tan_in + v * tc, m->tan + v * 4, tc * sizeof(float));
    if (in_place) copy_inputs(m, tc, o);
    vs_skinning_job job = {.vertex_count = N,
                           .influence_count = m->k,
                           .joint_matrices = jm,
                           .joint_count = JOINTS,
                           .joints = m->joints,
                           .weights = m->weights,
                           .in_positions = in_place ? o->pos : m->pos,
                           .out_positions = o->pos,
                           .in_normals = in_place ? o->nrm : m->nrm,
                           .out_normals = o->nrm,
                           .in_tangents = in_place ? o->tan : tan_in,
                           .out_tangents = o->tan,
                           .tangent_components = tc,
                           .method = method,
                           .isa = isa};
    return vs_skinning_job_run(&job, e);
}

/* Influence counts that reach every blend path: one (pointed matrices),
 * 2-8 (block and careful blends), 9 and 12 (staged in sets of 8). */
static void plain_job_every_path(void)
{
    static const uint32_t ks[] = {1, 2, 4, 8, 9, 12};
    static mesh m;
    static outputs got, ref;
    float jm[JOINTS * 16];
    joint_matrices(jm);
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ++ki)
        for (int method = 0; method < 2; ++method)
            for (uint32_t tc = 3; tc <= 4; ++tc) {
                make_mesh(&m, ks[ki]);
                vs_error e = {0};
                const vs_skin_method sm =
                    method ? VS_SKIN_DUAL_QUATERNION : VS_SKIN_LINEAR;
                CHECK(run_job(&m, jm, VS_ISA_SCALAR, sm, tc, false, &ref, &e) ==
                      VS_OK);
                for (size_t i = 0; i < ISA_COUNT; ++i) {
                    if (!vs_isa_supported(isas[i])) continue;
                    for (int in_place = 0; in_place < 2; ++in_place) {
                        memset(&got, 0xA5, sizeof got);
                        char what[96];
                        snprintf(what, sizeof what,
                                 "%s, %u influences, %s, %u tangent floats, "
                                 "%s",
                                 vs_isa_name(isas[i]), ks[ki],
                                 method ? "dq" : "linear", tc,
                                 in_place ? "in place" : "separate buffers");
                        CHECK_MSG(run_job(&m, jm, isas[i], sm, tc,
                                          in_place != 0, &got, &e) == VS_OK,
                                  "%s: %s", what, e.message);
                        CHECK_MSG(check(&m, &got, &ref, tc, what), "%s", what);
                    }
                }
            }
}

/* The stream job: weights in both formats, both orders, in place or not.
 * In stream order the caller's buffers are permuted by the vertex order. */
static void stream_every_path(void)
{
    static const uint32_t ks[] = {1, 3, 4};
    static mesh m;
    static outputs got, ref, in_s;
    float jm[JOINTS * 16];
    joint_matrices(jm);
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ++ki)
        for (int fmt = 0; fmt < 2; ++fmt) {
            make_mesh(&m, ks[ki]);
            vs_error e = {0};
            CHECK(run_job(&m, jm, VS_ISA_SCALAR, VS_SKIN_LINEAR, 4, false, &ref,
                          &e) == VS_OK);
            vs_skin_stream_desc d = {.vertex_count = N,
                                     .influence_count = m.k,
                                     .joint_count = JOINTS,
                                     .joints = m.joints,
                                     .weights = m.weights,
                                     .weight_format =
                                         fmt ? VS_SKIN_WEIGHTS_FLOAT
                                             : VS_SKIN_WEIGHTS_UNORM16};
            vs_skin_stream *s = NULL;
            CHECK_MSG(vs_skin_stream_create(&d, &s, &e) == VS_OK, "%s",
                      e.message);
            if (!s) continue;
            const uint32_t *order = vs_skin_stream_vertex_order(s);
            for (size_t i = 0; i < ISA_COUNT; ++i) {
                if (!vs_isa_supported(isas[i])) continue;
                for (uint32_t ord = 0; ord < 2; ++ord)
                    for (int in_place = 0; in_place < 2; ++in_place) {
                        /* Inputs in the order the job reads them. */
                        for (size_t p = 0; p < N; ++p) {
                            const size_t v = ord ? order[p] : p;
                            memcpy(in_s.pos + p * 3, m.pos + v * 3, 12);
                            memcpy(in_s.nrm + p * 3, m.nrm + v * 3, 12);
                            memcpy(in_s.tan + p * 4, m.tan + v * 4, 16);
                        }
                        outputs *out = in_place ? &in_s : &got;
                        if (!in_place) memset(&got, 0xA5, sizeof got);
                        vs_skin_stream_job job = {.stream = s,
                                                  .joint_matrices = jm,
                                                  .vertex_count = N,
                                                  .order = ord,
                                                  .in_positions = in_s.pos,
                                                  .out_positions = out->pos,
                                                  .in_normals = in_s.nrm,
                                                  .out_normals = out->nrm,
                                                  .in_tangents = in_s.tan,
                                                  .out_tangents = out->tan,
                                                  .isa = isas[i]};
                        CHECK(vs_skin_stream_job_run(&job, &e) == VS_OK);
                        /* Back to source order. */
                        static outputs back;
                        for (size_t p = 0; p < N; ++p) {
                            const size_t v = ord ? order[p] : p;
                            memcpy(back.pos + v * 3, out->pos + p * 3, 12);
                            memcpy(back.nrm + v * 3, out->nrm + p * 3, 12);
                            memcpy(back.tan + v * 4, out->tan + p * 4, 16);
                        }
                        char what[96];
                        snprintf(what, sizeof what,
                                 "stream %s, %u influences, %s, order %u, %s",
                                 vs_isa_name(isas[i]), ks[ki],
                                 fmt ? "float" : "unorm16", ord,
                                 in_place ? "in place" : "separate buffers");
                        /* unorm16 weights move the skinned vertices by
                         * their quantisation; the unskinned ones not at
                         * all. */
                        if (fmt) {
                            CHECK_MSG(check(&m, &back, &ref, 4, what), "%s",
                                      what);
                        } else {
                            static mesh only_kept;
                            only_kept = m;
                            static outputs loose;
                            loose = back; /* skinned: compared to itself */
                            CHECK_MSG(check(&only_kept, &back, &loose, 4, what),
                                      "%s", what);
                        }
                    }
            }
            vs_skin_stream_free(s);
        }
}

/* Raw weights are not subject to the rule: a zero sum collapses the vertex
 * to the origin, on every path. */
static void raw_zero_weights_collapse(void)
{
    static mesh m;
    static outputs got;
    float jm[JOINTS * 16];
    joint_matrices(jm);
    make_mesh(&m, 4);
    for (size_t i = 0; i < ISA_COUNT; ++i) {
        if (!vs_isa_supported(isas[i])) continue;
        vs_skinning_job job = {.vertex_count = N,
                               .influence_count = m.k,
                               .joint_matrices = jm,
                               .joint_count = JOINTS,
                               .joints = m.joints,
                               .weights = m.weights,
                               .in_positions = m.pos,
                               .out_positions = got.pos,
                               .flags = VS_SKIN_RAW_WEIGHTS,
                               .isa = isas[i]};
        CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
        /* Vertex 12 has all-zero weights (kind 0 of vertex_weights). */
        CHECK_MSG(got.pos[12 * 3] == 0.0f && got.pos[12 * 3 + 1] == 0.0f &&
                      got.pos[12 * 3 + 2] == 0.0f,
                  "%s", vs_isa_name(isas[i]));
    }
}

int main(void)
{
    RUN(plain_job_every_path);
    RUN(stream_every_path);
    RUN(raw_zero_weights_collapse);
    return test_summary();
}
