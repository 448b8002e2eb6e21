/* SPDX-License-Identifier: MIT */
/* vs_load_options.allocator (and the allocators of contexts and skin
 * streams): loading glTF 2.0, glTF 1.0 and COLLADA and making every object
 * an asset makes (poses, posed primitives, bounds, crowd streams, crowds,
 * skin streams) calls only the callbacks, frees every block it allocates
 * through them, and never calls the C library's allocator itself (the link
 * wraps malloc and its kin in vskin's objects, see tests/CMakeLists.txt); an
 * allocator that refuses the n-th allocation, for every n, makes the call
 * that asked fail with VS_ERROR_OUT_OF_MEMORY and leak nothing; half-set
 * allocators are refused; misaligned blocks count as refusals; per-frame
 * calls allocate nothing. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "bounds_any.h"
#include "alloc_check.h"

#define DATA VS_TEST_DATA

/* The assets every check runs on: each format, external and embedded
 * buffers, morph targets, several clips, COLLADA controllers. NULL: the
 * embedded SimpleSkin through vs_asset_load_memory. */
static const char *const assets[] = {
    NULL,
    DATA "/gltf2/RiggedSimple.gltf",
    DATA "/gltf2/interpolation_test.gltf",
    DATA "/render/morph_skinned.gltf",
    DATA "/gltf2/two_skinned_primitives.gltf",
    DATA "/gltf1/SimpleSkin.gltf",
    DATA "/collada/bind_shape_non_identity.dae",
    DATA "/collada_anim/clips.dae",
};
enum { ASSET_COUNT = sizeof assets / sizeof assets[0] };

/* A call that must never allocate: sampling, world matrices, joint
 * matrices, skinning. */
static void no_allocation(run *r, size_t calls_before, const char *what)
{
    CHECK_MSG(atomic_load(&r->c->calls) == calls_before, "%s: %s allocated",
              r->path ? r->path : "default", what);
}

/* The first skinned primitive of an instance, or false. */
static bool first_skinned(const vs_asset *asset, const vs_primitive **prim,
                          uint32_t *joints)
{
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        const vs_node *n = &asset->nodes[asset->instances[i]];
        if (n->skin < 0) continue;
        const vs_mesh *m = &asset->meshes[n->mesh];
        for (uint32_t p = 0; p < m->primitive_count; ++p)
            if (m->primitives[p].influence_count) {
                *prim = &m->primitives[p];
                *joints = asset->skins[n->skin].joint_count;
                return true;
            }
    }
    return false;
}

/* The crowd steps: streams, a crowd on no context and on one of two
 * threads made with the allocator. */
static void crowd_steps(run *r, const vs_asset *asset, vs_pose *pose,
                        const vs_allocator *a)
{
    uint32_t slots = 0;
    size_t floats = 0;
    vs_error err = {0};
    if (!step_result(
            r, vs_crowd_layout(asset, true, NULL, 0, &slots, &floats, &err),
            &err, "vs_crowd_layout") ||
        slots == 0)
        return;
    vs_crowd_streams *streams = NULL;
    vs_crowd_streams_desc sd = {.asset = asset, .normals = true};
    float *out = COUNTING_RAW_ALLOC(2 * floats * sizeof(float));
    vs_crowd_instance inst[2];
    for (int i = 0; i < 2; ++i) {
        inst[i] = (vs_crowd_instance){.pose = pose,
                                      .clip = asset->clip_count ? 0 : -1,
                                      .time = 0.5f,
                                      .output = out + (size_t)i * floats};
        inst[i].placement[0] = inst[i].placement[5] = 1.0f;
        inst[i].placement[10] = inst[i].placement[15] = 1.0f;
    }
    vs_pose *second = NULL;
    vs_context *ctx = NULL;
    const vs_context_options copt = {.thread_count = 2, .allocator = *a};
    if (step_result(r, vs_crowd_streams_create(&sd, &streams, &err), &err,
                    "vs_crowd_streams_create") &&
        step_result(r, vs_pose_create(asset, &second, &err), &err,
                    "vs_pose_create (crowd)")) {
        inst[1].pose = second;
        vs_crowd_job job = {.asset = asset,
                            .instance_count = 2,
                            .instances = inst,
                            .normals = true,
                            .streams = streams};
        if (step_result(r, vs_crowd_run(NULL, &job, &err), &err,
                        "vs_crowd_run (no context)") &&
            step_result(r, vs_context_create(&copt, &ctx, &err), &err,
                        "vs_context_create") &&
            step_result(r, vs_crowd_run(ctx, &job, &err), &err,
                        "vs_crowd_run (context)")) {
            const size_t before = atomic_load(&r->c->calls);
            CHECK(vs_crowd_run(ctx, &job, &err) == VS_OK);
            job.streams = NULL;
            CHECK(vs_crowd_run(ctx, &job, &err) == VS_OK);
            no_allocation(r, before, "vs_crowd_run again");
        }
    }
    vs_context_free(ctx);
    vs_pose_free(second);
    vs_crowd_streams_free(streams);
    COUNTING_RAW_FREE(out);
}

/* Skin stream steps: a stream of the first skinned primitive made with the
 * allocator, skinned. */
static void stream_steps(run *r, const vs_asset *asset, vs_pose *pose,
                         const vs_allocator *a)
{
    const vs_primitive *prim;
    uint32_t joints;
    if (!first_skinned(asset, &prim, &joints)) return;
    vs_skin_stream_desc d = {.vertex_count = prim->vertex_count,
                             .influence_count = prim->influence_count,
                             .joint_count = joints,
                             .joints = prim->joints,
                             .weights = prim->weights,
                             .allocator = *a};
    vs_skin_stream *stream = NULL;
    vs_error err = {0};
    if (!step_result(r, vs_skin_stream_create(&d, &stream, &err), &err,
                     "vs_skin_stream_create"))
        return;
    float *mats = COUNTING_RAW_ALLOC(16 * sizeof(float) * joints);
    float *out = COUNTING_RAW_ALLOC(3 * sizeof(float) * prim->vertex_count + 1);
    for (uint32_t j = 0; j < joints; ++j)
        for (int k = 0; k < 16; ++k)
            mats[16 * j + (uint32_t)k] = k % 5 == 0 ? 1.0f : 0.0f;
    (void)pose;
    const size_t before = atomic_load(&r->c->calls);
    vs_skin_stream_job job = {.stream = stream,
                              .joint_matrices = mats,
                              .vertex_count = prim->vertex_count,
                              .in_positions = prim->positions,
                              .out_positions = out};
    CHECK(vs_skin_stream_job_run(&job, NULL) == VS_OK);
    no_allocation(r, before, "vs_skin_stream_job_run");
    COUNTING_RAW_FREE(mats);
    COUNTING_RAW_FREE(out);
    vs_skin_stream_free(stream);
}

/* Pose steps: sampling and matrices (no allocation), every posed
 * primitive, both bounds. */
static void pose_steps(run *r, const vs_asset *asset, vs_pose *pose)
{
    const size_t before = atomic_load(&r->c->calls);
    for (uint32_t k = 0; k < asset->clip_count; ++k)
        CHECK(vs_pose_sample(pose, k, 0.5f * asset->clips[k].end, VS_TIME_LOOP,
                             NULL) == VS_OK);
    vs_pose_update_world(pose);
    float mats[16 * 64];
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        if (asset->skins[s].joint_count <= 64)
            CHECK(vs_pose_joint_matrices(pose, s, -1, mats, NULL) == VS_OK);
    no_allocation(r, before, "sampling and joint matrices");
    for (uint32_t i = 0; !r->failed && i < asset->instance_count; ++i) {
        const uint32_t node = asset->instances[i];
        const vs_mesh *m = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; !r->failed && p < m->primitive_count; ++p) {
            vs_posed_primitive posed;
            vs_error err = {0};
            step_result(
                r, vs_pose_mesh_primitive(pose, node, p, NULL, &posed, &err),
                &err, "vs_pose_mesh_primitive");
            vs_posed_primitive_free(&posed);
        }
    }
    /* Both bounds are false for an asset without mesh instances. */
    float lo[3], hi[3];
    if (!r->failed && asset->instance_count)
        step_bool(r, bounds_any(pose, NULL, lo, hi), "vs_pose_bounds");
    if (!r->failed && asset->instance_count)
        step_bool(r, fast_bounds_any(pose, NULL, lo, hi),
                  "vs_pose_fast_bounds");
}

/* Everything, with allocator a; stops at the first failed step and frees
 * what it made. */
static void scenario(run *r, const vs_allocator *a)
{
    vs_load_options options = {.allocator = *a};
    vs_asset *asset = NULL;
    vs_error err = {0};
    vs_result res;
    if (r->path) {
        res = vs_asset_load_file(r->path, &options, &asset, &err);
    } else {
        size_t size = 0;
        const void *data = vs_default_asset_data(&size);
        res = vs_asset_load_memory(data, size, "SimpleSkin", &options, &asset,
                                   &err);
    }
    if (!step_result(r, res, &err, "load")) return;
    vs_pose *pose = NULL;
    if (step_result(r, vs_pose_create(asset, &pose, &err), &err,
                    "vs_pose_create")) {
        pose_steps(r, asset, pose);
        if (!r->failed) crowd_steps(r, asset, pose, a);
        if (!r->failed) stream_steps(r, asset, pose, a);
    }
    vs_pose_free(pose);
    vs_asset_free(asset);
}

/* The scenario with the counting allocator: blocks > 0, every block freed,
 * nothing freed that it did not make, no call of the C library's allocator
 * from vskin. The allocations it made. */
static size_t count_scenario(const char *path)
{
    counting c;
    const vs_allocator a = counting_allocator(&c);
    run r = {.c = &c, .path = path};
    watch(true);
    scenario(&r, &a);
    watch(false);
    const char *name = path ? path : "default";
    alloc_check_run(&r, name);
    printf("%s: %zu allocations, %zu bytes, %d steps\n", name,
           (size_t)atomic_load(&c.allocs), (size_t)atomic_load(&c.bytes),
           r.steps);
    return atomic_load(&c.calls);
}

static void test_every_allocation_goes_through_the_callbacks(void)
{
#if VS_TEST_WRAP_MALLOC
    /* The wrapping works: without an allocator, vskin's calls are seen. */
    vs_asset *asset = NULL;
    watch(true);
    CHECK(vs_asset_load_file(assets[1], NULL, &asset, NULL) == VS_OK);
    vs_asset_free(asset);
    watch(false);
    CHECK(libc_calls_seen() > 0);
#endif
    for (int i = 0; i < ASSET_COUNT; ++i)
        count_scenario(assets[i]);
    count_scenario(DATA "/gltf2/CesiumMan.gltf");
}

/* Refusing the n-th allocation for every n (once, or from then on): the
 * step that asked fails with VS_ERROR_OUT_OF_MEMORY and nothing leaks; past
 * the total, everything succeeds. */
static void test_every_refusal_unwinds(void)
{
    for (int i = 0; i < ASSET_COUNT; ++i) {
        const size_t total = count_scenario(assets[i]);
        for (int after = 0; after < 2; ++after)
            for (size_t n = 1; n <= total + 1; ++n) {
                counting c;
                const vs_allocator a = counting_allocator(&c);
                c.fail_at = n;
                c.fail_after = after;
                run r = {.c = &c, .path = assets[i]};
                scenario(&r, &a);
                const char *name = assets[i] ? assets[i] : "default";
                CHECK_MSG(counting_live(&c) == 0,
                          "%s: refusing allocation %zu: %zu blocks leak", name,
                          n, counting_live(&c));
                CHECK(atomic_load(&c.foreign) == 0);
                if (n <= total)
                    CHECK_MSG(r.failed,
                              "%s: refusing allocation %zu of %zu "
                              "went unnoticed",
                              name, n, total);
                else
                    CHECK_MSG(!r.failed && atomic_load(&c.refused) == 0,
                              "%s: %zu allocations did not suffice", name, n);
            }
    }
}

static void test_half_set_allocators_are_refused(void)
{
    counting c;
    vs_allocator half = counting_allocator(&c);
    half.free = NULL;
    vs_load_options options = {.allocator = half};
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK(vs_asset_load_file(DATA "/gltf2/RiggedSimple.gltf", &options, &asset,
                             &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "options->allocator") != NULL);
    CHECK(!asset);
    size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    CHECK(vs_asset_load_memory(data, size, "m", &options, &asset, &err) ==
          VS_ERROR_ARGUMENT);
    vs_context *ctx = NULL;
    const vs_context_options copt = {.allocator = half};
    CHECK(vs_context_create(&copt, &ctx, &err) == VS_ERROR_ARGUMENT);
    CHECK(!ctx);
    const uint16_t j[1] = {0};
    const float w[1] = {1.0f};
    vs_skin_stream_desc d = {.vertex_count = 1,
                             .influence_count = 1,
                             .joint_count = 1,
                             .joints = j,
                             .weights = w,
                             .allocator = half};
    vs_skin_stream *stream = NULL;
    CHECK(vs_skin_stream_create(&d, &stream, &err) == VS_ERROR_ARGUMENT);
    d.allocator = (vs_allocator){.free = counting_free, .user = &c};
    CHECK(vs_skin_stream_create(&d, &stream, &err) == VS_ERROR_ARGUMENT);
    CHECK(atomic_load(&c.calls) == 0);
}

/* A block that is not aligned for any object is handed back and the call
 * fails as out of memory, leaking nothing. */
static void test_misaligned_blocks_are_refused(void)
{
    counting c;
    const vs_allocator a = counting_allocator(&c);
    c.misalign = 8;
    vs_load_options options = {.allocator = a};
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK(vs_asset_load_file(DATA "/gltf2/RiggedSimple.gltf", &options, &asset,
                             &err) == VS_ERROR_OUT_OF_MEMORY);
    CHECK(!asset);
    CHECK(atomic_load(&c.allocs) > 0 && counting_live(&c) == 0);
}

/* The zero allocator is the C library's: the same asset as no options. */
static void test_zero_options_are_the_default(void)
{
    const char *path = DATA "/gltf2/interpolation_test.gltf";
    vs_load_options zero;
    memset(&zero, 0, sizeof zero);
    vs_asset *a = NULL, *b = NULL;
    CHECK(vs_asset_load_file(path, NULL, &a, NULL) == VS_OK);
    CHECK(vs_asset_load_file(path, &zero, &b, NULL) == VS_OK);
    if (a && b) {
        CHECK(a->node_count == b->node_count && a->clip_count == b->clip_count);
        CHECK(a->mesh_count == b->mesh_count);
        for (uint32_t m = 0; m < a->mesh_count; ++m) {
            const vs_primitive *p = &a->meshes[m].primitives[0];
            const vs_primitive *q = &b->meshes[m].primitives[0];
            CHECK(p->vertex_count == q->vertex_count &&
                  memcmp(p->positions, q->positions,
                         3 * sizeof(float) * p->vertex_count) == 0);
        }
    }
    vs_pose *pose = NULL;
    vs_posed_primitive posed;
    CHECK(vs_pose_create(b, &pose, NULL) == VS_OK);
    CHECK(vs_pose_mesh_primitive(pose, b->instances[0], 0, NULL, &posed,
                                 NULL) == VS_OK);
    CHECK(posed.allocator.alloc == NULL && posed.allocator.free == NULL);
    vs_posed_primitive_free(&posed);
    vs_pose_free(pose);
    vs_asset_free(a);
    vs_asset_free(b);
    vs_error e1 = {0}, e2 = {0};
    CHECK(vs_asset_load_file("no/such.gltf", NULL, &a, &e1) == VS_ERROR_IO);
    CHECK(vs_asset_load_file("no/such.gltf", &zero, &a, &e2) == VS_ERROR_IO);
    CHECK(strcmp(e1.message, e2.message) == 0);
}

int main(void)
{
    RUN(test_every_allocation_goes_through_the_callbacks);
    RUN(test_every_refusal_unwinds);
    RUN(test_half_set_allocators_are_refused);
    RUN(test_misaligned_blocks_are_refused);
    RUN(test_zero_options_are_the_default);
    return test_summary();
}
