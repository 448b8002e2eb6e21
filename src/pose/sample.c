/* SPDX-License-Identifier: MIT */
/* Keyframe sampling of one animation sampler: STEP, LINEAR, CUBICSPLINE
 * (sample.h). */
#include "pose/sample.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

uint32_t sampler_find_key(const vs_anim_sampler *s, float t)
{
    const float *times = s->times;
    if (!(t > times[0])) return 0;
    /* Invariant: times[lo] <= t and (hi == key_count or times[hi] > t). */
    uint32_t lo = 0, hi = s->key_count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Keys a forward step may walk before a binary search is cheaper. */
#define CURSOR_MAX_WALK 8u

uint32_t sampler_find_key_walk(const vs_anim_sampler *s, float t,
                               uint32_t *cursor)
{
    const float *times = s->times;
    const uint32_t last = s->key_count - 1;
    uint32_t k = *cursor;
    if (!(t > times[0])) {
        k = 0;
    } else if (k <= last && times[k] <= t) {
        /* Forward (or still): walk the keys passed since the last call. */
        uint32_t steps = 0;
        while (k < last && times[k + 1] <= t && steps++ < CURSOR_MAX_WALK)
            ++k;
        if (k < last && times[k + 1] <= t) k = sampler_find_key(s, t);
    } else {
        k = sampler_find_key(s, t); /* backwards or a stale cursor */
    }
    *cursor = k;
    return k;
}

static void quat_normalize(float *q)
{
    versor v;
    memcpy(v, q, sizeof v);
    /* cglm writes the identity for a zero quaternion, which keeps a broken
     * key from turning into NaNs further down. */
    glm_quat_normalize(v);
    memcpy(q, v, sizeof v);
}

/* glTF 2.0 Appendix C: slerp along the shortest path. cglm 0.8's
 * glm_quat_slerp falls back to a lerp of the *unflipped* quaternions when
 * they are nearly antipodal, so the hemisphere flip and the near-parallel
 * fallback (lerp where sin(theta) ~ 0) are done here; anim_sample then
 * normalizes. */
static void quat_slerp(const float *a, const float *b, float u, float *out)
{
    versor qa, qb, r;
    memcpy(qa, a, sizeof qa);
    memcpy(qb, b, sizeof qb);
    /* Exporters write keys that are only nearly unit (SimpleSkin's 0.383,
     * 0.924 has norm 1.0003); slerp measures the angle with a dot product,
     * so the keys are normalized first or the angle comes out wrong. */
    glm_quat_normalize(qa);
    glm_quat_normalize(qb);
    if (glm_quat_dot(qa, qb) < 0.0f) glm_vec4_negate(qb);
    if (glm_quat_dot(qa, qb) > 0.9995f)
        glm_quat_lerp(qa, qb, u, r);
    else
        glm_quat_slerp(qa, qb, u, r);
    memcpy(out, r, sizeof r);
}

void anim_slerp(const float *a, const float *b, float u, float *out)
{
    quat_slerp(a, b, u, out);
    quat_normalize(out);
}

/* glTF 2.0 Appendix C, cubic spline: with td = t_{k+1} - t_k and s in [0,1],
 *   p(s) = (2s^3 - 3s^2 + 1) v_k + td (s^3 - 2s^2 + s) b_k
 *        + (-2s^3 + 3s^2) v_{k+1} + td (s^3 - s^2) a_{k+1}
 * where b_k is key k's out-tangent and a_{k+1} key k+1's in-tangent. */
static void hermite(const float *key0, const float *key1, uint32_t n, float td,
                    float s, float *out)
{
    float s2 = s * s, s3 = s2 * s;
    float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f;
    float h10 = td * (s3 - 2.0f * s2 + s);
    float h01 = -2.0f * s3 + 3.0f * s2;
    float h11 = td * (s3 - s2);
    const float *v0 = key0 + n, *b0 = key0 + 2 * n;
    const float *a1 = key1, *v1 = key1 + n;
    for (uint32_t i = 0; i < n; ++i)
        out[i] = h00 * v0[i] + h10 * b0[i] + h01 * v1[i] + h11 * a1[i];
}

void anim_sample(const vs_anim_sampler *s, float t, bool is_rotation,
                 float *out)
{
    anim_sample_key(s, sampler_find_key(s, t), t, is_rotation, out);
}

void anim_sample_key(const vs_anim_sampler *s, uint32_t k, float t,
                     bool is_rotation, float *out)
{
    uint32_t n = s->components;
    bool cubic = s->interpolation == VS_INTERP_CUBICSPLINE;
    /* A cubic key is (in-tangent, value, out-tangent), value at offset n. */
    size_t stride = cubic ? 3 * (size_t)n : n;
    size_t value_at = cubic ? n : 0;
    const float *key0 = s->values + k * stride;
    float td = 0.0f, u = 0.0f;
    /* Before the first key, on a key, after the last key, times not
     * increasing, and STEP: the key value. */
    if (!anim_key_fraction(s, k, t, &td, &u) ||
        s->interpolation == VS_INTERP_STEP) {
        memcpy(out, key0 + value_at, n * sizeof *out);
    } else if (cubic) {
        hermite(key0, key0 + stride, n, td, u, out);
    } else if (is_rotation) {
        quat_slerp(key0, key0 + stride, u, out);
    } else {
        const float *key1 = key0 + stride;
        for (uint32_t i = 0; i < n; ++i)
            out[i] = key0[i] + (key1[i] - key0[i]) * u;
    }
    if (is_rotation && n == 4) quat_normalize(out);
}

float anim_clip_time(const vs_clip *clip, float t, vs_time_mode mode)
{
    float duration = clip->end - clip->start;
    if (mode != VS_TIME_LOOP || !(duration > 0.0f)) return t;
    float x = fmodf(t - clip->start, duration);
    if (x < 0.0f) x += duration;
    float r = clip->start + x;
    /* Rounding can land exactly on end; the interval is half-open. */
    return r < clip->end ? r : clip->start;
}
