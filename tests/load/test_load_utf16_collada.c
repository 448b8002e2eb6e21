/* SPDX-License-Identifier: MIT */
/* Format detection takes COLLADA in UTF-16 for COLLADA: with a byte order
 * mark (little- or big-endian) or big-endian without one, the file loads
 * as its UTF-8 original does, while other UTF-16 text is still refused as
 * neither glTF nor COLLADA. */
#include "test.h"
#include "vskin/vskin.h"

#define CUBE VS_TEST_DATA "/collada/cube.dae"

typedef struct bytes {
    char *data;
    size_t size;
} bytes;

/* `mark`, then the ASCII `text` as UTF-16 (little-endian when `little`),
 * with its declaration's encoding="utf-8" made "UTF-16"; malloc'd. */
static bytes widen(const char *mark, const char *text, bool little)
{
    static const char from[] = "encoding=\"utf-8\"";
    static const char to[] = "encoding=\"UTF-16\"";
    const char *decl = strstr(text, from);
    size_t m = strlen(mark), n = strlen(text) + sizeof to;
    bytes b = {malloc(m + 2 * n), m};
    if (!b.data) return b;
    memcpy(b.data, mark, m);
    for (const char *c = text; *c; ++c) {
        const char *piece = c == decl ? to : (char[2]){*c, '\0'};
        for (const char *p = piece; *p; ++p) {
            b.data[b.size + !little] = *p;
            b.data[b.size + little] = '\0';
            b.size += 2;
        }
        if (c == decl) c += sizeof from - 2;
    }
    return b;
}

static void utf16_collada_loads_as_the_original(void)
{
    vs_asset *want = NULL, *got = NULL;
    vs_error e;
    CHECK_MSG(vs_asset_load_file(CUBE, NULL, &want, &e) == VS_OK, "%s",
              e.message);
    char *text = NULL;
    size_t size = 0;
    FILE *f = fopen(CUBE, "rb");
    if (f && fseek(f, 0, SEEK_END) == 0 && (size = (size_t)ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (text = calloc(1, size + 1)))
        CHECK(fread(text, 1, size, f) == size);
    if (f) fclose(f);
    CHECK(text && strstr(text, "encoding=\"utf-8\""));
    if (!want || !text) {
        vs_asset_free(want);
        free(text);
        return;
    }
    static const struct {
        const char *name, *mark;
        bool little;
    } forms[] = {
        {"UTF-16LE with a mark", "\xFF\xFE", true},
        {"UTF-16BE with a mark", "\xFE\xFF", false},
        {"UTF-16BE without one", "", false},
        {"UTF-16LE without one", "", true},
    };
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; ++k) {
        bytes b = widen(forms[k].mark, text, forms[k].little);
        CHECK(b.data != NULL);
        if (!b.data) continue;
        vs_result r =
            vs_asset_load_memory(b.data, b.size, "cube16.dae", NULL, &got, &e);
        CHECK_MSG(r == VS_OK, "%s: %s", forms[k].name, e.message);
        if (r == VS_OK) {
            CHECK(got->node_count == want->node_count &&
                  got->mesh_count == want->mesh_count);
            const vs_primitive *p = &got->meshes[0].primitives[0];
            const vs_primitive *q = &want->meshes[0].primitives[0];
            CHECK(p->vertex_count == q->vertex_count &&
                  memcmp(p->positions, q->positions,
                         12 * (size_t)q->vertex_count) == 0);
        }
        vs_asset_free(got);
        got = NULL;
        free(b.data);
    }
    vs_asset_free(want);
    free(text);
}

static void other_utf16_text_is_refused(void)
{
    /* JSON and plain words in UTF-16: glTF is UTF-8 only. */
    static const char *const texts[] = {"{\"asset\":{}}", "  hello <", ""};
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; ++k) {
        bytes b = widen("\xFF\xFE", texts[k], true);
        if (!b.data) continue;
        vs_asset *a = NULL;
        vs_error e;
        CHECK(vs_asset_load_memory(b.data, b.size, "text16", NULL, &a, &e) ==
              VS_ERROR_PARSE);
        CHECK_MSG(strstr(e.message, "not a glTF") != NULL, "%s", e.message);
        CHECK(a == NULL);
        free(b.data);
    }
}

int main(void)
{
    RUN(utf16_collada_loads_as_the_original);
    RUN(other_utf16_text_is_refused);
    return test_summary();
}
