/* SPDX-License-Identifier: MIT */
/* The skinned strip the compression tests load in plain and compressed
 * form (make_compressed_meshopt.c, make_compressed_draco.cpp write
 * tests/data/compressed/): 8 vertices in 4 rows up y, bent by 2 joints, with
 * the glTF text around its data shared by every form. C and C++ alike, as
 * the Draco encoder is C++. Test-only. */
#ifndef VS_TESTS_LOAD_GLTF2_SKINNED_STRIP_H
#define VS_TESTS_LOAD_GLTF2_SKINNED_STRIP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STRIP_VERTICES = 8, STRIP_INDICES = 18 };

static const float strip_positions[STRIP_VERTICES * 3] = {
    -0.5f, 0.0f, 0.0f, 0.5f, 0.0f, 0.0f, -0.5f, 1.0f, 0.0f, 0.5f, 1.0f, 0.0f,
    -0.5f, 2.0f, 0.0f, 0.5f, 2.0f, 0.0f, -0.5f, 3.0f, 0.0f, 0.5f, 3.0f, 0.0f};
static const float strip_normals[STRIP_VERTICES * 3] = {
    0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
static const uint8_t strip_joints[STRIP_VERTICES * 4] = {
    0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0,
    0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
static const float strip_weights[STRIP_VERTICES * 4] = {
    1.0f,  0.0f,  0, 0, 1.0f,  0.0f,  0, 0, 0.75f, 0.25f, 0, 0,
    0.75f, 0.25f, 0, 0, 0.25f, 0.75f, 0, 0, 0.25f, 0.75f, 0, 0,
    0.0f,  1.0f,  0, 0, 0.0f,  1.0f,  0, 0};
static const uint16_t strip_indices[STRIP_INDICES] = {
    0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4, 4, 5, 7, 4, 7, 6};
/* Joint 0 binds at the origin, joint 1 at y = 1.5 (column-major). */
static const float strip_ibms[32] = {
    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,     0, 1,
    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1.5f, 0, 1};

/* The accessors every form has, in this order: 0 POSITION, 1 NORMAL,
 * 2 JOINTS_0, 3 WEIGHTS_0, 4 indices, 5 inverseBindMatrices. view_of[i]
 * is accessor i's bufferView, or -1 for none (Draco); byte_normals makes
 * NORMAL normalized bytes (KHR_mesh_quantization). */
static inline int strip_accessors(char *out, size_t cap, const int view_of[6],
                                  int byte_normals)
{
    const char *shape[6] = {
        "\"componentType\":5126,\"count\":8,\"type\":\"VEC3\","
        "\"min\":[-0.5,0,0],\"max\":[0.5,3,0]",
        byte_normals ? "\"componentType\":5120,\"normalized\":true,"
                       "\"count\":8,\"type\":\"VEC3\""
                     : "\"componentType\":5126,\"count\":8,\"type\":\"VEC3\"",
        "\"componentType\":5121,\"count\":8,\"type\":\"VEC4\"",
        "\"componentType\":5126,\"count\":8,\"type\":\"VEC4\"",
        "\"componentType\":5123,\"count\":18,\"type\":\"SCALAR\"",
        "\"componentType\":5126,\"count\":2,\"type\":\"MAT4\""};
    size_t n = 0;
    for (int i = 0; i < 6 && n < cap; ++i) {
        char view[32] = "";
        if (view_of[i] >= 0)
            snprintf(view, sizeof view, "\"bufferView\":%d,", view_of[i]);
        n += (size_t)snprintf(out + n, cap - n, "%s{%s%s}", i ? "," : "",
                              view, shape[i]);
    }
    return n < cap ? 0 : -1;
}

/* A clip for forms with accessors 6 (key times) and 7 (rotations of joint
 * 1 as normalized shorts, which meshopt's QUATERNION filter yields). */
static const float strip_key_times[2] = {0.0f, 1.0f};
static const float strip_key_rotations[8] = {0, 0, 0, 1,
                                             0, 0, 0.5f, 0.8660254f};
#define STRIP_ANIMATION_ACCESSORS                                              \
    "{\"bufferView\":6,\"componentType\":5126,\"count\":2,"                  \
    "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"                          \
    "{\"bufferView\":7,\"componentType\":5122,\"normalized\":true,"          \
    "\"count\":2,\"type\":\"VEC4\"}"
#define STRIP_ANIMATION                                                        \
    "\"animations\":[{\"samplers\":[{\"input\":6,\"output\":7}],"              \
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"                    \
    "\"path\":\"rotation\"}}]}],"

/* The whole glTF around the data: buffers, bufferViews and accessors
 * (JSON members without braces), the primitive's extensions (JSON object or
 * ""), the extensions used and required (JSON array elements or ""), and
 * STRIP_ANIMATION or "". Node 2 (joint 1) turns 30 degrees about z, so
 * the strip bends. */
static inline char *strip_gltf(const char *data, const char *prim_ext,
                               const char *used, const char *required,
                               const char *animations)
{
    const char *fmt =
        "{\"asset\":{\"version\":\"2.0\",\"generator\":\"vskin tests\"},"
        "%s%s%s%s%s%s"
        "%s,"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
        "\"NORMAL\":1,\"JOINTS_0\":2,\"WEIGHTS_0\":3},\"indices\":4%s%s}]}],"
        "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":5}],"
        "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"children\":[2]},"
        "{\"translation\":[0,1.5,0],"
        "\"rotation\":[0,0,0.25881904510252074,0.9659258262890683]}],"
        "%s\"scenes\":[{\"nodes\":[0,1]}],\"scene\":0}\n";
    int u = used && *used, q = required && *required, e = prim_ext && *prim_ext;
    size_t cap = strlen(fmt) + strlen(data) + (e ? strlen(prim_ext) : 0) +
                 (u ? strlen(used) : 0) + (q ? strlen(required) : 0) +
                 strlen(animations) + 128;
    char *s = (char *)malloc(cap);
    if (!s) abort();
    snprintf(s, cap, fmt, u ? "\"extensionsUsed\":[" : "", u ? used : "",
             u ? "]," : "", q ? "\"extensionsRequired\":[" : "",
             q ? required : "", q ? "]," : "", data,
             e ? ",\"extensions\":" : "", e ? prim_ext : "", animations);
    return s;
}

/* Base64 of n bytes as a data: URI (malloc'd). */
static inline char *strip_data_uri(const uint8_t *b, size_t n)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *head = "data:application/octet-stream;base64,";
    size_t hl = strlen(head);
    char *s = (char *)malloc(hl + (n + 2) / 3 * 4 + 1);
    if (!s) abort();
    memcpy(s, head, hl);
    char *o = s + hl;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)b[i] << 16;
        if (i + 1 < n) v |= (uint32_t)b[i + 1] << 8;
        if (i + 2 < n) v |= b[i + 2];
        *o++ = alphabet[(v >> 18) & 63];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? alphabet[v & 63] : '=';
    }
    *o = '\0';
    return s;
}

static inline int strip_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

#endif
