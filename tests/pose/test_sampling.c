/* SPDX-License-Identifier: MIT */
/* Keyframe sampling rules (glTF 2.0 §3.11 and Appendix C), checked on
 * samplers built by hand against values worked out on paper. */
#include "test.h"

#include "pose/sample.h"

static float qlen(const float q[4])
{
    return sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

static void step_holds_last_key_at_or_before_t(void)
{
    static const float times[] = {1, 2, 4};
    static const float values[] = {0, 0, 0, 10, 20, 30, 5, 5, 5};
    vs_anim_sampler s = {VS_INTERP_STEP, 3, times, 3, values};
    float out[3];
    anim_sample(&s, 1.5f, false, out);
    CHECK_NEAR(out[0], 0, 0);
    anim_sample(&s, 2.0f, false, out);
    CHECK_NEAR(out[1], 20, 0);
    anim_sample(&s, 3.99f, false, out);
    CHECK_NEAR(out[2], 30, 0);
    anim_sample(&s, 4.0f, false, out);
    CHECK_NEAR(out[0], 5, 0);
}

static void find_key_is_last_key_at_or_before_t(void)
{
    static const float times[] = {-1, 0.5f, 2, 3, 7};
    vs_anim_sampler s = {VS_INTERP_LINEAR, 5, times, 1, times};
    CHECK(sampler_find_key(&s, -5) == 0);
    CHECK(sampler_find_key(&s, -1) == 0);
    CHECK(sampler_find_key(&s, 0.49f) == 0);
    CHECK(sampler_find_key(&s, 0.5f) == 1);
    CHECK(sampler_find_key(&s, 2.5f) == 2);
    CHECK(sampler_find_key(&s, 3) == 3);
    CHECK(sampler_find_key(&s, 6.9f) == 3);
    CHECK(sampler_find_key(&s, 7) == 4);
    CHECK(sampler_find_key(&s, 100) == 4);
}

static void linear_lerps_between_keys(void)
{
    static const float times[] = {1, 3};
    static const float values[] = {0, 0, 0, 4, 8, -2};
    vs_anim_sampler s = {VS_INTERP_LINEAR, 2, times, 3, values};
    float out[3];
    anim_sample(&s, 2.0f, false, out); /* halfway */
    CHECK_NEAR(out[0], 2, 1e-6);
    CHECK_NEAR(out[1], 4, 1e-6);
    CHECK_NEAR(out[2], -1, 1e-6);
    anim_sample(&s, 1.5f, false, out); /* a quarter */
    CHECK_NEAR(out[0], 1, 1e-6);
    CHECK_NEAR(out[1], 2, 1e-6);
    CHECK_NEAR(out[2], -0.5, 1e-6);
}

static void clamps_before_first_and_after_last_key(void)
{
    static const float times[] = {1, 3};
    static const float values[] = {0, 0, 0, 4, 8, -2};
    vs_anim_sampler s = {VS_INTERP_LINEAR, 2, times, 3, values};
    float out[3];
    anim_sample(&s, -10.0f, false, out);
    CHECK_NEAR(out[0], 0, 0);
    CHECK_NEAR(out[1], 0, 0);
    anim_sample(&s, 30.0f, false, out);
    CHECK_NEAR(out[1], 8, 0);
    CHECK_NEAR(out[2], -2, 0);
    /* A single key holds everywhere. */
    vs_anim_sampler one = {VS_INTERP_LINEAR, 1, times, 3, values + 3};
    anim_sample(&one, 0.0f, false, out);
    CHECK_NEAR(out[0], 4, 0);
    anim_sample(&one, 9.0f, false, out);
    CHECK_NEAR(out[2], -2, 0);
}

/* Two keys 2 s apart, per key (in-tangent, value, out-tangent).
 * x: v0 = 0, b0 = 3, v1 = 1, a1 = 0;  y: v0 = 2, b0 = 0, v1 = 2, a1 = -4.
 * At s = 0.5 (t = 1): h00 = 0.5, h01 = 0.5, and with td = 2
 * td*(s^3 - 2s^2 + s) = 0.25, td*(s^3 - s^2) = -0.25, so
 * x = 0.25*3 + 0.5*1 = 1.25 and y = 0.5*2 + 0.5*2 + (-0.25)(-4) = 3.
 * Unscaled tangents would give x = 0.875 and y = 2.5.
 * At s = 0.25 (t = 0.5): h00 = 0.84375, h10 = 2*0.140625 = 0.28125,
 * h01 = 0.15625, h11 = 2*(-0.046875) = -0.09375, so
 * x = 0.28125*3 + 0.15625 = 1.0 and y = 2*(0.84375 + 0.15625) + 0.375 = 2.375.
 */
static const float cubic_times[] = {0, 2};
static const float cubic_values[] = {
    9, 9,  9, /* a0 (unused between the keys) */
    0, 2,  0, /* v0 */
    3, 0,  0, /* b0 */
    0, -4, 0, /* a1 */
    1, 2,  0, /* v1 */
    9, 9,  9, /* b1 (unused) */
};

static void cubicspline_scales_tangents_by_key_interval(void)
{
    vs_anim_sampler s = {VS_INTERP_CUBICSPLINE, 2, cubic_times, 3,
                         cubic_values};
    float out[3];
    anim_sample(&s, 1.0f, false, out);
    CHECK_NEAR(out[0], 1.25, 1e-6);
    CHECK_NEAR(out[1], 3.0, 1e-6);
    CHECK_NEAR(out[2], 0.0, 1e-6);
    anim_sample(&s, 0.5f, false, out);
    CHECK_NEAR(out[0], 1.0, 1e-6);
    CHECK_NEAR(out[1], 2.375, 1e-6);
}

static void cubicspline_clamps_to_values_not_tangents(void)
{
    vs_anim_sampler s = {VS_INTERP_CUBICSPLINE, 2, cubic_times, 3,
                         cubic_values};
    float out[3];
    anim_sample(&s, -1.0f, false, out);
    CHECK_NEAR(out[0], 0, 0);
    CHECK_NEAR(out[1], 2, 0);
    anim_sample(&s, 5.0f, false, out);
    CHECK_NEAR(out[0], 1, 0);
    CHECK_NEAR(out[1], 2, 0);
    anim_sample(&s, 2.0f, false, out);
    CHECK_NEAR(out[0], 1, 0);
}

/* Key 1 is -(90 degrees about z), i.e. the same rotation on the other
 * hemisphere. The short way from identity passes 45 degrees about z at the
 * midpoint: (0, 0, sin 22.5, cos 22.5); the long way would pass -135. */
static void slerp_takes_shortest_path(void)
{
    const float h = (float)sqrt(0.5);
    const float times[] = {0, 1};
    const float values[] = {0, 0, 0, 1, 0, 0, -h, -h};
    vs_anim_sampler s = {VS_INTERP_LINEAR, 2, times, 4, values};
    float q[4];
    anim_sample(&s, 0.5f, true, q);
    CHECK_NEAR(q[0], 0, 1e-6);
    CHECK_NEAR(q[1], 0, 1e-6);
    CHECK_NEAR(q[2], 0.38268343, 1e-5);
    CHECK_NEAR(q[3], 0.92387953, 1e-5);
    /* A quarter of the way: 22.5 degrees, so half-angle 11.25. */
    anim_sample(&s, 0.25f, true, q);
    CHECK_NEAR(q[2], 0.19509032, 1e-5);
    CHECK_NEAR(q[3], 0.98078528, 1e-5);
    for (int i = 0; i <= 10; ++i) {
        anim_sample(&s, (float)i / 10.0f, true, q);
        CHECK_NEAR(qlen(q), 1.0, 1e-5);
        /* q and -q are one rotation; the angle about z stays in [0, 90]
         * degrees exactly when z and w share a sign (the long way round
         * passes -135 degrees, where they differ). */
        CHECK(q[2] * q[3] >= -1e-6f);
    }
}

/* 0.01 rad apart and on opposite hemispheres: the normalized-lerp fallback
 * must still flip and give unit results between the two. */
static void slerp_near_parallel_falls_back_to_nlerp(void)
{
    const float c = cosf(0.005f), sn = sinf(0.005f);
    const float times[] = {0, 1};
    const float values[] = {0, 0, 0, 1, -sn, 0, 0, -c};
    vs_anim_sampler s = {VS_INTERP_LINEAR, 2, times, 4, values};
    float q[4];
    anim_sample(&s, 0.5f, true, q);
    CHECK_NEAR(qlen(q), 1.0, 1e-6);
    CHECK_NEAR(q[0], sinf(0.0025f), 1e-5);
    CHECK_NEAR(q[3], cosf(0.0025f), 1e-5);
}

static void cubicspline_rotation_is_normalized(void)
{
    const float times[] = {0, 1};
    /* Zero tangents; values identity and 90 degrees about x. The raw
     * Hermite midpoint (h/2, 0, 0, (1+h)/2) has length 0.92. */
    const float h = (float)sqrt(0.5);
    const float values[] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                            0, 0, 0, 0, h, 0, 0, h, 0, 0, 0, 0};
    vs_anim_sampler s = {VS_INTERP_CUBICSPLINE, 2, times, 4, values};
    float q[4];
    anim_sample(&s, 0.5f, true, q);
    CHECK_NEAR(qlen(q), 1.0, 1e-6);
    double n = sqrt(0.25 * 0.5 + 0.25 * (1 + h) * (1 + h));
    CHECK_NEAR(q[0], 0.5 * h / n, 1e-6);
    CHECK_NEAR(q[3], 0.5 * (1 + h) / n, 1e-6);
}

static void weights_interpolate_per_component(void)
{
    const float times[] = {0, 2};
    const float values[] = {0, 1, 0.5f, 1, 0, 0.5f}; /* 3 targets */
    vs_anim_sampler s = {VS_INTERP_LINEAR, 2, times, 3, values};
    float w[3];
    anim_sample(&s, 0.5f, false, w);
    CHECK_NEAR(w[0], 0.25, 1e-6);
    CHECK_NEAR(w[1], 0.75, 1e-6);
    CHECK_NEAR(w[2], 0.5, 1e-6);
}

/* Clip [2, 4): loop wraps by the duration 2, clamp passes t through. */
static void loop_wraps_into_clip_range(void)
{
    vs_clip clip = {.name = "", .start = 2, .end = 4};
    CHECK_NEAR(anim_clip_time(&clip, 5.0f, VS_TIME_LOOP), 3.0, 1e-6);
    CHECK_NEAR(anim_clip_time(&clip, 1.0f, VS_TIME_LOOP), 3.0, 1e-6);
    CHECK_NEAR(anim_clip_time(&clip, 4.0f, VS_TIME_LOOP), 2.0, 1e-6);
    CHECK_NEAR(anim_clip_time(&clip, -0.5f, VS_TIME_LOOP), 3.5, 1e-6);
    CHECK_NEAR(anim_clip_time(&clip, 2.5f, VS_TIME_LOOP), 2.5, 1e-6);
    CHECK_NEAR(anim_clip_time(&clip, 3.0f + 2.0f * 1000, VS_TIME_LOOP), 3.0,
               1e-3);
    CHECK_NEAR(anim_clip_time(&clip, 5.0f, VS_TIME_CLAMP), 5.0, 0);
    CHECK_NEAR(anim_clip_time(&clip, -7.0f, VS_TIME_CLAMP), -7.0, 0);
    for (int i = -50; i <= 50; ++i) {
        float t = anim_clip_time(&clip, 0.37f * (float)i, VS_TIME_LOOP);
        CHECK(t >= 2.0f && t < 4.0f);
    }
    /* No duration: looping behaves as clamping. */
    vs_clip still = {.name = "", .start = 1, .end = 1};
    CHECK_NEAR(anim_clip_time(&still, 5.0f, VS_TIME_LOOP), 5.0, 0);
}

int main(void)
{
    RUN(step_holds_last_key_at_or_before_t);
    RUN(find_key_is_last_key_at_or_before_t);
    RUN(linear_lerps_between_keys);
    RUN(clamps_before_first_and_after_last_key);
    RUN(cubicspline_scales_tangents_by_key_interval);
    RUN(cubicspline_clamps_to_values_not_tangents);
    RUN(slerp_takes_shortest_path);
    RUN(slerp_near_parallel_falls_back_to_nlerp);
    RUN(cubicspline_rotation_is_normalized);
    RUN(weights_interpolate_per_component);
    RUN(loop_wraps_into_clip_range);
    return test_summary();
}
