/* SPDX-License-Identifier: MIT */
/* One memory budget for the whole load (vs_limits.max_total_memory,
 * docs/design/robustness.md): the JSON tree is bounded from the text and
 * refused before parsing, a parse that fails for want of memory says so,
 * the loader's temporaries and the asset share the budget (the memory a
 * load holds at once stays under it), the buffers a file reader returns
 * count, and the work done per instance is refused past
 * max_instanced_vertices. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/gltf2/gltf2_fixture.h"
#include "load/json_scan.h"
#include "test.h"
#include "vskin/vskin.h"

static vs_result load(const char *json, const vs_load_options *opt,
                      vs_error *err)
{
    vs_asset *asset = NULL;
    vs_result r =
        vs_asset_load_memory(json, strlen(json), "b.gltf", opt, &asset, err);
    CHECK((r == VS_OK) == (asset != NULL));
    vs_asset_free(asset);
    return r;
}

/* ---- cJSON's own allocations, seen through its hooks (which the test,
 * not vskin, may set) */

static size_t json_live, json_peak, json_fail_at, json_calls;

static void *json_malloc(size_t size)
{
    if (json_fail_at && ++json_calls >= json_fail_at) return NULL;
    size_t *p = malloc(size + 16);
    if (!p) return NULL;
    *p = size;
    /* What a block costs: its size and the C library's header. */
    json_live += size + 16;
    if (json_live > json_peak) json_peak = json_live;
    return (char *)p + 16;
}

static void json_free(void *ptr)
{
    if (!ptr) return;
    size_t *p = (size_t *)((char *)ptr - 16);
    json_live -= *p + 16;
    free(p);
}

static void json_hooks(bool on)
{
    cJSON_Hooks hooks = {json_malloc, json_free};
    cJSON_InitHooks(on ? &hooks : NULL);
    json_live = json_peak = json_calls = json_fail_at = 0;
}

/* A glTF whose JSON is mostly a deep pile of small values. */
static char *many_values(uint32_t n, const char *each)
{
    size_t len = strlen(each), cap = 64 + (size_t)n * (len + 1);
    char *s = malloc(cap);
    if (!s) abort();
    size_t at = (size_t)snprintf(
        s, cap, "{\"asset\":{\"version\":\"2.0\"},\"extras\":[");
    for (uint32_t i = 0; i < n; ++i) {
        memcpy(s + at, each, len);
        at += len;
        s[at++] = i + 1 < n ? ',' : ']';
    }
    memcpy(s + at, "}", 2);
    return s;
}

static void test_json_bound_covers_cjson(void)
{
    const char *samples[] = {
        "{\"a\":[[],[],{}],\"bb\":\"text \\\"quoted\\\" \\u00e9\",\"c\":1.5e3}",
        "[1,2,3,true,false,null,\"x\",{\"k\":{\"k\":{\"k\":[]}}}]",
        "{\"\":\"\",\"x\":[\"\",\"\",\"\"]}",
        "  {\"trailing\": 1}  garbage after the value",
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; ++i) {
        json_hooks(true);
        cJSON *root = cJSON_Parse(samples[i]);
        CHECK(root != NULL);
        size_t peak = json_peak;
        cJSON_Delete(root);
        json_hooks(false);
        json_tree_bound b = json_tree_bound_of(samples[i], strlen(samples[i]));
        CHECK_MSG(peak <= b.bytes,
                  "sample %zu: cJSON took %zu bytes, bound %llu", i, peak,
                  (unsigned long long)b.bytes);
    }
    char *big = many_values(10000, "[]");
    json_hooks(true);
    cJSON *root = cJSON_Parse(big);
    size_t peak = json_peak;
    cJSON_Delete(root);
    json_hooks(false);
    json_tree_bound b = json_tree_bound_of(big, strlen(big));
    CHECK(peak <= b.bytes);
    /* Tight enough to mean something: within a small factor. */
    CHECK(b.bytes <= 4 * (uint64_t)peak);
    free(big);
}

static void test_well_formed_is_strict(void)
{
    const char *good[] = {"{}", "[]", " {\"a\":[1,-2.5e+3,true,null]} x",
                          "\"\\ud83d\\ude00\"", "{\"a\":{\"b\":[{}]}}"};
    const char *bad[] = {"",           "{",     "[1,]",        "{\"a\"}",
                         "{\"a\":1,}", "[01]",  "\"\\ud800\"", "\"\\udc00\"",
                         "\"\\x\"",    "[1 2]", "tru",         "{1:2}"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i)
        CHECK_MSG(json_well_formed(good[i], strlen(good[i]), NULL), "%s",
                  good[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK_MSG(!json_well_formed(bad[i], strlen(bad[i]), NULL), "%s",
                  bad[i]);
    /* Deeper than cJSON parses is not well formed either. */
    size_t depth = CJSON_NESTING_LIMIT + 1;
    char *deep = malloc(2 * depth + 1);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[2 * depth] = '\0';
    CHECK(!json_well_formed(deep, 2 * depth, NULL));
    CHECK(json_well_formed(deep + 1, 2 * depth - 2, NULL));
    free(deep);
}

static void test_json_tree_past_budget_is_refused_before_parsing(void)
{
    /* 3 bytes of text per value, some 90 bytes of tree per value. */
    char *json = many_values(200000, "[]");
    vs_load_options opt = {.limits.max_total_memory = 8u << 20};
    vs_error err;
    json_hooks(true);
    CHECK(load(json, &opt, &err) == VS_ERROR_LIMIT);
    CHECK_MSG(json_peak == 0, "cJSON allocated %zu bytes", json_peak);
    json_hooks(false);
    CHECK_MSG(strstr(err.message, "b.gltf: parsing the JSON takes up to") &&
                  strstr(err.message, "max_total_memory: 8388608 bytes"),
              "%s", err.message);
    /* The same file within a budget that holds it loads. */
    opt.limits.max_total_memory = 64u << 20;
    CHECK_MSG(load(json, &opt, &err) == VS_OK, "%s", err.message);
    free(json);
}

static void test_parse_out_of_memory_is_not_invalid_json(void)
{
    char *json = many_values(1000, "{\"a\":1}");
    vs_error err;
    json_hooks(true);
    json_fail_at = 500;
    CHECK(load(json, NULL, &err) == VS_ERROR_OUT_OF_MEMORY);
    json_hooks(false);
    CHECK_MSG(strstr(err.message, "b.gltf: out of memory parsing the JSON"),
              "%s", err.message);
    /* Text that is not JSON still says so. */
    json[strlen(json) - 3] = ',';
    CHECK(load(json, NULL, &err) == VS_ERROR_PARSE);
    CHECK_MSG(strstr(err.message, "invalid JSON near byte"), "%s", err.message);
    free(json);
}

/* ---- the memory vskin holds at once, through its allocator */

typedef struct held {
    size_t live, peak;
} held;

static void *held_alloc(size_t size, void *user)
{
    held *h = user;
    size_t *p = malloc(size + 16);
    if (!p) return NULL;
    *p = size;
    h->live += size;
    if (h->live > h->peak) h->peak = h->live;
    return (char *)p + 16;
}

static void held_free(void *ptr, void *user)
{
    held *h = user;
    size_t *p = (size_t *)((char *)ptr - 16);
    h->live -= *p;
    free(p);
}

/* A triangle with many view-less indices, decoded last: the temporary
 * that holds them lives while the asset holds nearly all it will. */
static char *indexed_zeros(uint32_t indices)
{
    return fx_format(
        "{\"asset\":{\"version\":\"2.0\"},\"accessors\":["
        "{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[0,0,0]},"
        "{\"componentType\":5125,\"count\":%u,\"type\":\"SCALAR\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
        "\"indices\":1}]}],"
        "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}",
        indices);
}

static void test_one_budget_for_asset_and_temporaries(void)
{
    char *json = indexed_zeros(300000);
    held h = {0, 0};
    vs_load_options opt = {.allocator = {held_alloc, held_free, &h}};
    vs_error err;
    /* The smallest budget the load fits in. */
    uint64_t lo = 1, hi = 1u << 30;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        opt.limits.max_total_memory = mid;
        if (load(json, &opt, &err) == VS_OK)
            hi = mid;
        else
            lo = mid + 1;
    }
    opt.limits.max_total_memory = lo;
    h = (held){0, 0};
    CHECK_MSG(load(json, &opt, &err) == VS_OK, "%s", err.message);
    /* What vskin held at once stays within it: the arena's unused tail
     * of its last block and the block headers are the only slack. */
    CHECK_MSG(h.peak <= lo + (256u << 10),
              "held %zu bytes at once under a budget of %llu", h.peak,
              (unsigned long long)lo);
    /* One byte less fails with a message that names the budget. */
    opt.limits.max_total_memory = lo - 1;
    CHECK(load(json, &opt, &err) == VS_ERROR_LIMIT);
    CHECK_MSG(strstr(err.message, "b.gltf: ") == err.message &&
                  strstr(err.message, "exceed the memory limit") &&
                  strstr(err.message, "max_total_memory"),
              "%s", err.message);
    free(json);
}

/* ---- buffers a file reader returns */

static vs_result big_bin(const char *path, uint64_t max_size, void **data,
                         size_t *size, vs_error *error, void *user)
{
    (void)max_size;
    (void)error;
    if (strcmp(path, "dir/big.bin") != 0) return VS_ERROR_IO;
    *data = user;
    *size = 1u << 20;
    return VS_OK;
}

static void test_reader_buffers_count(void)
{
    static uint8_t bytes[1u << 20];
    const char *json = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":["
                       "{\"byteLength\":1048576,\"uri\":\"big.bin\"}]}";
    vs_load_options opt = {.base_dir = "dir",
                           .file_reader = {big_bin, NULL, bytes},
                           .limits.max_total_memory = 512u << 10};
    vs_error err;
    CHECK(load(json, &opt, &err) == VS_ERROR_LIMIT);
    CHECK_MSG(strstr(err.message, "big.bin") &&
                  strstr(err.message, "exceeds the memory limit"),
              "%s", err.message);
    opt.limits.max_total_memory = 4u << 20;
    CHECK_MSG(load(json, &opt, &err) == VS_OK, "%s", err.message);
}

/* ---- work per instance */

/* nodes instances of one mesh of `vertices` vertices, each with a skin of
 * its own: the per-joint bounds are built once per (mesh, skin) pair. */
static char *distinct_skins(uint32_t nodes, uint32_t vertices)
{
    size_t cap = 1024 + (size_t)nodes * 64;
    char *s = malloc(cap);
    if (!s) abort();
    size_t at = (size_t)snprintf(
        s, cap,
        "{\"asset\":{\"version\":\"2.0\"},\"accessors\":["
        "{\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[0,0,0]},"
        "{\"componentType\":5121,\"count\":%u,\"type\":\"VEC4\"},"
        "{\"componentType\":5126,\"count\":%u,\"type\":\"VEC4\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
        "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],\"skins\":[",
        vertices, vertices, vertices);
    for (uint32_t i = 0; i < nodes; ++i)
        at += (size_t)snprintf(s + at, cap - at, "{\"joints\":[%u]}%s", nodes,
                               i + 1 < nodes ? "," : "],\"nodes\":[");
    for (uint32_t i = 0; i < nodes; ++i)
        at +=
            (size_t)snprintf(s + at, cap - at, "{\"mesh\":0,\"skin\":%u},", i);
    snprintf(s + at, cap - at, "{}]}");
    return s;
}

static void test_instanced_vertices_are_bounded(void)
{
    char *json = distinct_skins(100, 10000);
    vs_error err;
    CHECK_MSG(load(json, NULL, &err) == VS_OK, "%s", err.message);
    vs_load_options opt = {.limits.max_instanced_vertices = 999999};
    CHECK(load(json, &opt, &err) == VS_ERROR_LIMIT);
    CHECK_MSG(strstr(err.message, "b.gltf: instances: the bounds of 100 "
                                  "distinct mesh and skin pairs visit "
                                  "1000000 vertices") &&
                  strstr(err.message, "max_instanced_vertices"),
              "%s", err.message);
    opt.limits.max_instanced_vertices = 1000000;
    CHECK_MSG(load(json, &opt, &err) == VS_OK, "%s", err.message);
    free(json);
    /* glTF 1.0: jointNames x skeletons per skin instance. */
    const char *gltf1 =
        "{\"asset\":{\"version\":\"1.0\"},"
        "\"skins\":{\"s\":{\"jointNames\":[\"a\",\"b\"]}},"
        "\"nodes\":{\"r\":{\"jointName\":\"a\",\"children\":[\"c\"]},"
        "\"c\":{\"jointName\":\"b\"},"
        "\"u\":{\"skin\":\"s\",\"skeletons\":[\"r\",\"c\"]}}}";
    opt.limits.max_instanced_vertices = 3;
    CHECK(load(gltf1, &opt, &err) == VS_ERROR_LIMIT);
    CHECK_MSG(strstr(err.message, "max_instanced_vertices"), "%s", err.message);
    opt.limits.max_instanced_vertices = 4;
    CHECK_MSG(load(gltf1, &opt, &err) == VS_OK, "%s", err.message);
}

int main(void)
{
    RUN(test_json_bound_covers_cjson);
    RUN(test_well_formed_is_strict);
    RUN(test_json_tree_past_budget_is_refused_before_parsing);
    RUN(test_parse_out_of_memory_is_not_invalid_json);
    RUN(test_one_budget_for_asset_and_temporaries);
    RUN(test_reader_buffers_count);
    RUN(test_instanced_vertices_are_bounded);
    return test_summary();
}
