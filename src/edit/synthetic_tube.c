/* SPDX-License-Identifier: MIT */
/* vs_synthetic_tube: a skinned tube of any size written as GLB, so scale
 * tests and benchmarks need no downloads. Geometry and influences are built
 * into one binary buffer; the JSON is built with cJSON. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

#define TUBE_MAX_VERTICES (1u << 26)
#define TUBE_KEYS 9u
#define TUBE_DURATION 2.0f

static const float PI_F = 3.14159265358979f;

typedef struct tube_layout {
    uint32_t joints, influences, segments, rings, vertices;
    float length, bone;
    size_t joint_size; /* 1 (u8) or 2 (u16) bytes per index */
    /* byte offsets of each block in the buffer */
    size_t pos, nrm, jnt[2], wgt[2], idx, ibm, times, rot, total;
    uint32_t index_count;
} tube_layout;

static size_t align4(size_t n)
{
    return (n + 3u) & ~(size_t)3u;
}

static uint32_t segments_of(const vs_synthetic_tube_desc *d)
{
    return d->segments ? d->segments : 16u;
}

uint32_t vs_synthetic_tube_vertex_count(const vs_synthetic_tube_desc *d)
{
    if (!d || d->vertex_count == 0 || d->vertex_count > TUBE_MAX_VERTICES)
        return 0;
    uint32_t s = segments_of(d);
    if (s < 3 || s > 1024) return 0;
    uint32_t rings = (d->vertex_count + s - 1) / s;
    if (rings < 2) rings = 2;
    return rings * s;
}

/* Joint k of the chain is k levels below the root: the longest chain the
 * loaders' default depth limit (vs_limits.max_depth, 1,000 levels) admits,
 * so that whatever the generator writes, vskin loads. */
#define TUBE_MAX_JOINTS 1001u

static vs_result check(const vs_synthetic_tube_desc *d, vs_error *error)
{
    if (!d)
        return set_error(error, VS_ERROR_ARGUMENT, "synthetic tube: no desc");
    if (d->joint_count < 1 || d->joint_count > TUBE_MAX_JOINTS)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "synthetic tube: joint_count %u outside 1..%u (the "
                         "chain would be deeper than the loaders' default "
                         "limit of 1000 levels)",
                         d->joint_count, TUBE_MAX_JOINTS);
    if (d->influence_count < 1 || d->influence_count > 8)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "synthetic tube: influence_count %u outside 1..8",
                         d->influence_count);
    uint32_t s = segments_of(d);
    if (s < 3 || s > 1024)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "synthetic tube: segments %u outside 3..1024", s);
    if (d->vertex_count == 0)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "synthetic tube: vertex_count is 0");
    if (d->vertex_count > TUBE_MAX_VERTICES)
        return set_error(error, VS_ERROR_LIMIT,
                         "synthetic tube: vertex_count %u above the limit %u",
                         d->vertex_count, TUBE_MAX_VERTICES);
    if (!(d->length >= 0.0f) || !isfinite(d->length))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "synthetic tube: length is not a finite value >= 0");
    return VS_OK;
}

static void plan(const vs_synthetic_tube_desc *d, tube_layout *L)
{
    memset(L, 0, sizeof *L);
    L->joints = d->joint_count;
    L->influences = d->influence_count;
    L->segments = segments_of(d);
    L->vertices = vs_synthetic_tube_vertex_count(d);
    L->rings = L->vertices / L->segments;
    L->length = d->length > 0.0f ? d->length : 1.0f;
    L->bone = L->length / (float)L->joints;
    L->joint_size = L->joints <= 256 ? 1u : 2u;
    L->index_count = (L->rings - 1) * L->segments * 6u;
    size_t v = L->vertices, at = 0;
    L->pos = at;
    at += v * 12u;
    L->nrm = at;
    at += v * 12u;
    uint32_t sets = L->influences > 4 ? 2u : 1u;
    for (uint32_t s = 0; s < sets; ++s) {
        L->jnt[s] = at;
        at = align4(at + v * 4u * L->joint_size);
        L->wgt[s] = at;
        at += v * 16u;
    }
    L->idx = at;
    at += (size_t)L->index_count * 4u;
    L->ibm = at;
    at += (size_t)L->joints * 64u;
    L->times = at;
    at += TUBE_KEYS * 4u;
    L->rot = at;
    at += (size_t)L->joints * TUBE_KEYS * 16u;
    L->total = at;
}

static void put_f32(uint8_t *p, float f)
{
    memcpy(p, &f, 4);
}

/* The k joints whose bone centres are nearest to height y, nearest first,
 * with weights ~ 1 / (distance + bone / 4) that sum to exactly 1. */
static void influences_at(const tube_layout *L, float y, uint32_t *joint,
                          float *weight)
{
    uint32_t k = L->influences < L->joints ? L->influences : L->joints;
    long nearest = (long)floorf(y / L->bone);
    if (nearest < 0) nearest = 0;
    if (nearest >= (long)L->joints) nearest = (long)L->joints - 1;
    /* Walk outwards from the nearest bone, taking the closer side first. */
    long lo = nearest - 1, hi = nearest + 1;
    joint[0] = (uint32_t)nearest;
    for (uint32_t i = 1; i < k; ++i) {
        float dlo =
            lo >= 0 ? fabsf(y - ((float)lo + 0.5f) * L->bone) : INFINITY;
        float dhi = hi < (long)L->joints
                        ? fabsf(y - ((float)hi + 0.5f) * L->bone)
                        : INFINITY;
        joint[i] = dlo <= dhi ? (uint32_t)lo-- : (uint32_t)hi++;
    }
    float sum = 0.0f;
    for (uint32_t i = 0; i < k; ++i) {
        float d = fabsf(y - ((float)joint[i] + 0.5f) * L->bone);
        weight[i] = 1.0f / (d + 0.25f * L->bone);
        sum += weight[i];
    }
    float rest = 1.0f;
    for (uint32_t i = 0; i + 1 < k; ++i) {
        weight[i] /= sum;
        rest -= weight[i];
    }
    weight[k - 1] = rest;
    /* Unused slots: joint 0 with weight 0, as the validator expects
     * (ACCESSOR_JOINTS_USED_ZERO_WEIGHT). */
    for (uint32_t i = k; i < 8; ++i)
        joint[i] = 0, weight[i] = 0.0f;
}

static void fill_vertices(const tube_layout *L, uint8_t *b)
{
    float radius = 0.1f * L->length;
    for (uint32_t r = 0; r < L->rings; ++r) {
        float y = L->length * (float)r / (float)(L->rings - 1);
        uint32_t joint[8];
        float weight[8];
        influences_at(L, y, joint, weight);
        for (uint32_t s = 0; s < L->segments; ++s) {
            size_t v = (size_t)r * L->segments + s;
            float a = 2.0f * PI_F * (float)s / (float)L->segments;
            float c = cosf(a), sn = sinf(a);
            put_f32(b + L->pos + v * 12, radius * c);
            put_f32(b + L->pos + v * 12 + 4, y);
            put_f32(b + L->pos + v * 12 + 8, radius * sn);
            put_f32(b + L->nrm + v * 12, c);
            put_f32(b + L->nrm + v * 12 + 4, 0.0f);
            put_f32(b + L->nrm + v * 12 + 8, sn);
            uint32_t sets = L->influences > 4 ? 2u : 1u;
            for (uint32_t set = 0; set < sets; ++set) {
                for (uint32_t i = 0; i < 4; ++i) {
                    uint32_t slot = set * 4 + i;
                    bool live = slot < L->influences;
                    uint32_t j = joint[slot];
                    uint8_t *jp = b + L->jnt[set] + (v * 4 + i) * L->joint_size;
                    if (L->joint_size == 1) {
                        *jp = (uint8_t)j;
                    } else {
                        uint16_t u = (uint16_t)j;
                        memcpy(jp, &u, 2);
                    }
                    put_f32(b + L->wgt[set] + (v * 4 + i) * 4,
                            live ? weight[slot] : 0.0f);
                }
            }
        }
    }
    uint8_t *ip = b + L->idx;
    for (uint32_t r = 0; r + 1 < L->rings; ++r) {
        for (uint32_t s = 0; s < L->segments; ++s) {
            uint32_t a = r * L->segments + s;
            uint32_t bb = r * L->segments + (s + 1) % L->segments;
            uint32_t c = a + L->segments, d = bb + L->segments;
            uint32_t tri[6] = {a,  c, bb,
                               bb, c, d}; /* counter-clockwise, outward */
            memcpy(ip, tri, sizeof tri);
            ip += sizeof tri;
        }
    }
}

static void fill_skin_and_clip(const tube_layout *L, uint8_t *b)
{
    for (uint32_t j = 0; j < L->joints; ++j) {
        float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        m[13] = -L->bone * (float)j; /* joint j rests at y = j * bone */
        memcpy(b + L->ibm + (size_t)j * 64, m, 64);
    }
    for (uint32_t k = 0; k < TUBE_KEYS; ++k)
        put_f32(b + L->times + k * 4,
                TUBE_DURATION * (float)k / (float)(TUBE_KEYS - 1));
    /* Each joint turns about Z by up to 90 degrees / joint_count (so the
     * whole chain bends by up to a quarter turn), joints higher up lagging. */
    for (uint32_t j = 0; j < L->joints; ++j) {
        for (uint32_t k = 0; k < TUBE_KEYS; ++k) {
            float phase = 2.0f * PI_F * (float)k / (float)(TUBE_KEYS - 1);
            float lag = (float)j / (float)L->joints;
            float angle = (0.5f * PI_F / (float)L->joints) * sinf(phase - lag);
            uint8_t *q = b + L->rot + ((size_t)j * TUBE_KEYS + k) * 16;
            put_f32(q, 0.0f);
            put_f32(q + 4, 0.0f);
            put_f32(q + 8, sinf(0.5f * angle));
            put_f32(q + 12, cosf(0.5f * angle));
        }
    }
}

/* ------------------------------------------------------------ the JSON */

static cJSON *int_array(const uint32_t *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; ++i)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static cJSON *float_array(const float *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; ++i)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

/* Adds a bufferView + accessor pair; returns the accessor index. */
static int add_accessor(cJSON *views, cJSON *accessors, size_t offset,
                        size_t length, int target, int component, size_t count,
                        const char *type, bool normalized)
{
    cJSON *v = cJSON_CreateObject();
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)offset);
    cJSON_AddNumberToObject(v, "byteLength", (double)length);
    if (target) cJSON_AddNumberToObject(v, "target", target);
    cJSON_AddItemToArray(views, v);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddNumberToObject(a, "bufferView", cJSON_GetArraySize(views) - 1);
    cJSON_AddNumberToObject(a, "componentType", component);
    cJSON_AddNumberToObject(a, "count", (double)count);
    cJSON_AddStringToObject(a, "type", type);
    if (normalized) cJSON_AddBoolToObject(a, "normalized", 1);
    cJSON_AddItemToArray(accessors, a);
    return cJSON_GetArraySize(accessors) - 1;
}

static cJSON *build_json(const tube_layout *L)
{
    enum {
        ARRAY_BUFFER = 34962,
        ELEMENT_ARRAY_BUFFER = 34963,
        U8 = 5121,
        U16 = 5123,
        U32 = 5125,
        F32 = 5126
    };
    cJSON *root = cJSON_CreateObject();
    cJSON *asset = cJSON_AddObjectToObject(root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "vskin synthetic tube");
    cJSON *views = cJSON_AddArrayToObject(root, "bufferViews");
    cJSON *acc = cJSON_AddArrayToObject(root, "accessors");
    size_t v = L->vertices;

    int pos = add_accessor(views, acc, L->pos, v * 12, ARRAY_BUFFER, F32, v,
                           "VEC3", false);
    float r = 0.1f * L->length;
    float mn[3] = {-r, 0.0f, -r}, mx[3] = {r, L->length, r};
    /* The exact extremes of the written floats (rings are sampled). */
    for (uint32_t s = 0; s < L->segments; ++s) {
        float a = 2.0f * PI_F * (float)s / (float)L->segments;
        float x = r * cosf(a), z = r * sinf(a);
        if (s == 0) mn[0] = mx[0] = x, mn[2] = mx[2] = z;
        mn[0] = fminf(mn[0], x), mx[0] = fmaxf(mx[0], x);
        mn[2] = fminf(mn[2], z), mx[2] = fmaxf(mx[2], z);
    }
    cJSON_AddItemToObject(cJSON_GetArrayItem(acc, pos), "min",
                          float_array(mn, 3));
    cJSON_AddItemToObject(cJSON_GetArrayItem(acc, pos), "max",
                          float_array(mx, 3));
    int nrm = add_accessor(views, acc, L->nrm, v * 12, ARRAY_BUFFER, F32, v,
                           "VEC3", false);
    uint32_t sets = L->influences > 4 ? 2u : 1u;
    int jnt[2] = {0, 0}, wgt[2] = {0, 0};
    for (uint32_t s = 0; s < sets; ++s) {
        jnt[s] = add_accessor(views, acc, L->jnt[s], v * 4 * L->joint_size,
                              ARRAY_BUFFER, L->joint_size == 1 ? U8 : U16, v,
                              "VEC4", false);
        wgt[s] = add_accessor(views, acc, L->wgt[s], v * 16, ARRAY_BUFFER, F32,
                              v, "VEC4", false);
    }
    int idx = add_accessor(views, acc, L->idx, (size_t)L->index_count * 4,
                           ELEMENT_ARRAY_BUFFER, U32, L->index_count, "SCALAR",
                           false);
    int ibm = add_accessor(views, acc, L->ibm, (size_t)L->joints * 64, 0, F32,
                           L->joints, "MAT4", false);
    int times = add_accessor(views, acc, L->times, TUBE_KEYS * 4, 0, F32,
                             TUBE_KEYS, "SCALAR", false);
    float t0 = 0.0f, t1 = TUBE_DURATION;
    cJSON_AddItemToObject(cJSON_GetArrayItem(acc, times), "min",
                          float_array(&t0, 1));
    cJSON_AddItemToObject(cJSON_GetArrayItem(acc, times), "max",
                          float_array(&t1, 1));
    size_t rot_bytes = (size_t)TUBE_KEYS * 16;

    cJSON *prim = cJSON_CreateObject();
    cJSON *attrs = cJSON_AddObjectToObject(prim, "attributes");
    cJSON_AddNumberToObject(attrs, "POSITION", pos);
    cJSON_AddNumberToObject(attrs, "NORMAL", nrm);
    cJSON_AddNumberToObject(attrs, "JOINTS_0", jnt[0]);
    cJSON_AddNumberToObject(attrs, "WEIGHTS_0", wgt[0]);
    if (sets == 2) {
        cJSON_AddNumberToObject(attrs, "JOINTS_1", jnt[1]);
        cJSON_AddNumberToObject(attrs, "WEIGHTS_1", wgt[1]);
    }
    cJSON_AddNumberToObject(prim, "indices", idx);
    cJSON *prims = cJSON_CreateArray();
    cJSON_AddItemToArray(prims, prim);
    cJSON *mesh = cJSON_CreateObject();
    cJSON_AddStringToObject(mesh, "name", "tube");
    cJSON_AddItemToObject(mesh, "primitives", prims);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "meshes"), mesh);

    /* Node 0: the skinned mesh; nodes 1..N: the joint chain. */
    cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
    cJSON *mnode = cJSON_CreateObject();
    cJSON_AddStringToObject(mnode, "name", "tube");
    cJSON_AddNumberToObject(mnode, "mesh", 0);
    cJSON_AddNumberToObject(mnode, "skin", 0);
    cJSON_AddItemToArray(nodes, mnode);
    cJSON *joints = cJSON_CreateArray();
    cJSON *channels = cJSON_CreateArray(), *samplers = cJSON_CreateArray();
    for (uint32_t j = 0; j < L->joints; ++j) {
        cJSON *n = cJSON_CreateObject();
        char name[32];
        snprintf(name, sizeof name, "joint%u", j);
        cJSON_AddStringToObject(n, "name", name);
        float t[3] = {0.0f, j ? L->bone : 0.0f, 0.0f};
        if (j) cJSON_AddItemToObject(n, "translation", float_array(t, 3));
        if (j + 1 < L->joints) {
            uint32_t child = j + 2;
            cJSON_AddItemToObject(n, "children", int_array(&child, 1));
        }
        cJSON_AddItemToArray(nodes, n);
        uint32_t node = j + 1;
        cJSON_AddItemToArray(joints, cJSON_CreateNumber(node));
        int out = add_accessor(views, acc, L->rot + j * rot_bytes, rot_bytes, 0,
                               F32, TUBE_KEYS, "VEC4", false);
        cJSON *smp = cJSON_CreateObject();
        cJSON_AddNumberToObject(smp, "input", times);
        cJSON_AddNumberToObject(smp, "output", out);
        cJSON_AddStringToObject(smp, "interpolation", "LINEAR");
        cJSON_AddItemToArray(samplers, smp);
        cJSON *ch = cJSON_CreateObject();
        cJSON_AddNumberToObject(ch, "sampler", j);
        cJSON *tgt = cJSON_AddObjectToObject(ch, "target");
        cJSON_AddNumberToObject(tgt, "node", node);
        cJSON_AddStringToObject(tgt, "path", "rotation");
        cJSON_AddItemToArray(channels, ch);
    }
    cJSON *skin = cJSON_CreateObject();
    cJSON_AddNumberToObject(skin, "inverseBindMatrices", ibm);
    cJSON_AddNumberToObject(skin, "skeleton", 1);
    cJSON_AddItemToObject(skin, "joints", joints);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "skins"), skin);
    cJSON *anim = cJSON_CreateObject();
    cJSON_AddStringToObject(anim, "name", "bend");
    cJSON_AddItemToObject(anim, "channels", channels);
    cJSON_AddItemToObject(anim, "samplers", samplers);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "animations"), anim);
    uint32_t scene_nodes[2] = {0, 1};
    cJSON *scene = cJSON_CreateObject();
    cJSON_AddItemToObject(scene, "nodes", int_array(scene_nodes, 2));
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "scenes"), scene);
    cJSON_AddNumberToObject(root, "scene", 0);
    cJSON *buffer = cJSON_CreateObject();
    cJSON_AddNumberToObject(buffer, "byteLength", (double)L->total);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "buffers"), buffer);
    return root;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

vs_result vs_synthetic_tube(const vs_synthetic_tube_desc *desc, void **out_glb,
                            size_t *out_size, vs_error *error)
{
    if (!out_glb || !out_size)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "synthetic tube: no output pointers");
    *out_glb = NULL;
    *out_size = 0;
    vs_result r = check(desc, error);
    if (r == VS_OK)
        r = mem_check_allocator(&desc->allocator, "synthetic tube",
                                "desc->allocator", error);
    if (r != VS_OK) return r;
    tube_layout L;
    plan(desc, &L);
    cJSON *json = build_json(&L);
    char *text = json ? cJSON_PrintUnformatted(json) : NULL;
    cJSON_Delete(json);
    if (!text)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "synthetic tube: out of memory building the JSON");
    /* GLB 2.0: header, JSON chunk padded with spaces, BIN chunk with zeros. */
    size_t json_len = align4(strlen(text)), bin_len = align4(L.total);
    size_t total = 12 + 8 + json_len + 8 + bin_len;
    if (total > 0xFFFFFFFFu) { /* GLB lengths are 32-bit */
        cJSON_free(text);
        return set_error(error, VS_ERROR_LIMIT,
                         "synthetic tube: %zu bytes do not fit one GLB", total);
    }
    uint8_t *glb = mem_calloc(&desc->allocator, 1, total);
    if (!glb) {
        cJSON_free(text);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "synthetic tube: out of memory (%zu bytes)", total);
    }
    put_u32(glb, 0x46546C67u); /* "glTF" */
    put_u32(glb + 4, 2);
    put_u32(glb + 8, (uint32_t)total);
    put_u32(glb + 12, (uint32_t)json_len);
    put_u32(glb + 16, 0x4E4F534Au); /* "JSON" */
    memset(glb + 20, ' ', json_len);
    memcpy(glb + 20, text, strlen(text));
    cJSON_free(text); /* cJSON_Print's, through cJSON's own hooks */
    uint8_t *bin = glb + 20 + json_len;
    put_u32(bin, (uint32_t)bin_len);
    put_u32(bin + 4, 0x004E4942u); /* "BIN\0" */
    fill_vertices(&L, bin + 8);
    fill_skin_and_clip(&L, bin + 8);
    *out_glb = glb;
    *out_size = total;
    clear_error(error);
    return VS_OK;
}
