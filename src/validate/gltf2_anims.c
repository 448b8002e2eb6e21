/* SPDX-License-Identifier: MIT */
/* Raw animation checks (glTF 2.0 §3.11): sampler input (SCALAR FLOAT with
 * min/max, non-negative and strictly increasing, no byteStride, two keys
 * at least for CUBICSPLINE), output format and count per target path, unit
 * quaternions, and channel targets (duplicates, nodes with a matrix,
 * weights without morph targets, TRS of a skinned mesh node). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/anim_names.h"
#include "validate/validate_internal.h"

#define ERR VS_SEVERITY_ERROR
#define WARN VS_SEVERITY_WARNING
#define UNIT_TOLERANCE 0.00674f

/* The target's path as vs_anim_path's values, P_NONE when it has none
 * that glTF defines. */
enum {
    P_T = VS_PATH_TRANSLATION,
    P_R = VS_PATH_ROTATION,
    P_S = VS_PATH_SCALE,
    P_W = VS_PATH_WEIGHTS,
    P_NONE
};

static int path_of(const cJSON *target)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(target, "path");
    vs_anim_path path;
    if (!cJSON_IsString(p) || !anim_path_parse(p->valuestring, &path))
        return P_NONE;
    return (int)path;
}

static bool cubic(const cJSON *sampler)
{
    const cJSON *i = cJSON_GetObjectItemCaseSensitive(sampler, "interpolation");
    return cJSON_IsString(i) && strcmp(i->valuestring, "CUBICSPLINE") == 0;
}

static void check_input(vd_doc *d, const char *sp, const cJSON *sampler)
{
    char p[128];
    int64_t in = vd_int(sampler, "input"), out = vd_int(sampler, "output");
    vd_join(p, sizeof p, sp, "/output");
    if (out >= 0 && out < d->accessor_count && d->accessors[out].view >= 0 &&
        d->views[d->accessors[out].view].has_stride)
        vd_issue(d->r, ERR, "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", p,
                 "animation accessors' bufferViews must not define "
                 "byteStride");
    if (in < 0 || in >= d->accessor_count) return;
    const vd_accessor *a = &d->accessors[in];
    vd_join(p, sizeof p, sp, "/input");
    if (a->view >= 0 && d->views[a->view].has_stride)
        vd_issue(d->r, ERR, "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", p,
                 "animation accessors' bufferViews must not define "
                 "byteStride");
    if (!a->ok) return;
    if (a->components != 1 || a->component_type != GLTF_FLOAT) {
        vd_issue(d->r, ERR, "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT",
                 p,
                 "sampler input must be SCALAR FLOAT, not %s of "
                 "componentType %u",
                 a->type, a->component_type);
        return;
    }
    const cJSON *acc =
        vd_item(cJSON_GetObjectItemCaseSensitive(d->root, "accessors"),
                d->accessor_count, in);
    if (!cJSON_GetObjectItemCaseSensitive(acc, "min") ||
        !cJSON_GetObjectItemCaseSensitive(acc, "max"))
        vd_issue(d->r, ERR, "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS",
                 p, "sampler input accessors must define min and max");
    if (cubic(sampler) && a->count < 2)
        vd_issue(d->r, ERR, "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS",
                 p, "CUBICSPLINE needs at least 2 keys, not %u", a->count);
    float *t = vd_accessor_floats(d, in, true);
    if (!t) return;
    uint32_t bad = 0, first = 0;
    if (t[0] < 0)
        vd_issue(d->r, ERR, "ACCESSOR_ANIMATION_INPUT_NEGATIVE", p,
                 "the first key time %g is negative", (double)t[0]);
    for (uint32_t k = 1; k < a->count; ++k)
        if (!(t[k] > t[k - 1]) && bad++ == 0) first = k;
    if (bad)
        vd_issue(d->r, ERR, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING", p,
                 "%u key times (first at %u: %g after %g) do not increase", bad,
                 first, (double)t[first], (double)t[first - 1]);
    mem_free(vd_alloc(d), t);
}

static int64_t node_targets(const vd_doc *d, const cJSON *node)
{
    const cJSON *mesh = vd_item(d->meshes, d->mesh_count, vd_int(node, "mesh"));
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(mesh, "primitives");
    const cJSON *prim = cJSON_IsArray(prims) ? prims->child : NULL;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(prim, "targets");
    return cJSON_IsArray(t) ? cJSON_GetArraySize(t) : 0;
}

static bool output_format_ok(const vd_accessor *o, int path)
{
    bool fl = o->component_type == GLTF_FLOAT;
    bool nint = o->normalized && o->component_type != GLTF_FLOAT &&
                o->component_type != GLTF_UNSIGNED_INT;
    switch (path) {
    case P_T:
    case P_S:
        return o->components == 3 && !o->is_matrix && fl;
    case P_R:
        return o->components == 4 && !o->is_matrix && (fl || nint);
    case P_W:
        return o->components == 1 && (fl || nint);
    }
    return true;
}

static void check_output(vd_doc *d, const char *cp, const cJSON *sampler,
                         int path, const cJSON *node)
{
    int64_t in = vd_int(sampler, "input"), out = vd_int(sampler, "output");
    if (in < 0 || in >= d->accessor_count || out < 0 ||
        out >= d->accessor_count || !d->accessors[in].ok ||
        !d->accessors[out].ok)
        return;
    const vd_accessor *o = &d->accessors[out];
    char p[128];
    vd_join(p, sizeof p, cp, "/sampler");
    if (!output_format_ok(o, path)) {
        vd_issue(d->r, ERR, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT",
                 p,
                 "output accessor %s of componentType %u does not fit the "
                 "target path",
                 o->type, o->component_type);
        return;
    }
    uint64_t per_key = cubic(sampler) ? 3 : 1;
    if (path == P_W) per_key *= (uint64_t)node_targets(d, node);
    uint64_t expected = per_key * d->accessors[in].count;
    if (per_key && o->count != expected)
        vd_issue(d->r, ERR, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT",
                 p, "output accessor has %u elements, %llu expected", o->count,
                 (unsigned long long)expected);
    if (path != P_R) return;
    float *q = vd_accessor_floats(d, out, false);
    if (!q) return;
    uint32_t bad = 0, first = 0;
    for (uint32_t k = 0; k < o->count; ++k) {
        if (per_key == 3 && k % 3 != 1) continue; /* tangents: any length */
        const float *e = q + (size_t)k * 4;
        float len =
            sqrtf(e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
        if (!(fabsf(len - 1) <= UNIT_TOLERANCE) && bad++ == 0) first = k;
    }
    if (bad)
        vd_issue(d->r, ERR,
                 "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
                 p,
                 "%u rotation keys (first element %u) are not unit "
                 "quaternions",
                 bad, first);
    mem_free(vd_alloc(d), q);
}

typedef struct key {
    int64_t target;
    uint32_t channel;
} key;

static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->target != y->target) return x->target < y->target ? -1 : 1;
    return x->channel < y->channel ? -1 : x->channel > y->channel;
}

static void check_channel(vd_doc *d, const char *cp, const cJSON *ch,
                          const cJSON *samplers, uint32_t sampler_count, key *k)
{
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
    int path = path_of(target);
    int64_t ni = vd_int(target, "node");
    const cJSON *node = vd_item(d->nodes, d->node_count, ni);
    k->target = node && path != P_NONE ? ni * 4 + path : -1;
    if (!node || path == P_NONE) return;
    char p[128];
    vd_join(p, sizeof p, cp, "/target");
    if (path != P_W && cJSON_GetObjectItemCaseSensitive(node, "matrix"))
        vd_issue(d->r, ERR, "ANIMATION_CHANNEL_TARGET_NODE_MATRIX", p,
                 "a channel cannot target the TRS of a node with a matrix");
    if (path == P_W && node_targets(d, node) == 0)
        vd_issue(d->r, ERR, "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS",
                 p,
                 "weights are animated but the node's mesh has no morph "
                 "targets");
    if (path != P_W && vd_int(node, "skin") >= 0 &&
        vd_mesh_skinned(d, vd_int(node, "mesh"))) {
        vd_join(p, sizeof p, cp, "/target/path");
        vd_issue(d->r, WARN, "ANIMATION_CHANNEL_TARGET_NODE_SKIN", p,
                 "animated TRS of a skinned mesh node has no effect "
                 "(glTF 2.0 §3.7.3.3)");
    }
    const cJSON *sampler =
        vd_item(samplers, sampler_count, vd_int(ch, "sampler"));
    if (sampler) check_output(d, cp, sampler, path, node);
}

static void check_animation(vd_doc *d, uint32_t a, const cJSON *anim)
{
    const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(anim, "samplers");
    const cJSON *channels = cJSON_GetObjectItemCaseSensitive(anim, "channels");
    uint32_t ns =
        cJSON_IsArray(samplers) ? (uint32_t)cJSON_GetArraySize(samplers) : 0;
    uint32_t nc =
        cJSON_IsArray(channels) ? (uint32_t)cJSON_GetArraySize(channels) : 0;
    char p[128];
    uint32_t i = 0;
    const cJSON *e;
    if (ns) {
        cJSON_ArrayForEach(e, samplers)
        {
            snprintf(p, sizeof p, "/animations/%u/samplers/%u", a, i++);
            check_input(d, p, e);
        }
    }
    if (!nc) return;
    key *keys = mem_alloc(vd_alloc(d), nc * sizeof *keys);
    if (!keys) {
        d->r->oom = true;
        return;
    }
    i = 0;
    cJSON_ArrayForEach(e, channels)
    {
        snprintf(p, sizeof p, "/animations/%u/channels/%u", a, i);
        keys[i].channel = i;
        check_channel(d, p, e, samplers, ns, &keys[i]);
        ++i;
    }
    qsort(keys, nc, sizeof *keys, key_cmp);
    for (uint32_t k = 0; k + 1 < nc; ++k)
        if (keys[k].target >= 0 && keys[k].target == keys[k + 1].target) {
            snprintf(p, sizeof p, "/animations/%u/channels/%u/target", a,
                     keys[k].channel);
            vd_issue(d->r, ERR, "ANIMATION_DUPLICATE_TARGETS", p,
                     "channel %u has the same target as channel %u",
                     keys[k].channel, keys[k + 1].channel);
        }
    mem_free(vd_alloc(d), keys);
}

void vd_check_animations(vd_doc *d)
{
    uint32_t a = 0;
    const cJSON *anim;
    cJSON_ArrayForEach(anim, d->animations)
    {
        if (d->r->oom) return;
        check_animation(d, a++, anim);
    }
}
