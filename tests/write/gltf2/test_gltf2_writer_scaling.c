/* SPDX-License-Identifier: MIT */
/* The glTF 2.0 writer's time grows with its input, not with a product of
 * its parts: many skinned nodes sharing one big skin, many scenes, a deep
 * chain of joints under one skeleton. Each shape is written at 1x, 4x and
 * 16x its size; a linear pass takes about 16 times as long at 16x, a
 * quadratic one 256 times. The test asserts a generous bound on the ratio
 * (best of three runs each, plus a small allowance for timer noise), so it
 * catches a quadratic pass without depending on the machine's speed. */
#include <stdarg.h>
#include <time.h>

#include "test.h"
#include "text_builder.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* One triangle skinned to joint 0, as a data URI. */
static void put_mesh(text *t)
{
    put(t, "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
           "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],"
           "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,"
           "\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]},"
           "{\"bufferView\":1,\"componentType\":5123,\"count\":3,"
           "\"type\":\"VEC4\"},{\"bufferView\":2,\"componentType\":5126,"
           "\"count\":3,\"type\":\"VEC4\"}],"
           "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,"
           "\"byteOffset\":36,\"byteLength\":24},{\"buffer\":0,"
           "\"byteOffset\":60,\"byteLength\":48}],"
           "\"buffers\":[{\"byteLength\":108,\"uri\":\"data:application/"
           "octet-stream;base64,"
           "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAA"
           "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/"
           "AAAAAAAAAAAAAAAA\"}]");
}

/* n skinned nodes, all using one skin of n joints under one root. */
static char *shared_skin(uint32_t n)
{
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{"
            "\"nodes\":[");
    for (uint32_t i = 0; i <= n; ++i)
        put(&t, i ? ",%u" : "%u", i);
    put(&t, "]}],\"nodes\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "{\"mesh\":0,\"skin\":0},");
    put(&t, "{\"children\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, i ? ",%u" : "%u", n + 1 + i);
    put(&t, "]}");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, ",{}");
    put(&t, "],\"skins\":[{\"joints\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, i ? ",%u" : "%u", n + 1 + i);
    put(&t, "]}],");
    put_mesh(&t);
    put(&t, "}");
    return t.s;
}

/* n scenes, each listing one skinned node whose joint is its own root. */
static char *many_scenes(uint32_t n)
{
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, i ? ",{\"nodes\":[%u]}" : "{\"nodes\":[%u]}", i);
    put(&t, "],\"nodes\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "{\"mesh\":0,\"skin\":%u},", i);
    for (uint32_t i = 0; i < n; ++i)
        put(&t, i ? ",{}" : "{}");
    put(&t, "],\"skins\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, i ? ",{\"joints\":[%u]}" : "{\"joints\":[%u]}", n + i);
    put(&t, "],");
    put_mesh(&t);
    put(&t, "}");
    return t.s;
}

/* A chain of n/4 joints (under the loaders' depth limit) with a skin of all
 * of them and its skeleton at the top, used by n skinned nodes. */
static char *deep_chain(uint32_t n)
{
    uint32_t depth = n / 4 < 900 ? n / 4 : 900;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{"
            "\"nodes\":[");
    for (uint32_t i = 0; i <= n; ++i)
        put(&t, i ? ",%u" : "%u", i);
    put(&t, "]}],\"nodes\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "{\"mesh\":0,\"skin\":0},");
    /* Node n is the top of the chain; node n + k is k levels down, and
     * extra leaves hang under the bottom so the skin has n joints. */
    for (uint32_t k = 0; k < depth; ++k)
        put(&t, k ? ",{\"children\":[%u]}" : "{\"children\":[%u]}", n + k + 1);
    put(&t, ",{\"children\":[");
    for (uint32_t i = 0; i + depth + 1 < n; ++i)
        put(&t, i ? ",%u" : "%u", n + depth + 1 + i);
    put(&t, "]}");
    for (uint32_t i = 0; i + depth + 1 < n; ++i)
        put(&t, ",{}");
    put(&t, "],\"skins\":[{\"skeleton\":%u,\"joints\":[", n);
    for (uint32_t i = 0; i < n; ++i)
        put(&t, i ? ",%u" : "%u", n + i);
    put(&t, "]}],");
    put_mesh(&t);
    put(&t, "}");
    return t.s;
}

/* Seconds of CPU to write the asset that json describes (best of 3). */
static double write_seconds(const char *json, const char *what)
{
    vs_asset *asset = NULL;
    vs_error err;
    vs_result r =
        vs_asset_load_memory(json, strlen(json), what, NULL, &asset, &err);
    CHECK_MSG(r == VS_OK, "%s: %s", what, err.message);
    if (r != VS_OK) return 0.0;
    double best = 1e30;
    for (int run = 0; run < 3; ++run) {
        clock_t start = clock();
        r = vs_write_gltf(asset, VS_TEST_TMP "/scaling.glb", NULL, NULL, &err);
        double s = (double)(clock() - start) / CLOCKS_PER_SEC;
        CHECK_MSG(r == VS_OK, "%s: %s", what, err.message);
        if (s < best) best = s;
    }
    vs_asset_free(asset);
    return best;
}

static void check_shape(const char *name, char *(*make)(uint32_t),
                        uint32_t base)
{
    double seconds[3];
    for (int k = 0; k < 3; ++k) {
        uint32_t n = base << (2 * k);
        char *json = make(n);
        seconds[k] = write_seconds(json, name);
        free(json);
    }
    printf("     %s: %.4f s, %.4f s, %.4f s at 1x, 4x, 16x (%u..%u)\n", name,
           seconds[0], seconds[1], seconds[2], base, base << 4);
    /* Linear: 16x. Quadratic: 256x. The allowance absorbs timer noise on
     * the smallest size. */
    CHECK_MSG(seconds[2] <= 48.0 * seconds[0] + 0.05,
              "%s: 16x the input took %.1fx the time", name,
              seconds[0] > 0 ? seconds[2] / seconds[0] : 0.0);
}

static void the_writer_scales_linearly(void)
{
    check_shape("shared skin", shared_skin, 250);
    check_shape("many scenes", many_scenes, 250);
    check_shape("deep chain", deep_chain, 250);
}

int main(void)
{
    RUN(the_writer_scales_linearly);
    remove(VS_TEST_TMP "/scaling.glb");
    return test_summary();
}
