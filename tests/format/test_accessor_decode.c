/* SPDX-License-Identifier: MIT */
/* Accessor decoding at its two levels, beyond what test_gltf_common covers:
 *  - the byte decoder (accessor_decode.c): padded MAT2/MAT3 columns of 1- and
 *    2-byte components (plain, normalized, with a byteStride), the extremes
 *    of every component type, and the fit of the last element (which needs
 *    no padding after its last column);
 *  - the glTF 2.0 accessor reader (gltf2_accessor.c, through a gltf2_ctx on
 *    a JSON document): byteOffset + byteStride of interleaved views,
 *    normalized from JSON, sparse accessors (u8/u16/u32 indices, with and
 *    without a bufferView, floats and integers), and the errors for bad
 *    offsets, overruns, sparse indices, types, counts and non-finite data,
 *    each naming the file and the JSON path. */
#include <cjson/cJSON.h>

#include "asset/asset_internal.h"
#include "load/gltf2/gltf2_internal.h"
#include "load/gltf2/gltf2_fixture.h"
#include "format/gltf_common.h"
#include "test.h"

/* ---------------------------------------------------------- byte level */

static void mat2_u8_columns_are_padded(void)
{
    /* Two MAT2 of UNSIGNED_BYTE: each column 2 bytes + 2 of padding. */
    const uint8_t b[16] = {1, 2, 0xEE, 0xEE, 3, 4, 0xEE, 0xEE,
                           5, 6, 0xEE, 0xEE, 7, 255, 0xEE, 0xEE};
    gltf_accessor_desc d = {.data = b, .available = sizeof b, .count = 2,
                            .component_type = GLTF_UNSIGNED_BYTE,
                            .components = 4, .is_matrix = true};
    CHECK(gltf_element_size(&d) == 8);
    CHECK(gltf_accessor_fits(&d));
    float f[8];
    gltf_decode_floats(&d, f);
    const float want[8] = {1, 2, 3, 4, 5, 6, 7, 255};
    for (int i = 0; i < 8; ++i) CHECK(f[i] == want[i]);
    d.normalized = true;
    gltf_decode_floats(&d, f);
    CHECK_NEAR(f[0], 1.0 / 255.0, 1e-7);
    CHECK(f[7] == 1.0f);
    /* The last element's trailing padding is never read: 14 bytes hold
     * two elements (8 + 6), 13 do not. */
    d.available = 14;
    CHECK(gltf_accessor_fits(&d));
    d.available = 13;
    CHECK(!gltf_accessor_fits(&d));
    /* Signed bytes, normalized: -128 clamps to -1. */
    const uint8_t s[8] = {0x80, 0x7F, 0, 0, 0x81, 0x00, 0, 0};
    gltf_accessor_desc sd = {.data = s, .available = 6, .count = 1,
                             .component_type = GLTF_BYTE, .components = 4,
                             .is_matrix = true, .normalized = true};
    CHECK(gltf_accessor_fits(&sd));
    gltf_decode_floats(&sd, f);
    CHECK(f[0] == -1.0f && f[1] == 1.0f && f[2] == -1.0f && f[3] == 0.0f);
}

static void mat3_i16_columns_are_padded(void)
{
    /* MAT3 of SHORT: columns of 6 bytes padded to 8; element 24 bytes. */
    fx_bytes b = {0};
    for (int e = 0; e < 2; ++e)
        for (int col = 0; col < 3; ++col) {
            for (int row = 0; row < 3; ++row)
                fx_u16(&b, (uint16_t)(int16_t)-(e * 9 + col * 3 + row + 1));
            fx_u16(&b, 0x7FFF); /* padding, must be skipped */
        }
    gltf_accessor_desc d = {.data = b.data, .available = b.size, .count = 2,
                            .component_type = GLTF_SHORT, .components = 9,
                            .is_matrix = true};
    CHECK(gltf_element_size(&d) == 24);
    CHECK(gltf_accessor_fits(&d));
    float f[18];
    gltf_decode_floats(&d, f);
    for (int i = 0; i < 18; ++i) CHECK(f[i] == (float)-(i + 1));
    d.normalized = true;
    gltf_decode_floats(&d, f);
    CHECK_NEAR(f[17], -18.0 / 32767.0, 1e-9);
    uint32_t u[18];
    d.normalized = false;
    gltf_decode_uints(&d, u);
    CHECK(u[0] == 0xFFFFFFFFu); /* -1 sign-extended */
    d.available = 24 + 22; /* last element without its last padding */
    CHECK(gltf_accessor_fits(&d));
    d.available = 24 + 21;
    CHECK(!gltf_accessor_fits(&d));
    /* MAT3 of u8 behind a byteStride of 16 (12 + 4 foreign bytes). */
    fx_bytes s = {0};
    for (int e = 0; e < 2; ++e) {
        for (int col = 0; col < 3; ++col) {
            for (int row = 0; row < 3; ++row) fx_u8(&s, e * 9 + col * 3 + row);
            fx_u8(&s, 0xAA);
        }
        fx_u32(&s, 0xDEADBEEF);
    }
    gltf_accessor_desc m = {.data = s.data, .available = s.size, .count = 2,
                            .stride = 16, .component_type = GLTF_UNSIGNED_BYTE,
                            .components = 9, .is_matrix = true};
    CHECK(gltf_accessor_fits(&m));
    gltf_decode_floats(&m, f);
    for (int i = 0; i < 18; ++i) CHECK(f[i] == (float)i);
    /* MAT4 of bytes: 4-byte columns need no padding. */
    gltf_accessor_desc m4 = {.component_type = GLTF_BYTE, .components = 16,
                             .is_matrix = true};
    CHECK(gltf_element_size(&m4) == 16);
}

static void component_extremes(void)
{
    static const struct {
        uint32_t type;
        uint8_t bytes[4];
        float plain, normalized;
    } cases[] = {
        {GLTF_BYTE, {0x81}, -127.0f, -1.0f},
        {GLTF_BYTE, {0x80}, -128.0f, -1.0f},
        {GLTF_UNSIGNED_BYTE, {0xFF}, 255.0f, 1.0f},
        {GLTF_SHORT, {0x01, 0x80}, -32767.0f, -1.0f},
        {GLTF_SHORT, {0xFF, 0x7F}, 32767.0f, 1.0f},
        {GLTF_UNSIGNED_SHORT, {0xFF, 0xFF}, 65535.0f, 1.0f},
        {GLTF_UNSIGNED_INT, {0xFF, 0xFF, 0xFF, 0xFF}, 4294967295.0f, 0.0f},
        {GLTF_FLOAT, {0x00, 0x00, 0x80, 0xBF}, -1.0f, 0.0f},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gltf_accessor_desc d = {.data = cases[i].bytes, .available = 4,
                                .count = 1, .components = 1,
                                .component_type = cases[i].type};
        float f;
        gltf_decode_floats(&d, &f);
        CHECK_MSG(f == cases[i].plain, "case %zu: %g", i, (double)f);
        if (cases[i].normalized == 0.0f) continue; /* not normalizable */
        d.normalized = true;
        gltf_decode_floats(&d, &f);
        CHECK_MSG(f == cases[i].normalized, "case %zu: %g", i, (double)f);
    }
}

/* ---------------------------------------------- glTF 2.0 accessor level */

typedef struct doc {
    cJSON *root;
    vs_asset *asset;
    vs_error err;
    gltf2_ctx c;
} doc;

/* Parses `json` (a glTF 2.0 document) and loads its buffers and views. */
static vs_result doc_open(doc *d, const char *json)
{
    memset(d, 0, sizeof *d);
    d->root = cJSON_Parse(json);
    d->asset = vs_priv_asset_create("acc.gltf", NULL);
    if (!d->root || !d->asset) abort();
    d->c = (gltf2_ctx){.asset = d->asset, .root = d->root,
                       .src = d->asset->source_name, .error = &d->err};
    vs_result r = gltf2_index_accessors(&d->c);
    if (r != VS_OK) return r;
    return gltf2_load_buffers(&d->c, NULL, 0, NULL);
}

static void doc_close(doc *d)
{
    gltf2_ctx_free(&d->c);
    vs_asset_free(d->asset);
    cJSON_Delete(d->root);
}

static const gltf2_expect any = {
    .types = {"SCALAR", "VEC2", "VEC3", "VEC4"},
    .ctypes = GLTF2_CT_FLOAT | GLTF2_CT_INTS |
              GLTF2_CT(GLTF_UNSIGNED_INT)};
static const gltf2_expect any_matrix = {
    .types = {"MAT2", "MAT3", "MAT4"},
    .ctypes = GLTF2_CT_FLOAT | GLTF2_CT_INTS};

/* A document with one buffer (b as data URI) and the given views and
 * accessors (JSON array texts). */
static vs_result open_with(doc *d, const fx_bytes *b, const char *views,
                           const char *accessors)
{
    char *uri = fx_data_uri(b);
    char *json = fx_format("{\"asset\":{\"version\":\"2.0\"},"
                           "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],"
                           "\"bufferViews\":%s,\"accessors\":%s}",
                           b->size, uri, views, accessors);
    vs_result r = doc_open(d, json);
    free(uri);
    free(json);
    return r;
}

static void interleaved_offset_and_stride(void)
{
    /* Per vertex: position (3 floats) then a u16 VEC2 and 4 bytes of u8
     * normalized VEC4, stride 20; 3 vertices after 8 bytes of other data. */
    fx_bytes b = {0};
    fx_u32(&b, 0xFFFFFFFF);
    fx_u32(&b, 0xFFFFFFFF);
    for (int v = 0; v < 3; ++v) {
        float p[3] = {(float)v, 10.0f + v, -1.0f * v};
        fx_f32s(&b, p, 3);
        fx_u16(&b, 100 + v);
        fx_u16(&b, 200 + v);
        fx_u8(&b, 255);
        fx_u8(&b, 0);
        fx_u8(&b, 51 * v);
        fx_u8(&b, 128);
    }
    doc d;
    vs_result r = open_with(
        &d, &b, "[{\"buffer\":0,\"byteOffset\":8,\"byteLength\":60,"
                "\"byteStride\":20}]",
        "[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
        "\"type\":\"VEC3\"},"
        "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5123,"
        "\"count\":3,\"type\":\"VEC2\"},"
        "{\"bufferView\":0,\"byteOffset\":16,\"componentType\":5121,"
        "\"count\":3,\"type\":\"VEC4\",\"normalized\":true}]");
    CHECK_MSG(r == VS_OK, "%s", d.err.message);
    if (r != VS_OK || gltf2_check_accessors(&d.c) != VS_OK) {
        CHECK_MSG(false, "%s", d.err.message);
        doc_close(&d);
        return;
    }
    float *f;
    uint32_t *u, count, comps;
    CHECK(gltf2_accessor_floats(&d.c, 0, "p", &any, &f, &count, &comps) ==
          VS_OK);
    CHECK(count == 3 && comps == 3);
    CHECK(f[3] == 1.0f && f[4] == 11.0f && f[8] == -2.0f);
    CHECK(gltf2_accessor_uints(&d.c, 1, "t", &any, &u, &count, &comps) ==
          VS_OK);
    CHECK(comps == 2 && u[0] == 100 && u[1] == 200 && u[4] == 102 &&
          u[5] == 202);
    free(u);
    CHECK(gltf2_accessor_floats(&d.c, 2, "w", &any, &f, &count, &comps) ==
          VS_OK);
    CHECK(f[0] == 1.0f && f[1] == 0.0f && f[6] == 0.2f);
    CHECK_NEAR(f[11], 128.0 / 255.0, 1e-7);
    doc_close(&d);
}

/* Base data 0..5 (SCALAR float) with sparse values at indices 1 and 4 in
 * the given index type; `view` says whether the accessor has a bufferView. */
static void sparse_case(uint32_t index_type, bool view)
{
    fx_bytes b = {0};
    for (int i = 0; i < 6; ++i) fx_f32(&b, (float)i); /* bytes 0..23 */
    size_t ind = b.size;                                /* indices */
    if (index_type == GLTF_UNSIGNED_BYTE) {
        fx_u8(&b, 1);
        fx_u8(&b, 4);
    } else if (index_type == GLTF_UNSIGNED_SHORT) {
        fx_u16(&b, 1);
        fx_u16(&b, 4);
    } else {
        fx_u32(&b, 1);
        fx_u32(&b, 4);
    }
    fx_align4(&b, 0);
    size_t vals = b.size;
    fx_f32(&b, 100.0f);
    fx_f32(&b, 400.0f);
    char *views = fx_format(
        "[{\"buffer\":0,\"byteLength\":24},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8}]",
        ind, vals - ind, vals);
    char *acc = fx_format(
        "[{%s\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\","
        "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":1,"
        "\"componentType\":%u},\"values\":{\"bufferView\":2}}}]",
        view ? "\"bufferView\":0," : "", index_type);
    doc d;
    CHECK(open_with(&d, &b, views, acc) == VS_OK);
    CHECK(gltf2_check_accessors(&d.c) == VS_OK);
    float *f;
    uint32_t count;
    vs_result r = gltf2_accessor_floats(&d.c, 0, "s", &any, &f, &count, NULL);
    CHECK_MSG(r == VS_OK, "%s", d.err.message);
    if (r == VS_OK) {
        const float base[6] = {0, 1, 2, 3, 4, 5};
        for (int i = 0; i < 6; ++i) {
            float want = i == 1 ? 100.0f : i == 4 ? 400.0f
                                                  : (view ? base[i] : 0.0f);
            CHECK_MSG(f[i] == want, "type %u view %d: [%d] = %g", index_type,
                      view, i, (double)f[i]);
        }
    }
    doc_close(&d);
    free(views);
    free(acc);
}

static void sparse_every_index_type_with_and_without_view(void)
{
    const uint32_t types[] = {GLTF_UNSIGNED_BYTE, GLTF_UNSIGNED_SHORT,
                              GLTF_UNSIGNED_INT};
    for (int t = 0; t < 3; ++t) {
        sparse_case(types[t], true);
        sparse_case(types[t], false);
    }
}

static void sparse_integers_without_view(void)
{
    /* JOINTS-like VEC4 u16 accessor of 3 elements, element 2 replaced. */
    fx_bytes b = {0};
    fx_u16(&b, 2);
    fx_u16(&b, 0);
    for (int k = 0; k < 4; ++k) fx_u16(&b, 7 + k);
    doc d;
    CHECK(open_with(&d, &b,
                    "[{\"buffer\":0,\"byteLength\":4},"
                    "{\"buffer\":0,\"byteOffset\":4,\"byteLength\":8}]",
                    "[{\"componentType\":5123,\"count\":3,\"type\":\"VEC4\","
                    "\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":0,"
                    "\"componentType\":5123},\"values\":{\"bufferView\":1}}}]") ==
          VS_OK);
    uint32_t *u, count;
    CHECK(gltf2_accessor_uints(&d.c, 0, "j", &any, &u, &count, NULL) == VS_OK);
    CHECK(count == 3 && u[0] == 0 && u[7] == 0 && u[8] == 7 && u[11] == 10);
    free(u);
    doc_close(&d);
}

/* Opens `accessors` over a 64-byte buffer with two views (0: bytes 0..31,
 * 1: bytes 32..63 with byteStride 16) and expects the first failing check
 * (accessor check or decode of accessor 0) to name `part`. */
static void expect_error(const char *accessors, const gltf2_expect *e,
                         const char *part, bool at_check)
{
    fx_bytes b = {0};
    for (int i = 0; i < 16; ++i) fx_f32(&b, (float)i);
    doc d;
    vs_result r = open_with(&d, &b,
                            "[{\"buffer\":0,\"byteLength\":32},"
                            "{\"buffer\":0,\"byteOffset\":32,"
                            "\"byteLength\":32,\"byteStride\":16}]",
                            accessors);
    CHECK(r == VS_OK);
    r = gltf2_check_accessors(&d.c);
    if (!at_check) {
        CHECK_MSG(r == VS_OK, "%s", d.err.message);
        float *f;
        uint32_t n;
        r = gltf2_accessor_floats(&d.c, 0, "meshes[0].x", e, &f, &n, NULL);
    }
    CHECK_MSG(r != VS_OK && fx_message_is(d.err.message, "acc.gltf", part),
              "expected \"%s\", got: %s", part, d.err.message);
    doc_close(&d);
}

static void errors_name_the_path(void)
{
    /* Overruns of the view, with and without a byteStride. */
    expect_error("[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
                 "\"type\":\"VEC3\"}]",
                 &any, "accessors[0]: 3 elements of 12 bytes", true);
    expect_error("[{\"bufferView\":1,\"componentType\":5126,\"count\":3,"
                 "\"type\":\"VEC3\"}]",
                 &any, "do not fit in bufferViews[1] (32 bytes)", true);
    expect_error("[{\"bufferView\":0,\"byteOffset\":36,\"componentType\":5126,"
                 "\"count\":1,\"type\":\"SCALAR\"}]",
                 &any, "accessors[0].byteOffset: 36 is past the end", true);
    /* Misaligned offsets are read byte by byte and repaired with a warning
     * (test_gltf2_repairs_data), so they are no error here. */
    /* A stride shorter than an element. */
    expect_error("[{\"bufferView\":1,\"componentType\":5126,\"count\":1,"
                 "\"type\":\"MAT3\"}]",
                 &any_matrix, "byteStride 16 is smaller than one element (36",
                 true);
    /* Sparse: count above the accessor's, indices not increasing or past
     * the count. */
    expect_error("[{\"componentType\":5126,\"count\":1,\"type\":\"SCALAR\","
                 "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":0,"
                 "\"componentType\":5125},\"values\":{\"bufferView\":0}}}]",
                 &any, "accessors[0].sparse.count: 2 must be in 1..1", true);
    /* View 0 holds floats 0,1,2..: as u32 indices 0 and 0x3F800000. */
    expect_error("[{\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
                 "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":0,"
                 "\"componentType\":5125},\"values\":{\"bufferView\":0}}}]",
                 &any, "accessors[0].sparse.indices[1]: 1065353216 is past "
                       "the accessor count",
                 true);
    expect_error("[{\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
                 "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":0,"
                 "\"componentType\":5123},\"values\":{\"bufferView\":0}}}]",
                 &any, "sparse.indices[1]: 0 is not strictly increasing",
                 true);
    expect_error("[{\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
                 "\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":0,"
                 "\"componentType\":5126},\"values\":{\"bufferView\":0}}}]",
                 &any, "sparse.indices.componentType: 5126 is not", true);
    /* JSON rules. */
    expect_error("[{\"bufferView\":0,\"componentType\":5126,\"count\":1,"
                 "\"type\":\"SCALAR\",\"normalized\":true}]",
                 &any, "accessors[0].normalized: must not be true", true);
    expect_error("[{\"componentType\":5127,\"count\":1,\"type\":\"SCALAR\"}]",
                 &any, "accessors[0].componentType: 5127 is not", true);
    expect_error("[{\"componentType\":5126,\"count\":0,\"type\":\"SCALAR\"}]",
                 &any, "accessors[0].count: 0 is not in 1..", true);
    expect_error("[{\"bufferView\":2,\"componentType\":5126,\"count\":1,"
                 "\"type\":\"SCALAR\"}]",
                 &any, "accessors[0].bufferView: index 2 is out of range",
                 true);
    /* What the referencing property expects: type, component type, count;
     * the message names the reference and the accessor. */
    const gltf2_expect vec3 = {.types = {"VEC3"}, .ctypes = GLTF2_CT_FLOAT,
                               .count = 2};
    expect_error("[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
                 "\"type\":\"VEC4\"}]",
                 &vec3, "meshes[0].x: accessor 0: type VEC4 is not allowed "
                        "here (expected VEC3)",
                 false);
    expect_error("[{\"bufferView\":0,\"componentType\":5123,\"count\":2,"
                 "\"type\":\"VEC3\"}]",
                 &vec3, "accessor 0: componentType 5123 is not allowed here",
                 false);
    expect_error("[{\"bufferView\":0,\"componentType\":5126,\"count\":1,"
                 "\"type\":\"VEC3\"}]",
                 &vec3, "accessor 0: has 1 elements, expected 2", false);
    const gltf2_expect norm = {.types = {"VEC4"},
                               .ctypes = GLTF2_CT(GLTF_UNSIGNED_BYTE),
                               .ctypes_normalized =
                                   GLTF2_CT(GLTF_UNSIGNED_BYTE)};
    expect_error("[{\"bufferView\":0,\"componentType\":5121,\"count\":1,"
                 "\"type\":\"VEC4\"}]",
                 &norm, "componentType 5121 must be normalized here", false);
}

static void non_finite_floats_are_refused(void)
{
    fx_bytes b = {0};
    fx_f32(&b, 1.0f);
    fx_u32(&b, 0x7FC00000); /* NaN */
    doc d;
    CHECK(open_with(&d, &b, "[{\"buffer\":0,\"byteLength\":8}]",
                    "[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
                    "\"type\":\"SCALAR\"}]") == VS_OK);
    CHECK(gltf2_check_accessors(&d.c) != VS_OK);
    CHECK(fx_message_is(d.err.message, "acc.gltf",
                        "accessors[0]: holds a non-finite float"));
    float *f;
    uint32_t n;
    CHECK(gltf2_accessor_floats(&d.c, 0, "r", &any, &f, &n, NULL) != VS_OK);
    CHECK(fx_message_is(d.err.message, "acc.gltf",
                        "r: accessor 0: element 1 holds a non-finite float"));
    doc_close(&d);
}

static void viewless_accessor_is_bounded(void)
{
    /* A few bytes of JSON may claim 2^32-1 elements of MAT4: refused by the
     * memory limit, never allocated. */
    doc d;
    CHECK(doc_open(&d, "{\"asset\":{\"version\":\"2.0\"},\"accessors\":[{"
                       "\"componentType\":5126,\"count\":4294967295,"
                       "\"type\":\"MAT4\"}]}") == VS_OK);
    float *f;
    uint32_t *u, n;
    CHECK(gltf2_accessor_floats(&d.c, 0, "big", &any_matrix, &f, &n, NULL) ==
          VS_ERROR_LIMIT);
    CHECK(fx_message_is(d.err.message, "acc.gltf", "exceed"));
    CHECK(gltf2_accessor_uints(&d.c, 0, "big", &any_matrix, &u, &n, NULL) ==
          VS_ERROR_LIMIT);
    doc_close(&d);
}

int main(void)
{
    RUN(mat2_u8_columns_are_padded);
    RUN(mat3_i16_columns_are_padded);
    RUN(component_extremes);
    RUN(interleaved_offset_and_stride);
    RUN(sparse_every_index_type_with_and_without_view);
    RUN(sparse_integers_without_view);
    RUN(errors_name_the_path);
    RUN(non_finite_floats_are_refused);
    RUN(viewless_accessor_is_bounded);
    return test_summary();
}
