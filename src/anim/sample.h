/* Keyframe sampling of one animation sampler (glTF 2.0 §3.11 and Appendix C).
 * Pure functions over the immutable asset data: no allocation, no state, so
 * any number of poses may sample the same clip at once. */
#ifndef VS_ANIM_SAMPLE_H
#define VS_ANIM_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* Index of the last key whose time is <= t, by binary search; 0 when t lies
 * before the first key, key_count - 1 at or after the last one.
 * key_count must be >= 1. This is the one place that looks keys up, so that a
 * per-instance cursor can replace the search later without touching the
 * interpolation code. */
uint32_t sampler_find_key(const vs_anim_sampler *s, float t);

/* The same key as sampler_find_key, found from a per-instance cursor (the
 * key of the previous call, updated): playback forward touches only the keys
 * passed since, a step back or a seek binary-searches. The key is defined by
 * times[k] <= t < times[k + 1], which has one solution, so the result is the
 * same index (and the sample bit-identical) whatever the cursor held. */
uint32_t sampler_find_key_cursor(const vs_anim_sampler *s, float t,
                                 uint32_t *cursor);

/* Writes s->components floats: the sampler's value at time t.
 * - t before the first key holds the first value, after the last key the last
 *   value (each sampler clamps to its own keys).
 * - STEP: value of the last key with time <= t.
 * - LINEAR: lerp; for rotations (is_rotation) slerp on the shortest path.
 * - CUBICSPLINE: Hermite spline with the tangents scaled by the key interval.
 * Rotation results are normalized. key_count must be >= 1. */
void anim_sample(const vs_anim_sampler *s, float t, bool is_rotation,
                 float *out);
/* anim_sample with the key from sampler_find_key_cursor. */
void anim_sample_cursor(const vs_anim_sampler *s, float t, bool is_rotation,
                        uint32_t *cursor, float *out);

/* anim_sample with the key already found (k as sampler_find_key gives it). */
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
