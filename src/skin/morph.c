/* SPDX-License-Identifier: MIT */
/* Morph targets applied before skinning: base + sum of weighted deltas
 * (morph.h). */
#include "skin/morph.h"

#include <string.h>

bool vs_priv_morph_active(const vs_primitive *prim, const float *weights,
                  uint32_t weight_count)
{
    if (!weights) return false;
    uint32_t n =
        weight_count < prim->target_count ? weight_count : prim->target_count;
    for (uint32_t k = 0; k < n; ++k)
        if (weights[k] != 0.0f) return true;
    return false;
}

/* out[v*out_n + c] += w * delta[v*3 + c] for c < 3: deltas are always vec3,
 * the output may be vec3 or vec4 (tangents keep their w). */
static void add_delta(float *out, size_t out_n, const float *delta, float w,
                      uint32_t vertex_count)
{
    for (size_t v = 0; v < vertex_count; ++v)
        for (size_t c = 0; c < 3; ++c)
            out[v * out_n + c] += w * delta[v * 3 + c];
}

void vs_priv_morph_apply(const vs_primitive *prim, const float *weights,
                 uint32_t weight_count, float *positions, float *normals,
                 float *tangents)
{
    const size_t n = prim->vertex_count;
    const bool has_normals = normals && prim->normals;
    const bool has_tangents = tangents && prim->tangents;
    memcpy(positions, prim->positions, n * 3 * sizeof(float));
    if (has_normals) memcpy(normals, prim->normals, n * 3 * sizeof(float));
    if (has_tangents) memcpy(tangents, prim->tangents, n * 4 * sizeof(float));
    if (!weights) return;

    uint32_t count =
        weight_count < prim->target_count ? weight_count : prim->target_count;
    for (uint32_t k = 0; k < count; ++k) {
        const vs_morph_target *t = &prim->targets[k];
        float w = weights[k];
        if (w == 0.0f) continue;
        if (t->positions)
            add_delta(positions, 3, t->positions, w, prim->vertex_count);
        if (has_normals && t->normals)
            add_delta(normals, 3, t->normals, w, prim->vertex_count);
        if (has_tangents && t->tangents)
            add_delta(tangents, 4, t->tangents, w, prim->vertex_count);
    }
}
