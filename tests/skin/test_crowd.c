/* SPDX-License-Identifier: MIT */
/* vs_crowd_run against the per-instance path (vs_pose_sample,
 * vs_pose_update_world, vs_pose_joint_matrices, vs_skinning_job_run) on
 * CesiumMan: identical with an identity placement, placement applied
 * otherwise, with 0/1/2/4 threads and with fewer instances than threads;
 * prepared crowds (vs_crowd_streams) against the plain crowd through their
 * vertex orders, on CesiumMan and on an asset of four slots. */
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"

#define CESIUM VS_TEST_DATA "/gltf2/CesiumMan.gltf"
enum { INSTANCES = 9 };

static vs_asset *load(void)
{
    vs_asset *asset = NULL;
    vs_error err = {0};
    if (vs_asset_load_file(CESIUM, NULL, &asset, &err) != VS_OK)
        fprintf(stderr, "%s\n", err.message);
    return asset;
}

/* Another asset (the embedded SimpleSkin), for poses and streams that do
 * not belong to CesiumMan. */
static vs_asset *load_simple_skin(void)
{
    vs_asset *other = NULL;
    size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    CHECK(vs_asset_load_memory(data, size, "SimpleSkin", NULL, &other, NULL) ==
          VS_OK);
    return other;
}

static void placement_for(size_t i, float m[16])
{
    memset(m, 0, 16 * sizeof(float));
    /* A rotation about y by 90 degrees every other instance, plus a shift. */
    if (i % 2) {
        m[2] = -1.0f, m[5] = 1.0f, m[8] = 1.0f;
    } else {
        m[0] = m[5] = m[10] = 1.0f;
    }
    m[12] = (float)i * 1.5f, m[13] = 0.25f * (float)i, m[14] = -2.0f;
    m[15] = 1.0f;
}

/* The per-instance reference: the same steps by hand, placement applied to
 * the skinned points afterwards (p' = P * p). */
static void reference(const vs_asset *asset, size_t i, float time,
                      const vs_crowd_slot *slots, uint32_t slot_count,
                      bool place, float *out)
{
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    CHECK(vs_pose_sample(pose, 0, time, VS_TIME_LOOP, NULL) == VS_OK);
    vs_pose_update_world(pose);
    float m[16];
    placement_for(i, m);
    for (uint32_t s = 0; s < slot_count; ++s) {
        const vs_node *node = &asset->nodes[slots[s].node];
        const vs_skin *skin = &asset->skins[node->skin];
        const vs_primitive *prim =
            &asset->meshes[node->mesh].primitives[slots[s].primitive];
        float *mats = malloc(16 * sizeof(float) * skin->joint_count);
        CHECK(vs_pose_joint_matrices(pose, (uint32_t)node->skin, -1, mats,
                                     NULL) == VS_OK);
        vs_skinning_job job = {
            .vertex_count = prim->vertex_count,
            .influence_count = prim->influence_count,
            .joint_matrices = mats,
            .joint_count = skin->joint_count,
            .joints = prim->joints,
            .weights = prim->weights,
            .in_positions = prim->positions,
            .out_positions = out + slots[s].positions_offset,
            .in_normals = prim->normals,
            .out_normals = out + slots[s].normals_offset,
        };
        CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
        free(mats);
        if (!place) continue;
        float *p = out + slots[s].positions_offset;
        for (uint32_t v = 0; v < prim->vertex_count; ++v, p += 3) {
            float x = p[0], y = p[1], z = p[2];
            for (int k = 0; k < 3; ++k)
                p[k] = m[k] * x + m[4 + k] * y + m[8 + k] * z + m[12 + k];
        }
    }
    vs_pose_free(pose);
}

static double max_diff(const float *a, const float *b, size_t n)
{
    double worst = 0.0;
    for (size_t k = 0; k < n; ++k) {
        double d = fabs((double)a[k] - (double)b[k]);
        if (!(d <= worst)) worst = d; /* NaN counts as worst */
    }
    return worst;
}

static void run_case(const vs_asset *asset, uint32_t threads, size_t count,
                     bool place)
{
    uint32_t slot_count = 0;
    size_t floats = 0;
    vs_crowd_slot slots[8];
    CHECK(vs_crowd_layout(asset, true, slots, 8, &slot_count, &floats, NULL) ==
          VS_OK);
    CHECK(slot_count == 1);
    CHECK(slots[0].vertex_count == 3273);
    CHECK(slots[0].positions_offset == 0);
    CHECK(slots[0].normals_offset == 3 * 3273);
    CHECK(floats == 6 * 3273);

    vs_context *ctx = NULL;
    vs_context_options o = {.thread_count = threads};
    CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
    vs_crowd_instance inst[INSTANCES];
    float *outputs = calloc(floats * count, sizeof(float));
    float *ref = calloc(floats, sizeof(float));
    for (size_t i = 0; i < count; ++i) {
        inst[i] = (vs_crowd_instance){.clip = 0,
                                      .time = 0.37f * (float)i + 0.05f,
                                      .time_mode = VS_TIME_LOOP,
                                      .output = outputs + floats * i};
        CHECK(vs_pose_create(asset, &inst[i].pose, NULL) == VS_OK);
        if (place)
            placement_for(i, inst[i].placement);
        else
            inst[i].placement[0] = inst[i].placement[5] =
                inst[i].placement[10] = inst[i].placement[15] = 1.0f;
    }
    vs_crowd_job job = {.asset = asset,
                        .instance_count = count,
                        .instances = inst,
                        .normals = true};
    vs_error err = {0};
    CHECK_MSG(vs_crowd_run(threads ? ctx : NULL, &job, &err) == VS_OK, "%s",
              err.message);
    for (size_t i = 0; i < count; ++i) {
        reference(asset, i, inst[i].time, slots, slot_count, place, ref);
        float *got = outputs + floats * i;
        if (!place) {
            CHECK_MSG(memcmp(got, ref, floats * sizeof(float)) == 0,
                      "%u threads, instance %zu: crowd differs from the "
                      "per-instance path",
                      threads, i);
        } else {
            /* Placement folded into the joint matrices vs applied after
             * skinning: equal up to float rounding. */
            double d = max_diff(got, ref, 3 * 3273);
            CHECK_MSG(d < 1e-4,
                      "%u threads, instance %zu: positions off by "
                      "%g",
                      threads, i, d);
        }
        vs_pose_free(inst[i].pose);
    }
    free(outputs);
    free(ref);
    vs_context_free(ctx);
}

static void test_crowd_matches_per_instance(void)
{
    vs_asset *asset = load();
    if (!asset) return;
    static const uint32_t threads[] = {0, 1, 2, 4};
    for (size_t t = 0; t < 4; ++t) {
        run_case(asset, threads[t], INSTANCES, false);
        run_case(asset, threads[t], INSTANCES, true);
        run_case(asset, threads[t], 2, true); /* fewer instances than threads */
    }
    vs_asset_free(asset);
}

static void test_crowd_bad_jobs(void)
{
    vs_asset *asset = load();
    if (!asset) return;
    vs_asset *other = load_simple_skin();
    float out[6 * 3273];
    vs_crowd_instance inst = {.clip = 0, .output = out};
    inst.placement[0] = inst.placement[5] = inst.placement[10] =
        inst.placement[15] = 1.0f;
    CHECK(vs_pose_create(other, &inst.pose, NULL) == VS_OK);
    vs_crowd_job job = {
        .asset = asset, .instance_count = 1, .instances = &inst};
    vs_error err = {0};
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "another asset") != NULL);
    vs_pose_free(inst.pose);
    CHECK(vs_pose_create(asset, &inst.pose, NULL) == VS_OK);
    inst.clip = 5;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "clip does not exist") != NULL);
    inst.clip = -1;
    inst.placement[3] = 0.5f;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "not affine") != NULL);
    inst.placement[3] = 0.0f;
    inst.output = NULL;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_ERROR_ARGUMENT);
    inst.output = out;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_OK);
    CHECK(vs_crowd_run(NULL, NULL, &err) == VS_ERROR_ARGUMENT);
    CHECK(vs_crowd_layout(NULL, false, NULL, 0, NULL, NULL, &err) ==
          VS_ERROR_ARGUMENT);
    vs_pose_free(inst.pose);
    vs_asset_free(other);
    vs_asset_free(asset);
}

/* Prepared crowds: with float weights, every instance's slot, read back
 * through the stream's vertex order, matches the plain crowd (the same
 * instances, times and placements) to float rounding, positions and
 * normals; with unorm16 weights to their quantisation; every thread count,
 * and the vertex split of fewer instances than threads, gives the same
 * floats as the caller alone. */
static void run_prepared(const vs_asset *asset, vs_skin_weight_format format,
                         double tolerance)
{
    uint32_t slot_count = 0;
    size_t floats = 0;
    vs_crowd_slot slots[8];
    CHECK(vs_crowd_layout(asset, true, slots, 8, &slot_count, &floats, NULL) ==
          VS_OK);
    const vs_crowd_streams_desc d = {
        .asset = asset, .normals = true, .weight_format = format};
    vs_crowd_streams *streams = NULL;
    vs_error err = {0};
    CHECK_MSG(vs_crowd_streams_create(&d, &streams, &err) == VS_OK, "%s",
              err.message);
    if (!streams) return;
    CHECK(vs_crowd_streams_slot_count(streams) == slot_count);
    CHECK(vs_crowd_streams_vertex_order(streams, slot_count) == NULL);
    const uint32_t *order = vs_crowd_streams_vertex_order(streams, 0);
    CHECK(order != NULL);
    float *plain = calloc(floats * INSTANCES, sizeof(float));
    float *first = calloc(floats * INSTANCES, sizeof(float));
    float *again = calloc(floats * INSTANCES, sizeof(float));
    vs_crowd_instance inst[INSTANCES];
    for (size_t i = 0; i < INSTANCES; ++i) {
        inst[i] = (vs_crowd_instance){.clip = 0,
                                      .time = 0.41f * (float)i + 0.03f,
                                      .time_mode = VS_TIME_LOOP};
        placement_for(i, inst[i].placement);
        CHECK(vs_pose_create(asset, &inst[i].pose, NULL) == VS_OK);
    }
    vs_crowd_job job = {.asset = asset,
                        .instance_count = INSTANCES,
                        .instances = inst,
                        .normals = true};
    for (size_t i = 0; i < INSTANCES; ++i)
        inst[i].output = plain + floats * i;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_OK);
    job.streams = streams;
    for (size_t i = 0; i < INSTANCES; ++i)
        inst[i].output = first + floats * i;
    CHECK_MSG(vs_crowd_run(NULL, &job, &err) == VS_OK, "%s", err.message);
    double worst = 0.0;
    const uint32_t n = slots[0].vertex_count;
    for (size_t i = 0; i < INSTANCES; ++i)
        for (uint32_t p = 0; p < n; ++p)
            for (int part = 0; part < 2; ++part) {
                const size_t at =
                    part ? slots[0].normals_offset : slots[0].positions_offset;
                const float *got = first + floats * i + at + 3 * (size_t)p;
                const float *want =
                    plain + floats * i + at + 3 * (size_t)order[p];
                const double e = max_diff(got, want, 3);
                if (!(e <= worst)) worst = e;
            }
    CHECK_MSG(worst <= tolerance, "prepared crowd off by %g (format %u)", worst,
              (unsigned)format);
    static const uint32_t threads[] = {1, 2, 4};
    for (size_t t = 0; t < 3; ++t)
        for (size_t count = 2; count <= INSTANCES; count += INSTANCES - 2) {
            vs_context *ctx = NULL;
            const vs_context_options o = {.thread_count = threads[t]};
            CHECK(vs_context_create(&o, &ctx, NULL) == VS_OK);
            job.instance_count = count;
            for (size_t i = 0; i < count; ++i)
                inst[i].output = again + floats * i;
            CHECK(vs_crowd_run(ctx, &job, &err) == VS_OK);
            CHECK_MSG(memcmp(first, again, count * floats * sizeof(float)) == 0,
                      "%u threads, %zu instances: prepared crowd differs",
                      threads[t], count);
            vs_context_free(ctx);
        }
    for (size_t i = 0; i < INSTANCES; ++i)
        vs_pose_free(inst[i].pose);
    free(plain);
    free(first);
    free(again);
    vs_crowd_streams_free(streams);
}

static void test_prepared_crowd(void)
{
    vs_asset *asset = load();
    if (!asset) return;
    run_prepared(asset, VS_SKIN_WEIGHTS_FLOAT, 2e-5);
    /* Weights quantised to 1 / 65535 and not renormalised: up to about
     * 3e-5 of the placed points' size (up to ~13 here). */
    run_prepared(asset, VS_SKIN_WEIGHTS_UNORM16, 1e-3);
    vs_asset_free(asset);
}

/* Several slots (tests/data/gltf2/two_skinned_primitives.gltf: two
 * primitives, one with its joints swapped, in two nodes): each slot skins
 * through its own stream and reads back through its own vertex order. */
static void test_prepared_crowd_slots(void)
{
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK_MSG(vs_asset_load_file(VS_TEST_DATA
                                 "/gltf2/two_skinned_primitives.gltf",
                                 NULL, &asset, &err) == VS_OK,
              "%s", err.message);
    if (!asset) return;
    uint32_t slot_count = 0;
    size_t floats = 0;
    vs_crowd_slot slots[8];
    CHECK(vs_crowd_layout(asset, false, slots, 8, &slot_count, &floats, NULL) ==
          VS_OK);
    CHECK(slot_count == 4);
    const vs_crowd_streams_desc d = {.asset = asset,
                                     .weight_format = VS_SKIN_WEIGHTS_FLOAT};
    vs_crowd_streams *streams = NULL;
    CHECK(vs_crowd_streams_create(&d, &streams, &err) == VS_OK);
    float *plain = calloc(floats, sizeof(float));
    float *prepared = calloc(floats, sizeof(float));
    vs_crowd_instance inst = {.clip = 0, .time_mode = VS_TIME_LOOP};
    placement_for(3, inst.placement);
    CHECK(vs_pose_create(asset, &inst.pose, NULL) == VS_OK);
    vs_crowd_job job = {
        .asset = asset, .instance_count = 1, .instances = &inst};
    double worst = 0.0, moved = 0.0;
    for (int f = 0; streams && f < 6; ++f) {
        inst.time = 0.9f * (float)f + 0.3f;
        inst.output = plain;
        job.streams = NULL;
        CHECK(vs_crowd_run(NULL, &job, &err) == VS_OK);
        inst.output = prepared;
        job.streams = streams;
        CHECK(vs_crowd_run(NULL, &job, &err) == VS_OK);
        for (uint32_t k = 0; k < slot_count; ++k) {
            const uint32_t *order = vs_crowd_streams_vertex_order(streams, k);
            for (uint32_t p = 0; p < slots[k].vertex_count; ++p) {
                const size_t at = slots[k].positions_offset;
                const double e = max_diff(prepared + at + 3 * (size_t)p,
                                          plain + at + 3 * (size_t)order[p], 3);
                if (!(e <= worst)) worst = e;
            }
        }
        /* The two primitives bend apart: slot 1 is not slot 0. */
        const double apart = max_diff(plain + slots[0].positions_offset,
                                      plain + slots[1].positions_offset,
                                      3 * (size_t)slots[0].vertex_count);
        if (apart > moved) moved = apart;
    }
    CHECK_MSG(worst <= 1e-5, "prepared slots off by %g", worst);
    CHECK(moved > 0.1);
    vs_pose_free(inst.pose);
    free(plain);
    free(prepared);
    vs_crowd_streams_free(streams);
    vs_asset_free(asset);
}

/* Streams that do not fit the job, and bad descriptions, are refused. */
static void test_prepared_crowd_mismatches(void)
{
    vs_asset *asset = load();
    if (!asset) return;
    vs_asset *other = load_simple_skin();
    vs_error err = {0};
    vs_crowd_streams *mine = NULL, *theirs = NULL, *raw = NULL;
    vs_crowd_streams_desc d = {.asset = asset};
    CHECK(vs_crowd_streams_create(&d, &mine, &err) == VS_OK);
    d.flags = VS_SKIN_RAW_WEIGHTS;
    d.normals = true;
    CHECK(vs_crowd_streams_create(&d, &raw, &err) == VS_OK);
    d = (vs_crowd_streams_desc){.asset = other, .normals = true};
    CHECK(vs_crowd_streams_create(&d, &theirs, &err) == VS_OK);
    vs_crowd_streams_free(mine);
    CHECK(vs_crowd_streams_create(NULL, &mine, &err) == VS_ERROR_ARGUMENT);
    CHECK(mine == NULL); /* out is cleared first */
    CHECK(vs_crowd_streams_create(&d, &mine, &err) == VS_OK);
    vs_crowd_streams_free(mine);
    d.asset = asset;
    d.weight_format = (vs_skin_weight_format)7;
    CHECK(vs_crowd_streams_create(&d, &mine, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "weight format") != NULL);
    d.weight_format = VS_SKIN_WEIGHTS_UNORM16;
    /* The normals flag belongs to the job: refused, not dropped. */
    d.flags = VS_SKIN_NORMALS_BY_MATRIX;
    CHECK(vs_crowd_streams_create(&d, &mine, &err) == VS_ERROR_ARGUMENT);
    CHECK(mine == NULL);
    CHECK(strstr(err.message, "VS_SKIN_NORMALS_BY_MATRIX") != NULL);
    d.flags = 0;
    CHECK(vs_crowd_streams_create(&d, &mine, &err) == VS_OK);
    CHECK(vs_crowd_streams_slot_count(NULL) == 0);
    CHECK(vs_crowd_streams_vertex_order(NULL, 0) == NULL);

    float *out = calloc(6 * 3273, sizeof(float));
    vs_crowd_instance inst = {.clip = 0, .output = out};
    inst.placement[0] = inst.placement[5] = inst.placement[10] =
        inst.placement[15] = 1.0f;
    CHECK(vs_pose_create(asset, &inst.pose, NULL) == VS_OK);
    vs_crowd_job job = {.asset = asset,
                        .instance_count = 1,
                        .instances = &inst,
                        .streams = theirs};
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "another asset") != NULL);
    vs_crowd_streams *without = NULL;
    d = (vs_crowd_streams_desc){.asset = asset};
    CHECK(vs_crowd_streams_create(&d, &without, &err) == VS_OK);
    job.streams = without;
    job.normals = true;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "without them") != NULL);
    job.normals = false;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_OK);
    job.streams = raw;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "VS_SKIN_RAW_WEIGHTS") != NULL);
    job.flags = VS_SKIN_RAW_WEIGHTS;
    job.normals = true;
    CHECK(vs_crowd_run(NULL, &job, &err) == VS_OK);
    job.flags = VS_SKIN_RAW_WEIGHTS | VS_SKIN_NORMALS_BY_MATRIX;
    CHECK_MSG(vs_crowd_run(NULL, &job, &err) == VS_OK, "%s", err.message);
    /* A raw weight above 1 (a broken file) cannot be stored as unorm16. */
    const vs_primitive *prim = &asset->meshes[0].primitives[0];
    float *w = (float *)prim->weights;
    const float kept = w[4 * 17];
    w[4 * 17] = 1.5f;
    vs_crowd_streams *bad = NULL;
    d = (vs_crowd_streams_desc){.asset = asset, .flags = VS_SKIN_RAW_WEIGHTS};
    CHECK(vs_crowd_streams_create(&d, &bad, &err) == VS_ERROR_INVALID);
    CHECK(bad == NULL);
    CHECK_MSG(strstr(err.message, "meshes[0].primitives[0]") != NULL, "%s",
              err.message);
    w[4 * 17] = kept;
    vs_pose_free(inst.pose);
    free(out);
    vs_crowd_streams_free(mine);
    vs_crowd_streams_free(raw);
    vs_crowd_streams_free(theirs);
    vs_crowd_streams_free(without);
    vs_crowd_streams_free(NULL);
    vs_asset_free(other);
    vs_asset_free(asset);
}

int main(void)
{
    vs_asset *probe = load();
    /* A shipped asset: failing to load it is a failure, not a skip. */
    if (!probe) return 1;
    vs_asset_free(probe);
    RUN(test_crowd_matches_per_instance);
    RUN(test_crowd_bad_jobs);
    RUN(test_prepared_crowd);
    RUN(test_prepared_crowd_slots);
    RUN(test_prepared_crowd_mismatches);
    return test_summary();
}
