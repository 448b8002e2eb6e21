/* LINEAR rotation channels interpolated together, four at a time in
 * structure-of-arrays form: vs_pose_sample collects each channel's two keys
 * and its fraction u, then one pass slerps them all, so the square roots and
 * divisions of four channels share one instruction instead of forming a
 * chain per channel. Same rules as anim_slerp (keys normalized, shortest
 * path, result normalized); the weights sin(u theta) / sin(theta) come from
 * Eberly's polynomial instead of acos and sin, within about 1e-7 of them for
 * keys up to ~91 degrees apart; wider pairs and zero-length keys take
 * anim_slerp itself. */
#ifndef VS_ANIM_ROTATION_BATCH_H
#define VS_ANIM_ROTATION_BATCH_H

#include <stdint.h>

typedef struct rotation_item {
    const float *a; /* key k (x, y, z, w) */
    const float *b; /* key k + 1 */
    float u;        /* in (0, 1] */
    float *out;     /* 4 floats */
} rotation_item;

void rotation_batch_run(const rotation_item *items, uint32_t count);

/* Eberly's polynomial weight for one pair: sin(u theta) / sin(theta) with
 * x = cos(theta) >= ROTATION_POLY_MIN_COS (exposed for the tests). */
float rotation_poly_weight(float u, float x);
#define ROTATION_POLY_MIN_COS 0.7f

#endif
