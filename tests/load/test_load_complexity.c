/* SPDX-License-Identifier: MIT */
/* A load's time grows with its input, not faster (docs/robustness.md): for
 * each kind of input that once cost a product of two of its sizes (mesh
 * instances x vertices, scene roots x mesh nodes, glTF 1.0 skin instances x
 * nodes, animation channels x time groups, morph-weight channels x keys,
 * extension names x extension names, merged glTF 1.0 mesh names, skin
 * joints x hierarchy depth for skin.skeleton, references to an accessor x
 * the members of its JSON object, glTF 1.0 samplers x animation
 * parameters), files
 * 1x, 4x and 16x as large are generated and loaded. A benchmark-style
 * measurement, not a timed assertion: the best of three clock() readings
 * of the 16x file may be at most 8 times the 4x one (a linear load is
 * about 4x, a quadratic one 16x), plus a floor that absorbs noise. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"
#include "text_builder.h"
#include "vskin/vskin.h"

/* Drops a trailing ',' (the generators end each list item with one). */
static void unput_comma(text *t)
{
    if (t->len && t->s[t->len - 1] == ',') t->s[--t->len] = '\0';
}

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* n floats first, first + 1, ... as a base64 data URI body. */
static void put_floats_b64(text *t, uint32_t n, float first)
{
    unsigned char *bytes = malloc((size_t)n * 4 + 3);
    if (!bytes) abort();
    for (uint32_t i = 0; i < n; ++i) {
        float f = first + (float)i;
        memcpy(bytes + 4 * (size_t)i, &f, 4);
    }
    size_t len = (size_t)n * 4;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)bytes[i] << 16;
        if (i + 1 < len) v |= (uint32_t)bytes[i + 1] << 8;
        if (i + 2 < len) v |= bytes[i + 2];
        put(t, "%c%c%c%c", b64[v >> 18], b64[(v >> 12) & 63],
            i + 1 < len ? b64[(v >> 6) & 63] : '=',
            i + 2 < len ? b64[v & 63] : '=');
    }
    free(bytes);
}

typedef char *(*generator)(uint32_t k);

/* nodes mesh instances of one skinned mesh of vertices view-less
 * vertices (zeros: no bytes in the file), all sharing one skin. */
static char *instances_x_vertices(uint32_t k)
{
    const uint32_t nodes = 40 * k, vertices = 20000 * k;
    text t = {0};
    put(&t,
        "{\"asset\":{\"version\":\"2.0\"},\"accessors\":["
        "{\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[0,0,0]},"
        "{\"componentType\":5121,\"count\":%u,\"type\":\"VEC4\"},"
        "{\"componentType\":5126,\"count\":%u,\"type\":\"VEC4\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
        "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],"
        "\"skins\":[{\"joints\":[%u]}],\"nodes\":[",
        vertices, vertices, vertices, nodes);
    for (uint32_t i = 0; i < nodes; ++i)
        put(&t, "{\"mesh\":0,\"skin\":0},");
    put(&t, "{}],\"scenes\":[{\"nodes\":[");
    for (uint32_t i = 0; i <= nodes; ++i)
        put(&t, "%u,", i);
    unput_comma(&t);
    put(&t, "]}]}");
    return t.s;
}

/* One-vertex mesh instanced by as many scene roots. */
static char *roots_x_mesh_nodes(uint32_t k)
{
    const uint32_t nodes = 2500 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"accessors\":["
            "{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\","
            "\"min\":[0,0,0],\"max\":[0,0,0]}],"
            "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}"
            "],\"nodes\":[");
    for (uint32_t i = 0; i < nodes; ++i)
        put(&t, "{\"mesh\":0},");
    unput_comma(&t);
    put(&t, "],\"scenes\":[{\"nodes\":[");
    for (uint32_t i = 0; i < nodes; ++i)
        put(&t, "%u,", i);
    unput_comma(&t);
    put(&t, "]}]}");
    return t.s;
}

/* glTF 1.0: as many skins as joint nodes, each skin used by its own node,
 * so every skin instance looks its jointName up among all nodes. */
static char *gltf1_skins_x_nodes(uint32_t k)
{
    const uint32_t n = 1000 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"1.0\"},\"skins\":{");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"s%u\":{\"jointNames\":[\"j%u\"]},", i, i);
    unput_comma(&t);
    put(&t, "},\"nodes\":{");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"j%u\":{\"jointName\":\"j%u\"},\"u%u\":{\"skin\":\"s%u\"},",
            i, i, i, i);
    unput_comma(&t);
    put(&t, "}}");
    return t.s;
}

/* One clip of as many translation channels (one per node) as samplers,
 * each sampler with its own key time: as many time groups as channels. */
static char *channels_x_groups(uint32_t k)
{
    const uint32_t n = 1500 * k;
    text t = {0};
    put(&t,
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%u,"
        "\"uri\":\"data:application/octet-stream;base64,",
        4 * n);
    put_floats_b64(&t, n, 0.0f);
    put(&t,
        "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%u}],"
        "\"accessors\":[",
        4 * n);
    for (uint32_t i = 0; i < n; ++i)
        put(&t,
            "{\"bufferView\":0,\"byteOffset\":%u,\"componentType\":5126,"
            "\"count\":1,\"type\":\"SCALAR\",\"min\":[0],\"max\":[0]},",
            4 * i);
    put(&t, "{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
            "\"nodes\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "{},");
    unput_comma(&t);
    put(&t, "],\"animations\":[{\"samplers\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "{\"input\":%u,\"output\":%u},", i, n);
    unput_comma(&t);
    put(&t, "],\"channels\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t,
            "{\"sampler\":%u,\"target\":{\"node\":%u,\"path\":"
            "\"translation\"}},",
            i, i);
    unput_comma(&t);
    put(&t, "]}]}");
    return t.s;
}

/* One morph-weight sampler of many keys driving as many nodes. */
static char *weight_channels_x_keys(uint32_t k)
{
    const uint32_t nodes = 400 * k, keys = 4000 * k;
    text t = {0};
    put(&t,
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%u,"
        "\"uri\":\"data:application/octet-stream;base64,",
        4 * keys);
    put_floats_b64(&t, keys, 0.0f);
    put(&t,
        "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%u}],"
        "\"accessors\":["
        "{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[0,0,0]},"
        "{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[0,0,0]},"
        "{\"bufferView\":0,\"componentType\":5126,\"count\":%u,"
        "\"type\":\"SCALAR\",\"min\":[0],\"max\":[%u]},"
        "{\"componentType\":5126,\"count\":%u,\"type\":\"SCALAR\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
        "\"targets\":[{\"POSITION\":1}]}]}],\"nodes\":[",
        4 * keys, keys, keys - 1, keys);
    for (uint32_t i = 0; i < nodes; ++i)
        put(&t, "{\"mesh\":0},");
    unput_comma(&t);
    put(&t, "],\"animations\":[{\"samplers\":[{\"input\":2,\"output\":3}],"
            "\"channels\":[");
    for (uint32_t i = 0; i < nodes; ++i)
        put(&t,
            "{\"sampler\":0,\"target\":{\"node\":%u,\"path\":"
            "\"weights\"}},",
            i);
    unput_comma(&t);
    put(&t, "]}]}");
    return t.s;
}

/* As many distinct extensionsUsed names (none required). */
static char *extension_names(uint32_t k)
{
    const uint32_t n = 2000 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"EXT_name_%u\",", i);
    unput_comma(&t);
    put(&t, "]}");
    return t.s;
}

/* glTF 1.0: one node listing the same mesh many times, merged into one
 * mesh whose name joins theirs. */
static char *gltf1_merged_names(uint32_t k)
{
    const uint32_t n = 3000 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"1.0\"},\"meshes\":{\"m\":{\"name\":"
            "\"a_rather_long_mesh_name\",\"primitives\":[]}},"
            "\"nodes\":{\"n\":{\"meshes\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"m\",");
    unput_comma(&t);
    put(&t, "]}}}");
    return t.s;
}

/* A chain of nodes, every one a joint of one skin whose skeleton is the
 * chain's root (so every joint's ancestry is checked). */
static char *skeleton_x_depth(uint32_t k)
{
    const uint32_t n = 2000 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"accessors\":["
            "{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\","
            "\"min\":[0,0,0],\"max\":[0,0,0]}],"
            "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}"
            "],\"skins\":[{\"skeleton\":0,\"joints\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "%u,", i);
    unput_comma(&t);
    put(&t, "]}],\"nodes\":[");
    for (uint32_t i = 0; i + 1 < n; ++i)
        put(&t, "{\"children\":[%u]},", i + 1);
    put(&t, "{}, {\"mesh\":0,\"skin\":0}]}");
    return t.s;
}

/* One accessor whose JSON object has many (ignored) members, read by as
 * many primitives. */
static char *accessor_members_x_references(uint32_t k)
{
    const uint32_t n = 300 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"2.0\"},\"accessors\":["
            "{\"componentType\":5126,\"count\":1,\"type\":\"VEC3\",");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"x%u\":0,", i);
    put(&t, "\"min\":[0,0,0],\"max\":[0,0,0]}],\"meshes\":[{\"primitives\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "{\"attributes\":{\"POSITION\":0}},");
    unput_comma(&t);
    put(&t, "]}]}");
    return t.s;
}

/* The same in glTF 1.0 (a node instances the mesh so it is loaded). */
static char *gltf1_accessor_members_x_references(uint32_t k)
{
    const uint32_t n = 600 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"1.0\"},\"buffers\":{\"b\":{"
            "\"byteLength\":12,\"uri\":\"data:application/octet-stream;"
            "base64,AAAAAAAAAAAAAAAA\"}},\"bufferViews\":{\"v\":{"
            "\"buffer\":\"b\",\"byteLength\":12}},\"accessors\":{\"a\":{"
            "\"bufferView\":\"v\",\"componentType\":5126,\"count\":1,");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"x%u\":0,", i);
    put(&t, "\"type\":\"VEC3\"}},\"meshes\":{\"m\":{\"primitives\":[");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "{\"attributes\":{\"POSITION\":\"a\"}},");
    unput_comma(&t);
    put(&t, "]}},\"nodes\":{\"n\":{\"meshes\":[\"m\"]}}}");
    return t.s;
}

/* glTF 1.0: an animation whose samplers each name two of its many
 * parameters. */
static char *gltf1_samplers_x_parameters(uint32_t k)
{
    const uint32_t n = 1000 * k;
    text t = {0};
    put(&t, "{\"asset\":{\"version\":\"1.0\"},\"buffers\":{\"b\":{"
            "\"byteLength\":16,\"uri\":\"data:application/octet-stream;"
            "base64,AAAAAAAAAAAAAAAAAAAAAA==\"}},\"bufferViews\":{\"v\":{"
            "\"buffer\":\"b\",\"byteLength\":16}},\"accessors\":{"
            "\"t\":{\"bufferView\":\"v\",\"componentType\":5126,"
            "\"count\":1,\"type\":\"SCALAR\"},"
            "\"x\":{\"bufferView\":\"v\",\"byteOffset\":4,"
            "\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}},"
            "\"animations\":{\"a\":{\"parameters\":{");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"i%u\":\"t\",\"o%u\":\"x\",", i, i);
    unput_comma(&t);
    put(&t, "},\"samplers\":{");
    for (uint32_t i = 0; i < n; ++i)
        put(&t, "\"s%u\":{\"input\":\"i%u\",\"output\":\"o%u\"},", i, i, i);
    unput_comma(&t);
    put(&t, "}}}}");
    return t.s;
}

/* Best of three loads of json; the load must succeed. Deep hierarchies
 * are what one kind measures, so the depth limit is lifted. */
static double load_seconds(const char *json, const char *kind)
{
    const vs_load_options options = {.limits.max_depth = 1u << 30};
    double best = 1e30;
    for (int run = 0; run < 3; ++run) {
        vs_asset *asset = NULL;
        vs_error err;
        clock_t t0 = clock();
        vs_result r = vs_asset_load_memory(json, strlen(json), kind, &options,
                                           &asset, &err);
        double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
        CHECK_MSG(r == VS_OK, "%s: %s", kind, err.message);
        vs_asset_free(asset);
        if (s < best) best = s;
        if (r != VS_OK) break;
    }
    return best;
}

static void check_scaling(const char *kind, generator make)
{
    double t[3];
    size_t bytes[3];
    const uint32_t ks[3] = {1, 4, 16};
    for (int i = 0; i < 3; ++i) {
        char *json = make(ks[i]);
        bytes[i] = strlen(json);
        t[i] = load_seconds(json, kind);
        free(json);
    }
    printf("%-24s 1x %8zu B %.4f s | 4x %.4f s | 16x %8zu B %.4f s\n", kind,
           bytes[0], t[0], t[1], bytes[2], t[2]);
    /* Judged by the last step, 4x to 16x the input: linear work grows
     * about 4x there, work quadratic in the input 16x. The first step may
     * also cross a cache size once: under a CPU emulator a linear load
     * can grow far more than 4x over that step alone (the 1x input fits
     * what the larger ones do not), and about 4x over the next. The floor
     * absorbs a loaded machine's noise at the small sizes. */
    CHECK_MSG(t[2] <= 8.0 * t[1] + 0.02,
              "%s: 16x the input took %.3f s, 4x %.4f s: not linear", kind,
              t[2], t[1]);
}

static void test_instances_x_vertices(void)
{
    check_scaling("instances x vertices", instances_x_vertices);
}

static void test_scene_roots_x_mesh_nodes(void)
{
    check_scaling("roots x mesh nodes", roots_x_mesh_nodes);
}

static void test_gltf1_skin_instances_x_nodes(void)
{
    check_scaling("gltf1 skins x nodes", gltf1_skins_x_nodes);
}

static void test_channels_x_time_groups(void)
{
    check_scaling("channels x time groups", channels_x_groups);
}

static void test_weight_channels_x_keys(void)
{
    check_scaling("weight channels x keys", weight_channels_x_keys);
}

static void test_extension_names(void)
{
    check_scaling("extension names", extension_names);
}

static void test_gltf1_merged_mesh_names(void)
{
    check_scaling("gltf1 merged mesh names", gltf1_merged_names);
}

static void test_skin_joints_x_depth(void)
{
    check_scaling("skin joints x depth", skeleton_x_depth);
}

static void test_accessor_members_x_references(void)
{
    check_scaling("accessor members x refs", accessor_members_x_references);
}

static void test_gltf1_accessor_members_x_references(void)
{
    check_scaling("gltf1 accessor members x refs",
                  gltf1_accessor_members_x_references);
}

static void test_gltf1_samplers_x_parameters(void)
{
    check_scaling("gltf1 samplers x params", gltf1_samplers_x_parameters);
}

int main(void)
{
    RUN(test_instances_x_vertices);
    RUN(test_scene_roots_x_mesh_nodes);
    RUN(test_gltf1_skin_instances_x_nodes);
    RUN(test_channels_x_time_groups);
    RUN(test_weight_channels_x_keys);
    RUN(test_extension_names);
    RUN(test_gltf1_merged_mesh_names);
    RUN(test_skin_joints_x_depth);
    RUN(test_accessor_members_x_references);
    RUN(test_gltf1_accessor_members_x_references);
    RUN(test_gltf1_samplers_x_parameters);
    return test_summary();
}
