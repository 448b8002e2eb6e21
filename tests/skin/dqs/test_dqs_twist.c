/* SPDX-License-Identifier: MIT */
/* What DQS is for: a cylinder twisted 180 degrees about its own axis across
 * two joints. Linear blending averages p and its half-turn image, so the
 * middle ring collapses onto the axis ("candy wrapper"); DQS turns it by 90
 * degrees and keeps its radius. The test builds the cylinder in memory,
 * skins it both ways and measures the middle ring's radius. */
#include <stdint.h>

#include "dqs_fixture.h"
#include "test.h"
#include "vskin/vskin.h"

enum { RINGS = 9, SIDES = 32, VERTS = RINGS * SIDES };
#define RADIUS 0.5
#define LENGTH 4.0
#define MIDDLE (RINGS / 2)

/* c = a * b, column-major 4x4. */
static void mat_mul(const float a[16], const float b[16], float c[16])
{
    for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 4; ++row) {
            double s = 0.0;
            for (int k = 0; k < 4; ++k)
                s += (double)a[k * 4 + row] * b[col * 4 + k];
            c[col * 4 + row] = (float)s;
        }
}

typedef struct cylinder {
    float positions[VERTS * 3], normals[VERTS * 3];
    uint16_t joints[VERTS * 2];
    float weights[VERTS * 2];
    float joint_matrices[32];
} cylinder;

/* Axis along +y from y = 0 to LENGTH, offset to x = 1 so the twist axis is
 * not the origin. Joint 0 at the base (identity); joint 1 at the middle,
 * turned 180 degrees about the cylinder axis: J1 = G1 * IBM1 with
 * G1 = T(1, L/2, 0) * Ry(180) and IBM1 = T(-1, -L/2, 0). Weights run
 * linearly from joint 0 at the base to joint 1 at the top. */
static void build(cylinder *c)
{
    for (int r = 0; r < RINGS; ++r) {
        double y = LENGTH * r / (RINGS - 1);
        float w1 = (float)r / (RINGS - 1);
        for (int s = 0; s < SIDES; ++s) {
            int v = r * SIDES + s;
            double a = 2.0 * FX_PI * s / SIDES;
            c->positions[v * 3 + 0] = (float)(1.0 + RADIUS * cos(a));
            c->positions[v * 3 + 1] = (float)y;
            c->positions[v * 3 + 2] = (float)(RADIUS * sin(a));
            c->normals[v * 3 + 0] = (float)cos(a);
            c->normals[v * 3 + 1] = 0.0f;
            c->normals[v * 3 + 2] = (float)sin(a);
            c->joints[v * 2] = 0;
            c->joints[v * 2 + 1] = 1;
            c->weights[v * 2] = 1.0f - w1;
            c->weights[v * 2 + 1] = w1;
        }
    }
    const double y_axis[3] = {0, 1, 0}, at[3] = {1, LENGTH / 2, 0},
                 none[3] = {0, 0, 0};
    float g[16], ibm[16];
    fx_identity(c->joint_matrices);
    fx_rigid(g, y_axis, FX_PI, at);
    fx_rigid(ibm, y_axis, 0.0, none);
    ibm[12] = -1.0f;
    ibm[13] = (float)(-LENGTH / 2);
    mat_mul(g, ibm, c->joint_matrices + 16);
}

/* Smallest and largest distance of the middle ring from the axis x = 1,
 * z = 0. */
static void middle_ring(const float *p, double *rmin, double *rmax)
{
    *rmin = INFINITY;
    *rmax = 0.0;
    for (int s = 0; s < SIDES; ++s) {
        const float *q = p + (MIDDLE * SIDES + s) * 3;
        double r = hypot(q[0] - 1.0, q[2]);
        *rmin = fmin(*rmin, r);
        *rmax = fmax(*rmax, r);
    }
}

static void skin(const cylinder *c, vs_skin_method method, float *out_p,
                 float *out_n)
{
    vs_skinning_job job = {.vertex_count = VERTS,
                           .influence_count = 2,
                           .joint_matrices = c->joint_matrices,
                           .joint_count = 2,
                           .joints = c->joints,
                           .weights = c->weights,
                           .in_positions = c->positions,
                           .out_positions = out_p,
                           .in_normals = c->normals,
                           .out_normals = out_n,
                           .method = method};
    vs_error err = {0};
    CHECK_MSG(vs_skinning_job_run(&job, &err) == VS_OK, "%s", err.message);
}

static void twist_keeps_radius_under_dqs_only(void)
{
    static cylinder c;
    static float lin_p[VERTS * 3], lin_n[VERTS * 3];
    static float dq_p[VERTS * 3], dq_n[VERTS * 3];
    build(&c);
    skin(&c, VS_SKIN_LINEAR, lin_p, lin_n);
    skin(&c, VS_SKIN_DUAL_QUATERNION, dq_p, dq_n);

    double lin_min, lin_max, dq_min, dq_max;
    middle_ring(lin_p, &lin_min, &lin_max);
    middle_ring(dq_p, &dq_min, &dq_max);
    printf("middle ring radius / original: linear %.4f..%.4f, "
           "DQS %.4f..%.4f\n",
           lin_min / RADIUS, lin_max / RADIUS, dq_min / RADIUS,
           dq_max / RADIUS);
    CHECK_MSG(lin_max < 0.10 * RADIUS, "linear keeps %.3f of the radius",
              lin_max / RADIUS);
    CHECK_MSG(dq_min >= 0.98 * RADIUS && dq_max <= 1.02 * RADIUS,
              "DQS radius %.4f..%.4f of %.2f", dq_min, dq_max, RADIUS);

    /* Every ring of the DQS result keeps its height and its radius. */
    double worst = 0.0;
    for (int v = 0; v < VERTS; ++v) {
        double r = hypot(dq_p[v * 3] - 1.0, dq_p[v * 3 + 2]);
        worst = fmax(worst, fabs(r / RADIUS - 1.0));
        CHECK_NEAR(dq_p[v * 3 + 1], c.positions[v * 3 + 1], 1e-5);
    }
    printf("largest radius change over all rings under DQS: %.3g\n", worst);
    CHECK(worst <= 0.02);

    /* The middle ring is turned by 90 degrees: (1 + R, y, 0) goes to
     * (1, y, -R) or (1, y, R) (a quarter turn either way is the shortest
     * path for a half-turn twist) and its normal turns with it. */
    const float *q = dq_p + MIDDLE * SIDES * 3, *n = dq_n + MIDDLE * SIDES * 3;
    CHECK_NEAR(q[0], 1.0, 1e-5);
    CHECK_NEAR(fabs(q[2]), RADIUS, 1e-5);
    CHECK_NEAR(n[0], 0.0, 1e-5);
    CHECK_NEAR(fabs(n[2]), 1.0, 1e-5);
    CHECK((q[2] > 0) == (n[2] > 0));
}

int main(void)
{
    RUN(twist_keeps_radius_under_dqs_only);
    return test_summary();
}
