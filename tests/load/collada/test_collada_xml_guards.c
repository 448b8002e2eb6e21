/* SPDX-License-Identifier: MIT */
/* The COLLADA loader's XML reading is bounded whatever the input: a DTD is
 * refused in every encoding libxml2 reads (so no entity is ever declared),
 * an element with tens of thousands of attributes is refused in linear
 * time, and a file whose XML tree would not fit vs_limits.max_total_memory
 * is refused before parsing, while DTD-free files in those encodings and
 * float arrays longer than libxml2's default text limit still load. */
#include <iconv.h>
#include <stdint.h>
#include <time.h>

#include "format/read_file.h"
#include "load/loaders.h"
#include "test_collada_fixture.h"

#define DTD_NEEDLE "the document has a DOCTYPE"

typedef struct bytes {
    char *data;
    size_t size;
} bytes;

static bytes cube_body(void)
{
    bytes b = {0};
    uint8_t *data = NULL;
    size_t size = 0;
    vs_error err;
    if (read_file(COLLADA_DATA "cube.dae", 1u << 20, &data, &size, &err)) {
        CHECK_MSG(0, "%s", err.message);
        return b;
    }
    /* Everything after the XML declaration (the first line). */
    const char *nl = memchr(data, '\n', size);
    size_t skip = nl ? (size_t)(nl - (const char *)data) + 1 : 0;
    b.size = size - skip;
    b.data = malloc(b.size);
    if (b.data) memcpy(b.data, data + skip, b.size);
    free(data);
    return b;
}

/* prefix (kept as it is) + rest converted to `encoding` with iconv; size 0
 * when iconv lacks the encoding. */
static bytes encode(const char *prefix, const char *rest, size_t rest_size,
                    const char *encoding)
{
    bytes b = {0};
    iconv_t cd = iconv_open(encoding, "UTF-8");
    if (cd == (iconv_t)-1) return b;
    size_t plen = strlen(prefix), cap = plen + 8 * rest_size + 16;
    b.data = malloc(cap);
    if (!b.data) {
        iconv_close(cd);
        return b;
    }
    memcpy(b.data, prefix, plen);
    char *in = (char *)rest, *out = b.data + plen;
    size_t in_left = rest_size, out_left = cap - plen;
    size_t r = iconv(cd, &in, &in_left, &out, &out_left);
    if (r != (size_t)-1) r = iconv(cd, NULL, NULL, &out, &out_left);
    CHECK_MSG(r != (size_t)-1 && in_left == 0, "iconv to %s failed", encoding);
    b.size = cap - out_left;
    iconv_close(cd);
    return b;
}

static vs_result load_bytes(const bytes *b, const vs_load_options *opt,
                            vs_asset **a, vs_error *err)
{
    *a = NULL;
    const uint8_t first = b->size ? (uint8_t)b->data[0] : 0xAA;
    if (first == '<' || first == 0xEF || first == 0xFF || first == 0xFE ||
        first == 0x00)
        return vs_asset_load_memory(b->data, b->size, "guard.dae", opt, a, err);
    /* The format detection of load.c sends ASCII-compatible starts and
     * UTF-16 to the COLLADA loader; the loader holds its guarantees for
     * every encoding libxml2 reads (EBCDIC too) anyway, so the others are
     * fed to it directly. */
    vs_asset *asset = vs_priv_asset_create("guard.dae", opt);
    if (!asset) return VS_ERROR_OUT_OF_MEMORY;
    vs_result r =
        collada_load(asset, (const uint8_t *)b->data, b->size, NULL, err);
    if (r == VS_OK)
        *a = asset;
    else
        vs_asset_free(asset);
    return r;
}

static void expect_dtd_refused(const bytes *b, const char *what)
{
    if (!b->size) return;
    vs_asset *a;
    vs_error err;
    vs_result r = load_bytes(b, NULL, &a, &err);
    CHECK_MSG(r == VS_ERROR_UNSUPPORTED, "%s: got %d (%s)", what, r,
              err.message);
    CHECK_MSG(strstr(err.message, DTD_NEEDLE) != NULL &&
                  strncmp(err.message, "guard.dae: line ", 16) == 0,
              "%s: \"%s\"", what, err.message);
    vs_asset_free(a);
}

/* A document: XML declaration naming `decl_encoding`, then `dtd`, then the
 * cube. */
static char *document(const char *decl_encoding, const char *dtd,
                      const bytes *cube, size_t *size)
{
    char head[256];
    snprintf(head, sizeof head, "<?xml version=\"1.0\" encoding=\"%s\"?>\n%s\n",
             decl_encoding, dtd);
    size_t h = strlen(head);
    char *doc = malloc(h + cube->size + 1);
    if (!doc) return NULL;
    memcpy(doc, head, h);
    memcpy(doc + h, cube->data, cube->size);
    doc[h + cube->size] = '\0';
    *size = h + cube->size;
    return doc;
}

/* The same document in UTF-8, UTF-8 with a BOM, UTF-16LE/BE with a BOM,
 * UTF-16LE without one and EBCDIC (IBM037); then UTF-16LE/BE and UTF-7
 * switched to by an ASCII declaration, as libxml2 reads them. */
static void each_encoding(const char *dtd, const bytes *cube,
                          void (*check)(const bytes *, const char *))
{
    static const struct {
        const char *name, *iconv_name, *decl, *bom;
    } encodings[] = {
        {"UTF-8", "UTF-8", "UTF-8", ""},
        {"UTF-8 BOM", "UTF-8", "UTF-8", "\xEF\xBB\xBF"},
        {"UTF-16LE BOM", "UTF-16LE", "UTF-16", "\xFF\xFE"},
        {"UTF-16BE BOM", "UTF-16BE", "UTF-16", "\xFE\xFF"},
        {"UTF-16LE declared", "UTF-16LE", "UTF-16", ""},
        {"IBM037", "IBM037", "IBM037", ""},
    };
    for (size_t i = 0; i < sizeof encodings / sizeof encodings[0]; ++i) {
        size_t size = 0;
        char *doc = document(encodings[i].decl, dtd, cube, &size);
        if (!doc) continue;
        bytes b = encode(encodings[i].bom, doc, size, encodings[i].iconv_name);
        CHECK_MSG(b.size > 0, "%s: iconv lacks it", encodings[i].name);
        check(&b, encodings[i].name);
        free(b.data);
        free(doc);
    }
    /* libxml2 reads the declaration up to the encoding name's closing
     * quote as ASCII and the rest (from "?>") in that encoding. */
    static const char *const switched[] = {"UTF-7", "UTF-16LE", "UTF-16BE"};
    for (size_t i = 0; i < sizeof switched / sizeof switched[0]; ++i) {
        size_t size = 0;
        char *doc = document(switched[i], dtd, cube, &size);
        const char *decl_end = doc ? strstr(doc, "?>") : NULL;
        if (decl_end) {
            size_t head = (size_t)(decl_end - doc);
            char prefix[128];
            snprintf(prefix, sizeof prefix, "%.*s", (int)head, doc);
            bytes b = encode(prefix, decl_end, size - head, switched[i]);
            if (b.size) check(&b, switched[i]);
            free(b.data);
        }
        free(doc);
    }
}

static void dtd_in_every_encoding_is_refused(void)
{
    bytes cube = cube_body();
    if (!cube.data) return;
    each_encoding("<!DOCTYPE COLLADA [<!ENTITY e \"x\">]>", &cube,
                  expect_dtd_refused);
    each_encoding("<!DOCTYPE COLLADA SYSTEM \"collada.dtd\">", &cube,
                  expect_dtd_refused);
    free(cube.data);
}

static const vs_asset *reference_cube;

static void expect_same_cube(const bytes *b, const char *what)
{
    vs_asset *a;
    vs_error err;
    vs_result r = load_bytes(b, NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s: %s", what, err.message);
    if (r == VS_OK && reference_cube) {
        CHECK(a->node_count == reference_cube->node_count);
        CHECK(a->mesh_count == reference_cube->mesh_count);
        const vs_primitive *p = &a->meshes[0].primitives[0];
        const vs_primitive *q = &reference_cube->meshes[0].primitives[0];
        CHECK(p->vertex_count == q->vertex_count &&
              p->index_count == q->index_count);
        if (p->vertex_count == q->vertex_count)
            CHECK(memcmp(p->positions, q->positions,
                         3 * sizeof(float) * p->vertex_count) == 0);
        CHECK(strcmp(a->generator, reference_cube->generator) == 0);
    }
    vs_asset_free(a);
}

static void dtd_free_files_load_in_every_encoding(void)
{
    bytes cube = cube_body();
    vs_asset *ref = collada_load_checked(COLLADA_DATA "cube.dae");
    reference_cube = ref;
    if (cube.data && ref) each_encoding("", &cube, expect_same_cube);
    reference_cube = NULL;
    vs_asset_free(ref);
    free(cube.data);
}

/* Ten levels of ten references: 10^10 copies of "lol" if any entity were
 * declared and expanded. */
static void billion_laughs_in_utf16_is_refused(void)
{
    char doc[4096] = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n"
                     "<!DOCTYPE COLLADA [\n<!ENTITY l0 \"lol\">\n";
    for (int level = 1; level < 10; ++level) {
        char line[256];
        int n = snprintf(line, sizeof line, "<!ENTITY l%d \"", level);
        for (int k = 0; k < 10; ++k)
            n +=
                snprintf(line + n, sizeof line - (size_t)n, "&l%d;", level - 1);
        snprintf(line + n, sizeof line - (size_t)n, "\">\n");
        strcat(doc, line);
    }
    strcat(doc, "]>\n<COLLADA version=\"1.4.1\"><asset><title>&l9;</title>"
                "</asset></COLLADA>\n");
    bytes b = encode("\xFF\xFE", doc, strlen(doc), "UTF-16LE");
    expect_dtd_refused(&b, "billion laughs");
    free(b.data);
}

/* <COLLADA> then <asset><unit> with `attrs` attributes. */
static bytes attribute_bomb(uint32_t attrs)
{
    bytes b = {0};
    size_t cap = 128 + (size_t)attrs * 16;
    b.data = malloc(cap);
    if (!b.data) return b;
    int n = snprintf(b.data, cap,
                     "<?xml version=\"1.0\"?>\n<COLLADA version=\"1.4.1\">\n"
                     "<asset>\n<unit");
    for (uint32_t i = 0; i < attrs; ++i)
        n += snprintf(b.data + n, cap - (size_t)n, " a%u=\"1\"", i);
    n += snprintf(b.data + n, cap - (size_t)n, "/></asset></COLLADA>\n");
    b.size = (size_t)n;
    return b;
}

static double cpu_seconds_to_load(const bytes *b, int repeat)
{
    clock_t t0 = clock();
    for (int i = 0; i < repeat; ++i) {
        vs_asset *a;
        vs_error err;
        CHECK(load_bytes(b, NULL, &a, &err) == VS_ERROR_LIMIT);
        vs_asset_free(a);
    }
    return (double)(clock() - t0) / CLOCKS_PER_SEC;
}

static void attribute_bomb_is_refused_in_linear_time(void)
{
    bytes b = attribute_bomb(40000);
    vs_asset *a;
    vs_error err;
    vs_result r = load_bytes(&b, NULL, &a, &err);
    CHECK_MSG(r == VS_ERROR_LIMIT &&
                  strstr(err.message,
                         "guard.dae: line 4: <unit>: more than 256 "
                         "attributes") != NULL,
              "got %d (%s)", r, err.message);
    vs_asset_free(a);
    /* libxml2's duplicate check is quadratic: 16 times the attributes
     * would cost 256 times as much. Linear work stays far below 64. */
    bytes small = attribute_bomb(2500);
    double t1 = cpu_seconds_to_load(&small, 8);
    double t16 = cpu_seconds_to_load(&b, 8);
    CHECK_MSG(t16 <= 64 * t1 + 0.05, "1x: %.4f s, 16x: %.4f s", t1, t16);
    free(small.data);
    free(b.data);
    /* 256 attributes are still fine for the reader. */
    bytes edge = attribute_bomb(256);
    r = load_bytes(&edge, NULL, &a, &err);
    CHECK_MSG(r != VS_ERROR_LIMIT, "%s", err.message);
    vs_asset_free(a);
    free(edge.data);
}

/* One triangle whose position array holds `values` floats: with 2.4 million
 * values its text passes libxml2's 10 MB default for one text node. */
static bytes long_float_array(uint32_t values)
{
    bytes b = {0};
    size_t cap = 4096 + (size_t)values * 5;
    b.data = malloc(cap);
    if (!b.data) return b;
    int n = snprintf(b.data, cap,
                     "<?xml version=\"1.0\"?>\n<COLLADA version=\"1.4.1\">\n"
                     "<library_geometries><geometry id=\"g\"><mesh>\n"
                     "<source id=\"p\"><float_array id=\"pa\" count=\"%u\">",
                     values);
    for (uint32_t i = 0; i < values; ++i) {
        memcpy(b.data + n, i % 3 == 1 ? "0.25 " : "1.50 ", 5);
        n += 5;
    }
    n += snprintf(
        b.data + n, cap - (size_t)n,
        "</float_array><technique_common><accessor source=\"#pa\" "
        "count=\"%u\" stride=\"3\"><param name=\"X\" type=\"float\"/>"
        "<param name=\"Y\" type=\"float\"/><param name=\"Z\" "
        "type=\"float\"/></accessor></technique_common></source>\n"
        "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/>"
        "</vertices><triangles count=\"1\"><input semantic=\"VERTEX\" "
        "source=\"#v\" offset=\"0\"/><p>0 1 2</p></triangles>\n"
        "</mesh></geometry></library_geometries>\n"
        "<library_visual_scenes><visual_scene id=\"s\"><node id=\"n\">"
        "<instance_geometry url=\"#g\"/></node></visual_scene>"
        "</library_visual_scenes><scene><instance_visual_scene "
        "url=\"#s\"/></scene></COLLADA>\n",
        values / 3);
    b.size = (size_t)n;
    return b;
}

static void float_array_beyond_libxml2_text_limit_loads(void)
{
    bytes b = long_float_array(2400000);
    CHECK(b.size > 10u * 1000 * 1000);
    vs_asset *a;
    vs_error err;
    vs_result r = load_bytes(&b, NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r == VS_OK) {
        const vs_primitive *p = &a->meshes[0].primitives[0];
        CHECK(p->vertex_count == 3);
        CHECK_NEAR(p->positions[1], 0.25, 1e-6);
    }
    vs_asset_free(a);
    free(b.data);
}

static void memory_budget_covers_the_xml_tree(void)
{
    bytes b = long_float_array(2400000);
    vs_load_options opt = {0};
    /* The floats themselves need 9.6 MB; the file, libxml2's copy of it
     * and its text node need several times the file size. */
    opt.limits.max_total_memory = 24u * 1000 * 1000;
    vs_asset *a;
    vs_error err;
    vs_result r = load_bytes(&b, &opt, &a, &err);
    CHECK_MSG(r == VS_ERROR_LIMIT &&
                  strstr(err.message, "out of the memory budget") &&
                  strstr(err.message, "max_total_memory (24000000 bytes)"),
              "got %d (%s)", r, err.message);
    vs_asset_free(a);
    free(b.data);
    /* The same check holds for text decoded from UTF-16. */
    bytes cube = cube_body();
    size_t size = 0;
    char *doc = cube.data ? document("UTF-16", "", &cube, &size) : NULL;
    if (doc) {
        bytes u16 = encode("\xFF\xFE", doc, size, "UTF-16LE");
        opt.limits.max_total_memory = 3 * u16.size;
        r = load_bytes(&u16, &opt, &a, &err);
        CHECK_MSG(r == VS_ERROR_LIMIT &&
                      strstr(err.message, "out of the memory budget"),
                  "got %d (%s)", r, err.message);
        vs_asset_free(a);
        free(u16.data);
    }
    free(doc);
    free(cube.data);
}

int main(void)
{
    RUN(dtd_in_every_encoding_is_refused);
    RUN(dtd_free_files_load_in_every_encoding);
    RUN(billion_laughs_in_utf16_is_refused);
    RUN(attribute_bomb_is_refused_in_linear_time);
    RUN(float_array_beyond_libxml2_text_limit_loads);
    RUN(memory_budget_covers_the_xml_tree);
    return test_summary();
}
