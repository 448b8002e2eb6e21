/* SPDX-License-Identifier: MIT */
/* COLLADA animation import on small hand-written files: each test states
 * the pose the file describes at some time and reads it back through the
 * runtime (vs_pose), so the whole path channel -> curve -> baked TRS clip
 * -> sampling is checked. */
#include "test_collada_anim_fixture.h"

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                   0, 0, 1, 0, 0, 0, 0, 1};

static void translate_member_linear(void)
{
    static const char *const ids[] = {"n"};
    fx_anim f;
    vs_error err;
    fx_init(&f, "dir/linear_translate.dae", 1, ids);
    fx_xform(&f, 0, COLLADA_XF_TRANSLATE, "translate", (float[]){1, 2, 3}, 3);
    fx_xform(&f, 0, COLLADA_XF_ROTATE, "rotateZ", (float[]){0, 0, 1, 0}, 4);
    CHECK(fx_load(&f, "linear_translate.dae", &err) == VS_OK);
    const vs_asset *a = f.asset;
    CHECK(a->clip_count == 1);
    if (a->clip_count != 1) goto out;
    /* No clip library: one clip named after the file. */
    CHECK(strcmp(a->clips[0].name, "linear_translate") == 0);
    CHECK_NEAR(a->clips[0].start, 0, 0);
    CHECK_NEAR(a->clips[0].end, 2, 0);
    CHECK(a->clips[0].channel_count == 3);
    /* A linear translate member: the key times suffice, no extra samples. */
    CHECK(a->clips[0].samplers[0].key_count == 2);
    CHECK(a->clips[0].samplers[0].interpolation == VS_INTERP_LINEAR);
    float m[16], want[16];
    xform_identity(want);
    want[12] = 2.5f; /* X animated: 10 * 0.5 / 2 */
    want[13] = 2;    /* Y, Z from the node's own translate */
    want[14] = 3;
    fx_local(a, 0, 0.5f, 0, m);
    fx_check_matrix(m, want, 1e-5, "t=0.5");
out:
    vs_asset_free(f.asset);
}

static void instance_node_copies_all_move(void)
{
    /* <instance_node> copies of one <node> share its id: a channel on that
     * id animates every copy. */
    static const char *const ids[] = {"n", "n"};
    fx_anim f;
    vs_error err;
    fx_init(&f, "linear_translate.dae", 2, ids);
    for (uint32_t i = 0; i < 2; ++i) {
        fx_xform(&f, i, COLLADA_XF_TRANSLATE, "translate", (float[]){1, 2, 3},
                 3);
        fx_xform(&f, i, COLLADA_XF_ROTATE, "rotateZ", (float[]){0, 0, 1, 0}, 4);
    }
    CHECK(fx_load(&f, "linear_translate.dae", &err) == VS_OK);
    if (f.asset->clip_count != 1) {
        CHECK(f.asset->clip_count == 1);
        goto out;
    }
    CHECK(f.asset->clips[0].channel_count == 6);
    for (uint32_t i = 0; i < 2; ++i) {
        float m[16];
        fx_local(f.asset, 0, 1.0f, i, m);
        CHECK_NEAR(m[12], 5, 1e-5);
    }
out:
    vs_asset_free(f.asset);
}

static void rotate_angle_follows_the_arc(void)
{
    static const char *const ids[] = {"n"};
    fx_anim f;
    vs_error err;
    fx_init(&f, "rotate_angle.dae", 1, ids);
    fx_xform(&f, 0, COLLADA_XF_ROTATE, "rotateZ", (float[]){0, 0, 1, 0}, 4);
    fx_xform(&f, 0, COLLADA_XF_TRANSLATE, "offset", (float[]){1, 0, 0}, 3);
    CHECK(fx_load(&f, "rotate_angle.dae", &err) == VS_OK);
    if (f.asset->clip_count != 1) {
        CHECK(f.asset->clip_count == 1);
        goto out;
    }
    /* 180 degrees in one segment: sampled at 30 Hz, so 31 keys. */
    CHECK(f.asset->clips[0].samplers[1].key_count == 31);
    const double times[] = {0.25, 0.5, 0.51, 0.9};
    for (int i = 0; i < 4; ++i) {
        double ang = times[i] * 3.14159265358979;
        float m[16];
        fx_local(f.asset, 0, (float)times[i], 0, m);
        /* R(z, ang) * T(1,0,0): origin on the unit circle. Between samples
         * the chord's sagitta is at most 1 - cos(3 deg) = 0.0014. */
        CHECK_NEAR(m[12], cos(ang), 2e-3);
        CHECK_NEAR(m[13], sin(ang), 2e-3);
        CHECK_NEAR(m[0], cos(ang), 1e-4);
        CHECK_NEAR(m[1], sin(ang), 1e-4);
    }
out:
    vs_asset_free(f.asset);
}

static void matrix_whole_and_element(void)
{
    static const char *const ids[] = {"a", "b"};
    fx_anim f;
    vs_error err;
    fx_init(&f, "matrix.dae", 2, ids);
    fx_xform(&f, 0, COLLADA_XF_MATRIX, "transform", identity, 16);
    float b[16] = {1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1, 0, 0, 0, 0, 1};
    fx_xform(&f, 1, COLLADA_XF_MATRIX, "transform", b, 16);
    CHECK(fx_load(&f, "matrix.dae", &err) == VS_OK);
    if (f.asset->clip_count != 1) {
        CHECK(f.asset->clip_count == 1);
        goto out;
    }
    float m[16];
    /* Keys are exact. */
    fx_local(f.asset, 0, 1.0f, 0, m);
    const float end[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 1};
    fx_check_matrix(m, end, 1e-5, "a at t=1");
    /* Between keys the matrix values are interpolated (COLLADA animates
     * the 16 numbers), which at t=0.5 is 0.5*(I + end): a shrunken 45
     * degree rotation, decomposed into R(45) and scale sqrt(0.5). */
    fx_local(f.asset, 0, 0.5f, 0, m);
    const float mid[16] = {0.5f, 0.5f, 0, 0, -0.5f, 0.5f, 0, 0,
                           0,    0,    1, 0, 2,     0,    0, 1};
    fx_check_matrix(m, mid, 1e-4, "a at t=0.5");
    /* transform(3)(0): column 3, row 0 = X translation, 2 -> 6. */
    fx_local(f.asset, 0, 0.25f, 1, m);
    float want[16];
    xform_identity(want);
    want[12] = 3;
    want[13] = 5;
    fx_check_matrix(m, want, 1e-5, "b at t=0.25");
out:
    vs_asset_free(f.asset);
}

static void step_and_bezier(void)
{
    static const char *const ids[] = {"s", "c", "m"};
    fx_anim f;
    vs_error err;
    fx_init(&f, "step_bezier.dae", 3, ids);
    for (uint32_t i = 0; i < 3; ++i)
        fx_xform(&f, i, COLLADA_XF_TRANSLATE, "translate", (float[]){0, 0, 0},
                 3);
    CHECK(fx_load(&f, "step_bezier.dae", &err) == VS_OK);
    if (f.asset->clip_count != 1) {
        CHECK(f.asset->clip_count == 1);
        goto out;
    }
    const vs_clip *clip = &f.asset->clips[0];
    /* Channels are per node in node order: s (0..2), then c (3..5). */
    CHECK(clip->samplers[0].interpolation == VS_INTERP_STEP);
    CHECK(clip->samplers[0].key_count == 3);
    CHECK(clip->samplers[3].interpolation == VS_INTERP_LINEAR);
    float m[16];
    fx_local(f.asset, 0, 0.99f, 0, m);
    CHECK_NEAR(m[13], 0, 0);
    fx_local(f.asset, 0, 1.0f, 0, m);
    CHECK_NEAR(m[13], 5, 0);
    fx_local(f.asset, 0, 1.7f, 0, m);
    CHECK_NEAR(m[13], 5, 0);
    /* Bezier: at t = 0.1 the curve parameter is 0.5 and the value 5 (hand
     * solved in the file's comment); 0.1 is a sample (0.8 s at 30 Hz). */
    fx_local(f.asset, 0, 0.1f, 1, m);
    CHECK_NEAR(m[12], 5, 1e-4);
    /* Elsewhere: value(u) with 0.8 u^3 = t, within the sampling error
     * (near t = 0 this curve is vertical, so the test keeps away). */
    const double ts[] = {0.2, 0.3, 0.61};
    for (int i = 0; i < 3; ++i) {
        double u = cbrt(ts[i] / 0.8);
        double v = 30 * u * u * (1 - u) + 10 * u * u * u;
        fx_local(f.asset, 0, (float)ts[i], 1, m);
        CHECK_NEAR(m[12], v, 0.05);
    }
    /* Mixed node: LINEAR output, yet Y holds 0 up to the jump at t = 1. */
    CHECK(clip->samplers[6].interpolation == VS_INTERP_LINEAR);
    fx_local(f.asset, 0, 0.999f, 2, m);
    CHECK_NEAR(m[12], 4.995, 1e-5);
    CHECK_NEAR(m[13], 0, 0);
    fx_local(f.asset, 0, 1.0f, 2, m);
    CHECK_NEAR(m[13], 5, 0);
out:
    vs_asset_free(f.asset);
}

static void nested_animations_and_clips(void)
{
    static const char *const ids[] = {"a", "b"};
    fx_anim f;
    vs_error err;
    fx_init(&f, "clips.dae", 2, ids);
    fx_xform(&f, 0, COLLADA_XF_TRANSLATE, "location", (float[]){0, 0, 0}, 3);
    fx_xform(&f, 1, COLLADA_XF_TRANSLATE, "location", (float[]){0, 0, 0}, 3);
    CHECK(fx_load(&f, "clips.dae", &err) == VS_OK);
    const vs_asset *a = f.asset;
    CHECK(a->clip_count == 2);
    if (a->clip_count != 2) goto out;
    /* "walk" (id only) instances inner_a: node a alone, on [0, 1]. */
    CHECK(strcmp(a->clips[0].name, "walk") == 0);
    CHECK(a->clips[0].channel_count == 3);
    CHECK(a->clips[0].channels[0].node == 0);
    CHECK_NEAR(a->clips[0].start, 0, 0);
    CHECK_NEAR(a->clips[0].end, 1, 0);
    /* "run" (name wins over id) instances outer: both nodes, [0.5, 2]. */
    CHECK(strcmp(a->clips[1].name, "run") == 0);
    CHECK(a->clips[1].channel_count == 6);
    CHECK_NEAR(a->clips[1].start, 0.5, 0);
    CHECK_NEAR(a->clips[1].end, 2, 0);
    CHECK(vs_asset_find_clip(a, "run") == 1);
    float m[16];
    fx_local(a, 0, 1.0f, 0, m);
    CHECK_NEAR(m[12], 1, 1e-6);
    fx_local(a, 1, 1.5f, 1, m);
    CHECK_NEAR(m[12], 3, 1e-6);
    fx_local(a, 1, 0.5f, 0, m);
    CHECK_NEAR(m[12], 0.5, 1e-6);
out:
    vs_asset_free(f.asset);
}

int main(void)
{
    RUN(translate_member_linear);
    RUN(instance_node_copies_all_move);
    RUN(rotate_angle_follows_the_arc);
    RUN(matrix_whole_and_element);
    RUN(step_and_bezier);
    RUN(nested_animations_and_clips);
    return test_summary();
}
