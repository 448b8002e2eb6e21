/* SPDX-License-Identifier: MIT */
/* End to end: seymour.dae (Maya/FCollada, 19 BEZIER channels on rotate
 * ANGLEs and translates) through vs_asset_load_file, checked against the
 * file's own numbers evaluated independently here. */
#include <cglm/cglm.h>

#include "test.h"
#include "vskin/vskin.h"

static int32_t node_by_id(const vs_asset *a, const char *id)
{
    for (uint32_t i = 0; i < a->node_count; ++i)
        if (a->nodes[i].id && strcmp(a->nodes[i].id, id) == 0)
            return (int32_t)i;
    return -1;
}

/* l_hip's stack from the file with rotateY.ANGLE = angle (degrees):
 * translate, jointOrientZ/Y/X, rotateY, rotateAxisX. */
static void l_hip_local(float angle, mat4 out)
{
    glm_translate_make(out, (vec3){0.450181f, 0.049889f, 0.340342f});
    glm_rotate(out, glm_rad(-81.926788f), (vec3){0, 0, 1});
    glm_rotate(out, glm_rad(-3.109476f), (vec3){0, 1, 0});
    glm_rotate(out, glm_rad(angle), (vec3){0, 1, 0});
    glm_rotate(out, glm_rad(-150.0f), (vec3){1, 0, 0});
}

static void seymour_clip_matches_the_curves(void)
{
    vs_asset *a = NULL;
    vs_error err = {0};
    vs_result r = vs_asset_load_file(
        VS_SHARED_ASSETS "/collada/seymour/seymour.dae", NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    /* No <library_animation_clips>: one clip named after the file, from
     * the first key (0) to the last one (neck, 12.5 s). */
    CHECK(a->clip_count == 1);
    int32_t hip = node_by_id(a, "l_hip");
    CHECK(hip >= 0);
    if (a->clip_count != 1 || hip < 0) goto out;
    CHECK(strcmp(a->clips[0].name, "seymour") == 0);
    CHECK_NEAR(a->clips[0].start, 0, 0);
    CHECK_NEAR(a->clips[0].end, 12.5, 1e-6);
    /* l_hip rotateY.ANGLE, keys 7.5 -> 8.75: 0 -> 55.999996 with 2-D
     * control points (7.916667, 0) and (8.333333, 55.999996). The control
     * times are evenly spaced, so at t = 8.125 the curve parameter is 0.5
     * and the angle (0 + 3*0 + 3*56 + 56) / 8 = 28 degrees. */
    vs_pose *pose = NULL;
    if (vs_pose_create(a, &pose, &err) != VS_OK) {
        CHECK_MSG(0, "%s", err.message);
        goto out;
    }
    float got[16], rest[16];
    mat4 want;
    vs_pose_get_local(pose, (uint32_t)hip, rest);
    CHECK(vs_pose_sample(pose, 0, 8.125f, VS_TIME_CLAMP, &err) == VS_OK);
    vs_pose_get_local(pose, (uint32_t)hip, got);
    l_hip_local(27.999998f, want);
    const float *w = &want[0][0];
    double moved = 0;
    for (int i = 0; i < 16; ++i) {
        CHECK_MSG(fabs(got[i] - w[i]) < 1e-4, "[%d] %g vs %g", i,
                  (double)got[i], (double)w[i]);
        moved = fmax(moved, fabs(got[i] - rest[i]));
    }
    /* The rest pose has rotateY = 0: the joint really moved. */
    CHECK(moved > 0.1);
    l_hip_local(0, want);
    for (int i = 0; i < 16; ++i)
        CHECK_NEAR(rest[i], (&want[0][0])[i], 1e-4);
    vs_pose_free(pose);
out:
    vs_asset_free(a);
}

static void cts_maya_one_dimensional_tangents_load(void)
{
    vs_asset *a = NULL;
    vs_error err = {0};
    vs_result r = vs_asset_load_file(
        VS_SHARED_ASSETS "/collada/cts/maya_simple_003_SkeletalAnimation_00/"
                         "simple_003_SkeletalAnimation_00.dae",
        NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    CHECK(a->clip_count == 1);
    if (a->clip_count == 1) {
        CHECK_NEAR(a->clips[0].start, 0, 0);
        CHECK_NEAR(a->clips[0].end, 4.166667, 1e-5);
        CHECK(a->clips[0].channel_count == 3); /* joint2: T, R, S */
    }
    vs_asset_free(a);
}

int main(void)
{
    require_shared_assets();
    RUN(seymour_clip_matches_the_curves);
    RUN(cts_maya_one_dimensional_tangents_load);
    return test_summary();
}
