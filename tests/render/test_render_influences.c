/* SPDX-License-Identifier: MIT */
/* Hand-made glTF files in tests/data/render: 8 influences (JOINTS_0/1 and
 * WEIGHTS_0/1, joints with rotation and non-uniform scale) skin on the GPU
 * as on the CPU, positions and normals; a morph target with a mesh weight is
 * applied before GPU skinning as on the CPU; 12 influences are refused. */
#include "render_support.h"

static vs_asset *load_data(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/render/%s", VS_TEST_DATA, name);
    vs_asset *a = NULL;
    vs_error e = {0};
    CHECK_MSG(vs_asset_load_file(path, NULL, &a, &e) == VS_OK, "%s", e.message);
    return a;
}

/* GPU capture == vs_pose_mesh_primitive at rest, both upload paths; returns
 * the largest distance any vertex moved from its bind position. */
static double compare_rest_pose(const char *name)
{
    vs_asset *a = load_data(name);
    if (!a) return 0.0;
    vs_renderer *r = open_renderer_or_skip(a);
    vs_pose *pose = NULL;
    vs_error e = {0};
    CHECK(r != NULL);
    CHECK(vs_pose_create(a, &pose, &e) == VS_OK);
    double moved = 0.0;
    if (r && pose) {
        vs_pose_update_world(pose);
        vs_posed_primitive cpu = {0};
        CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &cpu, &e) == VS_OK);
        const vs_primitive *prim = &a->meshes[0].primitives[0];
        for (int path = VS_UPLOAD_UNIFORMS;
             cpu.normals && path <= VS_UPLOAD_TEXTURE; ++path) {
            float gpu[18] = {0};
            CHECK_MSG(vs_renderer_capture_skinned_positions(
                          r, pose, 0, 0, (vs_upload_path)path, 0, gpu, gpu + 9,
                          &e) == VS_OK,
                      "%s", e.message);
            for (int k = 0; k < 9; ++k) {
                CHECK_NEAR(gpu[k], cpu.positions[k], 1e-5);
                CHECK_NEAR(gpu[9 + k], cpu.normals[k], 1e-5);
                moved = fmax(moved, fabs(gpu[k] - prim->positions[k]));
            }
        }
        vs_posed_primitive_free(&cpu);
    }
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(a);
    return moved;
}

static void test_eight_influences(void)
{
    CHECK(compare_rest_pose("eight_influences.gltf") > 0.1);
}

static void test_morph_before_skinning(void)
{
    CHECK(compare_rest_pose("morph_skinned.gltf") > 0.1);
}

static void test_twelve_influences_refused(void)
{
    vs_asset *a = load_data("twelve_influences.gltf");
    if (!a) return;
    vs_renderer *r = NULL;
    vs_error e = {0};
    vs_result res = vs_renderer_create(a, &r, &e);
    if (res == VS_ERROR_RENDER && strstr(e.message, "EGL:")) exit(77);
    CHECK(res == VS_ERROR_UNSUPPORTED);
    CHECK(r == NULL);
    CHECK_MSG(strstr(e.message, "12 influences") != NULL, "%s", e.message);
    vs_asset_free(a);
}

int main(void)
{
    RUN(test_eight_influences);
    RUN(test_morph_before_skinning);
    RUN(test_twelve_influences_refused);
    return test_summary();
}
