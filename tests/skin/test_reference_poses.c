/* SPDX-License-Identifier: MIT */
/* Posed vertex positions of SimpleSkin, RiggedSimple and CesiumMan, through
 * the public API (load -> pose -> sample -> world -> skinned primitive),
 * against values derived without the library:
 *  - SimpleSkin at t = 0.25, 1.0, 3.75 worked out here from first principles
 *    (J_j = G_j * IBM_j blended by the file's weights), to 1e-5;
 *  - all three assets against the JSON in tests/data/reference/, written by the
 *    independent Python implementation tests/reference/gltf_reference.py
 *    (SimpleSkin at t = 0, 0.25, 1, 2.5, 3.75, 5.5, 7; RiggedSimple at
 *    0, 1, 1.7, 3 for every vertex; CesiumMan at 0, 0.7, 1.3, 2.5 for every
 *    37th vertex), to 1e-5 of the model size, plus scene and primitive
 *    bounds. */
#include <math.h>

#include "skin/reference_compare.h"
#include "test.h"

/* ---------------------------------------------------- SimpleSkin by hand
 *
 * tests/data/gltf2/SimpleSkin.gltf (the glTF tutorial's skin):
 *   node 0: mesh 0 + skin 0, no transform (ignored anyway, glTF 2.0 §3.7.3.3)
 *   node 1: joint 0, no transform                 -> G0 = I
 *   node 2: joint 1, child of node 1, translation (0,1,0), rotation animated
 *           about z                                -> G1 = T(0,1,0) Rz(a)
 *   IBMs (accessor 4): IBM0 = I, IBM1 = T(0,-1,0)
 *   so J0 = I and J1 = T(0,1,0) Rz(a) T(0,-1,0), i.e. a rotation by a about
 *   the point (0,1,0): J1 (x,y,z) = (-(y-1) sin a + x cos a,
 *                                   1 + (y-1) cos a + x sin a, z).
 *   Positions: rows y = 0, 0.5, 1, 1.5, 2 with x = -0.5, +0.5, z = 0.
 *   Weights (joint0, joint1) per row: (1,0) (0.75,0.25) (0.5,0.5)
 *   (0.25,0.75) (0,1); they sum to 1.
 *   Rotation keys (accessor 6, times 0, 0.5, ... 5.5), as stored (float):
 *   t=0.5 and 2.0: (0,0,0.383,0.924); t=1.0 and 1.5: (0,0,0.707,0.707);
 *   t=3.5 and 5.0: (0,0,-0.383,0.924); t=4.0 and 4.5: (0,0,-0.707,0.707);
 *   t=0, 2.5, 3.0, 5.5: identity. A unit quaternion (0,0,s,c) is a
 *   rotation by 2*atan2(s,c) about z (the stored keys are not exactly unit;
 *   the rotation they stand for is that of their normalization, which has
 *   the same angle). Slerp between two rotations about the same axis
 *   interpolates the angle linearly. */

static double key_angle(float s, float c)
{
    return 2.0 * atan2(s, c);
}

static void simple_skin_expected(double angle, double out[10][3])
{
    static const double row_weight1[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    for (int v = 0; v < 10; ++v) {
        double x = (v % 2) ? 0.5 : -0.5, y = 0.5 * (v / 2), z = 0.0;
        double w1 = row_weight1[v / 2], w0 = 1.0 - w1;
        double j1x = -(y - 1.0) * sin(angle) + x * cos(angle);
        double j1y = 1.0 + (y - 1.0) * cos(angle) + x * sin(angle);
        out[v][0] = w0 * x + w1 * j1x;
        out[v][1] = w0 * y + w1 * j1y;
        out[v][2] = z;
    }
}

static void check_simple_skin_at(vs_pose *pose, float time, double angle)
{
    double want[10][3];
    simple_skin_expected(angle, want);
    vs_error error = {0};
    vs_pose_reset(pose);
    CHECK(vs_pose_sample(pose, 0, time, VS_TIME_CLAMP, &error) == VS_OK);
    vs_pose_update_world(pose);
    vs_pose_mesh_options options = {0};
    vs_posed_primitive posed = {0};
    vs_result r = vs_pose_mesh_primitive(pose, 0, 0, &options, &posed, &error);
    CHECK_MSG(r == VS_OK, "%s", error.message);
    if (r != VS_OK) return;
    CHECK(posed.vertex_count == 10);
    for (uint32_t v = 0; v < posed.vertex_count && v < 10; ++v) {
        for (int i = 0; i < 3; ++i) {
            CHECK_MSG(fabs(posed.positions[3 * v + i] - want[v][i]) <= 1e-5,
                      "t=%g vertex %u component %d: library %.7g, by hand "
                      "%.7g",
                      time, v, i, posed.positions[3 * v + i], want[v][i]);
        }
    }
    vs_posed_primitive_free(&posed);
}

static void test_simple_skin_by_hand(void)
{
    vs_asset *asset = NULL;
    vs_pose *pose = NULL;
    vs_error error = {0};
    vs_result r = vs_asset_load_file(VS_TEST_DATA "/gltf2/SimpleSkin.gltf",
                                     NULL, &asset, &error);
    CHECK_MSG(r == VS_OK, "%s", error.message);
    if (r != VS_OK) return;
    CHECK(vs_pose_create(asset, &pose, &error) == VS_OK);
    if (pose) {
        /* t = 1.0 is the key (0,0,0.707,0.707): exactly 90 degrees, so the
         * top row (weights (0,1)) is (-0.5,2) -> (-1,0.5), (0.5,2) -> (-1,1.5)
         * and the middle row (0.5,0.5) is (-0.5,1) -> (-0.25,0.75). */
        check_simple_skin_at(pose, 1.0f, key_angle(0.707f, 0.707f));
        double want[10][3];
        simple_skin_expected(key_angle(0.707f, 0.707f), want);
        CHECK_NEAR(want[8][0], -1.0, 1e-12);
        CHECK_NEAR(want[8][1], 0.5, 1e-12);
        CHECK_NEAR(want[4][0], -0.25, 1e-12);
        CHECK_NEAR(want[4][1], 0.75, 1e-12);
        /* Halfway between t=0 (identity) and t=0.5 (0.383, 0.924). */
        check_simple_skin_at(pose, 0.25f, 0.5 * key_angle(0.383f, 0.924f));
        /* Halfway between t=3.5 (-0.383, 0.924) and t=4.0 (-0.707, 0.707). */
        check_simple_skin_at(
            pose, 3.75f,
            0.5 * (key_angle(-0.383f, 0.924f) + key_angle(-0.707f, 0.707f)));
        /* t = 2.5 and 5.5 are identity keys, t = 7 clamps to the last
         * (identity): the bind shape itself. */
        check_simple_skin_at(pose, 2.5f, 0.0);
        check_simple_skin_at(pose, 5.5f, 0.0);
        check_simple_skin_at(pose, 7.0f, 0.0);
        check_simple_skin_at(pose, 0.0f, 0.0);
    }
    vs_pose_free(pose);
    vs_asset_free(asset);
}

/* ------------------------------------------- against the Python reference */

static void test_simple_skin_reference(void)
{
    ref_compare_file(VS_TEST_DATA "/gltf2/SimpleSkin.gltf",
                     VS_TEST_DATA "/reference/SimpleSkin.json", 1e-5, true);
}

static void test_rigged_simple_reference(void)
{
    ref_compare_file(VS_TEST_DATA "/gltf2/RiggedSimple.gltf",
                     VS_TEST_DATA "/reference/RiggedSimple.json", 1e-5, false);
}

static void test_cesium_man_reference(void)
{
    ref_compare_file(VS_TEST_DATA "/gltf2/CesiumMan.gltf",
                     VS_TEST_DATA "/reference/CesiumMan.json", 1e-5, false);
}

int main(void)
{
    RUN(test_simple_skin_by_hand);
    RUN(test_simple_skin_reference);
    RUN(test_rigged_simple_reference);
    RUN(test_cesium_man_reference);
    return test_summary();
}
