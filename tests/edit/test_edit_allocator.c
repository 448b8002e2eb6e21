/* SPDX-License-Identifier: MIT */
/* vs_asset_reweight makes its copy with the source's allocator and
 * vs_max_position_error allocates through the assets'; vs_synthetic_tube
 * gives its GLB from vs_synthetic_tube_desc.allocator. Every block is
 * freed, vskin calls the C library's allocator not once (cJSON keeps its
 * own), and refusing any one allocation fails the call that asked with
 * VS_ERROR_OUT_OF_MEMORY, leaking nothing. */
#include "alloc_check.h"
#include "vskin/vskin_tools.h"

#define DATA VS_TEST_DATA

static void reweight_scenario(run *r, const vs_allocator *a, void *ctx)
{
    (void)ctx;
    const vs_load_options options = {.allocator = *a};
    vs_asset *asset = NULL, *copy = NULL;
    vs_error err = {0};
    if (!step_result(r,
                     vs_asset_load_file(DATA
                                        "/gltf2/two_skinned_primitives.gltf",
                                        &options, &asset, &err),
                     &err, "load"))
        return;
    arm(r);
    const vs_reweight_options ro = {.max_influences = 1, .normalize = true};
    float error = 0.0f, time = 0.0f;
    int32_t clip = 0;
    if (step_result(r, vs_asset_reweight(asset, &ro, &copy, NULL, &err), &err,
                    "vs_asset_reweight"))
        step_result(r,
                    vs_max_position_error(asset, copy, 4.0f, &error, &clip,
                                          &time, &err),
                    &err, "vs_max_position_error");
    vs_asset_free(copy);
    vs_asset_free(asset);
}

static void tube_scenario(run *r, const vs_allocator *a, void *ctx)
{
    (void)ctx;
    arm(r);
    const vs_synthetic_tube_desc d = {.joint_count = 4,
                                      .vertex_count = 64,
                                      .influence_count = 2,
                                      .allocator = *a};
    void *glb = NULL;
    size_t size = 0;
    vs_error err = {0};
    if (!step_result(r, vs_synthetic_tube(&d, &glb, &size, &err), &err,
                     "vs_synthetic_tube"))
        return;
    CHECK(size > 12 && memcmp(glb, "glTF", 4) == 0);
    a->free(glb, a->user);
}

static void test_reweight_uses_the_source_allocator(void)
{
    alloc_check_clean("reweight", reweight_scenario, NULL);
}

static void test_tube_uses_the_desc_allocator(void)
{
    alloc_check_clean("tube", tube_scenario, NULL);
    counting c;
    vs_synthetic_tube_desc d = {.joint_count = 2,
                                .vertex_count = 8,
                                .influence_count = 1,
                                .allocator = counting_allocator(&c)};
    d.allocator.alloc = NULL;
    void *glb = NULL;
    size_t size = 0;
    vs_error err = {0};
    CHECK(vs_synthetic_tube(&d, &glb, &size, &err) == VS_ERROR_ARGUMENT);
    CHECK(!glb && strstr(err.message, "allocator") != NULL);
}

static void test_every_refusal_unwinds(void)
{
    alloc_check_refusals("reweight", reweight_scenario, NULL);
    alloc_check_refusals("tube", tube_scenario, NULL);
}

int main(void)
{
    RUN(test_reweight_uses_the_source_allocator);
    RUN(test_tube_uses_the_desc_allocator);
    RUN(test_every_refusal_unwinds);
    return test_summary();
}
