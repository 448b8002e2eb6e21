/* SPDX-License-Identifier: MIT */
/* Every glTF 2.0 asset of the shared corpus (../shared/assets/gltf2/) loads
 * and poses sanely:
 *  - the rest pose and every clip at several times (before the start, on
 *    the range, after the end) give finite, non-empty bounds within 100x
 *    the rest bounds diagonal of the rest centre;
 *  - the three SimpleSkin variants (same skinned strip; different node
 *    layouts and IBMs, see MANIFEST.md) pose to the same world positions
 *    at several times, to 1e-5;
 *  - BoxAnimated (rigid node animation, LINEAR) and InterpolationTest (STEP,
 *    LINEAR and CUBICSPLINE on T/R/S, nine clips) match the scene and
 *    per-primitive bounds of the independent Python reference
 *    (tests/data/reference/, from tests/reference/gltf_reference.py). */
#include <math.h>

#include "bounds_any.h"
#include "skin/reference_compare.h"
#include "test.h"

#define GLTF2 VS_SHARED_ASSETS "/gltf2/"

static const char *const assets[] = {
    GLTF2 "SimpleSkin/SimpleSkin.gltf",
    GLTF2 "SimpleSkin/SimpleSkin_sample-models-embedded.gltf",
    GLTF2 "SimpleSkin/SimpleSkin_tutorial-2017.gltf",
    GLTF2 "CesiumMan/CesiumMan.gltf",
    GLTF2 "RiggedSimple/RiggedSimple.gltf",
    GLTF2 "BoxAnimated/box_animated.gltf",
    GLTF2 "InterpolationTest/interpolation_test.gltf",
    GLTF2 "Triangle/triangle.gltf",
};

static bool finite3(const float v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static double diagonal(const float lo[3], const float hi[3])
{
    double d = 0.0;
    for (int i = 0; i < 3; ++i)
        d += ((double)hi[i] - lo[i]) * (hi[i] - lo[i]);
    return sqrt(d);
}

/* Bounds of the current pose are finite, ordered and within 100x the rest
 * diagonal of the rest centre (a broken hierarchy or an unnormalized
 * quaternion blow far past that; a real animation stays well inside). */
static void check_plausible(const vs_pose *pose, const char *what,
                            const float rest_lo[3], const float rest_hi[3])
{
    vs_pose_mesh_options options = {0};
    float lo[3], hi[3];
    bool any = bounds_any(pose, &options, lo, hi);
    CHECK_MSG(any, "%s: no vertex", what);
    if (!any) return;
    CHECK_MSG(finite3(lo) && finite3(hi), "%s: bounds not finite", what);
    CHECK_MSG(lo[0] <= hi[0] && lo[1] <= hi[1] && lo[2] <= hi[2],
              "%s: min > max", what);
    double limit = 100.0 * diagonal(rest_lo, rest_hi);
    double size = diagonal(lo, hi);
    CHECK_MSG(size > 0.0 && size <= limit, "%s: diagonal %g, rest %g", what,
              size, limit / 100.0);
    for (int i = 0; i < 3; ++i) {
        double c = 0.5 * ((double)lo[i] + hi[i]);
        double rc = 0.5 * ((double)rest_lo[i] + rest_hi[i]);
        CHECK_MSG(fabs(c - rc) <= limit, "%s: centre[%d] %g, rest %g", what, i,
                  c, rc);
    }
}

static void check_asset(const char *path)
{
    vs_asset *asset = NULL;
    vs_pose *pose = NULL;
    vs_error error = {0};
    vs_result r = vs_asset_load_file(path, NULL, &asset, &error);
    CHECK_MSG(r == VS_OK, "%s: %s", path, error.message);
    if (r != VS_OK) return;
    CHECK_MSG(asset->format == VS_FORMAT_GLTF2, "%s: format %d", path,
              (int)asset->format);
    CHECK_MSG(asset->instance_count > 0, "%s: no mesh instance", path);
    r = vs_pose_create(asset, &pose, &error);
    CHECK_MSG(r == VS_OK, "%s: vs_pose_create: %s", path, error.message);
    if (r == VS_OK) {
        vs_pose_mesh_options options = {0};
        float rest_lo[3], rest_hi[3];
        vs_pose_update_world(pose);
        bool any = bounds_any(pose, &options, rest_lo, rest_hi);
        CHECK_MSG(any && finite3(rest_lo) && finite3(rest_hi) &&
                      diagonal(rest_lo, rest_hi) > 0.0,
                  "%s: rest bounds empty or not finite", path);
        for (uint32_t c = 0; any && c < asset->clip_count; ++c) {
            const vs_clip *clip = &asset->clips[c];
            CHECK_MSG(isfinite(clip->start) && isfinite(clip->end) &&
                          clip->start <= clip->end,
                      "%s: clip %u range [%g, %g]", path, c, clip->start,
                      clip->end);
            float span = clip->end - clip->start;
            float times[] = {clip->start - 0.5f,
                             clip->start,
                             clip->start + 0.25f * span,
                             clip->start + 0.5f * span,
                             clip->start + 0.77f * span,
                             clip->end,
                             clip->end + 1.0f};
            for (size_t k = 0; k < sizeof times / sizeof times[0]; ++k) {
                char what[512];
                snprintf(what, sizeof what, "%s clip %u t=%g", path, c,
                         times[k]);
                vs_pose_reset(pose);
                r = vs_pose_sample(pose, c, times[k], VS_TIME_CLAMP, &error);
                CHECK_MSG(r == VS_OK, "%s: %s", what, error.message);
                vs_pose_update_world(pose);
                check_plausible(pose, what, rest_lo, rest_hi);
            }
        }
    }
    printf("%s: %u instances, %u clips\n", path, asset->instance_count,
           asset->clip_count);
    vs_pose_free(pose);
    vs_asset_free(asset);
}

static void test_every_asset_poses_plausibly(void)
{
    for (size_t i = 0; i < sizeof assets / sizeof assets[0]; ++i)
        check_asset(assets[i]);
}

/* World positions of the first primitive of the first instance. */
static bool posed_strip(const char *path, float time, float out[30])
{
    vs_asset *asset = NULL;
    vs_pose *pose = NULL;
    vs_error error = {0};
    bool ok = false;
    if (vs_asset_load_file(path, NULL, &asset, &error) == VS_OK &&
        asset->instance_count == 1 &&
        vs_pose_create(asset, &pose, &error) == VS_OK &&
        vs_pose_sample(pose, 0, time, VS_TIME_CLAMP, &error) == VS_OK) {
        vs_pose_update_world(pose);
        vs_pose_mesh_options options = {0};
        vs_posed_primitive posed = {0};
        if (vs_pose_mesh_primitive(pose, asset->instances[0], 0, &options,
                                   &posed, &error) == VS_OK) {
            ok = posed.vertex_count == 10;
            if (ok) memcpy(out, posed.positions, sizeof(float) * 30);
            vs_posed_primitive_free(&posed);
        }
    }
    CHECK_MSG(ok, "%s t=%g: %s", path, time, error.message);
    vs_pose_free(pose);
    vs_asset_free(asset);
    return ok;
}

static void test_simple_skin_variants_agree(void)
{
    /* Keys, halfway between keys, both rotation signs, and clamped ends. */
    static const float times[] = {-1.0f, 0.0f,  0.25f, 1.0f, 1.3f,
                                  2.5f,  3.75f, 4.2f,  5.5f, 9.0f};
    for (size_t k = 0; k < sizeof times / sizeof times[0]; ++k) {
        float base[30];
        if (!posed_strip(assets[0], times[k], base)) continue;
        for (int variant = 1; variant <= 2; ++variant) {
            float other[30];
            if (!posed_strip(assets[variant], times[k], other)) continue;
            for (int i = 0; i < 30; ++i)
                CHECK_MSG(fabsf(base[i] - other[i]) <= 1e-5f,
                          "%s t=%g vertex %d component %d: %.7g vs %.7g",
                          assets[variant], times[k], i / 3, i % 3, other[i],
                          base[i]);
        }
    }
}

static void test_box_animated_reference(void)
{
    ref_compare_file(GLTF2 "BoxAnimated/box_animated.gltf",
                     VS_TEST_DATA "/reference/BoxAnimated.json", 1e-5, false);
}

static void test_interpolation_test_reference(void)
{
    ref_compare_file(GLTF2 "InterpolationTest/interpolation_test.gltf",
                     VS_TEST_DATA "/reference/InterpolationTest.json", 1e-5,
                     false);
}

int main(void)
{
    require_shared_assets();
    RUN(test_every_asset_poses_plausibly);
    RUN(test_simple_skin_variants_agree);
    RUN(test_box_animated_reference);
    RUN(test_interpolation_test_reference);
    return test_summary();
}
