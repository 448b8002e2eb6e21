/* SPDX-License-Identifier: MIT */
/* The bakes allocate through the source asset's allocator, and the assets
 * they make are made with it: vs_bake_frame_times, vs_bake_pose (then
 * posed and written), vs_bake_clip_morph and vs_bake_vat_write. Every block
 * is freed, vskin calls the C library's allocator not once, and refusing
 * any one allocation fails the call that asked with
 * VS_ERROR_OUT_OF_MEMORY, leaking nothing. */
#include "alloc_check.h"
#include "vskin/vskin_tools.h"

#define DATA VS_TEST_DATA
#define TMP VS_TEST_TMP

/* A baked asset: made with the source's allocator, so a pose of it and
 * writing it allocate through that too. */
static void use_baked(run *r, const vs_asset *baked, const char *out)
{
    vs_error err = {0};
    vs_pose *pose = NULL;
    if (step_result(r, vs_pose_create(baked, &pose, &err), &err,
                    "vs_pose_create (baked)"))
        step_result(r, vs_write_gltf(baked, out, NULL, NULL, &err), &err,
                    "vs_write_gltf (baked)");
    vs_pose_free(pose);
}

static void bake_scenario(run *r, const vs_allocator *a, void *ctx)
{
    (void)ctx;
    const vs_load_options options = {.allocator = *a};
    vs_asset *asset = NULL;
    vs_error err = {0};
    if (!step_result(r,
                     vs_asset_load_file(DATA "/gltf2/RiggedSimple.gltf",
                                        &options, &asset, &err),
                     &err, "load"))
        return;
    arm(r);
    float *times = NULL;
    uint32_t frames = 0;
    if (step_result(r,
                    vs_bake_frame_times(asset, 0, 2.0f, &times, &frames, &err),
                    &err, "vs_bake_frame_times")) {
        CHECK(frames > 1);
        a->free(times, a->user);
    }
    vs_pose *pose = NULL;
    vs_asset *baked = NULL;
    if (!r->failed && step_result(r, vs_pose_create(asset, &pose, &err), &err,
                                  "vs_pose_create")) {
        CHECK(vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, NULL) == VS_OK);
        vs_pose_update_world(pose);
        if (step_result(r, vs_bake_pose(pose, NULL, &baked, &err), &err,
                        "vs_bake_pose"))
            use_baked(r, baked, TMP "/alloc_bake_pose.glb");
    }
    vs_asset_free(baked);
    baked = NULL;
    vs_pose_free(pose);
    const vs_bake_clip_options clip = {.fps = 2.0f};
    if (!r->failed &&
        step_result(r, vs_bake_clip_morph(asset, 0, &clip, &baked, &err), &err,
                    "vs_bake_clip_morph"))
        use_baked(r, baked, TMP "/alloc_bake_morph.glb");
    vs_asset_free(baked);
    if (!r->failed)
        step_result(r,
                    vs_bake_vat_write(asset, 0, &clip, TMP "/alloc_vat", &err),
                    &err, "vs_bake_vat_write");
    vs_asset_free(asset);
}

static void test_bakes_use_the_source_allocator(void)
{
    alloc_check_clean("bake", bake_scenario, NULL);
}

static void test_every_refusal_unwinds(void)
{
    alloc_check_refusals("bake", bake_scenario, NULL);
}

/* The baked asset outlives its source and is freed through the allocator
 * it was made with. */
static void test_baked_asset_outlives_its_source(void)
{
    counting c;
    const vs_allocator a = counting_allocator(&c);
    const vs_load_options options = {.allocator = a};
    vs_asset *asset = NULL, *baked = NULL;
    vs_pose *pose = NULL;
    CHECK(vs_asset_load_file(DATA "/gltf2/RiggedSimple.gltf", &options, &asset,
                             NULL) == VS_OK);
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    vs_pose_update_world(pose);
    CHECK(vs_bake_pose(pose, NULL, &baked, NULL) == VS_OK);
    vs_pose_free(pose);
    vs_asset_free(asset);
    CHECK(counting_live(&c) > 0);
    vs_asset_free(baked);
    CHECK(counting_live(&c) == 0 && atomic_load(&c.foreign) == 0);
}

int main(void)
{
    RUN(test_bakes_use_the_source_allocator);
    RUN(test_every_refusal_unwinds);
    RUN(test_baked_asset_outlives_its_source);
    return test_summary();
}
