/* SPDX-License-Identifier: MIT */
/* Vertex attributes whose values glTF 2.0 constrains (§3.7.2.1): NORMAL must
 * be unit length, TANGENT xyz unit length with w = +1 or -1, and a vertex may
 * not name the same joint twice with a non-zero weight. The runtime model
 * keeps whatever the source stored, so these are cleaned up here, each in a
 * way that leaves the skinned result unchanged (the skinning job normalizes
 * normals and tangents after transforming them; duplicate joints are summed,
 * which is the same skin matrix), and weights are divided by their sum, as
 * the runtime does by default. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/weights_rule.h"
#include "write/gltf2/gltf2_writer.h"
#include "format/gltf_common.h"

#define ARRAY_BUFFER 34962

/* Normalizes v[0..2] in place; false when it has no direction. *changed
 * tells whether the length was off by more than rounding. */
static bool normalize3(float *v, bool *changed)
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 1e-20f) || !isfinite(len)) return false;
    *changed = fabsf(len - 1.0f) > GLTF2W_UNIT_REPORT;
    if (fabsf(len - 1.0f) > GLTF2W_UNIT_FIX)
        for (int k = 0; k < 3; ++k)
            v[k] /= len;
    return true;
}

/* A malloc'd copy to fix up, or NULL with the error set. */
static float *copy_floats(gltf2w_ctx *c, const float *src, size_t n)
{
    float *v = mem_alloc(c->alloc, n * sizeof *v);
    if (!v)
        gltf2w_oom(c, "vertex attributes");
    else
        memcpy(v, src, n * sizeof *v);
    return v;
}

int32_t gltf2w_normals(gltf2w_ctx *c, const vs_primitive *p)
{
    float *v = copy_floats(c, p->normals, (size_t)p->vertex_count * 3);
    if (!v) return -1;
    uint32_t fixed = 0;
    for (uint32_t i = 0; i < p->vertex_count; ++i) {
        bool changed;
        if (!normalize3(v + 3 * (size_t)i, &changed)) {
            /* A zero normal has no unit form: drop the attribute, as glTF
             * clients then compute flat normals (§3.7.2.1). */
            mem_free(c->alloc, v);
            c->report->dropped_normals++;
            return -2;
        }
        fixed += changed;
    }
    c->report->renormalized_normals += fixed;
    int32_t acc =
        gltf2w_floats(c, v, p->vertex_count, 3, "VEC3", ARRAY_BUFFER, false);
    mem_free(c->alloc, v);
    return acc;
}

int32_t gltf2w_tangents(gltf2w_ctx *c, const vs_primitive *p)
{
    float *v = copy_floats(c, p->tangents, (size_t)p->vertex_count * 4);
    if (!v) return -1;
    uint32_t fixed = 0;
    for (uint32_t i = 0; i < p->vertex_count; ++i) {
        float *t = v + 4 * (size_t)i;
        bool changed;
        if (!normalize3(t, &changed)) {
            mem_free(c->alloc, v);
            c->report->dropped_tangents++;
            return -2;
        }
        /* w is the bitangent sign: only its sign means anything. */
        float w = t[3] < 0.0f ? -1.0f : 1.0f;
        changed |= t[3] != w;
        t[3] = w;
        fixed += changed;
    }
    c->report->renormalized_tangents += fixed;
    int32_t acc =
        gltf2w_floats(c, v, p->vertex_count, 4, "VEC4", ARRAY_BUFFER, false);
    mem_free(c->alloc, v);
    return acc;
}

/* Merges repeated joints of one vertex into their first slot and points
 * unused (zero-weight) slots at joint 0, so JOINTS never repeats an index
 * that carries weight (ACCESSOR_JOINTS_INDEX_DUPLICATE). */
static void clean_vertex(uint32_t *joints, float *weights, uint32_t n)
{
    for (uint32_t a = 0; a < n; ++a) {
        if (weights[a] == 0.0f) continue;
        for (uint32_t b = a + 1; b < n; ++b)
            if (weights[b] != 0.0f && joints[b] == joints[a]) {
                weights[a] += weights[b];
                weights[b] = 0.0f;
            }
    }
    for (uint32_t a = 0; a < n; ++a)
        if (weights[a] == 0.0f) joints[a] = 0;
}

/* Divides w[0..n) by sum, then moves what float rounding left over onto
 * the largest weight: the validator adds the stored floats in double
 * precision and allows only 2e-7 per weight (gltf-validator 2.0.0-dev.3.10),
 * which plain division can miss by a few ulps. */
static void normalize_weights(float *w, uint32_t n, double sum)
{
    uint32_t big = 0;
    for (uint32_t k = 0; k < n; ++k) {
        w[k] = (float)(w[k] / sum);
        if (fabsf(w[k]) > fabsf(w[big])) big = k;
    }
    for (int pass = 0; pass < 4; ++pass) {
        double total = 0;
        for (uint32_t k = 0; k < n; ++k)
            total += w[k];
        if (total == 1.0) break;
        w[big] = (float)((double)w[big] + (1.0 - total));
    }
}

vs_result gltf2w_influences(gltf2w_ctx *c, const vs_primitive *p,
                            cJSON *attributes)
{
    uint32_t m = p->influence_count, count = p->vertex_count;
    size_t n = (size_t)count * m;
    uint32_t *joints = mem_alloc(c->alloc, n * sizeof *joints);
    float *weights = mem_alloc(c->alloc, n * sizeof *weights);
    uint32_t *set_j = mem_alloc(c->alloc, (size_t)count * 4 * sizeof *set_j);
    float *set_w = mem_alloc(c->alloc, (size_t)count * 4 * sizeof *set_w);
    vs_result r = VS_OK;
    if (!joints || !weights || !set_j || !set_w) {
        r = gltf2w_oom(c, "JOINTS/WEIGHTS");
        goto done;
    }
    uint32_t max_joint = 0;
    for (size_t i = 0; i < n; ++i) {
        joints[i] = p->joints[i];
        weights[i] = p->weights[i];
    }
    for (uint32_t v = 0; v < count; ++v) {
        clean_vertex(joints + (size_t)v * m, weights + (size_t)v * m, m);
        double sum = 0;
        for (uint32_t k = 0; k < m; ++k) {
            size_t i = (size_t)v * m + k;
            sum += weights[i];
            if (joints[i] > max_joint) max_joint = joints[i];
        }
        /* Weights must sum to 1 (§3.7.3.1; the validator's
         * ACCESSOR_WEIGHTS_NON_NORMALIZED is an error). The runtime divides
         * by the sum by default, so dividing here changes no default pose
         * and makes other viewers show what vskin shows. An unskinned
         * vertex (asset/weights_rule.h: a sum that is not a positive finite
         * number) has no normalized form: it is written with every weight
         * 0, which vskin reads back as unskinned, so it keeps its input;
         * dividing a negative sum instead would skin it. */
        if (weights_sum_skins(sum)) {
            if (fabs(sum - 1.0) > GLTF2W_UNIT_REPORT)
                c->report->unnormalized_weights++;
            normalize_weights(weights + (size_t)v * m, m, sum);
        } else {
            for (uint32_t k = 0; k < m; ++k) {
                weights[(size_t)v * m + k] = 0.0f;
                joints[(size_t)v * m + k] = 0;
            }
        }
    }
    /* The smallest type that holds every index (§3.7.2.1 allows unsigned
     * byte and short); weights stay float so no precision is lost. */
    uint32_t type = max_joint < 256 ? GLTF_UNSIGNED_BYTE : GLTF_UNSIGNED_SHORT;
    for (uint32_t s = 0; s < m / 4; ++s) {
        for (uint32_t v = 0; v < count; ++v)
            for (uint32_t k = 0; k < 4; ++k) {
                size_t i = (size_t)v * m + 4 * s + k;
                set_j[4 * (size_t)v + k] = joints[i];
                set_w[4 * (size_t)v + k] = weights[i];
            }
        char jname[24], wname[24];
        snprintf(jname, sizeof jname, "JOINTS_%u", s);
        snprintf(wname, sizeof wname, "WEIGHTS_%u", s);
        int32_t ja =
            gltf2w_uints(c, set_j, count, 4, "VEC4", type, ARRAY_BUFFER);
        int32_t wa = ja < 0 ? -1
                            : gltf2w_floats(c, set_w, count, 4, "VEC4",
                                            ARRAY_BUFFER, false);
        if (wa < 0) {
            r = c->error->code;
            goto done;
        }
        if (!cJSON_AddNumberToObject(attributes, jname, ja) ||
            !cJSON_AddNumberToObject(attributes, wname, wa)) {
            r = gltf2w_oom(c, "JOINTS/WEIGHTS");
            goto done;
        }
    }
done:
    mem_free(c->alloc, joints);
    mem_free(c->alloc, weights);
    mem_free(c->alloc, set_j);
    mem_free(c->alloc, set_w);
    return r;
}
