/* LINEAR rotation channels interpolated together, four at a time in
 * structure-of-arrays form: vs_pose_sample collects each channel's prepared
 * key pair and its fraction u, then one pass slerps them all, so the
 * divisions and square roots of four channels share one instruction instead
 * of forming a chain per channel. Same rules as anim_slerp (keys normalized,
 * shortest path, result normalized), but what depends only on the keys is
 * done once per key pair when the asset loads (core/clip_plans.h): the
 * normalization, the hemisphere flip and the cosine of the angle. The
 * weights sin(u theta) / sin(theta) come from Eberly's polynomial instead of
 * acos and sin, within about 1e-7 of them for keys up to ~91 degrees apart;
 * wider pairs and zero-length or non-finite keys take anim_slerp itself. */
#ifndef VS_ANIM_ROTATION_BATCH_H
#define VS_ANIM_ROTATION_BATCH_H

#include <stdint.h>

/* Keys k and k + 1 of a rotation sampler, ready for the batch: both
 * normalized, b negated where that is the shorter path, x = a . b >= 0.
 * x is ROTATION_PAIR_SCALAR where the pair takes anim_slerp instead. */
typedef struct rotation_pair {
    float a[4];
    float b[4];
    float x;
} rotation_pair;
#define ROTATION_PAIR_SCALAR (-1.0f)

/* Prepares the pair of raw keys a and b (x, y, z, w each). */
void rotation_pair_prepare(const float *a, const float *b, rotation_pair *out);

typedef struct rotation_item {
    const rotation_pair *pair;
    const float *keys; /* the raw keys k, k + 1 (8 floats), for anim_slerp */
    float u;           /* in (0, 1] */
    float *out;        /* 4 floats */
} rotation_item;

void rotation_batch_run(const rotation_item *items, uint32_t count);

/* Eberly's polynomial weight for one pair: sin(u theta) / sin(theta) with
 * x = cos(theta) >= ROTATION_POLY_MIN_COS (exposed for the tests). */
float rotation_poly_weight(float u, float x);
#define ROTATION_POLY_MIN_COS 0.7f

#endif
