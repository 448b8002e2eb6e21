/* SPDX-License-Identifier: MIT */
/* The public bakers of vskin_tools.h: defaults of zero options, errors for
 * bad arguments, VAT files the same bytes `vskin bake --vat` writes, and a
 * failed VAT bake that leaves every old file as it was. */
#include <stdint.h>

#include "test.h"
#include "tools/cli_run.h"
#include "vskin/vskin_tools.h"
#include "write/tools_api_support.h"

#define DIR_ VS_TEST_TMP "/bake_api"
#define OLD "old contents\n"
#define SKIN VS_TEST_DATA "/gltf2/CesiumMan.gltf"

static vs_asset *load(void)
{
    vs_asset *a = NULL;
    vs_error e;
    CHECK_MSG(vs_asset_load_file(SKIN, NULL, &a, &e) == VS_OK, "%s", e.message);
    return a;
}

static void test_frame_times(void)
{
    vs_asset *a = load();
    if (!a) return;
    float *t = NULL;
    uint32_t n = 0, n30 = 0;
    vs_error e;
    CHECK(vs_bake_frame_times(a, 0, 0.0f, &t, &n, &e) == VS_OK);
    free(t);
    CHECK(vs_bake_frame_times(a, 0, 30.0f, &t, &n30, &e) == VS_OK);
    CHECK(n == n30 && n > 1 && t && t[0] == a->clips[0].start &&
          t[n - 1] == a->clips[0].end);
    free(t);
    CHECK(vs_bake_frame_times(a, 0, -1.0f, &t, &n, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_frame_times(a, 0, NAN, &t, &n, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_frame_times(a, a->clip_count, 30.0f, &t, &n, &e) ==
          VS_ERROR_NOT_FOUND);
    CHECK(vs_bake_frame_times(NULL, 0, 30.0f, &t, &n, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_frame_times(a, 0, 30.0f, NULL, &n, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_frame_times(a, 0, 1e-6f, &t, &n, &e) == VS_OK && n == 1 && t);
    free(t);
    vs_asset_free(a);
}

static void test_bake_pose(void)
{
    vs_asset *a = load();
    vs_pose *pose = NULL;
    vs_error e;
    if (!a || vs_pose_create(a, &pose, &e) != VS_OK) {
        vs_asset_free(a);
        return;
    }
    vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, &e);
    vs_pose_update_world(pose);
    vs_asset *baked = NULL;
    CHECK_MSG(vs_bake_pose(pose, NULL, &baked, &e) == VS_OK, "%s", e.message);
    vs_posed_primitive want = {0};
    CHECK(vs_pose_mesh_primitive(pose, a->instances[0], 0, NULL, &want, &e) ==
          VS_OK);
    if (baked) {
        const vs_primitive *p = &baked->meshes[0].primitives[0];
        CHECK(baked->skin_count == 0 && baked->clip_count == 0);
        CHECK(baked->node_count == a->instance_count);
        CHECK(p->vertex_count == want.vertex_count &&
              memcmp(p->positions, want.positions,
                     12 * (size_t)want.vertex_count) == 0);
    }
    vs_posed_primitive_free(&want);
    vs_pose_free(pose); /* the baked asset needs neither pose nor source */
    vs_asset_free(a);
    vs_asset_free(baked);
    CHECK(vs_bake_pose(NULL, NULL, &baked, &e) == VS_ERROR_ARGUMENT);
}

static void test_clip_morph(void)
{
    vs_asset *a = load();
    if (!a) return;
    vs_asset *baked = NULL;
    vs_error e;
    float *t = NULL;
    uint32_t frames = 0;
    CHECK(vs_bake_frame_times(a, 0, 30.0f, &t, &frames, &e) == VS_OK);
    free(t);
    /* NULL options: 30 frames a second, one morph target a later frame */
    CHECK_MSG(vs_bake_clip_morph(a, 0, NULL, &baked, &e) == VS_OK, "%s",
              e.message);
    CHECK(baked && baked->meshes[0].primitives[0].target_count == frames - 1 &&
          baked->clip_count == 1);
    vs_asset_free(baked);
    baked = NULL;
    vs_bake_clip_options cubic = {.interpolation = VS_INTERP_CUBICSPLINE};
    CHECK(vs_bake_clip_morph(a, 0, &cubic, &baked, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_clip_morph(a, 99, NULL, &baked, &e) == VS_ERROR_NOT_FOUND);
    CHECK(vs_bake_clip_morph(NULL, 0, NULL, &baked, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_clip_morph(a, 0, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(!baked);
    vs_asset_free(a);
}

static const char *const SUFFIXES[] = {".bin", ".normals.bin", ".json", ".glb"};

static void test_vat_same_bytes_as_the_cli(void)
{
    vs_asset *a = load();
    if (!a) return;
    char api[512], cli[512], x[512], y[512], args[1200];
    scratch_path(api, sizeof api, DIR_, "api_vat");
    scratch_path(cli, sizeof cli, DIR_, "cli_vat");
    vs_error e;
    vs_bake_clip_options o = {.fps = 12};
    CHECK_MSG(vs_bake_vat_write(a, 0, &o, api, &e) == VS_OK, "%s", e.message);
    snprintf(args, sizeof args, "bake '%s' --clip 0 --fps 12 --vat '%s'", SKIN,
             cli);
    cli_result r = cli_run(args);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    /* The JSON names its files, whose base names differ: compare the rest. */
    for (int k = 0; k < 4; ++k) {
        snprintf(x, sizeof x, "%s%s", api, SUFFIXES[k]);
        snprintf(y, sizeof y, "%s%s", cli, SUFFIXES[k]);
        if (k == 2) {
            size_t nx = 0, ny = 0;
            char *jx = read_whole(x, &nx), *jy = read_whole(y, &ny);
            CHECK(jx && jy && nx == ny);
            for (size_t i = 0; jx && jy && i + 3 < nx; ++i)
                if (memcmp(jx + i, "api", 3) == 0) memcpy(jx + i, "cli", 3);
            CHECK(jx && jy && memcmp(jx, jy, nx) == 0);
            free(jx);
            free(jy);
        } else {
            CHECK_MSG(same_bytes(x, y), "%s differs from the CLI's", x);
        }
    }
    CHECK(vs_bake_vat_write(a, 0, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_vat_write(NULL, 0, NULL, api, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_bake_vat_write(a, 7, NULL, api, &e) == VS_ERROR_NOT_FOUND);
    vs_asset_free(a);
}

/* The .glb cannot be written (a folder has its name): no other file of the
 * set is replaced or made, and no temporary file is left. */
static void test_failed_vat_keeps_old_files(void)
{
    vs_asset *a = load();
    if (!a) return;
    char base[512], path[600];
    scratch_path(base, sizeof base, DIR_, "kept_vat");
    for (int k = 0; k < 3; ++k) {
        snprintf(path, sizeof path, "%s%s", base, SUFFIXES[k]);
        CHECK(write_text(path, OLD));
    }
    snprintf(path, sizeof path, "%s.glb", base);
    mkdir(path, 0777);
    vs_error e;
    CHECK(vs_bake_vat_write(a, 0, NULL, base, &e) == VS_ERROR_IO);
    CHECK_MSG(strstr(e.message, "kept_vat.glb") != NULL, "%s", e.message);
    for (int k = 0; k < 3; ++k) {
        snprintf(path, sizeof path, "%s%s", base, SUFFIXES[k]);
        CHECK_MSG(file_is(path, OLD), "%s changed", path);
    }
    CHECK(leftover_temps(DIR_) == 0);
    snprintf(path, sizeof path, "%s.glb", base);
    rmdir(path);
    vs_asset_free(a);
}

int main(void)
{
    scratch_reset(DIR_);
    RUN(test_frame_times);
    RUN(test_bake_pose);
    RUN(test_clip_morph);
    RUN(test_vat_same_bytes_as_the_cli);
    RUN(test_failed_vat_keeps_old_files);
    return test_summary();
}
