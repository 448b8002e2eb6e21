/* SPDX-License-Identifier: MIT */
/* Keyframe sampling of one animation sampler (glTF 2.0 §3.11 and Appendix C).
 * Pure functions over the immutable asset data: no allocation, no state, so
 * any number of poses may sample the same clip at once. */
#ifndef VS_POSE_SAMPLE_H
#define VS_POSE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* Index of the last key whose time is <= t, by binary search; 0 when t lies
 * before the first key, key_count - 1 at or after the last one.
 * key_count must be >= 1. This is the one place that looks keys up, so that a
 * per-instance cursor can replace the search later without touching the
 * interpolation code. */
uint32_t sampler_find_key(const vs_anim_sampler *s, float t);

/* sampler_find_key_cursor past its inline checks: walks forward from the
 * cursor over at most a few keys, else binary-searches. */
uint32_t sampler_find_key_walk(const vs_anim_sampler *s, float t,
                               uint32_t *cursor);

/* The same key as sampler_find_key, found from a per-instance cursor (the
 * key of the previous call, updated): playback forward touches only the keys
 * passed since, a step back or a seek binary-searches. The key is defined by
 * times[k] <= t < times[k + 1], which has one solution, so the result is the
 * same index (and the sample bit-identical) whatever the cursor held. The
 * two commonest answers are checked inline: the cursor's key still holds t,
 * or the next one does (playback at frame rate moves most channels one key
 * every few frames). */
static inline uint32_t sampler_find_key_cursor(const vs_anim_sampler *s,
                                               float t, uint32_t *cursor)
{
    const uint32_t k = *cursor, n = s->key_count;
    if (k + 1 < n && t > s->times[0] && s->times[k] <= t) {
        if (t < s->times[k + 1]) return k;
        if (k + 2 >= n || t < s->times[k + 2]) {
            *cursor = k + 1;
            return k + 1;
        }
    }
    return sampler_find_key_walk(s, t, cursor);
}

/* Where t lies between key k and key k + 1: td = times[k + 1] - times[k]
 * and u = (t - times[k]) / td. False where the sample is key k's own value:
 * no next key, times not increasing (invalid data), t on or before key k. */
static inline bool anim_key_fraction(const vs_anim_sampler *s, uint32_t k,
                                     float t, float *td, float *u)
{
    if (k + 1 >= s->key_count) return false;
    *td = s->times[k + 1] - s->times[k];
    if (!(*td > 0.0f)) return false;
    *u = (t - s->times[k]) / *td;
    return *u > 0.0f;
}

/* Writes s->components floats: the sampler's value at time t.
 * - t before the first key holds the first value, after the last key the last
 *   value (each sampler clamps to its own keys).
 * - STEP: value of the last key with time <= t.
 * - LINEAR: lerp; for rotations (is_rotation) slerp on the shortest path.
 * - CUBICSPLINE: Hermite spline with the tangents scaled by the key interval.
 * Rotation results are normalized. key_count must be >= 1. */
void anim_sample(const vs_anim_sampler *s, float t, bool is_rotation,
                 float *out);
/* anim_sample with the key already found (k as sampler_find_key or
 * sampler_find_key_cursor gives it). */
void anim_sample_key(const vs_anim_sampler *s, uint32_t k, float t,
                     bool is_rotation, float *out);

/* The LINEAR rotation path of anim_sample: shortest-path slerp of two keys
 * (normalized first) at u in [0, 1], result normalized. */
void anim_slerp(const float *a, const float *b, float u, float *out);

/* Maps a clip time to the time the samplers are evaluated at: unchanged for
 * VS_TIME_CLAMP; for VS_TIME_LOOP wrapped into [clip->start, clip->end)
 * (unchanged when the clip has no duration). t must be finite. */
float anim_clip_time(const vs_clip *clip, float t, vs_time_mode mode);

#endif
