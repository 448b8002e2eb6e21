/* SPDX-License-Identifier: MIT */
/* Dual-quaternion skinning: the reference against known transforms (a lone
 * joint reproduces its matrix, rigid or scaled; blends of rotations keep
 * lengths), antipodal quaternions, weight rules, the conversion cache and the
 * job's validation. Expected values come from the matrices themselves or
 * from the linear job with one influence, never from the DQS code. */
#include <stdint.h>

#include "dqs_fixture.h"
#include "test.h"
#include "vskin/vskin.h"

#define VERTS 7

static const float positions[VERTS * 3] = {
    1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3, -2, 0.5f, 1, 0.3f, -0.7f, 2, 0, 0, 0};
static const float normals[VERTS * 3] = {
    1, 0, 0,    0,    1,    0, 0,    0,      1,      0.6f,  0.8f,
    0, 0, 0.6f, 0.8f, 0.8f, 0, 0.6f, 0.267f, 0.535f, 0.802f};
static const float tangents[VERTS * 4] = {
    0, 1, 0, 1, 0, 0,  1, -1, 1, 0, 0,    1, 0.8f,  -0.6f,
    0, 1, 1, 0, 0, -1, 0, 1,  0, 1, 0.6f, 0, -0.8f, 1};

typedef struct outputs {
    float p[VERTS * 3], n[VERTS * 3], t[VERTS * 4];
} outputs;

static vs_result run(vs_skin_method method, const float *jm, const float *dq,
                     uint32_t joint_count, uint32_t inf, const uint16_t *joints,
                     const float *weights, uint32_t flags, outputs *o)
{
    vs_skinning_job job = {.vertex_count = VERTS,
                           .influence_count = inf,
                           .joint_matrices = jm,
                           .joint_count = joint_count,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = positions,
                           .out_positions = o->p,
                           .in_normals = normals,
                           .out_normals = o->n,
                           .in_tangents = tangents,
                           .out_tangents = o->t,
                           .flags = flags,
                           .method = method,
                           .joint_dual_quaternions = dq};
    vs_error err = {0};
    vs_result r = vs_skinning_job_run(&job, &err);
    if (r != VS_OK) fprintf(stderr, "job failed: %s\n", err.message);
    return r;
}

/* Largest |a - b| relative to max(1, |b|) over every output. */
static double max_rel_diff(const outputs *a, const outputs *b)
{
    double worst = 0.0;
    const float *pa[3] = {a->p, a->n, a->t}, *pb[3] = {b->p, b->n, b->t};
    const int len[3] = {VERTS * 3, VERTS * 3, VERTS * 4};
    for (int s = 0; s < 3; ++s)
        for (int i = 0; i < len[s]; ++i) {
            double d = fabs((double)pa[s][i] - pb[s][i]) /
                       fmax(1.0, fabs((double)pb[s][i]));
            if (!(d <= worst)) worst = d;
        }
    return worst;
}

/* One joint alone must give exactly its matrix: compare with the linear
 * job, whose single-influence result is J * p by definition. */
static void lone_joint_equals_its_matrix(void)
{
    uint32_t seed = 12345;
    uint16_t joints[VERTS];
    float weights[VERTS];
    for (int v = 0; v < VERTS; ++v) {
        joints[v] = 0;
        weights[v] = 1.0f;
    }
    for (int scaled = 0; scaled < 2; ++scaled) {
        double worst = 0.0;
        for (int trial = 0; trial < 200; ++trial) {
            float m[16];
            fx_random_joint(m, &seed, scaled);
            outputs lin, dqs;
            CHECK(run(VS_SKIN_LINEAR, m, NULL, 1, 1, joints, weights, 0,
                      &lin) == VS_OK);
            CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, 1, 1, joints, weights,
                      0, &dqs) == VS_OK);
            worst = fmax(worst, max_rel_diff(&dqs, &lin));
        }
        printf("lone joint (%s): max relative difference to the matrix %.3g\n",
               scaled ? "scaled, sheared, mirrored" : "rigid", worst);
        CHECK_MSG(worst <= 1e-5, "%s: %g", scaled ? "scaled" : "rigid", worst);
    }
}

/* Half turns about each axis and near-half turns about a diagonal: the
 * rotation-to-quaternion cases where w is small and x, y or z leads. */
static void half_turns_equal_their_matrix(void)
{
    const double axes[4][3] = {
        {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.57735, 0.57735, 0.57735}};
    const double angles[3] = {3.14159265358979, 3.1414, -3.1414};
    const double t[3] = {0.5, -1, 2};
    uint16_t joints[VERTS] = {0};
    float weights[VERTS] = {1, 1, 1, 1, 1, 1, 1};
    double worst = 0.0;
    for (int a = 0; a < 4; ++a)
        for (int k = 0; k < 3; ++k) {
            float m[16];
            fx_rigid(m, axes[a], angles[k], t);
            outputs lin, dqs;
            CHECK(run(VS_SKIN_LINEAR, m, NULL, 1, 1, joints, weights, 0,
                      &lin) == VS_OK);
            CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, 1, 1, joints, weights,
                      0, &dqs) == VS_OK);
            worst = fmax(worst, max_rel_diff(&dqs, &lin));
        }
    printf("half turns: max relative difference to the matrix %.3g\n", worst);
    CHECK(worst <= 1e-5);
}

/* Rigid joints get S = I exactly; a scaled joint's S is R^T M and its dual
 * quaternion is a unit rotation. */
static void conversion_layout(void)
{
    const double axis[3] = {0, 0, 1}, t[3] = {1, 2, 3};
    float m[32], dq[2 * VS_DQ_JOINT_FLOATS];
    fx_rigid(m, axis, 1.0, t);
    fx_rigid(m + 16, axis, 0.5 * FX_PI, t);
    fx_scale_after(m + 16, 2.0, 3.0, 4.0);
    CHECK(vs_joint_dual_quaternions(m, 2, dq, NULL) == VS_OK);
    const float identity_s[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    CHECK(memcmp(dq + 8, identity_s, sizeof identity_s) == 0);
    /* Rotation by 1 rad about z: real = (0, 0, sin 0.5, cos 0.5). */
    CHECK_NEAR(dq[2], sin(0.5), 1e-6);
    CHECK_NEAR(dq[3], cos(0.5), 1e-6);
    /* dual = 0.5 * (t, 0) * real, so w = -0.5 * t . real.xyz. */
    CHECK_NEAR(dq[7], -0.5 * 3 * sin(0.5), 1e-6);
    /* 90 degrees about z, scaled by (2, 3, 4) before: S = diag(2, 3, 4). */
    const float *d = dq + VS_DQ_JOINT_FLOATS;
    CHECK_NEAR(d[2], sqrt(0.5), 1e-6);
    CHECK_NEAR(d[3], sqrt(0.5), 1e-6);
    CHECK_NEAR(d[8], 2, 1e-6);
    CHECK_NEAR(d[13], 3, 1e-6);
    CHECK_NEAR(d[18], 4, 1e-6);
    CHECK_NEAR(d[9], 0, 1e-6);
    CHECK_NEAR(d[12], 0, 1e-6);

    float bad[16];
    fx_identity(bad);
    bad[5] = NAN;
    vs_error err = {0};
    CHECK(vs_joint_dual_quaternions(bad, 1, dq, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "joint_matrices[0]") != NULL);
    CHECK(vs_joint_dual_quaternions(NULL, 1, dq, &err) == VS_ERROR_ARGUMENT);
}

/* Half way between the identity and 90 degrees about z, DQS rotates by 45
 * degrees and keeps the length; linear blending shortens (1, 0, 0) to
 * length cos 45. */
static void half_rotation_keeps_length(void)
{
    const double axis[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    float m[32];
    fx_identity(m);
    fx_rigid(m + 16, axis, 0.5 * FX_PI, zero);
    uint16_t joints[VERTS * 2];
    float weights[VERTS * 2];
    for (int v = 0; v < VERTS; ++v) {
        joints[v * 2] = 0;
        joints[v * 2 + 1] = 1;
        weights[v * 2] = weights[v * 2 + 1] = 0.5f;
    }
    outputs lin, dqs;
    CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, 2, 2, joints, weights, 0,
              &dqs) == VS_OK);
    CHECK(run(VS_SKIN_LINEAR, m, NULL, 2, 2, joints, weights, 0, &lin) ==
          VS_OK);
    CHECK_NEAR(dqs.p[0], sqrt(0.5), 1e-6);
    CHECK_NEAR(dqs.p[1], sqrt(0.5), 1e-6);
    CHECK_NEAR(dqs.p[2], 0, 1e-6);
    CHECK_NEAR(lin.p[0], 0.5, 1e-6);
    CHECK_NEAR(lin.p[1], 0.5, 1e-6);
    /* The tangent (0, 1, 0) turns by 45 degrees too. */
    CHECK_NEAR(dqs.t[0], -sqrt(0.5), 1e-6);
    CHECK_NEAR(dqs.t[1], sqrt(0.5), 1e-6);
    CHECK_NEAR(dqs.t[3], 1, 0);
}

/* q and -q are the same rotation: negating a joint's whole dual quaternion
 * must not change any result, whichever influence comes first. */
static void antipodal_quaternions_agree(void)
{
    uint32_t seed = 777;
    float m[3 * 16], dq[3 * VS_DQ_JOINT_FLOATS], neg[3 * VS_DQ_JOINT_FLOATS];
    for (int j = 0; j < 3; ++j)
        fx_random_joint(m + j * 16, &seed, j == 2);
    CHECK(vs_joint_dual_quaternions(m, 3, dq, NULL) == VS_OK);
    memcpy(neg, dq, sizeof dq);
    for (int j = 0; j < 2; ++j) /* negate joint j's 8 dual quaternion floats */
        for (int k = 0; k < 8; ++k)
            neg[(j + 1) * VS_DQ_JOINT_FLOATS + k] *= (j == 0) ? -1.0f : 1.0f;
    for (int k = 0; k < 8; ++k)
        neg[k] = -neg[k];
    uint16_t joints[VERTS * 3];
    float weights[VERTS * 3];
    for (int v = 0; v < VERTS; ++v)
        for (int i = 0; i < 3; ++i) {
            joints[v * 3 + i] = (uint16_t)((v + i) % 3);
            weights[v * 3 + i] = (float)(1 + i + v % 2);
        }
    outputs a, b;
    CHECK(run(VS_SKIN_DUAL_QUATERNION, NULL, dq, 3, 3, joints, weights, 0,
              &a) == VS_OK);
    CHECK(run(VS_SKIN_DUAL_QUATERNION, NULL, neg, 3, 3, joints, weights, 0,
              &b) == VS_OK);
    double d = max_rel_diff(&a, &b);
    printf("antipodal: max relative difference %.3g\n", d);
    CHECK(d <= 1e-6);
}

/* Given dual quaternions, the per-run cache and the per-influence path
 * beyond VS_DQ_JOINT_CACHE all convert the same way. */
static void joint_sources_agree(void)
{
    enum { JOINTS = VS_DQ_JOINT_CACHE + 8 };
    static float m[JOINTS * 16], dq[JOINTS * VS_DQ_JOINT_FLOATS];
    uint32_t seed = 99;
    for (int j = 0; j < JOINTS; ++j)
        fx_random_joint(m + j * 16, &seed, j % 2);
    CHECK(vs_joint_dual_quaternions(m, JOINTS, dq, NULL) == VS_OK);
    uint16_t joints[VERTS * 2];
    float weights[VERTS * 2];
    for (int v = 0; v < VERTS; ++v) {
        joints[v * 2] = (uint16_t)(v * 3);
        joints[v * 2 + 1] = (uint16_t)(JOINTS - 1 - v);
        weights[v * 2] = 0.25f;
        weights[v * 2 + 1] = 0.75f;
    }
    outputs given, converted;
    CHECK(run(VS_SKIN_DUAL_QUATERNION, NULL, dq, JOINTS, 2, joints, weights, 0,
              &given) == VS_OK);
    CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, JOINTS, 2, joints, weights, 0,
              &converted) == VS_OK);
    CHECK(memcmp(&given, &converted, sizeof given) == 0);
}

/* The linear job's weight rules: default weights are divided by their sum
 * and a zero sum keeps the input; raw zero weights collapse to the origin. */
static void weight_rules_match_linear(void)
{
    const double axis[3] = {1, 0, 0}, t[3] = {5, 0, 0};
    float m[32];
    fx_rigid(m, axis, 0.3, t);
    fx_rigid(m + 16, axis, 0.3, t);
    uint16_t joints[VERTS * 2] = {0};
    float weights[VERTS * 2] = {0};
    for (int v = 1; v < VERTS; ++v) {
        joints[v * 2 + 1] = 1;
        weights[v * 2] = 2.0f; /* sums to 4: same as 0.5 / 0.5 */
        weights[v * 2 + 1] = 2.0f;
    }
    outputs lin, dqs;
    CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, 2, 2, joints, weights, 0,
              &dqs) == VS_OK);
    CHECK(run(VS_SKIN_LINEAR, m, NULL, 2, 2, joints, weights, 0, &lin) ==
          VS_OK);
    /* Equal joints: both methods give that joint's transform. */
    CHECK(max_rel_diff(&dqs, &lin) <= 1e-5);
    /* Vertex 0 has weights (0, 0): it keeps its input. */
    CHECK(memcmp(dqs.p, positions, 3 * sizeof(float)) == 0);
    CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, 2, 2, joints, weights,
              VS_SKIN_RAW_WEIGHTS, &dqs) == VS_OK);
    CHECK(dqs.p[0] == 0.0f && dqs.p[1] == 0.0f && dqs.p[2] == 0.0f);
}

/* A joint scaled to zero (a common way to hide geometry) blended half and
 * half with the identity: R = I for it, so DQS gives 0.5 p + 0.5 t like
 * linear blending, not a turn toward an arbitrary rotation. And a NaN
 * joint with weight 0 changes nothing. */
static void zero_scale_and_nan_joints(void)
{
    float m[48];
    fx_identity(m);
    fx_identity(m + 16);
    fx_scale_after(m + 16, 0, 0, 0);
    m[16 + 12] = 4.0f;
    m[16 + 13] = -2.0f;
    fx_identity(m + 32);
    m[32 + 5] = NAN;
    uint16_t joints[VERTS * 3];
    float weights[VERTS * 3];
    for (int v = 0; v < VERTS; ++v) {
        joints[v * 3] = 0;
        joints[v * 3 + 1] = 1;
        joints[v * 3 + 2] = 2;
        weights[v * 3] = weights[v * 3 + 1] = 0.5f;
        weights[v * 3 + 2] = 0.0f;
    }
    outputs lin, dqs;
    CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, 3, 3, joints, weights, 0,
              &dqs) == VS_OK);
    CHECK(run(VS_SKIN_LINEAR, m, NULL, 3, 3, joints, weights, 0, &lin) ==
          VS_OK);
    CHECK_NEAR(dqs.p[0], 0.5 * 1 + 2.0, 1e-6);
    CHECK_NEAR(dqs.p[1], -1.0, 1e-6);
    CHECK(max_rel_diff(&dqs, &lin) <= 1e-6);
    /* With weight on the NaN joint the output is NaN, as linear: no crash,
     * no hang. */
    weights[2] = 1.0f;
    CHECK(run(VS_SKIN_DUAL_QUATERNION, m, NULL, 3, 3, joints, weights, 0,
              &dqs) == VS_OK);
    CHECK(isnan(dqs.p[0]));
}

static void validation(void)
{
    float m[16];
    fx_identity(m);
    const uint16_t joints[VERTS] = {0};
    const float weights[VERTS] = {1, 1, 1, 1, 1, 1, 1};
    outputs o;
    CHECK(run((vs_skin_method)7, m, NULL, 1, 1, joints, weights, 0, &o) ==
          VS_ERROR_ARGUMENT);
    /* DQS needs the matrices or the dual quaternions. */
    CHECK(run(VS_SKIN_DUAL_QUATERNION, NULL, NULL, 1, 1, joints, weights, 0,
              &o) == VS_ERROR_ARGUMENT);
    CHECK(run(VS_SKIN_LINEAR, NULL, NULL, 1, 1, joints, weights, 0, &o) ==
          VS_ERROR_ARGUMENT);
    const uint16_t bad[VERTS] = {0, 0, 3};
    vs_skinning_job job = {.vertex_count = VERTS,
                           .influence_count = 1,
                           .joint_matrices = m,
                           .joint_count = 1,
                           .joints = bad,
                           .weights = weights,
                           .in_positions = positions,
                           .out_positions = o.p,
                           .method = VS_SKIN_DUAL_QUATERNION};
    vs_error err = {0};
    CHECK(vs_skinning_job_run(&job, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "vertex 2") != NULL);
}

int main(void)
{
    RUN(lone_joint_equals_its_matrix);
    RUN(half_turns_equal_their_matrix);
    RUN(conversion_layout);
    RUN(half_rotation_keeps_length);
    RUN(antipodal_quaternions_agree);
    RUN(joint_sources_agree);
    RUN(weight_rules_match_linear);
    RUN(zero_scale_and_nan_joints);
    RUN(validation);
    return test_summary();
}
