/* SPDX-License-Identifier: MIT */
/* vs_max_position_error: how far two assets' skinned vertices drift apart
 * (a source and its reweighted copy) over the rest pose and every clip
 * sampled at a fixed rate. The sample count per clip is capped at
 * MAX_FRAMES so a clip with huge key times stays bounded. */
#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "vskin/vskin_tools.h"

#define MAX_FRAMES 100000

/* Largest distance between a's and b's posed vertices, all instances. */
static vs_result compare(const vs_pose *pa, const vs_pose *pb, float *worst,
                         vs_error *error)
{
    const vs_asset *a = vs_pose_asset(pa);
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        const vs_mesh *mesh = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_posed_primitive x = {0}, y = {0};
            vs_result r = vs_pose_mesh_primitive(pa, node, p, NULL, &x, error);
            if (r == VS_OK)
                r = vs_pose_mesh_primitive(pb, node, p, NULL, &y, error);
            if (r == VS_OK && x.vertex_count != y.vertex_count)
                r = set_error(error, VS_ERROR_ARGUMENT,
                              "vs_max_position_error: the assets differ in "
                              "node %u's mesh",
                              node);
            for (uint32_t v = 0; r == VS_OK && v < x.vertex_count; ++v) {
                const float *u = x.positions + (size_t)v * 3,
                            *w = y.positions + (size_t)v * 3;
                float dx = u[0] - w[0], dy = u[1] - w[1], dz = u[2] - w[2];
                float d = sqrtf(dx * dx + dy * dy + dz * dz);
                if (d > *worst || isnan(d)) *worst = d;
            }
            vs_posed_primitive_free(&x);
            vs_posed_primitive_free(&y);
            if (r != VS_OK) return r;
        }
    }
    return VS_OK;
}

static vs_result frame(vs_pose *pa, vs_pose *pb, int32_t clip, float t,
                       float *best, int32_t *best_clip, float *best_time,
                       vs_error *error)
{
    vs_pose_reset(pa);
    vs_pose_reset(pb);
    vs_result r = VS_OK;
    if (clip >= 0 &&
        ((r = vs_pose_sample(pa, (uint32_t)clip, t, VS_TIME_CLAMP, error)) ||
         (r = vs_pose_sample(pb, (uint32_t)clip, t, VS_TIME_CLAMP, error))))
        return r;
    vs_pose_update_world(pa);
    vs_pose_update_world(pb);
    float worst = 0;
    if ((r = compare(pa, pb, &worst, error)) != VS_OK) return r;
    if (worst > *best || (*best_clip == -2)) {
        *best = worst;
        *best_clip = clip;
        *best_time = t;
    }
    return VS_OK;
}

vs_result vs_max_position_error(const vs_asset *a, const vs_asset *b,
                                float rate_hz, float *out_error,
                                int32_t *out_clip, float *out_time,
                                vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    clear_error(error);
    if (!a || !b || !out_error)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_max_position_error: NULL argument");
    if (a->node_count != b->node_count || a->mesh_count != b->mesh_count ||
        a->clip_count != b->clip_count ||
        a->instance_count != b->instance_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_max_position_error: the assets differ in nodes, "
                         "meshes or clips");
    if (!(rate_hz > 0)) rate_hz = 30;
    vs_pose *pa = NULL, *pb = NULL;
    vs_result r = vs_pose_create(a, &pa, error);
    if (r == VS_OK) r = vs_pose_create(b, &pb, error);
    float best = 0, best_time = 0;
    int32_t best_clip = -2;
    if (r == VS_OK)
        r = frame(pa, pb, -1, 0, &best, &best_clip, &best_time, error);
    for (uint32_t c = 0; r == VS_OK && c < a->clip_count; ++c) {
        const vs_clip *clip = &a->clips[c];
        double len = (double)clip->end - clip->start;
        double frames = ceil(len * rate_hz);
        if (!(frames >= 0)) frames = 0;
        if (frames > MAX_FRAMES) frames = MAX_FRAMES;
        for (uint32_t f = 0; r == VS_OK && f <= (uint32_t)frames; ++f) {
            double t =
                frames > 0 ? clip->start + len * f / frames : clip->start;
            /* f / rate from the start, the last frame exactly at the end. */
            if (frames > 0 && frames < MAX_FRAMES && f < (uint32_t)frames)
                t = clip->start + f / (double)rate_hz;
            r = frame(pa, pb, (int32_t)c, (float)t, &best, &best_clip,
                      &best_time, error);
        }
    }
    vs_pose_free(pa);
    vs_pose_free(pb);
    if (r != VS_OK) return r;
    *out_error = best;
    if (out_clip) *out_clip = best_clip;
    if (out_time) *out_time = best_time;
    return VS_OK;
}
