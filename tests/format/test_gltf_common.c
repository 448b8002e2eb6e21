/* SPDX-License-Identifier: MIT */
/* The byte-level glTF pieces: base64, URIs, GLB containers and accessor
 * decoding for every component type, normalization, stride and the matrix
 * column padding of glTF 2.0 §3.6.2.4. */
#include "format/gltf_common.h"
#include "test.h"

#include <stdint.h>

static void base64_decodes_good_and_rejects_bad(void)
{
    uint8_t *out;
    size_t n;
    CHECK(base64_decode(NULL, "TWFu", 4, &out, &n) == VS_OK && n == 3 &&
          memcmp(out, "Man", 3) == 0);
    free(out);
    CHECK(base64_decode(NULL, "TWE=", 4, &out, &n) == VS_OK && n == 2 &&
          memcmp(out, "Ma", 2) == 0);
    free(out);
    CHECK(base64_decode(NULL, "TQ", 2, &out, &n) == VS_OK && n == 1 &&
          out[0] == 'M');
    free(out);
    CHECK(base64_decode(NULL, "", 0, &out, &n) == VS_OK && n == 0);
    free(out);
    CHECK(base64_decode(NULL, "TW=u", 4, &out, &n) ==
          VS_ERROR_PARSE); /* '=' inside */
    CHECK(base64_decode(NULL, "TWFu\n", 5, &out, &n) ==
          VS_ERROR_PARSE); /* whitespace */
    CHECK(base64_decode(NULL, "TWF", 3, &out, &n) == VS_OK &&
          n == 2); /* no padding */
    free(out);
    CHECK(base64_decode(NULL, "T", 1, &out, &n) == VS_ERROR_PARSE); /* 6 bits */
    CHECK(base64_decode(NULL, "TQ=", 3, &out, &n) ==
          VS_ERROR_PARSE); /* padding not to 4 */
    CHECK(base64_decode(NULL, "TQ===", 5, &out, &n) ==
          VS_ERROR_PARSE); /* three '=' */
    CHECK(base64_decode(NULL, "TW*u", 4, &out, &n) == VS_ERROR_PARSE);
}

static void uri_loads_data_and_refuses_escapes(void)
{
    gltf_bytes b;
    vs_error err;
    CHECK(gltf_load_uri("a.gltf", NULL,
                        "data:application/octet-stream;base64,AAECAw==",
                        "buffers[0].uri", 100, false, &b, &err) == VS_OK);
    CHECK(b.size == 4 && b.data[3] == 3);
    free(b.data);
    CHECK(gltf_load_uri("a.gltf", NULL, "data:text/plain,abc",
                        "buffers[0].uri", 100, false, &b, &err) != VS_OK);
    CHECK(gltf_load_uri("a.gltf", NULL, "data:;base64,AA*A", "buffers[0].uri",
                        100, false, &b, &err) == VS_ERROR_PARSE);
    CHECK(strstr(err.message, "a.gltf: buffers[0].uri: ") == err.message);
    CHECK(gltf_load_uri("a.gltf", NULL, "data:;base64,AAAAAAAA", "b", 3, false, &b,
                        &err) == VS_ERROR_LIMIT);
    CHECK(gltf_load_uri("a.gltf", NULL, "x.bin", "buffers[1].uri", 100, false, &b,
                        &err) != VS_OK);
    CHECK(strstr(err.message, "buffers[1].uri") != NULL);
    CHECK(gltf_load_uri("a.gltf", "/tmp", "/etc/passwd", "b", 100, false, &b, &err) ==
          VS_ERROR_INVALID);
    CHECK(gltf_load_uri("a.gltf", "/tmp", "../etc/passwd", "b", 100, false, &b,
                        &err) == VS_ERROR_INVALID);
    CHECK(gltf_load_uri("a.gltf", "/tmp", "a/../../x", "b", 100, false, &b, &err) ==
          VS_ERROR_INVALID);
    CHECK(gltf_load_uri("a.gltf", "/tmp", "%2E%2E/x", "b", 100, false, &b, &err) ==
          VS_ERROR_INVALID);
    CHECK(gltf_load_uri("a.gltf", "/tmp", "http://x/y.bin", "b", 100, false, &b,
                        &err) == VS_ERROR_UNSUPPORTED);
    CHECK(gltf_load_uri("a.gltf", "/tmp", "x%zz", "b", 100, false, &b, &err) ==
          VS_ERROR_INVALID);
    /* A real relative file with a percent-encoded name. */
    FILE *f = fopen(VS_TEST_TMP "/sp ace.bin", "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite("\x01\x02\x03\x04\x05", 1, 5, f);
        fclose(f);
    }
    CHECK(gltf_load_uri("a.gltf", VS_TEST_TMP, "./sp%20ace.bin", "b",
                        100, false, &b, &err) == VS_OK);
    CHECK(b.size == 5 && b.data[4] == 5);
    free(b.data);
    CHECK(gltf_load_uri("a.gltf", VS_TEST_TMP, "sp%20ace.bin", "b", 4, false, &b,
                        &err) == VS_ERROR_LIMIT);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

/* §4.4.3 wants chunk lengths padded to 4; exporters that do not pad still
 * say where the next chunk starts, so the parse reads on and notes it. */
static void glb_reads_unpadded_chunks_and_notes_them(void)
{
    uint8_t g[12 + 8 + 2 + 8 + 5];
    memcpy(g, "glTF", 4);
    put32(g + 4, 2);
    put32(g + 8, sizeof g);
    put32(g + 12, 2);
    memcpy(g + 16, "JSON", 4);
    memcpy(g + 20, "{}", 2);
    put32(g + 22, 5);
    memcpy(g + 26, "BIN\0", 4);
    memcpy(g + 30, "\x01\x02\x03\x04\x05", 5);
    const char *json;
    size_t js, bs;
    const uint8_t *bin;
    uint32_t version;
    vs_error err;
    glb_notes notes;
    CHECK(glb_parse_noted(g, sizeof g, "u.glb", &json, &js, &bin, &bs,
                          &version, &notes, &err) == VS_OK);
    CHECK(js == 2 && json[1] == '}' && bs == 5 && bin[0] == 1 && bin[4] == 5);
    CHECK(notes.unaligned_chunk == 0 && notes.unaligned_length == 2);
}

static void glb_parses_good_and_rejects_truncated(void)
{
    uint8_t g[12 + 8 + 4 + 8 + 8 + 8 + 4];
    size_t n = sizeof g;
    memcpy(g, "glTF", 4);
    put32(g + 4, 2);
    put32(g + 8, (uint32_t)n);
    put32(g + 12, 4);
    memcpy(g + 16, "JSON", 4);
    memcpy(g + 20, "{}  ", 4);
    put32(g + 24, 8);
    memcpy(g + 28, "BIN\0", 4);
    memcpy(g + 32, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    put32(g + 40, 4); /* unknown chunk: skipped */
    memcpy(g + 44, "XTRA", 4);
    memcpy(g + 48, "zzzz", 4);
    const char *json;
    size_t js, bs;
    const uint8_t *bin;
    uint32_t version;
    vs_error err;
    CHECK(glb_parse(g, n, "m.glb", &json, &js, &bin, &bs, &version, &err) ==
          VS_OK);
    CHECK(version == 2 && js == 4 && json[0] == '{' && bs == 8 &&
          bin[7] == 8);
    for (size_t cut = 0; cut < n; cut += 3)
        CHECK(glb_parse(g, cut, "m.glb", &json, &js, &bin, &bs, &version,
                        &err) != VS_OK);
    put32(g + 8, (uint32_t)n - 4); /* header length lies */
    CHECK(glb_parse(g, n - 4, "m.glb", &json, &js, &bin, &bs, &version,
                    &err) != VS_OK);
    put32(g + 8, (uint32_t)n);
    memcpy(g + 16, "BIN\0", 4); /* JSON not first */
    CHECK(glb_parse(g, n, "m.glb", &json, &js, &bin, &bs, &version, &err) !=
          VS_OK);

    put32(g + 40, 0x7FFFFFF0u); /* a chunk past the end */
    CHECK(glb_parse(g, n, "m.glb", &json, &js, &bin, &bs, &version, &err) ==
          VS_ERROR_PARSE);
    CHECK(strstr(err.message, "m.glb: ") == err.message);
    put32(g + 40, 4);

    /* KHR_binary_glTF (version 1). */
    uint8_t v1[20 + 4 + 4];
    memcpy(v1, "glTF", 4);
    put32(v1 + 4, 1);
    put32(v1 + 8, sizeof v1);
    put32(v1 + 12, 4);
    put32(v1 + 16, 0);
    memcpy(v1 + 20, "{}  abcd", 8);
    CHECK(glb_parse(v1, sizeof v1, "o.glb", &json, &js, &bin, &bs, &version,
                    &err) == VS_OK);
    CHECK(version == 1 && js == 4 && bs == 4 && bin[0] == 'a');
    put32(v1 + 16, 1);
    CHECK(glb_parse(v1, sizeof v1, "o.glb", &json, &js, &bin, &bs, &version,
                    &err) != VS_OK);
    put32(v1 + 16, 0);
    put32(v1 + 12, 100);
    CHECK(glb_parse(v1, sizeof v1, "o.glb", &json, &js, &bin, &bs, &version,
                    &err) != VS_OK);
}

static void decodes_every_component_type(void)
{
    const uint8_t b[] = {0x80, 0x7F, 0x00, 0xFF};
    float f[4];
    uint32_t u[4];
    gltf_accessor_desc d = {.data = b, .available = 4, .count = 1,
                            .component_type = GLTF_BYTE, .components = 4};
    gltf_decode_floats(&d, f);
    CHECK(f[0] == -128 && f[1] == 127 && f[2] == 0 && f[3] == -1);
    gltf_decode_uints(&d, u);
    CHECK(u[1] == 127 && u[3] == 0xFFFFFFFFu);
    d.normalized = true; /* max(c / 127, -1) */
    gltf_decode_floats(&d, f);
    CHECK(f[0] == -1.0f && f[1] == 1.0f && f[2] == 0.0f);
    CHECK_NEAR(f[3], -1.0 / 127.0, 1e-7);
    d.component_type = GLTF_UNSIGNED_BYTE;
    gltf_decode_floats(&d, f);
    CHECK_NEAR(f[0], 128.0 / 255.0, 1e-7);
    CHECK(f[3] == 1.0f);
    d.normalized = false;
    gltf_decode_uints(&d, u);
    CHECK(u[0] == 128 && u[3] == 255);

    d.component_type = GLTF_SHORT;
    d.components = 2;
    gltf_decode_floats(&d, f); /* 0x7F80 = 32640, 0xFF00 = -256 */
    CHECK(f[0] == 32640.0f && f[1] == -256.0f);
    d.normalized = true;
    gltf_decode_floats(&d, f);
    CHECK_NEAR(f[0], 32640.0 / 32767.0, 1e-6);
    d.component_type = GLTF_UNSIGNED_SHORT;
    gltf_decode_floats(&d, f);
    CHECK_NEAR(f[1], 65280.0 / 65535.0, 1e-6);
    d.normalized = false;
    gltf_decode_uints(&d, u);
    CHECK(u[0] == 0x7F80 && u[1] == 0xFF00);

    const uint8_t s16min[] = {0x00, 0x80};
    gltf_accessor_desc m = {.data = s16min, .available = 2, .count = 1,
                            .component_type = GLTF_SHORT, .components = 1,
                            .normalized = true};
    gltf_decode_floats(&m, f);
    CHECK(f[0] == -1.0f);

    d.component_type = GLTF_UNSIGNED_INT;
    d.components = 1;
    gltf_decode_uints(&d, u);
    CHECK(u[0] == 0xFF007F80u);
    float one = 1.5f;
    uint8_t fb[4];
    memcpy(fb, &one, 4);
    gltf_accessor_desc fd = {.data = fb, .available = 4, .count = 1,
                             .component_type = GLTF_FLOAT, .components = 1};
    gltf_decode_floats(&fd, f);
    CHECK(f[0] == 1.5f);
    gltf_decode_uints(&fd, u);
    CHECK(u[0] == 1);
    fd.data = NULL; /* all zeros (sparse base without a bufferView) */
    f[0] = 9;
    gltf_decode_floats(&fd, f);
    CHECK(f[0] == 0.0f);
}

static void honours_stride_and_fit(void)
{
    const uint8_t b[] = {1, 2, 9, 9, 3, 4, 9, 9, 5, 6};
    gltf_accessor_desc d = {.data = b, .available = sizeof b, .stride = 4,
                            .count = 3, .component_type = GLTF_UNSIGNED_BYTE,
                            .components = 2};
    CHECK(gltf_accessor_fits(&d));
    uint32_t u[6];
    gltf_decode_uints(&d, u);
    CHECK(u[0] == 1 && u[1] == 2 && u[2] == 3 && u[3] == 4 && u[4] == 5 &&
          u[5] == 6);
    d.count = 4;
    CHECK(!gltf_accessor_fits(&d));
    d.count = 0xFFFFFFFFu;
    CHECK(!gltf_accessor_fits(&d));
    d.count = 1;
    d.available = 1;
    CHECK(!gltf_accessor_fits(&d));
}

static void pads_matrix_columns(void)
{
    gltf_accessor_desc d = {.component_type = GLTF_UNSIGNED_BYTE,
                            .components = 4, .is_matrix = true, .count = 1};
    CHECK(gltf_element_size(&d) == 8); /* MAT2 u8: 2 columns of 4 */
    d.is_matrix = false;
    CHECK(gltf_element_size(&d) == 4); /* VEC4 u8 */
    d.is_matrix = true;
    d.components = 9;
    CHECK(gltf_element_size(&d) == 12); /* MAT3 u8 */
    d.component_type = GLTF_SHORT;
    CHECK(gltf_element_size(&d) == 24); /* MAT3 i16: columns of 8 */
    d.component_type = GLTF_FLOAT;
    CHECK(gltf_element_size(&d) == 36);
    d.components = 16;
    CHECK(gltf_element_size(&d) == 64);

    /* MAT3 of bytes: column k at byte 4k, padding ignored. */
    const uint8_t b[12] = {1, 2, 3, 99, 4, 5, 6, 99, 7, 8, 9, 99};
    gltf_accessor_desc m = {.data = b, .available = 12, .count = 1,
                            .component_type = GLTF_BYTE, .components = 9,
                            .is_matrix = true};
    CHECK(gltf_accessor_fits(&m));
    float f[9];
    gltf_decode_floats(&m, f);
    for (int i = 0; i < 9; ++i) CHECK(f[i] == (float)(i + 1));
    const uint8_t s[8] = {1, 0, 2, 0, 3, 0, 4, 0};
    gltf_accessor_desc m2 = {.data = s, .available = 8, .count = 1,
                             .component_type = GLTF_UNSIGNED_SHORT,
                             .components = 4, .is_matrix = true};
    gltf_decode_floats(&m2, f);
    CHECK(f[0] == 1 && f[1] == 2 && f[2] == 3 && f[3] == 4);
}

int main(void)
{
    RUN(base64_decodes_good_and_rejects_bad);
    RUN(uri_loads_data_and_refuses_escapes);
    RUN(glb_parses_good_and_rejects_truncated);
    RUN(glb_reads_unpadded_chunks_and_notes_them);
    RUN(decodes_every_component_type);
    RUN(honours_stride_and_fit);
    RUN(pads_matrix_columns);
    return test_summary();
}
