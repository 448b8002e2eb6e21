/* SPDX-License-Identifier: MIT */
/* The renderer's memory: the renderer object from
 * vs_renderer_options.allocator, everything it keeps for the asset from the
 * asset's allocator, all of it given back by vs_renderer_destroy; a refused
 * allocation at any point fails with VS_ERROR_OUT_OF_MEMORY and leaks
 * nothing; an allocator with only one callback is refused. The GL driver's
 * own memory is not vskin's and is not counted. Skipped without EGL (after
 * the argument check, which needs none). */
#include "counting_allocator.h"
#include "render_support.h"

static vs_asset *load_counted(const vs_allocator *alloc)
{
    size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    vs_load_options o = {.allocator = *alloc};
    vs_asset *asset = NULL;
    vs_error e = {0};
    if (vs_asset_load_memory(data, size, "SimpleSkin.gltf", &o, &asset, &e) !=
        VS_OK)
        fprintf(stderr, "load: %s\n", e.message);
    return asset;
}

static void test_half_an_allocator_is_refused(void)
{
    counting c;
    vs_allocator a = counting_allocator(&c);
    vs_asset *asset = load_counted(&a);
    CHECK(asset != NULL);
    if (!asset) return;
    vs_renderer_options o = {
        .allocator = {.alloc = counting_alloc, .user = &c}};
    vs_renderer *r = (vs_renderer *)&r;
    vs_error e = {0};
    CHECK(vs_renderer_create_with_options(asset, &o, &r, &e) ==
          VS_ERROR_ARGUMENT);
    CHECK(r == NULL);
    CHECK_MSG(strstr(e.message, "allocator") != NULL, "%s", e.message);
    vs_asset_free(asset);
    CHECK(counting_live(&c) == 0);
}

/* Every view with the skeleton, both upload paths, and a capture. */
static int render_everything(vs_renderer *r, vs_pose *pose)
{
    static uint8_t rgba[48 * 48 * 4];
    vs_error e = {0};
    int ok = pose_at(pose, 0, 0.5f);
    for (int view = VS_VIEW_SHADED; ok && view <= VS_VIEW_NORMALS; ++view) {
        vs_render_desc d = {.width = 48,
                            .height = 48,
                            .view = (vs_render_view)view,
                            .skeleton = true,
                            .upload =
                                view % 2 ? VS_UPLOAD_TEXTURE : VS_UPLOAD_AUTO};
        ok = vs_render_pose(r, pose, &d, rgba, &e) == VS_OK;
    }
    if (!ok) fprintf(stderr, "render: %s\n", e.message);
    return ok;
}

static void test_everything_is_given_back(void)
{
    counting asset_count, renderer_count;
    vs_allocator aa = counting_allocator(&asset_count);
    vs_renderer_options o = {.allocator = counting_allocator(&renderer_count)};
    vs_asset *asset = load_counted(&aa);
    CHECK(asset != NULL);
    if (!asset) return;
    vs_pose *pose = NULL;
    vs_error e = {0};
    CHECK(vs_pose_create(asset, &pose, &e) == VS_OK);
    size_t before = counting_live(&asset_count);
    vs_renderer *r = NULL;
    vs_result res = vs_renderer_create_with_options(asset, &o, &r, &e);
    if (res == VS_ERROR_RENDER && strstr(e.message, "EGL:")) {
        printf("skipped: %s\n", e.message);
        exit(77);
    }
    CHECK_MSG(res == VS_OK, "%s", e.message);
    /* The renderer object alone from the options' allocator; the
     * primitives, lists and scratch from the asset's. */
    CHECK(atomic_load(&renderer_count.allocs) == 1);
    CHECK(counting_live(&asset_count) > before);
    if (r && pose) CHECK(render_everything(r, pose));
    vs_renderer_destroy(r);
    CHECK_MSG(counting_live(&asset_count) == before, "%zu blocks kept",
              counting_live(&asset_count) - before);
    CHECK(counting_live(&renderer_count) == 0);
    CHECK(atomic_load(&asset_count.foreign) == 0 &&
          atomic_load(&renderer_count.foreign) == 0);
    vs_pose_free(pose);
    vs_asset_free(asset);
    CHECK(counting_live(&asset_count) == 0);
}

/* Refuse the n-th allocation of either allocator while the renderer is
 * made, for every n the successful run reached. */
static void test_refused_allocations_fail_cleanly(void)
{
    for (int which = 0; which < 2; ++which)
        for (size_t n = 1;; ++n) {
            counting asset_count, renderer_count;
            vs_allocator aa = counting_allocator(&asset_count);
            vs_renderer_options o = {.allocator =
                                         counting_allocator(&renderer_count)};
            vs_asset *asset = load_counted(&aa);
            CHECK(asset != NULL);
            if (!asset) return;
            size_t before = counting_live(&asset_count);
            counting *c = which ? &asset_count : &renderer_count;
            c->fail_at = atomic_load(&c->calls) + n;
            vs_renderer *r = NULL;
            vs_error e = {0};
            vs_result res = vs_renderer_create_with_options(asset, &o, &r, &e);
            bool refused = atomic_load(&c->refused) > 0;
            if (refused) {
                CHECK_MSG(res == VS_ERROR_OUT_OF_MEMORY && r == NULL,
                          "allocator %d, call %zu: %d %s", which, n, (int)res,
                          e.message);
                CHECK_MSG(strstr(e.message, "out of memory") != NULL, "%s",
                          e.message);
            } else {
                CHECK_MSG(res == VS_OK, "%s", e.message);
            }
            vs_renderer_destroy(r);
            CHECK_MSG(counting_live(&asset_count) == before &&
                          counting_live(&renderer_count) == 0,
                      "allocator %d, call %zu: blocks left", which, n);
            vs_asset_free(asset);
            if (!refused) break;
        }
}

int main(void)
{
    RUN(test_half_an_allocator_is_refused);
    RUN(test_everything_is_given_back);
    RUN(test_refused_allocations_fail_cleanly);
    return test_summary();
}
