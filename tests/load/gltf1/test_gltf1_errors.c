/* SPDX-License-Identifier: MIT */
/* glTF 1.0 loader on small hand-made files: id resolution errors name the
 * missing id and the referencing path, skins resolve per (skin, skeletons)
 * instance, several meshes on one node merge. */
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"

/* A 44-byte buffer: one VEC3 position (0,0,0) at 0, a VEC4 FLOAT joint
 * (0.5,0,0,0) at 12, a VEC4 weight (1,0,0,0) at 28. */
#define BUFFERS                                                                \
    "\"asset\":{\"version\":\"1.0\"},"                                         \
    "\"buffers\":{\"b\":{\"byteLength\":44,\"uri\":\"data:application/"        \
    "octet-stream;base64,"                                                     \
    "AAAAAAAAAAAAAAAAAAAAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAA=\"}},"        \
    "\"bufferViews\":{\"v\":{\"buffer\":\"b\",\"byteOffset\":0,"               \
    "\"byteLength\":44}},"                                                     \
    "\"accessors\":{"                                                          \
    "\"pos\":{\"bufferView\":\"v\",\"byteOffset\":0,\"componentType\":5126,"   \
    "\"count\":1,\"type\":\"VEC3\"},"                                          \
    "\"joint\":{\"bufferView\":\"v\",\"byteOffset\":12,"                       \
    "\"componentType\":5126,\"count\":1,\"type\":\"VEC4\"},"                   \
    "\"weight\":{\"bufferView\":\"v\",\"byteOffset\":28,"                      \
    "\"componentType\":5126,\"count\":1,\"type\":\"VEC4\"}}"

static vs_result load_json(const char *json, vs_asset **out, vs_error *err)
{
    *out = NULL;
    return vs_asset_load_memory(json, strlen(json), "t.gltf", NULL, out, err);
}

/* Loading must fail with VS_ERROR_INVALID and a message holding every
 * fragment in `want` (NULL-terminated). */
static void expect_error(const char *json, const char *const *want)
{
    vs_asset *a;
    vs_error err;
    vs_result r = load_json(json, &a, &err);
    CHECK_MSG(r == VS_ERROR_INVALID, "result %d: %s", r, err.message);
    CHECK(a == NULL);
    for (const char *const *w = want; *w; ++w)
        CHECK_MSG(strstr(err.message, *w) != NULL, "'%s' not in '%s'", *w,
                  err.message);
    vs_asset_free(a);
}

static void test_missing_skin_id(void)
{
    const char *want[] = {"t.gltf: ", "nodes[\"n0\"].skin",
                          "skin \"nope\" does not exist", NULL};
    expect_error("{\"asset\":{\"version\":\"1.0\"},"
                 "\"nodes\":{\"n0\":{\"skin\":\"nope\"}}}",
                 want);
}

static void test_missing_accessor_id(void)
{
    const char *want[] = {"meshes[\"m\"].primitives[0].attributes.POSITION",
                          "accessor \"ghost\" does not exist", NULL};
    expect_error("{" BUFFERS ",\"meshes\":{\"m\":{\"primitives\":[{"
                 "\"attributes\":{\"POSITION\":\"ghost\"}}]}}}",
                 want);
}

/* "j1" exists, but outside the subtree of the node's skeleton "r0". */
static void test_joint_name_not_under_skeletons(void)
{
    const char *want[] = {"nodes[\"m\"].skeletons", "skin \"s\"",
                          "joint \"j1\"", "jointNames[1]", NULL};
    expect_error("{\"asset\":{\"version\":\"1.0\"},"
                 "\"skins\":{\"s\":{\"jointNames\":[\"j0\",\"j1\"]}},"
                 "\"nodes\":{\"m\":{\"skin\":\"s\",\"skeletons\":[\"r0\"]},"
                 "\"r0\":{\"jointName\":\"j0\"},"
                 "\"other\":{\"jointName\":\"j1\"}}}",
                 want);
}

static void test_fractional_joint_index(void)
{
    const char *want[] = {"meshes[\"m\"].primitives[0].attributes.JOINT",
                          "joint index 0.5", NULL};
    expect_error("{" BUFFERS ",\"meshes\":{\"m\":{\"primitives\":[{"
                 "\"attributes\":{\"POSITION\":\"pos\",\"JOINT\":\"joint\","
                 "\"WEIGHT\":\"weight\"}}]}}}",
                 want);
}

static void test_gltf2_style_arrays_rejected(void)
{
    const char *want[] = {"nodes: expected an object keyed by node id", NULL};
    expect_error("{\"asset\":{\"version\":\"1.0\"},\"nodes\":[{}]}", want);
}

/* Two skeleton hierarchies with the same jointNames: each (skin, skeletons)
 * pair is its own vs_skin, and a repeated pair shares one. */
static void test_skin_instances_per_skeletons(void)
{
    const char *json = "{\"asset\":{\"version\":\"1.0\"},"
                       "\"skins\":{\"s\":{\"jointNames\":[\"a\",\"b\"]}},"
                       "\"nodes\":{"
                       "\"m1\":{\"skin\":\"s\",\"skeletons\":[\"r1\"]},"
                       "\"m2\":{\"skin\":\"s\",\"skeletons\":[\"r2\"]},"
                       "\"m3\":{\"skin\":\"s\",\"skeletons\":[\"r1\"]},"
                       "\"r1\":{\"jointName\":\"a\",\"children\":[\"c1\"]},"
                       "\"c1\":{\"jointName\":\"b\"},"
                       "\"r2\":{\"jointName\":\"a\",\"children\":[\"c2\"]},"
                       "\"c2\":{\"jointName\":\"b\"}}}";
    vs_asset *a;
    vs_error err;
    vs_result r = load_json(json, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    CHECK(a->skin_count == 2);
    CHECK(a->nodes[0].skin == 0 && a->nodes[1].skin == 1 &&
          a->nodes[2].skin == 0);
    if (a->skin_count == 2) {
        /* r1 = 3, c1 = 4, r2 = 5, c2 = 6 in file order. */
        CHECK(a->skins[0].joints[0] == 3 && a->skins[0].joints[1] == 4);
        CHECK(a->skins[1].joints[0] == 5 && a->skins[1].joints[1] == 6);
        CHECK(a->skins[0].skeleton == 3 && a->skins[1].skeleton == 5);
        CHECK_NEAR(a->skins[1].inverse_bind_matrices[15], 1.0, 0);
    }
    vs_asset_free(a);
}

static void test_node_with_two_meshes_merges(void)
{
    const char *json =
        "{" BUFFERS ",\"meshes\":{"
        "\"a\":{\"primitives\":[{\"attributes\":{\"POSITION\":\"pos\"}}]},"
        "\"b\":{\"primitives\":[{\"attributes\":{\"POSITION\":\"pos\"},"
        "\"mode\":0}]}},"
        "\"nodes\":{\"n\":{\"meshes\":[\"a\",\"b\"],\"name\":\"N\"}},"
        "\"scenes\":{\"s\":{\"nodes\":[\"n\"]}},\"scene\":\"s\"}";
    vs_asset *a;
    vs_error err;
    vs_result r = load_json(json, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    CHECK(a->mesh_count == 3 && a->nodes[0].mesh == 2);
    if (a->mesh_count == 3) {
        CHECK(a->meshes[2].primitive_count == 2);
        CHECK(strcmp(a->meshes[2].name, "a+b") == 0);
        CHECK(a->meshes[2].primitives[1].mode == VS_MODE_POINTS);
    }
    CHECK(strcmp(a->nodes[0].name, "N") == 0 &&
          strcmp(a->nodes[0].id, "n") == 0);
    CHECK(a->default_scene == 0 && a->instance_count == 1);
    vs_asset_free(a);
}

/* A skeleton on a cycle: the hierarchy's error is reported, not a joint
 * that the lookup, which walks a forest, could not find. */
static void test_skeleton_on_a_cycle_reports_the_cycle(void)
{
    const char *want[] = {"t.gltf: ", "node hierarchy has a cycle", NULL};
    expect_error("{\"asset\":{\"version\":\"1.0\"},"
                 "\"skins\":{\"s\":{\"jointNames\":[\"a\"]}},"
                 "\"nodes\":{\"r\":{\"children\":[\"q\"]},"
                 "\"q\":{\"children\":[\"r\"],\"jointName\":\"a\"},"
                 "\"u\":{\"skin\":\"s\",\"skeletons\":[\"r\"]}}}",
                 want);
}

int main(void)
{
    RUN(test_missing_skin_id);
    RUN(test_missing_accessor_id);
    RUN(test_joint_name_not_under_skeletons);
    RUN(test_fractional_joint_index);
    RUN(test_gltf2_style_arrays_rejected);
    RUN(test_skin_instances_per_skeletons);
    RUN(test_node_with_two_meshes_merges);
    RUN(test_skeleton_on_a_cycle_reports_the_cycle);
    return test_summary();
}
