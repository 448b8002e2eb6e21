/* SPDX-License-Identifier: MIT */
/* Fast (joint-matrix) bounds against exact (skinned-vertex) bounds: on every
 * loadable asset in tests/data and ../shared/assets, at many times over every
 * clip and in every skinning mode, the fast box contains the exact one; on
 * the shared assets its diagonal is at most 1.5x the exact diagonal. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdint.h>

#include "bounds_any.h"
#include "pose/asset_fixture.h"
#include "asset/asset_internal.h"
#include "test.h"
#include "vskin/vskin.h"

#define SAMPLES_PER_CLIP 24
#define MAX_RATIO 1.5

static double diagonal(const float lo[3], const float hi[3])
{
    double s = 0.0;
    for (int k = 0; k < 3; ++k)
        s += ((double)hi[k] - lo[k]) * ((double)hi[k] - lo[k]);
    return sqrt(s);
}

/* Worst fast/exact diagonal ratio of the current pose, or 0 when empty. */
static double check_pose(const char *path, const vs_pose *pose,
                         const vs_pose_mesh_options *opt, const char *when)
{
    float elo[3], ehi[3], flo[3], fhi[3];
    bool exact = bounds_any(pose, opt, elo, ehi);
    bool fast = fast_bounds_any(pose, opt, flo, fhi);
    if (!exact) return 0.0;
    CHECK_MSG(fast, "%s %s: fast bounds empty but exact not", path, when);
    if (!fast) return 0.0;
    double d = diagonal(elo, ehi);
    double eps = 1e-5 * (1.0 + d + fabs(elo[0]) + fabs(elo[1]) + fabs(elo[2]));
    for (int k = 0; k < 3; ++k) {
        CHECK_MSG(
            flo[k] <= elo[k] + eps && fhi[k] >= ehi[k] - eps,
            "%s %s axis %d: fast [%g, %g] does not contain exact [%g, %g]",
            path, when, k, flo[k], fhi[k], elo[k], ehi[k]);
    }
    return d > 1e-6 ? diagonal(flo, fhi) / d : 1.0;
}

static const vs_pose_mesh_options modes[] = {
    {.space = VS_SPACE_WORLD},
    {.space = VS_SPACE_SKELETON},
    {.skin_flags = VS_SKIN_RAW_WEIGHTS, .space = VS_SPACE_WORLD},
    /* DQS leaves the hull of the J_i p (arcs): exact fallback, still tested. */
    {.method = VS_SKIN_DUAL_QUATERNION},
};

static int assets_checked;

static void check_asset(const char *path, bool shared)
{
    vs_asset *asset = NULL;
    if (vs_asset_load_file(path, NULL, &asset, NULL) != VS_OK) return;
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    double worst = 0.0;
    char when[128];
    for (size_t m = 0; pose && m < sizeof modes / sizeof modes[0]; ++m) {
        vs_pose_reset(pose);
        vs_pose_update_world(pose);
        snprintf(when, sizeof when, "rest mode %zu", m);
        double r = check_pose(path, pose, &modes[m], when);
        if (m == 0 && r > worst) worst = r;
        for (uint32_t c = 0; c < asset->clip_count; ++c) {
            const vs_clip *clip = &asset->clips[c];
            for (int s = 0; s <= SAMPLES_PER_CLIP + 1; ++s) {
                float t = clip->start + (clip->end - clip->start) * (float)s /
                                            SAMPLES_PER_CLIP;
                vs_pose_reset(pose);
                CHECK(vs_pose_sample(pose, c, t, VS_TIME_CLAMP, NULL) == VS_OK);
                vs_pose_update_world(pose);
                snprintf(when, sizeof when, "clip %u t=%g mode %zu", c, t, m);
                r = check_pose(path, pose, &modes[m], when);
                if (m == 0 && r > worst) worst = r;
            }
        }
    }
    printf("  %-70s worst fast/exact diagonal %.4f\n", path, worst);
    if (shared)
        CHECK_MSG(worst <= MAX_RATIO, "%s: fast diagonal %.4f x exact", path,
                  worst);
    ++assets_checked;
    vs_pose_free(pose);
    vs_asset_free(asset);
}

static bool walking_shared;

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int visit(const char *path, const struct stat *st, int type,
                 struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type != FTW_F) return 0;
    /* Bad-input corpora are the loaders' business, not bounds'. */
    if (strstr(path, "/invalid/") || strstr(path, "/broken/")) return 0;
    if (has_suffix(path, ".gltf") || has_suffix(path, ".glb") ||
        has_suffix(path, ".dae"))
        check_asset(path, walking_shared);
    return 0;
}

static void test_fast_contains_exact_on_test_data(void)
{
    walking_shared = false;
    assets_checked = 0;
    nftw(VS_TEST_DATA, visit, 16, FTW_PHYS);
    CHECK(assets_checked >= 10);
}

static void test_fast_contains_exact_and_tight_on_shared_assets(void)
{
    if (!test_path_exists(VS_SHARED_ASSETS)) {
        printf("  (shared assets absent: %s)\n", VS_SHARED_ASSETS);
        return;
    }
    walking_shared = true;
    assets_checked = 0;
    nftw(VS_SHARED_ASSETS, visit, 16, FTW_PHYS);
    CHECK(assets_checked >= 5);
}

/* SimpleSkin: joint 1 (IBM = T(0,-1,0)) influences the vertices at y >= 0.5
 * (weights are 0 below), so its bind-space box starts at y >= -0.5. */
static void test_joint_bounds_accessor(void)
{
    vs_asset *asset = NULL;
    CHECK(vs_asset_load_file(VS_TEST_DATA "/gltf2/SimpleSkin.gltf", NULL,
                             &asset, NULL) == VS_OK);
    if (!asset) return;
    float lo[3], hi[3];
    CHECK(vs_asset_joint_bounds(asset, 0, 0, 0, lo, hi));
    CHECK(vs_asset_joint_bounds(asset, 0, 0, 1, lo, hi));
    CHECK(lo[1] >= -0.5f - 1e-6f && hi[1] <= 1.0f + 1e-6f);
    CHECK(lo[0] >= -0.5f - 1e-6f && hi[0] <= 0.5f + 1e-6f);
    CHECK(!vs_asset_joint_bounds(asset, 0, 0, 2, lo, hi));
    CHECK(!vs_asset_joint_bounds(asset, 1, 0, 0, lo, hi));
    CHECK(!vs_asset_joint_bounds(asset, 0, 1, 0, lo, hi));
    vs_asset_free(asset);
}

/* A skinned asset built in memory: node 0 holds the mesh, nodes 1..joints
 * are the joints (all at the origin, identity IBMs), one primitive of
 * `vertices` points with `influences` influences per vertex, zero-filled
 * for the caller to set through the returned pointers. */
typedef struct synthetic {
    vs_asset *asset;
    float *positions;
    float *weights;
    uint16_t *joints;
} synthetic;

static bool synthetic_create(uint32_t vertices, uint32_t joints,
                             uint32_t influences, synthetic *out)
{
    vs_asset *a = fx_asset(joints + 1);
    size_t slots = (size_t)vertices * influences;
    vs_mesh *mesh = vs_priv_asset_calloc(a, 1, sizeof *mesh, NULL, "t");
    vs_primitive *prim = vs_priv_asset_calloc(a, 1, sizeof *prim, NULL, "t");
    vs_skin *skin = vs_priv_asset_calloc(a, 1, sizeof *skin, NULL, "t");
    float *pos = vs_priv_asset_calloc(a, (size_t)vertices * 3, sizeof *pos, NULL, "t");
    float *w = vs_priv_asset_calloc(a, slots, sizeof *w, NULL, "t");
    uint16_t *jt = vs_priv_asset_calloc(a, slots, sizeof *jt, NULL, "t");
    uint32_t *sj = vs_priv_asset_calloc(a, joints, sizeof *sj, NULL, "t");
    if (!mesh || !prim || !skin || !pos || !w || !jt || !sj) abort();
    fx_node(a, 0)->mesh = 0;
    fx_node(a, 0)->skin = 0;
    *prim = (vs_primitive){.mode = VS_MODE_POINTS,
                           .vertex_count = vertices,
                           .positions = pos,
                           .influence_count = influences,
                           .joints = jt,
                           .weights = w,
                           .material = -1};
    *mesh = (vs_mesh){.name = "", .primitive_count = 1, .primitives = prim};
    for (uint32_t j = 0; j < joints; ++j)
        sj[j] = j + 1;
    skin->name = "";
    skin->joint_count = joints;
    skin->joints = sj;
    skin->skeleton = -1;
    for (int i = 0; i < 16; ++i)
        skin->bind_shape_matrix[i] = i % 5 ? 0.0f : 1.0f;
    a->meshes = mesh, a->mesh_count = 1;
    a->skins = skin, a->skin_count = 1;
    *out = (synthetic){a, pos, w, jt};
    return true;
}

static vs_pose *synthetic_finish(synthetic *s)
{
    vs_error e = {0};
    CHECK_MSG(vs_priv_asset_finalize(s->asset, &e) == VS_OK, "%s", e.message);
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(s->asset, &pose, NULL) == VS_OK);
    return pose;
}

/* A vertex weighted (1.5, -0.5) is no convex combination of the joints'
 * transforms: 1.5 * J0 p - 0.5 * J1 p leaves their hull. The fast bound
 * must notice and still contain it (it skins such primitives). */
static void test_negative_weights_still_contained(void)
{
    synthetic s;
    if (!synthetic_create(2, 2, 4, &s)) return;
    s.positions[4] = 1.0f;                      /* (0,0,0) and (0,1,0) */
    s.weights[0] = 1.5f, s.weights[1] = -0.5f; /* vertex 0 */
    s.joints[1] = 1;
    s.weights[4] = 1.0f; /* vertex 1 */
    vs_pose *pose = synthetic_finish(&s);
    if (pose) {
        /* Joint 1 moves to x = 4: vertex 0 lands at x = -0.5 * 4 = -2. */
        vs_trs t = {{4, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        vs_pose_set_local(pose, 2, &t);
        vs_pose_update_world(pose);
        float lo[3], hi[3];
        CHECK(bounds_any(pose, NULL, lo, hi));
        CHECK_NEAR(lo[0], -2.0, 1e-6);
        check_pose("negative weights", pose, &modes[0], "moved");
        CHECK(fast_bounds_any(pose, NULL, lo, hi));
        CHECK(lo[0] <= -2.0f);
    }
    vs_pose_free(pose);
    vs_asset_free(s.asset);
}

/* 100 vertices on [0, 1] along x, each 0.9 on joint 0 and 0.1 on joint 1;
 * joint 1 moves 100 along y. Every vertex lands at y = 10 exactly. Boxes
 * per joint would reach y = 100 (joint 1 carries the whole line); the
 * least-weight blend bound of the influence set is exact here (up to the
 * 1e-6 weight slack, times 100). */
static void test_light_far_joint_stays_tight(void)
{
    synthetic s;
    if (!synthetic_create(100, 2, 2, &s)) return;
    for (uint32_t v = 0; v < 100; ++v) {
        s.positions[3 * v] = (float)v / 99.0f;
        s.weights[2 * v] = 0.9f, s.weights[2 * v + 1] = 0.1f;
        s.joints[2 * v + 1] = 1;
    }
    vs_pose *pose = synthetic_finish(&s);
    if (pose) {
        vs_trs t = {{0, 100, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        vs_pose_set_local(pose, 2, &t);
        vs_pose_update_world(pose);
        check_pose("light far joint", pose, &modes[0], "moved");
        float lo[3], hi[3];
        CHECK(fast_bounds_any(pose, NULL, lo, hi));
        CHECK_MSG(lo[1] >= 10.0f - 1e-3f && hi[1] <= 10.0f + 1e-3f,
                  "fast y range [%g, %g], exact [10, 10]", lo[1], hi[1]);
        CHECK(lo[0] >= -1e-3f && hi[0] <= 1.0f + 1e-3f);
    }
    vs_pose_free(pose);
    vs_asset_free(s.asset);
}

/* More distinct influence sets than a primitive keeps (INFLUENCE_SETS_MAX,
 * 4096): 12000 vertices on 3 random joints of 48 with random weights, 40
 * random poses with rotation, translation and non-uniform scale. The
 * vertices past the cap take the per-joint overflow boxes; the fast box
 * must still contain the exact one. */
static void test_many_influence_sets_still_contained(void)
{
    enum { V = 12000, J = 48, K = 3 };
    synthetic s;
    if (!synthetic_create(V, J, K, &s)) return;
    uint32_t seed = 12345u;
#define RAND01() ((seed = seed * 1664525u + 1013904223u) >> 8) / 16777216.0f
    for (uint32_t v = 0; v < V; ++v) {
        for (int k = 0; k < 3; ++k)
            s.positions[3 * v + k] = RAND01() * 2.0f - 1.0f;
        for (uint32_t i = 0; i < K; ++i) {
            s.joints[K * v + i] = (uint16_t)(RAND01() * J);
            s.weights[K * v + i] = 0.05f + RAND01();
        }
    }
    vs_pose *pose = synthetic_finish(&s);
    for (int trial = 0; pose && trial < 40; ++trial) {
        for (uint32_t j = 1; j <= J; ++j) {
            /* One draw per statement: an initializer list's order of
             * evaluation is unspecified. */
            float q[4], n = 0.0f;
            for (int c = 0; c < 4; ++c) {
                q[c] = RAND01() - 0.5f;
                n += q[c] * q[c];
            }
            n = sqrtf(n);
            vs_trs t;
            for (int c = 0; c < 3; ++c) t.translation[c] = RAND01() * 4 - 2;
            for (int c = 0; c < 4; ++c) t.rotation[c] = q[c] / n;
            for (int c = 0; c < 3; ++c) t.scale[c] = 0.5f + RAND01();
            vs_pose_set_local(pose, j, &t);
        }
        vs_pose_update_world(pose);
        char when[32];
        snprintf(when, sizeof when, "trial %d", trial);
        check_pose("many influence sets", pose, &modes[0], when);
    }
#undef RAND01
    vs_pose_free(pose);
    vs_asset_free(s.asset);
}

int main(void)
{
    RUN(test_negative_weights_still_contained);
    RUN(test_light_far_joint_stays_tight);
    RUN(test_many_influence_sets_still_contained);
    RUN(test_joint_bounds_accessor);
    RUN(test_fast_contains_exact_on_test_data);
    RUN(test_fast_contains_exact_and_tight_on_shared_assets);
    return test_summary();
}
