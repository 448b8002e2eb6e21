/* Fast (joint-matrix) bounds against exact (skinned-vertex) bounds: on every
 * loadable asset in tests/data and ../shared/assets, at many times over every
 * clip and in every skinning mode, the fast box contains the exact one; on
 * the shared assets its diagonal is at most 1.5x the exact diagonal. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"

#define SAMPLES_PER_CLIP 24
#define MAX_RATIO 1.5

static double diagonal(const float lo[3], const float hi[3])
{
    double s = 0.0;
    for (int k = 0; k < 3; ++k) s += ((double)hi[k] - lo[k]) * ((double)hi[k] - lo[k]);
    return sqrt(s);
}

/* Worst fast/exact diagonal ratio of the current pose, or 0 when empty. */
static double check_pose(const char *path, const vs_pose *pose,
                         const vs_pose_mesh_options *opt, const char *when)
{
    float elo[3], ehi[3], flo[3], fhi[3];
    bool exact = vs_pose_bounds(pose, opt, elo, ehi);
    bool fast = vs_pose_fast_bounds(pose, opt, flo, fhi);
    if (!exact) return 0.0;
    CHECK_MSG(fast, "%s %s: fast bounds empty but exact not", path, when);
    if (!fast) return 0.0;
    double d = diagonal(elo, ehi);
    double eps = 1e-5 * (1.0 + d + fabs(elo[0]) + fabs(elo[1]) + fabs(elo[2]));
    for (int k = 0; k < 3; ++k) {
        CHECK_MSG(flo[k] <= elo[k] + eps && fhi[k] >= ehi[k] - eps,
                  "%s %s axis %d: fast [%g, %g] does not contain exact [%g, %g]",
                  path, when, k, flo[k], fhi[k], elo[k], ehi[k]);
    }
    return d > 1e-6 ? diagonal(flo, fhi) / d : 1.0;
}

static const vs_pose_mesh_options modes[] = {
    {0, VS_SPACE_WORLD},
    {0, VS_SPACE_SKELETON},
    {VS_SKIN_RAW_WEIGHTS, VS_SPACE_WORLD},
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
    /* MANIFEST.md: the first SimpleSkin tutorial revision swaps joint
     * indices and IBMs (the rest pose is squashed to half height), so joint
     * boxes hold points that no pose reaches; it measures 1.58x and is only
     * held to containment. */
    if (shared && !strstr(path, "SimpleSkin_tutorial-e73f143"))
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

int main(void)
{
    RUN(test_joint_bounds_accessor);
    RUN(test_fast_contains_exact_on_test_data);
    RUN(test_fast_contains_exact_and_tight_on_shared_assets);
    return test_summary();
}
