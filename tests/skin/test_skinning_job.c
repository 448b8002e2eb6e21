/* SPDX-License-Identifier: MIT */
/* The scalar reference skinning job: every expectation below is worked out by
 * hand from the formulas in vskin.h, never by calling the code under test. */
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"

#define TOL 1e-6

static void mat_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

static void mat_translate(float m[16], float x, float y, float z)
{
    mat_identity(m);
    m[12] = x;
    m[13] = y;
    m[14] = z;
}

static void mat_scale(float m[16], float x, float y, float z)
{
    mat_identity(m);
    m[0] = x;
    m[5] = y;
    m[10] = z;
}

/* +90 degrees about z: x -> y, y -> -x. */
static void mat_rot_z90(float m[16])
{
    mat_identity(m);
    m[0] = 0.0f;
    m[1] = 1.0f;
    m[4] = -1.0f;
    m[5] = 0.0f;
}

#define CHECK_VEC3(v, x, y, z)                                                 \
    do {                                                                       \
        CHECK_NEAR((v)[0], (x), TOL);                                          \
        CHECK_NEAR((v)[1], (y), TOL);                                          \
        CHECK_NEAR((v)[2], (z), TOL);                                          \
    } while (0)

static void one_influence_identity_and_translation(void)
{
    float jm[32];
    mat_identity(jm);
    mat_translate(jm + 16, 1, 2, 3);
    const uint16_t joints[] = {0, 1};
    const float weights[] = {1, 1};
    const float pos[] = {1, 0, 0, 0, 1, 0};
    const float nrm[] = {0, 0, 1, 0, 1, 0};
    float out[6], out_n[6];
    vs_skinning_job job = {.vertex_count = 2,
                           .influence_count = 1,
                           .joint_matrices = jm,
                           .joint_count = 2,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out,
                           .in_normals = nrm,
                           .out_normals = out_n};
    vs_error err = {0};
    CHECK(vs_skinning_job_run(&job, &err) == VS_OK);
    CHECK_VEC3(out, 1, 0, 0);
    CHECK_VEC3(out + 3, 1, 3, 3);
    /* A translation leaves normals alone. */
    CHECK_VEC3(out_n, 0, 0, 1);
    CHECK_VEC3(out_n + 3, 0, 1, 0);
}

static void two_influences_blended(void)
{
    float jm[32];
    mat_translate(jm, 2, 0, 0);
    mat_rot_z90(jm + 16);
    const uint16_t joints[] = {0, 1};
    const float weights[] = {0.25f, 0.75f};
    const float pos[] = {1, 0, 0};
    float out[3];
    vs_skinning_job job = {.vertex_count = 1,
                           .influence_count = 2,
                           .joint_matrices = jm,
                           .joint_count = 2,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    /* 0.25 * (3,0,0) + 0.75 * (0,1,0) */
    CHECK_VEC3(out, 0.75, 0.75, 0);
}

static void normals_under_nonuniform_scale(void)
{
    float jm[16];
    mat_scale(jm, 2, 1, 1);
    const uint16_t joints[] = {0};
    const float weights[] = {1};
    const float pos[] = {1, 1, 1};
    const float s = (float)(1.0 / sqrt(2.0));
    const float nrm[] = {s, s, 0};
    float out[3], out_n[3];
    vs_skinning_job job = {.vertex_count = 1,
                           .influence_count = 1,
                           .joint_matrices = jm,
                           .joint_count = 1,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out,
                           .in_normals = nrm,
                           .out_normals = out_n};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    CHECK_VEC3(out, 2, 1, 1);
    /* inverse-transpose diag(1/2, 1, 1) * (1,1,0) ~ (1,2,0) / sqrt(5) */
    CHECK_VEC3(out_n, 1 / sqrt(5.0), 2 / sqrt(5.0), 0);
}

static void mirrored_matrix_keeps_outward_normals(void)
{
    float jm[32];
    mat_scale(jm, -1, 1, 1);
    mat_scale(jm + 16, -2, 1, 1);
    const uint16_t joints[] = {0, 0, 1};
    const float weights[] = {1, 1, 1};
    const float pos[] = {1, 2, 3, 0, 0, 0, 1, 0, 0};
    const float s = (float)(1.0 / sqrt(2.0));
    const float nrm[] = {1, 0, 0, 0, 0, 1, s, s, 0};
    float out[9], out_n[9];
    vs_skinning_job job = {.vertex_count = 3,
                           .influence_count = 1,
                           .joint_matrices = jm,
                           .joint_count = 2,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out,
                           .in_normals = nrm,
                           .out_normals = out_n};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    CHECK_VEC3(out, -1, 2, 3);
    /* The mirrored surface faces -x: a plain cofactor (det < 0) would give
     * +x, the inward side. */
    CHECK_VEC3(out_n, -1, 0, 0);
    CHECK_VEC3(out_n + 3, 0, 0, 1);
    CHECK_VEC3(out + 6, -2, 0, 0);
    /* diag(-1/2, 1, 1) * (1,1,0) ~ (-1,2,0) / sqrt(5) */
    CHECK_VEC3(out_n + 6, -1 / sqrt(5.0), 2 / sqrt(5.0), 0);
}

static void eight_influences_two_sets(void)
{
    float jm[8 * 16];
    for (int k = 0; k < 8; ++k)
        mat_translate(jm + 16 * k, (float)k, 0, 0);
    const uint16_t joints[] = {3, 1, 4, 0, 5, 2, 7, 6, 3, 1, 4, 0, 5, 2, 7, 6};
    const float weights[] = {0.05f, 0.1f, 0.15f, 0.2f, 0.1f, 0.1f, 0.1f, 0.2f,
                             0,     0,    0,     0,    0,    0,    0.5f, 0.5f};
    const float pos[] = {0, 1, 0, 0, 0, 2};
    float out[6];
    vs_skinning_job job = {.vertex_count = 2,
                           .influence_count = 8,
                           .joint_matrices = jm,
                           .joint_count = 8,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    /* 3*.05 + 1*.1 + 4*.15 + 0*.2 + 5*.1 + 2*.1 + 7*.1 + 6*.2 = 3.45 */
    CHECK_VEC3(out, 3.45, 1, 0);
    /* Only the second set: 7*.5 + 6*.5 */
    CHECK_VEC3(out + 3, 6.5, 0, 2);
}

static void unnormalized_weights_default_and_raw(void)
{
    float jm[32];
    mat_translate(jm, 1, 0, 0);
    mat_translate(jm + 16, 0, 1, 0);
    const uint16_t joints[] = {0, 1, 0, 1};
    const float weights[] = {1, 1, 0, 0};
    const float pos[] = {1, 0, 0, 4, 5, 6};
    float out[6];
    vs_skinning_job job = {.vertex_count = 2,
                           .influence_count = 2,
                           .joint_matrices = jm,
                           .joint_count = 2,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    /* Divided by the sum 2: 0.5*(2,0,0) + 0.5*(1,1,0) */
    CHECK_VEC3(out, 1.5, 0.5, 0);
    CHECK_VEC3(out + 3, 4, 5, 6); /* zero sum keeps its input */

    job.flags = VS_SKIN_RAW_WEIGHTS;
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    /* (J0 + J1) * (1,0,0,1) = (2,0,0) + (1,1,0) */
    CHECK_VEC3(out, 3, 1, 0);
    /* Raw zero weights: the zero matrix collapses the vertex to the origin. */
    CHECK_VEC3(out + 3, 0, 0, 0);
}

static void zero_negative_and_nan_weights_keep_input(void)
{
    float jm[16];
    mat_translate(jm, 5, 5, 5);
    const uint16_t joints[] = {0, 0, 0, 0, 0, 0};
    const float weights[] = {0, 0, -1, 0, NAN, 1};
    const float pos[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const float nrm[] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
    float out[9], out_n[9];
    vs_skinning_job job = {.vertex_count = 3,
                           .influence_count = 2,
                           .joint_matrices = jm,
                           .joint_count = 1,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out,
                           .in_normals = nrm,
                           .out_normals = out_n};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    for (int i = 0; i < 9; ++i) {
        CHECK_NEAR(out[i], pos[i], 0);
        CHECK_NEAR(out_n[i], nrm[i], 0);
    }
}

/* Interleaved vertices with byte strides that are not multiples of 4: only
 * the base pointers are float-aligned. */
enum { IN_STRIDE = 41, OUT_STRIDE = 43, JOINT_STRIDE = 5, WEIGHT_STRIDE = 11 };

static void put(unsigned char *buf, size_t off, const float *v, size_t n)
{
    memcpy(buf + off, v, n * sizeof(float));
}

static void get(const unsigned char *buf, size_t off, float *v, size_t n)
{
    memcpy(v, buf + off, n * sizeof(float));
}

static void strided_interleaved_buffers(void)
{
    float jm[32];
    mat_translate(jm, 0, 0, 1);
    mat_rot_z90(jm + 16);
    _Alignas(16) unsigned char in[3 * IN_STRIDE];
    _Alignas(16) unsigned char out[3 * OUT_STRIDE];
    _Alignas(16) unsigned char jb[3 * JOINT_STRIDE];
    _Alignas(16) unsigned char wb[3 * WEIGHT_STRIDE];
    memset(in, 0, sizeof in);
    memset(out, 0xAB, sizeof out);
    for (size_t v = 0; v < 3; ++v) {
        const float p[3] = {1, (float)v, 0}, n[3] = {1, 0, 0},
                    t[4] = {0, 1, 0, v == 1 ? -1.0f : 1.0f};
        put(in, v * IN_STRIDE, p, 3);
        put(in, v * IN_STRIDE + 12, n, 3);
        put(in, v * IN_STRIDE + 24, t, 4);
        const uint16_t j[2] = {0, 1};
        const float w[2] = {v == 0 ? 1.0f : 0.0f, v == 0 ? 0.0f : 1.0f};
        memcpy(jb + v * JOINT_STRIDE, j, sizeof j);
        memcpy(wb + v * WEIGHT_STRIDE, w, sizeof w);
    }
    vs_skinning_job job = {.vertex_count = 3,
                           .influence_count = 2,
                           .joint_matrices = jm,
                           .joint_count = 2,
                           .joints = (const uint16_t *)(void *)jb,
                           .joints_stride = JOINT_STRIDE,
                           .weights = (const float *)(void *)wb,
                           .weights_stride = WEIGHT_STRIDE,
                           .in_positions = (const float *)(void *)in,
                           .in_positions_stride = IN_STRIDE,
                           .out_positions = (float *)(void *)out,
                           .out_positions_stride = OUT_STRIDE,
                           .in_normals = (const float *)(void *)(in + 12),
                           .in_normals_stride = IN_STRIDE,
                           .out_normals = (float *)(void *)(out + 12),
                           .out_normals_stride = OUT_STRIDE,
                           .in_tangents = (const float *)(void *)(in + 24),
                           .in_tangents_stride = IN_STRIDE,
                           .out_tangents = (float *)(void *)(out + 24),
                           .out_tangents_stride = OUT_STRIDE};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    float p[3], n[3], t[4];
    get(out, 0, p, 3);
    get(out, 12, n, 3);
    get(out, 24, t, 4);
    CHECK_VEC3(p, 1, 0, 1); /* translated by (0,0,1) */
    CHECK_VEC3(n, 1, 0, 0);
    CHECK_VEC3(t, 0, 1, 0);
    CHECK_NEAR(t[3], 1, 0);
    for (size_t v = 1; v < 3; ++v) { /* rotated +90 about z */
        get(out, v * OUT_STRIDE, p, 3);
        get(out, v * OUT_STRIDE + 12, n, 3);
        get(out, v * OUT_STRIDE + 24, t, 4);
        CHECK_VEC3(p, -(double)v, 1, 0);
        CHECK_VEC3(n, 0, 1, 0);
        CHECK_VEC3(t, -1, 0, 0);
        CHECK_NEAR(t[3], v == 1 ? -1 : 1, 0);
    }
    /* The 3 padding bytes after each output vertex are untouched. */
    for (size_t v = 0; v < 3; ++v)
        for (size_t b = 40; b < OUT_STRIDE; ++b)
            CHECK(out[v * OUT_STRIDE + b] == 0xAB);
}

static void tangent_w_copied_or_left_alone(void)
{
    float jm[16];
    mat_rot_z90(jm);
    const uint16_t joints[] = {0};
    const float weights[] = {1};
    const float pos[] = {0, 0, 0};
    const float tan4[] = {2, 0, 0, -1};
    float out[3], out_t[5] = {9, 9, 9, 9, 9};
    vs_skinning_job job = {.vertex_count = 1,
                           .influence_count = 1,
                           .joint_matrices = jm,
                           .joint_count = 1,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out,
                           .in_tangents = tan4,
                           .out_tangents = out_t};
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    CHECK_VEC3(out_t, 0, 1, 0); /* rotated and normalized */
    CHECK_NEAR(out_t[3], -1, 0);
    CHECK_NEAR(out_t[4], 9, 0);

    /* tangent_components 3: xyz only, the fourth float is not written. */
    const float tan3[] = {0, 3, 0};
    float out3[4] = {9, 9, 9, 9};
    job.tangent_components = 3;
    job.in_tangents = tan3;
    job.out_tangents = out3;
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
    CHECK_VEC3(out3, -1, 0, 0);
    CHECK_NEAR(out3[3], 9, 0);
}

static void joint_index_out_of_range(void)
{
    float jm[32];
    mat_identity(jm);
    mat_identity(jm + 16);
    const uint16_t joints[] = {0, 1, 1, 2, 0, 0};
    const float weights[] = {1, 0, 0.5f, 0.5f, 1, 0};
    const float pos[] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    float out[9];
    for (int i = 0; i < 9; ++i)
        out[i] = -7;
    vs_skinning_job job = {.vertex_count = 3,
                           .influence_count = 2,
                           .joint_matrices = jm,
                           .joint_count = 2,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out};
    vs_error err = {0};
    CHECK(vs_skinning_job_run(&job, &err) == VS_ERROR_INVALID);
    CHECK(err.code == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "vertex 1 influence 1") != NULL, "%s",
              err.message);
    CHECK_MSG(strstr(err.message, "joint 2") != NULL, "%s", err.message);
    CHECK_VEC3(out, 1, 1, 1);
    for (int i = 3; i < 9; ++i)
        CHECK_NEAR(out[i], -7, 0);
    /* A valid job still validates: the index is a run-time check. */
    CHECK(vs_skinning_job_validate(&job, NULL) == VS_OK);
}

static vs_result validate_with(vs_skinning_job job, const char *expect)
{
    vs_error err = {0};
    vs_result r = vs_skinning_job_validate(&job, &err);
    if (expect)
        CHECK_MSG(strstr(err.message, expect) != NULL, "want '%s' in '%s'",
                  expect, err.message);
    return r;
}

static void validate_failures(void)
{
    float jm[16], out[6], out_n[6];
    mat_identity(jm);
    const uint16_t joints[] = {0, 0, 0, 0};
    const float weights[] = {1, 0, 1, 0};
    const float pos[] = {1, 2, 3, 4, 5, 6};
    const vs_skinning_job good = {.vertex_count = 2,
                                  .influence_count = 2,
                                  .joint_matrices = jm,
                                  .joint_count = 1,
                                  .joints = joints,
                                  .weights = weights,
                                  .in_positions = pos,
                                  .out_positions = out};
    CHECK(validate_with(good, NULL) == VS_OK);
    CHECK(vs_skinning_job_validate(NULL, NULL) == VS_ERROR_ARGUMENT);

    /* Each line: the one change that breaks `good`, and the field the
     * message must name. */
#define EXPECT_INVALID(field, ...)                                             \
    do {                                                                       \
        vs_skinning_job j = good;                                              \
        __VA_ARGS__;                                                           \
        CHECK(validate_with(j, field) == VS_ERROR_ARGUMENT);                   \
    } while (0)
    EXPECT_INVALID("influence_count", j.influence_count = 0);
    EXPECT_INVALID("joint_count", j.joint_count = 0);
    EXPECT_INVALID("joint_matrices", j.joint_matrices = NULL);
    EXPECT_INVALID("joints", j.joints = NULL);
    EXPECT_INVALID("weights", j.weights = NULL);
    EXPECT_INVALID("in_positions", j.in_positions = NULL);
    EXPECT_INVALID("out_positions", j.out_positions = NULL);
    EXPECT_INVALID("in_normals", j.in_normals = pos);
    EXPECT_INVALID("out_tangents", j.out_tangents = out_n);
    EXPECT_INVALID("tangent_components", j.tangent_components = 2);
    /* two u16 need 4 bytes, two floats 8, a position 12 */
    EXPECT_INVALID("joints_stride", j.joints_stride = 3);
    EXPECT_INVALID("weights_stride", j.weights_stride = 7);
    EXPECT_INVALID("out_positions_stride", j.out_positions_stride = 8);
    EXPECT_INVALID("in_normals_stride", j.in_normals = pos;
                   j.out_normals = out_n; j.in_normals_stride = 4);
    EXPECT_INVALID("address space", j.vertex_count = SIZE_MAX / 2;
                   j.in_positions_stride = 12);
#undef EXPECT_INVALID

    /* 12 bytes hold a 3-component tangent, not a 4-component one. */
    vs_skinning_job j = good;
    j.in_tangents = pos;
    j.out_tangents = out_n;
    j.tangent_components = 3;
    j.in_tangents_stride = 12;
    CHECK(validate_with(j, NULL) == VS_OK);
    j.tangent_components = 4;
    CHECK(validate_with(j, "in_tangents_stride") == VS_ERROR_ARGUMENT);

    /* run validates first and writes nothing for an invalid job */
    j = good;
    j.joint_count = 0;
    out[0] = -3;
    CHECK(vs_skinning_job_run(&j, NULL) == VS_ERROR_ARGUMENT);
    CHECK_NEAR(out[0], -3, 0);
    /* no vertices is a valid, empty job */
    j = good;
    j.vertex_count = 0;
    CHECK(vs_skinning_job_run(&j, NULL) == VS_OK);
}

int main(void)
{
    RUN(one_influence_identity_and_translation);
    RUN(two_influences_blended);
    RUN(normals_under_nonuniform_scale);
    RUN(mirrored_matrix_keeps_outward_normals);
    RUN(eight_influences_two_sets);
    RUN(unnormalized_weights_default_and_raw);
    RUN(zero_negative_and_nan_weights_keep_input);
    RUN(strided_interleaved_buffers);
    RUN(tangent_w_copied_or_left_alone);
    RUN(joint_index_out_of_range);
    RUN(validate_failures);
    return test_summary();
}
