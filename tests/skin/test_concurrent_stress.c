/* SPDX-License-Identifier: MIT */
/* Concurrency stress test: one loaded asset is shared by many threads, each
 * with its own poses, sampling and skinning different clips and times in a
 * thread-specific order for thousands of iterations in all. Every result
 * (joint matrices of every skin + posed positions/normals/tangents of every
 * primitive of every instance) must equal the single-threaded precomputation
 * bit for bit. Built with -DVS_TSAN=ON (make test-tsan) it also proves the
 * shared asset is only read. */
#include <pthread.h>
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"

enum { THREADS = 8, ITERATIONS_PER_THREAD = 1000, TIMES_PER_CLIP = 6 };

static const char *const asset_paths[] = {
    VS_TEST_DATA "/gltf2/CesiumMan.gltf",
    VS_TEST_DATA "/gltf2/RiggedSimple.gltf",
    VS_TEST_DATA "/gltf2/SimpleSkin.gltf",
    VS_TEST_DATA "/gltf2/interpolation_test.gltf",
    VS_TEST_DATA "/gltf1/SimpleSkin.gltf",
    VS_TEST_DATA "/collada/bind_shape_non_identity.dae",
    VS_SHARED_ASSETS "/collada/seymour/seymour.dae",
    VS_SHARED_ASSETS "/gltf2/SimpleSkin/SimpleSkin_tutorial-2017.gltf",
};
enum { MAX_ASSETS = sizeof asset_paths / sizeof asset_paths[0] };

/* One unit of work: an asset, a clip (-1 = rest pose), a time and a time
 * mode, with its single-threaded result. */
typedef struct work_item {
    uint32_t asset;
    int32_t clip;
    float time;
    vs_time_mode mode;
    float *expected;
    size_t expected_floats;
} work_item;

typedef struct shared_state {
    vs_asset *assets[MAX_ASSETS];
    uint32_t asset_count;
    work_item *items;
    size_t item_count;
    size_t max_floats;
} shared_state;

typedef struct thread_state {
    const shared_state *shared;
    unsigned id;
    unsigned iterations;
    unsigned mismatches;
    unsigned failures;
} thread_state;

/* Appends n floats to out (when out is not NULL) and counts them. */
static void emit(float *out, size_t *count, const float *values, size_t n)
{
    if (out && values) memcpy(out + *count, values, n * sizeof *values);
    *count += n;
}

/* Poses `pose` for the item and writes (or, with out NULL, counts) every
 * float of its result. Returns false when a call fails. */
static bool compute(vs_pose *pose, const work_item *item, float *out,
                    size_t *count)
{
    const vs_asset *asset = vs_pose_asset(pose);
    vs_error error;
    *count = 0;
    vs_pose_reset(pose);
    if (item->clip >= 0 &&
        vs_pose_sample(pose, (uint32_t)item->clip, item->time, item->mode,
                       &error) != VS_OK)
        return false;
    vs_pose_update_world(pose);
    for (uint32_t s = 0; s < asset->skin_count; ++s) {
        size_t n = (size_t)asset->skins[s].joint_count * 16;
        float *joints = malloc((n ? n : 1) * sizeof *joints);
        if (!joints) return false;
        bool ok = vs_pose_joint_matrices(pose, s, -1, joints, &error) == VS_OK;
        emit(out, count, joints, n);
        free(joints);
        if (!ok) return false;
    }
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        /* Both skinning methods: linear and dual quaternions. */
        for (uint32_t p = 0; p < 2 * mesh->primitive_count; ++p) {
            vs_posed_primitive posed;
            vs_pose_mesh_options options = {
                .space = VS_SPACE_WORLD,
                .method = p % 2 ? VS_SKIN_DUAL_QUATERNION : VS_SKIN_LINEAR};
            if (vs_pose_mesh_primitive(pose, node, p / 2, &options, &posed,
                                       &error) != VS_OK)
                return false;
            size_t v = posed.vertex_count;
            emit(out, count, posed.positions, 3 * v);
            if (posed.normals) emit(out, count, posed.normals, 3 * v);
            if (posed.tangents) emit(out, count, posed.tangents, 4 * v);
            vs_posed_primitive_free(&posed);
        }
    }
    return true;
}

static void add_items(shared_state *s, uint32_t a, size_t *capacity)
{
    const vs_asset *asset = s->assets[a];
    for (int32_t c = -1; c < (int32_t)asset->clip_count; ++c) {
        unsigned times = c < 0 ? 1 : TIMES_PER_CLIP;
        for (unsigned t = 0; t < times; ++t) {
            if (s->item_count == *capacity) {
                *capacity = *capacity ? 2 * *capacity : 64;
                s->items = realloc(s->items, *capacity * sizeof *s->items);
                if (!s->items) abort();
            }
            work_item *item = &s->items[s->item_count++];
            memset(item, 0, sizeof *item);
            item->asset = a;
            item->clip = c;
            if (c >= 0) {
                /* Spread over [start - 10%, end + 30%] so clamping and
                 * looping are exercised too. */
                const vs_clip *clip = &asset->clips[c];
                float span = clip->end - clip->start;
                item->time = clip->start - 0.1f * span +
                             1.4f * span * (float)t / (TIMES_PER_CLIP - 1);
                item->mode = (t & 1) ? VS_TIME_LOOP : VS_TIME_CLAMP;
            }
        }
    }
}

/* Single-threaded precomputation of every item's expected result. */
static bool precompute(shared_state *s)
{
    for (size_t i = 0; i < s->item_count; ++i) {
        work_item *item = &s->items[i];
        vs_pose *pose;
        if (vs_pose_create(s->assets[item->asset], &pose, NULL) != VS_OK)
            return false;
        size_t n;
        bool ok = compute(pose, item, NULL, &n);
        item->expected = malloc((n ? n : 1) * sizeof(float));
        ok = ok && item->expected && compute(pose, item, item->expected, &n);
        item->expected_floats = n;
        if (n > s->max_floats) s->max_floats = n;
        vs_pose_free(pose);
        if (!ok) return false;
    }
    return true;
}

static void *worker(void *arg)
{
    thread_state *t = arg;
    const shared_state *s = t->shared;
    vs_pose *poses[MAX_ASSETS] = {0};
    float *result =
        malloc((s->max_floats ? s->max_floats : 1) * sizeof *result);
    for (uint32_t a = 0; a < s->asset_count; ++a)
        if (vs_pose_create(s->assets[a], &poses[a], NULL) != VS_OK)
            ++t->failures;
    if (!result || t->failures) {
        ++t->failures;
        goto done;
    }
    /* A per-thread linear congruential sequence: threads visit the items in
     * different orders, so different clips run at the same moment. */
    uint64_t state = 0x9E3779B97F4A7C15ull * (t->id + 1);
    for (unsigned it = 0; it < t->iterations; ++it) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const work_item *item = &s->items[(state >> 33) % s->item_count];
        size_t n;
        if (!compute(poses[item->asset], item, result, &n)) {
            ++t->failures;
            continue;
        }
        if (n != item->expected_floats ||
            memcmp(result, item->expected, n * sizeof *result) != 0)
            ++t->mismatches;
    }
done:
    for (uint32_t a = 0; a < s->asset_count; ++a)
        vs_pose_free(poses[a]);
    free(result);
    return NULL;
}

static void test_threads_match_single_threaded(void)
{
    shared_state s;
    memset(&s, 0, sizeof s);
    size_t capacity = 0;
    for (uint32_t i = 0; i < MAX_ASSETS; ++i) {
        vs_error error;
        vs_asset *asset;
        if (vs_asset_load_file(asset_paths[i], NULL, &asset, &error) != VS_OK) {
            /* Only ../shared/assets may be absent. */
            CHECK_MSG(strncmp(asset_paths[i], VS_SHARED_ASSETS,
                              strlen(VS_SHARED_ASSETS)) == 0,
                      "%s", error.message);
            continue;
        }
        s.assets[s.asset_count] = asset;
        add_items(&s, s.asset_count++, &capacity);
    }
    CHECK(s.asset_count >= 6);
    CHECK(precompute(&s));
    printf("%u assets, %zu work items, %d threads x %d iterations\n",
           s.asset_count, s.item_count, THREADS, ITERATIONS_PER_THREAD);

    pthread_t threads[THREADS];
    thread_state states[THREADS];
    for (unsigned i = 0; i < THREADS; ++i) {
        states[i] = (thread_state){&s, i, ITERATIONS_PER_THREAD, 0, 0};
        CHECK(pthread_create(&threads[i], NULL, worker, &states[i]) == 0);
    }
    unsigned mismatches = 0, failures = 0, iterations = 0;
    for (unsigned i = 0; i < THREADS; ++i) {
        pthread_join(threads[i], NULL);
        mismatches += states[i].mismatches;
        failures += states[i].failures;
        iterations += states[i].iterations;
    }
    CHECK_MSG(failures == 0, "%u calls failed in threads", failures);
    CHECK_MSG(mismatches == 0,
              "%u of %u results differ from the "
              "single-threaded ones",
              mismatches, iterations);

    for (size_t i = 0; i < s.item_count; ++i)
        free(s.items[i].expected);
    free(s.items);
    for (uint32_t a = 0; a < s.asset_count; ++a)
        vs_asset_free(s.assets[a]);
}

/* One prepared stream (vs_skin_stream) shared by THREADS threads, each
 * skinning all of it in two ranges cut at its own places (inside chunks and
 * groups), alternating the two orders, into its own buffers: every result
 * equals the single-threaded whole run bit for bit, and under TSan the
 * stream is only read. */
enum { STREAM_ITERATIONS = 200 };

typedef struct stream_thread {
    const vs_skin_stream *stream;
    const float *matrices, *positions, *normals;
    const float *expected[2]; /* per order: positions then normals */
    size_t n;
    unsigned id, mismatches, failures;
} stream_thread;

static bool run_stream(const stream_thread *t, uint32_t order, size_t cut,
                       float *out)
{
    vs_skin_stream_job job = {.stream = t->stream,
                              .joint_matrices = t->matrices,
                              .order = order,
                              .in_positions = t->positions,
                              .out_positions = out,
                              .in_normals = t->normals,
                              .out_normals = out + t->n * 3};
    job.vertex_count = cut;
    bool ok = vs_skin_stream_job_run(&job, NULL) == VS_OK;
    job.first_vertex = cut;
    job.vertex_count = t->n - cut;
    return ok && vs_skin_stream_job_run(&job, NULL) == VS_OK;
}

static void *stream_worker(void *arg)
{
    stream_thread *t = arg;
    float *out = malloc(t->n * 6 * sizeof *out);
    if (!out) {
        ++t->failures;
        return NULL;
    }
    for (unsigned it = 0; it < STREAM_ITERATIONS; ++it) {
        const uint32_t order = (it + t->id) & 1;
        const size_t cut = ((size_t)t->id * 37 + (size_t)it * 11) % t->n;
        memset(out, 0, t->n * 6 * sizeof *out);
        if (!run_stream(t, order, cut, out))
            ++t->failures;
        else if (memcmp(out, t->expected[order], t->n * 6 * sizeof *out))
            ++t->mismatches;
    }
    free(out);
    return NULL;
}

static void test_shared_stream(void)
{
    vs_asset *asset;
    vs_pose *pose;
    CHECK(vs_asset_load_file(VS_TEST_DATA "/gltf2/CesiumMan.gltf", NULL, &asset,
                             NULL) == VS_OK);
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    CHECK(vs_pose_sample(pose, 0, 0.7f, VS_TIME_LOOP, NULL) == VS_OK);
    vs_pose_update_world(pose);
    const vs_primitive *prim = &asset->meshes[0].primitives[0];
    const uint32_t joints = asset->skins[0].joint_count;
    float *matrices = malloc(joints * 16 * sizeof *matrices);
    CHECK(vs_pose_joint_matrices(pose, 0, -1, matrices, NULL) == VS_OK);
    vs_skin_stream_desc desc = {.vertex_count = prim->vertex_count,
                                .influence_count = prim->influence_count,
                                .joint_count = joints,
                                .joints = prim->joints,
                                .weights = prim->weights};
    vs_skin_stream *stream = NULL;
    CHECK(vs_skin_stream_create(&desc, &stream, NULL) == VS_OK);
    const size_t n = prim->vertex_count;
    float *expected[2] = {malloc(n * 6 * sizeof(float)),
                          malloc(n * 6 * sizeof(float))};
    stream_thread base = {stream,
                          matrices,
                          prim->positions,
                          prim->normals,
                          {expected[0], expected[1]},
                          n,
                          0,
                          0,
                          0};
    for (uint32_t order = 0; order < 2; ++order)
        CHECK(run_stream(&base, order, n, expected[order]));

    pthread_t threads[THREADS];
    stream_thread states[THREADS];
    for (unsigned i = 0; i < THREADS; ++i) {
        states[i] = base;
        states[i].id = i;
        CHECK(pthread_create(&threads[i], NULL, stream_worker, &states[i]) ==
              0);
    }
    unsigned mismatches = 0, failures = 0;
    for (unsigned i = 0; i < THREADS; ++i) {
        pthread_join(threads[i], NULL);
        mismatches += states[i].mismatches;
        failures += states[i].failures;
    }
    CHECK_MSG(failures == 0, "%u stream runs failed in threads", failures);
    CHECK_MSG(mismatches == 0,
              "%u of %u stream results differ from the single-threaded "
              "ones",
              mismatches, THREADS * STREAM_ITERATIONS);
    free(expected[0]);
    free(expected[1]);
    vs_skin_stream_free(stream);
    free(matrices);
    vs_pose_free(pose);
    vs_asset_free(asset);
}

int main(void)
{
    RUN(test_threads_match_single_threaded);
    RUN(test_shared_stream);
    return test_summary();
}
