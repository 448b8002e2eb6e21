/* SPDX-License-Identifier: MIT */
/* The writers allocate through the allocator they are given: vs_write_gltf
 * (.glb, .gltf with a .bin, embedded), the posed scenes and vs_write_pose
 * (OBJ, PLY, JSON) through the asset's, vs_write_bytes, vs_gltf_bin_path,
 * PNG and GIF through their argument. Every block is freed, vskin calls
 * the C library's allocator not once (cJSON, libpng and giflib keep their
 * own), and refusing any one allocation fails the call that asked with
 * VS_ERROR_OUT_OF_MEMORY, leaking nothing. Half-set allocators are
 * refused. */
#include "alloc_check.h"
#include "vskin/vskin_tools.h"

#define DATA VS_TEST_DATA
#define TMP VS_TEST_TMP

/* Assets with skins and clips, morph targets, and COLLADA's axes. */
static const char *const assets[] = {
    DATA "/gltf2/RiggedSimple.gltf",
    DATA "/render/morph_skinned.gltf",
    DATA "/collada/bind_shape_non_identity.dae",
};
enum { ASSET_COUNT = sizeof assets / sizeof assets[0] };

/* The posed files: a scene with joints as JSON, then vs_write_pose. */
static void pose_steps(run *r, const vs_asset *asset)
{
    vs_pose *pose = NULL;
    vs_error err = {0};
    if (!step_result(r, vs_pose_create(asset, &pose, &err), &err,
                     "vs_pose_create"))
        return;
    if (asset->clip_count)
        CHECK(vs_pose_sample(pose, 0, 0.5f * asset->clips[0].end, VS_TIME_CLAMP,
                             NULL) == VS_OK);
    vs_pose_update_world(pose);
    const vs_posed_scene_options with_joints = {.joints = true};
    vs_posed_scene *scene = NULL;
    if (step_result(r, vs_posed_scene_create(pose, &with_joints, &scene, &err),
                    &err, "vs_posed_scene_create")) {
        step_result(r,
                    vs_write_posed_scene(scene, TMP "/alloc_scene.json",
                                         VS_POSED_FORMAT_AUTO, &err),
                    &err, "vs_write_posed_scene");
    }
    vs_posed_scene_free(scene);
    static const char *const outs[] = {
        TMP "/alloc_pose.obj", TMP "/alloc_pose.ply", TMP "/alloc_pose.json"};
    for (int i = 0; i < 3 && !r->failed; ++i)
        step_result(r, vs_write_pose(pose, outs[i], NULL, &err), &err,
                    "vs_write_pose");
    vs_pose_free(pose);
}

static void asset_scenario(run *r, const vs_allocator *a, void *ctx)
{
    const vs_load_options options = {.allocator = *a};
    vs_asset *asset = NULL;
    vs_error err = {0};
    if (!step_result(r, vs_asset_load_file(ctx, &options, &asset, &err), &err,
                     "load"))
        return;
    arm(r);
    const vs_gltf_write_options embed = {.embed = true};
    if (step_result(r, vs_write_gltf(asset, TMP "/alloc.glb", NULL, NULL, &err),
                    &err, "vs_write_gltf .glb") &&
        step_result(r,
                    vs_write_gltf(asset, TMP "/alloc.gltf", NULL, NULL, &err),
                    &err, "vs_write_gltf .gltf") &&
        step_result(
            r, vs_write_gltf(asset, TMP "/alloc_e.gltf", &embed, NULL, &err),
            &err, "vs_write_gltf embedded"))
        pose_steps(r, asset);
    vs_asset_free(asset);
}

/* The calls with no asset, each given the allocator. */
static void file_scenario(run *r, const vs_allocator *a, void *ctx)
{
    (void)ctx;
    arm(r);
    vs_error err = {0};
    char *bin = vs_gltf_bin_path(TMP "/alloc.gltf", a);
    if (!step(r, bin != NULL, VS_ERROR_OUT_OF_MEMORY, NULL, "vs_gltf_bin_path"))
        return;
    CHECK(strcmp(bin, TMP "/alloc.bin") == 0);
    a->free(bin, a->user);
    if (!step_result(r, vs_write_bytes("abc", 3, TMP "/alloc_bytes", a, &err),
                     &err, "vs_write_bytes"))
        return;
    uint8_t px[4 * 3 * 2];
    for (size_t i = 0; i < sizeof px; ++i)
        px[i] = (uint8_t)(i * 37);
    if (!step_result(r, vs_write_png(px, 3, 2, TMP "/alloc.png", a, &err), &err,
                     "vs_write_png"))
        return;
    uint32_t w = 0, h = 0;
    uint8_t *back = NULL;
    if (!step_result(r, vs_read_png(TMP "/alloc.png", a, &w, &h, &back, &err),
                     &err, "vs_read_png"))
        return;
    CHECK(w == 3 && h == 2 && memcmp(back, px, sizeof px) == 0);
    a->free(back, a->user);
    vs_gif_writer *gif = NULL;
    if (!step_result(
            r, vs_gif_writer_open(TMP "/alloc.gif", 3, 2, 5, a, &gif, &err),
            &err, "vs_gif_writer_open"))
        return;
    if (step_result(r, vs_gif_writer_add(gif, px, &err), &err,
                    "vs_gif_writer_add"))
        step_result(r, vs_gif_writer_close(gif, &err), &err,
                    "vs_gif_writer_close");
    else
        vs_gif_writer_discard(gif);
    gif = NULL;
    if (!r->failed &&
        step_result(
            r, vs_gif_writer_open(TMP "/alloc2.gif", 3, 2, 5, a, &gif, &err),
            &err, "vs_gif_writer_open (discarded)"))
        vs_gif_writer_discard(gif);
}

static void test_writers_use_the_asset_allocator(void)
{
    for (int i = 0; i < ASSET_COUNT; ++i)
        alloc_check_clean(assets[i], asset_scenario, (void *)assets[i]);
}

static void test_files_and_pictures_use_the_given_allocator(void)
{
#if VS_TEST_WRAP_MALLOC
    /* The wrapping sees the tools: without an allocator they call malloc. */
    watch(true);
    CHECK(vs_write_bytes("a", 1, TMP "/alloc_bytes", NULL, NULL) == VS_OK);
    watch(false);
    CHECK(libc_calls_seen() > 0);
#endif
    alloc_check_clean("files", file_scenario, NULL);
}

static void test_every_refusal_unwinds(void)
{
    alloc_check_refusals(assets[0], asset_scenario, (void *)assets[0]);
    alloc_check_refusals(assets[2], asset_scenario, (void *)assets[2]);
    alloc_check_refusals("files", file_scenario, NULL);
}

static void test_half_set_allocators_are_refused(void)
{
    counting c;
    vs_allocator half = counting_allocator(&c);
    half.free = NULL;
    vs_error err = {0};
    const uint8_t px[4] = {1, 2, 3, 4};
    CHECK(vs_write_bytes("a", 1, TMP "/alloc_half", &half, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "allocator") != NULL);
    CHECK(vs_write_png(px, 1, 1, TMP "/alloc_half.png", &half, &err) ==
          VS_ERROR_ARGUMENT);
    uint32_t w, h;
    uint8_t *back = NULL;
    CHECK(vs_read_png(TMP "/alloc.png", &half, &w, &h, &back, &err) ==
          VS_ERROR_ARGUMENT);
    vs_gif_writer *gif = NULL;
    CHECK(vs_gif_writer_open(TMP "/alloc_half.gif", 1, 1, 5, &half, &gif,
                             &err) == VS_ERROR_ARGUMENT &&
          !gif);
    CHECK(vs_gltf_bin_path("a.gltf", &half) == NULL);
    vs_posed_scene scene = {.allocator = half};
    CHECK(vs_write_posed_scene(&scene, TMP "/alloc_half.obj",
                               VS_POSED_FORMAT_AUTO,
                               &err) == VS_ERROR_ARGUMENT);
    CHECK(atomic_load(&c.calls) == 0);
    struct stat st;
    CHECK(stat(TMP "/alloc_half", &st) != 0);
}

int main(void)
{
    RUN(test_writers_use_the_asset_allocator);
    RUN(test_files_and_pictures_use_the_given_allocator);
    RUN(test_every_refusal_unwinds);
    RUN(test_half_set_allocators_are_refused);
    return test_summary();
}
