/* SPDX-License-Identifier: MIT */
/* VS_SKIN_NORMALS_BY_MATRIX: under a non-uniform scale every kernel, the
 * reference and the stream job give normalize(A * n), which differs from
 * the default inverse-transpose normals (so an ignored flag fails here);
 * dual quaternions and the streams' weight flags refuse it. */
#include <math.h>
#include <stdint.h>

#include "skin/random_mesh.h"
#include "test.h"
#include "vskin/vskin.h"

static const vs_isa isas[] = {VS_ISA_SCALAR, VS_ISA_PORTABLE, VS_ISA_SSE2,
                              VS_ISA_AVX2,   VS_ISA_AVX512,   VS_ISA_AUTO};
#define ISA_COUNT (sizeof isas / sizeof *isas)

/* Vertices: more than a block of 64 and not a multiple of 8 or 16, so
 * full steps, chunks and tails all run. */
#define COUNT 203
#define JOINTS 4

/* A = R * diag(3, 1, 0.25), R a rotation about (1, 1, 1) by 120 degrees
 * (x -> y -> z -> x), plus a translation: column-major 4x4. */
static void scaled_joint(float m[16])
{
    static const float a[16] = {0,     3, 0, 0, 0, 0,  1,    0,
                                0.25f, 0, 0, 0, 1, -2, 0.5f, 1};
    memcpy(m, a, sizeof a);
}

/* normalize(A * n) and normalize(A^-T * n) in double, A's 3x3 being a
 * permutation times diag(3, 1, 0.25). */
static void expected(const float m[16], const float n[3], double by_matrix[3],
                     double by_cofactor[3])
{
    static const double s[3] = {3.0, 1.0, 0.25};
    double a[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    for (int col = 0; col < 3; ++col)
        for (int r = 0; r < 3; ++r) {
            a[r] += (double)m[col * 4 + r] * n[col];
            /* A^-T = R * diag(1 / s): column col of A divided by s^2. */
            c[r] += (double)m[col * 4 + r] / (s[col] * s[col]) * n[col];
        }
    const double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    const double lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    for (int r = 0; r < 3; ++r) {
        by_matrix[r] = a[r] / la;
        by_cofactor[r] = c[r] / lc;
    }
}

typedef struct scene {
    float jm[JOINTS * 16];
    uint16_t joints[COUNT * 4];
    float weights[COUNT * 4];
    float pos[COUNT * 3], nrm[COUNT * 3], tan[COUNT * 4];
} scene;

/* Every joint has the same matrix, so any blend of normalised weights is
 * A itself; the weights differ per vertex so the blends really run. */
static void make_scene(scene *s, uint32_t k)
{
    for (int j = 0; j < JOINTS; ++j)
        scaled_joint(s->jm + 16 * j);
    for (size_t v = 0; v < COUNT; ++v) {
        float sum = 0.0f;
        for (uint32_t i = 0; i < k; ++i) {
            s->joints[v * k + i] = (uint16_t)i;
            s->weights[v * k + i] = rng_float(0.1f, 1.0f);
            sum += s->weights[v * k + i];
        }
        for (uint32_t i = 0; i < k; ++i)
            s->weights[v * k + i] /= sum;
        for (int c = 0; c < 3; ++c) {
            s->pos[v * 3 + c] = rng_float(-2, 2);
            s->nrm[v * 3 + c] = rng_float(-1, 1);
            s->tan[v * 4 + c] = rng_float(-1, 1);
        }
        s->tan[v * 4 + 3] = 1.0f;
    }
}

/* out_nrm[v] is normalize(A * in_nrm[v]) for every vertex, and the default
 * rule would have given something else (by more than 0.1) for some. */
/* A job on the scene's k influences with the flag, positions and normals
 * into out (positions, then normals). */
static vs_skinning_job flagged_job(const scene *s, uint32_t k, float *out)
{
    return (vs_skinning_job){.vertex_count = COUNT,
                             .influence_count = k,
                             .joint_matrices = s->jm,
                             .joint_count = JOINTS,
                             .joints = s->joints,
                             .weights = s->weights,
                             .in_positions = s->pos,
                             .out_positions = out,
                             .in_normals = s->nrm,
                             .out_normals = out + COUNT * 3,
                             .flags = VS_SKIN_NORMALS_BY_MATRIX};
}

static int normals_follow_the_matrix(const scene *s, const float *in_nrm,
                                     const float *out_nrm)
{
    double most = 0.0;
    for (size_t v = 0; v < COUNT; ++v) {
        double bm[3], bc[3];
        expected(s->jm, in_nrm + v * 3, bm, bc);
        for (int c = 0; c < 3; ++c) {
            if (!close_to_reference(out_nrm[v * 3 + c], (float)bm[c])) {
                fprintf(stderr, "  vertex %zu comp %d: %.9g, want %.9g\n", v, c,
                        out_nrm[v * 3 + c], bm[c]);
                return 0;
            }
            const double d = fabs(bm[c] - bc[c]);
            if (d > most) most = d;
        }
    }
    return most > 0.1;
}

static void plain_job_normals_by_matrix(void)
{
    static const uint32_t ks[] = {1, 2, 4};
    for (size_t ki = 0; ki < 3; ++ki) {
        const uint32_t k = ks[ki];
        scene *s = malloc(sizeof *s);
        make_scene(s, k);
        float *out = malloc(COUNT * 10 * sizeof(float));
        for (size_t ii = 0; ii < ISA_COUNT; ++ii) {
            if (isas[ii] != VS_ISA_SCALAR && !vs_isa_supported(isas[ii]))
                continue;
            for (int with_tan = 0; with_tan < 2; ++with_tan) {
                vs_skinning_job job = flagged_job(s, k, out);
                job.in_tangents = with_tan ? s->tan : NULL;
                job.out_tangents = with_tan ? out + COUNT * 6 : NULL;
                job.isa = isas[ii];
                vs_error err;
                CHECK_MSG(vs_skinning_job_run(&job, &err) == VS_OK, "%s",
                          err.message);
                CHECK_MSG(normals_follow_the_matrix(s, s->nrm, out + COUNT * 3),
                          "isa %s, %u influences, tangents %d",
                          vs_isa_name(isas[ii]), k, with_tan);
            }
        }
        free(out);
        free(s);
    }
}

static void stream_job_normals_by_matrix(void)
{
    static const uint32_t ks[] = {1, 4};
    for (size_t ki = 0; ki < 2; ++ki)
        for (int fmt = 0; fmt < 2; ++fmt) {
            const uint32_t k = ks[ki];
            scene *s = malloc(sizeof *s);
            make_scene(s, k);
            const vs_skin_stream_desc d = {.vertex_count = COUNT,
                                           .influence_count = k,
                                           .joint_count = JOINTS,
                                           .joints = s->joints,
                                           .weights = s->weights,
                                           .weight_format =
                                               fmt ? VS_SKIN_WEIGHTS_FLOAT
                                                   : VS_SKIN_WEIGHTS_UNORM16};
            vs_skin_stream *st = NULL;
            vs_error err;
            CHECK_MSG(vs_skin_stream_create(&d, &st, &err) == VS_OK, "%s",
                      err.message);
            float out[COUNT * 6];
            for (size_t ii = 1; ii < ISA_COUNT; ++ii) {
                if (!vs_isa_supported(isas[ii])) continue;
                for (uint32_t order = 0; order < 2; ++order) {
                    const vs_skin_stream_job job = {
                        .stream = st,
                        .joint_matrices = s->jm,
                        .vertex_count = COUNT,
                        .order = order,
                        .in_positions = s->pos,
                        .out_positions = out,
                        .in_normals = s->nrm,
                        .out_normals = out + COUNT * 3,
                        .isa = isas[ii],
                        .flags = VS_SKIN_NORMALS_BY_MATRIX};
                    CHECK_MSG(vs_skin_stream_job_run(&job, &err) == VS_OK, "%s",
                              err.message);
                    /* Every vertex has A, so vertex s of either order takes
                     * the input normal at s. */
                    CHECK_MSG(
                        normals_follow_the_matrix(s, s->nrm, out + COUNT * 3),
                        "stream, isa %s, %u influences, format %d, order %u",
                        vs_isa_name(isas[ii]), k, fmt, order);
                }
            }
            vs_skin_stream_free(st);
            free(s);
        }
}

static void refused_where_it_would_do_nothing(void)
{
    scene *s = malloc(sizeof *s);
    make_scene(s, 1);
    float out[COUNT * 6];
    vs_skinning_job job = flagged_job(s, 1, out);
    job.method = VS_SKIN_DUAL_QUATERNION;
    vs_error err;
    CHECK(vs_skinning_job_validate(&job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "VS_SKIN_NORMALS_BY_MATRIX") != NULL);
    CHECK(vs_skinning_job_run(&job, &err) == VS_ERROR_ARGUMENT);
    CHECK(vs_skinning_job_run_reference(&job, &err) == VS_ERROR_ARGUMENT);
    job.flags = 0;
    CHECK(vs_skinning_job_run(&job, &err) == VS_OK);

    vs_skin_stream_desc d = {.vertex_count = COUNT,
                             .influence_count = 1,
                             .joint_count = JOINTS,
                             .joints = s->joints,
                             .weights = s->weights,
                             .flags = VS_SKIN_NORMALS_BY_MATRIX};
    vs_skin_stream *st = NULL;
    CHECK(vs_skin_stream_create(&d, &st, &err) == VS_ERROR_ARGUMENT);
    CHECK(st == NULL);
    CHECK(strstr(err.message, "VS_SKIN_NORMALS_BY_MATRIX") != NULL);
    free(s);
}

int main(void)
{
    RUN(plain_job_normals_by_matrix);
    RUN(stream_job_normals_by_matrix);
    RUN(refused_where_it_would_do_nothing);
    return test_summary();
}
