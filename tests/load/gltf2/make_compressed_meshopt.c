/* SPDX-License-Identifier: MIT */
/* Writes tests/data/compressed/skinned_plain.gltf and
 * skinned_meshopt.gltf: the skinned strip (skinned_strip.h) and its clip
 * uncompressed, and with every bufferView EXT_meshopt_compression-encoded
 * (the vertex codec with the OCTAHEDRAL filter on byte normals, EXPONENTIAL
 * on weights and matrices, QUATERNION on the clip's rotations, the
 * TRIANGLES index codec) over a fallback buffer without data. The filters
 * are lossless on these values, and the plain clip holds the rotations the
 * QUATERNION filter decodes to, so both forms pose alike. Usage:
 * make_compressed_meshopt OUTPUT_DIR */
#include <meshoptimizer.h>

#include "load/gltf2/skinned_strip.h"

typedef struct bytes {
    uint8_t data[4096];
    size_t size;
} bytes;

static size_t put(bytes *b, const void *p, size_t n)
{
    size_t at = b->size;
    if (b->size + n > sizeof b->data) abort();
    memcpy(b->data + b->size, p, n);
    b->size += n;
    while (b->size % 4) b->data[b->size++] = 0;
    return at;
}

/* Writes text to dir/name and frees it and the data: URI it holds. */
static int write_form(const char *dir, const char *name, char *text,
                      char *uri)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = (char *)malloc(n);
    if (!path) abort();
    snprintf(path, n, "%s/%s", dir, name);
    int r = strip_write(path, text);
    free(uri);
    free(text);
    free(path);
    return r;
}

/* The clip's rotations: QUATERNION-encoded, and as that decodes. */
static int16_t rotations_encoded[8], rotations[8];

static void make_rotations(void)
{
    meshopt_encodeFilterQuat(rotations_encoded, 2, 8, 16,
                             strip_key_rotations);
    memcpy(rotations, rotations_encoded, sizeof rotations);
    meshopt_decodeFilterQuat(rotations, 2, 8);
}

static int write_plain(const char *dir)
{
    bytes b = {{0}, 0};
    size_t at[8], len[8] = {sizeof strip_positions, sizeof strip_normals,
                            sizeof strip_joints, sizeof strip_weights,
                            sizeof strip_indices, sizeof strip_ibms,
                            sizeof strip_key_times, sizeof rotations};
    at[0] = put(&b, strip_positions, len[0]);
    at[1] = put(&b, strip_normals, len[1]);
    at[2] = put(&b, strip_joints, len[2]);
    at[3] = put(&b, strip_weights, len[3]);
    at[4] = put(&b, strip_indices, len[4]);
    at[5] = put(&b, strip_ibms, len[5]);
    at[6] = put(&b, strip_key_times, len[6]);
    at[7] = put(&b, rotations, len[7]);
    char *uri = strip_data_uri(b.data, b.size);
    char data[8192];
    size_t n = (size_t)snprintf(data, sizeof data,
                                "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],"
                                "\"bufferViews\":[",
                                b.size, uri);
    for (int i = 0; i < 8; ++i)
        n += (size_t)snprintf(data + n, sizeof data - n,
                              "%s{\"buffer\":0,\"byteOffset\":%zu,"
                              "\"byteLength\":%zu}",
                              i ? "," : "", at[i], len[i]);
    n += (size_t)snprintf(data + n, sizeof data - n, "],\"accessors\":[");
    static const int views[6] = {0, 1, 2, 3, 4, 5};
    if (strip_accessors(data + n, sizeof data - n, views, 0) != 0) abort();
    strcat(data, "," STRIP_ANIMATION_ACCESSORS "]");
    return write_form(dir, "skinned_plain.gltf",
                      strip_gltf(data, "", "", "", STRIP_ANIMATION), uri);
}

/* One view: the vertex codec over count elements of stride bytes. */
typedef struct view {
    size_t fallback_at, length, stride, count, at, encoded;
    const char *mode, *filter;
} view;

static void encode_vertices(bytes *out, view *v, const void *data,
                            size_t count, size_t stride)
{
    uint8_t tmp[4096];
    size_t n = meshopt_encodeVertexBuffer(tmp, sizeof tmp, data, count, stride);
    if (!n) abort();
    v->at = put(out, tmp, n);
    v->encoded = n;
    v->count = count;
    v->stride = stride;
    v->length = count * stride;
    v->mode = "ATTRIBUTES";
    if (!v->filter) v->filter = "NONE";
}

static int write_meshopt(const char *dir)
{
    bytes b = {{0}, 0};
    view v[8];
    memset(v, 0, sizeof v);
    encode_vertices(&b, &v[0], strip_positions, STRIP_VERTICES, 12);
    /* NORMAL: octahedral bytes, x y z w with z restored by the filter. */
    float n4[STRIP_VERTICES * 4];
    for (int i = 0; i < STRIP_VERTICES; ++i) {
        memcpy(n4 + 4 * i, strip_normals + 3 * i, 3 * sizeof(float));
        n4[4 * i + 3] = 0.0f;
    }
    int8_t oct[STRIP_VERTICES * 4];
    meshopt_encodeFilterOct(oct, STRIP_VERTICES, 4, 8, n4);
    v[1].filter = "OCTAHEDRAL";
    encode_vertices(&b, &v[1], oct, STRIP_VERTICES, 4);
    encode_vertices(&b, &v[2], strip_joints, STRIP_VERTICES, 4);
    uint32_t w[STRIP_VERTICES * 4];
    meshopt_encodeFilterExp(w, STRIP_VERTICES, 16, 24, strip_weights);
    v[3].filter = "EXPONENTIAL";
    encode_vertices(&b, &v[3], w, STRIP_VERTICES, 16);
    unsigned idx[STRIP_INDICES];
    for (int i = 0; i < STRIP_INDICES; ++i) idx[i] = strip_indices[i];
    uint8_t tmp[1024];
    meshopt_encodeIndexVersion(1);
    size_t n = meshopt_encodeIndexBuffer(tmp, sizeof tmp, idx, STRIP_INDICES);
    if (!n) abort();
    v[4] = (view){.at = put(&b, tmp, n), .encoded = n, .stride = 2,
                  .count = STRIP_INDICES, .length = 2 * STRIP_INDICES,
                  .mode = "TRIANGLES", .filter = "NONE"};
    uint32_t m[32];
    meshopt_encodeFilterExp(m, 2, 64, 24, strip_ibms);
    v[5].filter = "EXPONENTIAL";
    encode_vertices(&b, &v[5], m, 2, 64);
    encode_vertices(&b, &v[6], strip_key_times, 2, 4);
    v[7].filter = "QUATERNION";
    encode_vertices(&b, &v[7], rotations_encoded, 2, 8);
    size_t fallback = 0;
    for (int i = 0; i < 8; ++i) {
        v[i].fallback_at = fallback;
        fallback += (v[i].length + 3) & ~(size_t)3;
    }
    char *uri = strip_data_uri(b.data, b.size);
    char data[8192];
    size_t k = (size_t)snprintf(
        data, sizeof data,
        "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"},"
        "{\"byteLength\":%zu,\"extensions\":{\"EXT_meshopt_compression\":"
        "{\"fallback\":true}}}],\"bufferViews\":[",
        b.size, uri, fallback);
    for (int i = 0; i < 8; ++i) {
        char stride[32] = "";
        if (i < 4)
            snprintf(stride, sizeof stride, "\"byteStride\":%zu,",
                     v[i].stride);
        k += (size_t)snprintf(
            data + k, sizeof data - k,
            "%s{\"buffer\":1,\"byteOffset\":%zu,\"byteLength\":%zu,%s"
            "\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0,"
            "\"byteOffset\":%zu,\"byteLength\":%zu,\"byteStride\":%zu,"
            "\"count\":%zu,\"mode\":\"%s\",\"filter\":\"%s\"}}}",
            i ? "," : "", v[i].fallback_at, v[i].length, stride, v[i].at,
            v[i].encoded, v[i].stride, v[i].count, v[i].mode, v[i].filter);
    }
    k += (size_t)snprintf(data + k, sizeof data - k, "],\"accessors\":[");
    static const int views[6] = {0, 1, 2, 3, 4, 5};
    if (strip_accessors(data + k, sizeof data - k, views, 1) != 0) abort();
    strcat(data, "," STRIP_ANIMATION_ACCESSORS "]");
    const char *ext = "\"EXT_meshopt_compression\",\"KHR_mesh_quantization\"";
    return write_form(dir, "skinned_meshopt.gltf",
                      strip_gltf(data, "", ext, ext, STRIP_ANIMATION), uri);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    make_rotations();
    if (write_plain(argv[1]) != 0 || write_meshopt(argv[1]) != 0) {
        fprintf(stderr, "%s: cannot write to %s\n", argv[0], argv[1]);
        return 1;
    }
    return 0;
}
