/* SPDX-License-Identifier: MIT */
/* Malformed glTF 2.0 input: every case is refused with the right result code
 * and a message "<file>: <JSON path>: <what is wrong>", never a crash (this
 * test runs under ASan+UBSan too). A small valid skinned triangle is built,
 * then one part of it is broken per case: out-of-range indices, accessors
 * overrunning their view, count mismatches (IBMs vs joints, JOINTS vs
 * POSITION, animation output vs input), joint indices past the skin,
 * wrong accessor types, projective IBMs, node weights without matching
 * targets, cycles and two parents, unsupported required extensions; then
 * bad base64 and data: URIs, invalid URIs, missing files, every truncation
 * of a GLB, GLB chunk rules, and resource limits. */
#include "load/gltf2/gltf2_fixture.h"
#include "test.h"
#include "vskin/vskin.h"

/* overrun: accessor 10 runs past the end of its view (every accessor is
 * checked, used or not, so only that case has it). */
static void build(fx_gltf *g, bool overrun)
{
    memset(g, 0, sizeof *g);
    const float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float w[] = {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0};
    const float id[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float ibm3[48];
    for (int i = 0; i < 48; ++i)
        ibm3[i] = id[i % 16];
    const float times[] = {0, 1}, tr[] = {0, 0, 0, 1, 0, 0};
    /* 0 POSITION, 1 JOINTS_0, 2 WEIGHTS_0, 3 IBM (2 joints) */
    fx_floats(g, pos, 3, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_view_begin(g);
    const uint8_t j[] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 12; ++i)
        fx_u8(&g->bin, j[i]);
    int jv = fx_view_end(g, 0);
    fx_accessor(g, jv, 5121, 3, "VEC4", "");
    fx_floats(g, w, 3, 4, "VEC4", "");
    fx_floats(g, ibm3, 2, 16, "MAT4", "");
    /* 4 JOINTS_0 with 2 elements; 5 IBM with 3 matrices */
    fx_accessor(g, jv, 5121, 2, "VEC4", "");
    fx_floats(g, ibm3, 3, 16, "MAT4", "");
    /* 6 JOINTS_0 where vertex 1 uses joint 5; 7 POSITION as VEC2 */
    fx_view_begin(g);
    for (int i = 0; i < 12; ++i)
        fx_u8(&g->bin, i == 4 ? 5 : 0);
    fx_accessor(g, fx_view_end(g, 0), 5121, 3, "VEC4", "");
    fx_floats(g, pos, 3, 2, "VEC2", ",\"min\":[0,0],\"max\":[1,1]");
    /* 8 animation input, 9 output; 10 POSITION past its view's end */
    fx_floats(g, times, 2, 1, "SCALAR", ",\"min\":[0],\"max\":[1]");
    fx_floats(g, tr, 2, 3, "VEC3", "");
    fx_view_begin(g);
    fx_f32s(&g->bin, pos, 9);
    fx_accessor(g, fx_view_end(g, 0), 5126, 3, "VEC3",
                overrun ? ",\"byteOffset\":12,\"min\":[0,0,0],\"max\":[1,1,0]"
                        : ",\"min\":[0,0,0],\"max\":[1,1,0]");
    /* 11 IBMs whose second matrix is projective (last row 0.5 0 0 1) */
    ibm3[16 + 3] = 0.5f;
    fx_floats(g, ibm3, 2, 16, "MAT4", "");
}

typedef struct parts {
    const char *nodes, *meshes, *skins, *animations, *scenes, *extra;
} parts;

static const parts base = {
    .nodes = "[{\"mesh\":0,\"skin\":0},{\"children\":[2]},{}]",
    .meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
              "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}]",
    .skins = "[{\"joints\":[1,2],\"inverseBindMatrices\":3}]",
    .animations = "[{\"samplers\":[{\"input\":8,\"output\":9}],"
                  "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,"
                  "\"path\":\"translation\"}}]}]",
    .scenes = "[{\"nodes\":[0,1]}]",
    .extra = ""};

static char *document(const fx_gltf *g, parts p)
{
    char *rest = fx_format(
        "\"nodes\":%s,\"meshes\":%s,\"skins\":%s,\"animations\":%s,"
        "\"scenes\":%s%s",
        p.nodes ? p.nodes : base.nodes, p.meshes ? p.meshes : base.meshes,
        p.skins ? p.skins : base.skins,
        p.animations ? p.animations : base.animations,
        p.scenes ? p.scenes : base.scenes, p.extra ? p.extra : "");
    char *json = fx_gltf_embedded(g, rest);
    free(rest);
    return json;
}

static void expect(const fx_gltf *g, parts p, vs_result code, const char *part)
{
    char *json = document(g, p);
    vs_asset *a = NULL;
    vs_error err;
    vs_result r =
        vs_asset_load_memory(json, strlen(json), "bad.gltf", NULL, &a, &err);
    CHECK_MSG(r == code && (a == NULL) == (code != VS_OK),
              "want %d, got %d (%s) for %s", (int)code, (int)r, err.message,
              part);
    CHECK_MSG(err.code == r, "error.code %d", (int)err.code);
    if (r != VS_OK)
        CHECK_MSG(fx_message_is(err.message, "bad.gltf", part),
                  "want \"bad.gltf: ...%s\", got \"%s\"", part, err.message);
    vs_asset_free(a);
    free(json);
}

static void broken_objects_name_their_path(void)
{
    fx_gltf g;
    build(&g, false);
    char *json = document(&g, (parts){0});
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_memory(json, strlen(json), "ok.gltf", NULL, &a,
                                   &err) == VS_OK,
              "the base document must load: %s", err.message);
    vs_asset_free(a);
    free(json);
    const vs_result INV = VS_ERROR_INVALID;

    expect(&g, (parts){.nodes = "[{\"mesh\":7},{},{}]"}, INV,
           "nodes[0].mesh: index 7 is out of range (1 objects)");
    expect(&g, (parts){.skins = "[{\"joints\":[1,9]}]"}, INV,
           "skins[0].joints[1]: index 9 is out of range (3 objects)");
    expect(&g, (parts){.skins = "[{\"joints\":[1,1]}]"}, INV,
           "skins[0].joints[1]: node 1 is already a joint of this skin");
    expect(&g,
           (parts){.skins = "[{\"joints\":[1,2,0],\"inverseBindMatrices\":3}]"},
           INV,
           "skins[0].inverseBindMatrices: accessor 3 has 2 elements but "
           "the skin has 3 joints");
    expect(&g,
           (parts){.skins = "[{\"joints\":[1,2],\"inverseBindMatrices\":0}]"},
           INV, "skins[0].inverseBindMatrices: accessor 0: type VEC3 is not "
                "allowed here (expected MAT4)");
    expect(&g,
           (parts){.skins = "[{\"joints\":[1,2],\"inverseBindMatrices\":11}]"},
           INV,
           "skins[0].inverseBindMatrices: accessor 11: matrix 1 is not "
           "affine (last row 0.5 0 0 1)");
    expect(&g,
           (parts){.meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":"
                             "0,\"JOINTS_0\":4,\"WEIGHTS_0\":2}}]}]"},
           INV,
           "meshes[0].primitives[0].attributes.JOINTS_0: accessor 4 has "
           "2 elements but the other attributes have 3");
    expect(&g,
           (parts){.meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":"
                             "0,\"JOINTS_0\":6,\"WEIGHTS_0\":2}}]}]"},
           INV,
           "meshes[0].primitives[0].attributes.JOINTS_0: vertex 1 uses "
           "joint 5 but skins[0] (used by nodes[0]) has 2 joints");
    expect(&g,
           (parts){.meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":"
                             "7}}]}]"},
           INV,
           "meshes[0].primitives[0].attributes.POSITION: accessor 7: "
           "type VEC2 is not allowed here (expected VEC3)");
    expect(&g,
           (parts){.meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":"
                             "0,\"JOINTS_0\":2,\"WEIGHTS_0\":1}}]}]"},
           INV,
           "attributes.JOINTS_0: accessor 2: componentType 5126 is not "
           "allowed here");
    expect(&g,
           (parts){.meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":"
                             "0,\"JOINTS_0\":1}}]}]"},
           INV, "JOINTS_0 and WEIGHTS_0 must come together");
    fx_gltf over;
    build(&over, true);
    expect(&over, (parts){0}, INV,
           "accessors[10]: 3 elements of 12 bytes (stride 12) from byte 12 do "
           "not fit in bufferViews[9] (36 bytes)");
    expect(&g,
           (parts){.meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":"
                             "0},\"indices\":8}]}]"},
           INV,
           "meshes[0].primitives[0].indices: accessor 8: componentType "
           "5126 is not allowed here");
    expect(&g,
           (parts){.meshes = "[{\"weights\":[1,2],\"primitives\":[{"
                             "\"attributes\":{\"POSITION\":0}}]}]"},
           INV,
           "meshes[0].weights: 2 weights but the primitives have 0 morph "
           "targets");
    expect(&g,
           (parts){.nodes = "[{\"mesh\":0},{\"children\":[2]},"
                            "{\"children\":[1]}]",
                   .skins = "[{\"joints\":[1]}]",
                   .scenes = "[{}]"},
           INV, "node hierarchy has a cycle");
    expect(&g,
           (parts){.nodes = "[{\"mesh\":0,\"children\":[0]},{},{}]",
                   .skins = "[{\"joints\":[1]}]",
                   .scenes = "[{}]"},
           INV, "nodes[0].children[0]: a node cannot be its own child");
    expect(&g,
           (parts){.nodes = "[{\"mesh\":0,\"children\":[2]},"
                            "{\"children\":[2]},{}]",
                   .skins = "[{\"joints\":[1]}]"},
           INV, "nodes[2]: node has two parents (nodes[0] and nodes[1])");
    expect(&g,
           (parts){.nodes = "[{\"mesh\":0,\"skin\":0,\"weights\":[1]},"
                            "{\"children\":[2]},{}]"},
           INV,
           "nodes[0].weights: 1 weights but meshes[0] has 0 morph "
           "targets");
    expect(&g,
           (parts){.nodes = "[{\"mesh\":0,\"skin\":0},{\"children\":[2],"
                            "\"weights\":[1]},{}]"},
           INV, "nodes[1].weights: the node has no mesh");
    expect(&g,
           (parts){.nodes = "[{\"mesh\":0,\"skin\":0,\"camera\":0},"
                            "{\"children\":[2]},{}]"},
           INV, "nodes[0].camera: index 0 is out of range (0 objects)");
    expect(&g,
           (parts){.nodes = "[{\"mesh\":0,\"skin\":0,\"children\":[1,1]},"
                            "{\"children\":[2]},{}]"},
           INV, "nodes[0].children[1]: node 1 is listed twice");
    expect(&g, (parts){.extra = ",\"samplers\":{}"}, INV,
           "samplers: must be an array");
    expect(&g, (parts){.extra = ",\"extensionsUsed\":[\"A\",\"A\"]"}, INV,
           "extensionsUsed[1]: \"A\" is listed twice");
    expect(&g, (parts){.extra = ",\"scene\":3"}, INV,
           "scene: index 3 is out of range (1 objects)");
    expect(&g,
           (parts){.animations = "[{\"samplers\":[{\"input\":8,\"output\":9}],"
                                 "\"channels\":[{\"sampler\":0,\"target\":{"
                                 "\"node\":9,\"path\":\"translation\"}}]}]"},
           INV,
           "animations[0].channels[0].target.node: index 9 is out of "
           "range");
    expect(&g,
           (parts){.animations = "[{\"samplers\":[{\"input\":8,\"output\":0}],"
                                 "\"channels\":[{\"sampler\":0,\"target\":{"
                                 "\"node\":1,\"path\":\"translation\"}}]}]"},
           INV,
           "animations[0].samplers[0].output: accessor 0: has 3 "
           "elements, expected 2");
    expect(&g,
           (parts){.animations = "[{\"samplers\":[{\"input\":9,\"output\":9}],"
                                 "\"channels\":[{\"sampler\":0,\"target\":{"
                                 "\"node\":1,\"path\":\"scale\"}}]}]"},
           INV,
           "animations[0].samplers[0].input: accessor 9: type VEC3 is "
           "not allowed here");
    /* The names of paths and interpolations (asset/anim_names.h). */
    expect(&g,
           (parts){.animations = "[{\"samplers\":[{\"input\":8,\"output\":9}],"
                                 "\"channels\":[{\"sampler\":0,\"target\":{"
                                 "\"node\":1,\"path\":\"position\"}}]}]"},
           INV,
           "animations[0].channels[0].target.path: \"position\" is not "
           "translation, rotation, scale or weights");
    expect(&g,
           (parts){.animations = "[{\"samplers\":[{\"input\":8,\"output\":9,"
                                 "\"interpolation\":\"CUBIC\"}],"
                                 "\"channels\":[{\"sampler\":0,\"target\":{"
                                 "\"node\":1,\"path\":\"scale\"}}]}]"},
           INV,
           "animations[0].samplers[0].interpolation: \"CUBIC\" is not "
           "LINEAR, STEP or CUBICSPLINE");
    expect(&g,
           (parts){.animations = "[{\"samplers\":[{\"input\":8,\"output\":9}],"
                                 "\"channels\":[{\"sampler\":0,\"target\":{"
                                 "\"node\":1,\"path\":\"scale\"}},"
                                 "{\"sampler\":0,\"target\":{"
                                 "\"node\":1,\"path\":\"scale\"}}]}]"},
           INV,
           "animations[0].channels[1].target: node 1 scale is already "
           "animated by another channel");
    expect(&g,
           (parts){.extra = ",\"extensionsUsed\":[\"EXT_mesh_gpu_"
                            "instancing\"],\"extensionsRequired\":["
                            "\"EXT_mesh_gpu_instancing\"]"},
           VS_ERROR_UNSUPPORTED,
           "extensionsRequired[0]: extension \"EXT_mesh_gpu_instancing\" "
           "is not supported");
}

static vs_result load_text(const char *json, const char *name, vs_error *err)
{
    vs_asset *a = NULL;
    vs_result r = vs_asset_load_memory(json, strlen(json), name, NULL, &a, err);
    vs_asset_free(a);
    return r;
}

static void broken_buffers_and_files(void)
{
    vs_error err;
    CHECK(load_text("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{"
                    "\"byteLength\":3,\"uri\":\"data:application/octet-stream;"
                    "base64,AA*A\"}]}",
                    "b64.gltf", &err) == VS_ERROR_PARSE);
    CHECK(fx_message_is(err.message, "b64.gltf",
                        "buffers[0].uri: invalid base64 in data URI"));
    CHECK(load_text("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{"
                    "\"byteLength\":4,\"uri\":\"data:application/octet-stream;"
                    "base64,AAA=\"}]}",
                    "len.gltf", &err) == VS_ERROR_INVALID);
    CHECK(fx_message_is(err.message, "len.gltf",
                        "buffers[0].byteLength: 4 but the data has 2 bytes"));
    CHECK(load_text("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{"
                    "\"byteLength\":4,\"uri\":\"data:application/octet-stream;"
                    "base64,AAAAAA==\"}],\"bufferViews\":[{\"buffer\":0,"
                    "\"byteOffset\":2,\"byteLength\":4}]}",
                    "view.gltf", &err) == VS_ERROR_INVALID);
    CHECK(fx_message_is(err.message, "view.gltf",
                        "bufferViews[0]: bytes 2..6 lie outside buffers[0] "
                        "(4 bytes)"));
    CHECK(load_text("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{"
                    "\"byteLength\":1,\"uri\":\"data:application/octet-stream;;"
                    "base64,AA==\"}]}",
                    "param.gltf", &err) == VS_ERROR_INVALID);
    CHECK(fx_message_is(err.message, "param.gltf",
                        "buffers[0].uri: malformed data URI parameter \"\""));
    CHECK(load_text("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{"
                    "\"byteLength\":1,\"uri\":\"1a:b\"}]}",
                    "scheme.gltf", &err) == VS_ERROR_INVALID);
    CHECK(fx_message_is(err.message, "scheme.gltf",
                        "buffers[0].uri: \"1a:b\" is not a valid URI"));
    CHECK(load_text("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{", "j.gltf",
                    &err) == VS_ERROR_PARSE);
    CHECK(fx_message_is(err.message, "j.gltf", "invalid JSON"));

    /* A missing external buffer, and a missing file. */
    const char *path = VS_TEST_TMP "/missing_buffer.gltf";
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":"
              "4,\"uri\":\"no%20such.bin\"}]}",
              f);
        fclose(f);
    }
    vs_asset *a = NULL;
    CHECK(vs_asset_load_file(path, NULL, &a, &err) == VS_ERROR_IO && !a);
    CHECK(fx_message_is(err.message, path,
                        "buffers[0].uri: \"no%20such.bin\": "));
    CHECK(strstr(err.message, "no such.bin: cannot open") != NULL);
    const char *gone = VS_TEST_TMP "/no_such_file.glb";
    CHECK(vs_asset_load_file(gone, NULL, &a, &err) == VS_ERROR_IO && !a);
    CHECK(fx_message_is(err.message, gone, "cannot open"));
}

static void every_truncated_glb_is_refused(void)
{
    fx_gltf g;
    build(&g, false);
    char *rest = fx_format("\"nodes\":%s,\"meshes\":%s,\"skins\":%s",
                           base.nodes, base.meshes, base.skins);
    char *json = fx_gltf_json(&g, "", rest);
    size_t size;
    uint8_t *glb = fx_glb(json, &g.bin, &size);
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_memory(glb, size, "t.glb", NULL, &a, &err) == VS_OK,
              "%s", err.message);
    vs_asset_free(a);
    int refused = 0;
    for (size_t cut = 0; cut < size; ++cut) {
        /* A copy of exactly `cut` bytes, so ASan sees any overread. */
        uint8_t *part = malloc(cut ? cut : 1);
        if (!part) abort();
        memcpy(part, glb, cut);
        a = NULL;
        vs_result r = vs_asset_load_memory(part, cut, "t.glb", NULL, &a, &err);
        refused += r != VS_OK && !a && fx_message_is(err.message, "t.glb", "");
        vs_asset_free(a);
        free(part);
    }
    CHECK_MSG(refused == (int)size, "%d of %zu truncations refused", refused,
              size);
    free(glb);
    free(json);
    free(rest);
}

static void glb_container_rules(void)
{
    fx_gltf g;
    build(&g, false);
    char *rest = fx_format("\"nodes\":%s,\"meshes\":%s,\"skins\":%s",
                           base.nodes, base.meshes, base.skins);
    char *json = fx_gltf_json(&g, "", rest);
    size_t size;
    uint8_t *glb = fx_glb(json, &g.bin, &size);
    /* Bytes after the header's length are not part of the GLB (§4.4.2). */
    uint8_t *longer = malloc(size + 5);
    if (!longer) abort();
    memcpy(longer, glb, size);
    memcpy(longer + size, "extra", 5);
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_memory(longer, size + 5, "x.glb", NULL, &a, &err) ==
                  VS_OK,
              "%s", err.message);
    vs_asset_free(a);
    free(longer);
    free(glb);
    /* Buffer 0 without uri needs a BIN chunk (§4.4.3.3)... */
    glb = fx_glb(json, NULL, &size);
    CHECK(vs_asset_load_memory(glb, size, "x.glb", NULL, &a, &err) ==
          VS_ERROR_INVALID);
    CHECK(fx_message_is(err.message, "x.glb",
                        "buffers[0]: has no uri but the GLB has no BIN chunk"));
    free(glb);
    /* ...at least byteLength long. */
    fx_bytes shorter = g.bin;
    shorter.size -= 8;
    glb = fx_glb(json, &shorter, &size);
    CHECK(vs_asset_load_memory(glb, size, "x.glb", NULL, &a, &err) ==
          VS_ERROR_INVALID);
    CHECK(fx_message_is(err.message, "x.glb", "buffers[0].byteLength: ") &&
          strstr(err.message, "is larger than the GLB BIN chunk"));
    free(glb);
    free(json);
    free(rest);
}

static void limits_are_enforced(void)
{
    fx_gltf g;
    build(&g, false);
    char *json = document(&g, (parts){0});
    vs_asset *a = NULL;
    vs_error err;
    vs_load_options opt = {.limits.max_joints = 1};
    CHECK(vs_asset_load_memory(json, strlen(json), "lim.gltf", &opt, &a,
                               &err) == VS_ERROR_LIMIT);
    CHECK(fx_message_is(err.message, "lim.gltf",
                        "skins[0].joints: 2 joints "
                        "exceed the limit of 1"));
    opt = (vs_load_options){.limits.max_buffer_size = 16};
    CHECK(vs_asset_load_memory(json, strlen(json), "lim.gltf", &opt, &a,
                               &err) == VS_ERROR_LIMIT);
    CHECK(fx_message_is(err.message, "lim.gltf", "buffers[0].byteLength"));
    opt = (vs_load_options){.limits.max_total_memory = 256};
    CHECK(vs_asset_load_memory(json, strlen(json), "lim.gltf", &opt, &a,
                               &err) == VS_ERROR_LIMIT);
    CHECK(fx_message_is(err.message, "lim.gltf", "exceed the memory limit"));
    free(json);
    /* A huge byteLength is refused before anything is read or allocated. */
    CHECK(load_text("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{"
                    "\"byteLength\":1099511627776}]}",
                    "huge.gltf", &err) == VS_ERROR_LIMIT);
    CHECK(fx_message_is(err.message, "huge.gltf", "buffers[0].byteLength"));
}

int main(void)
{
    RUN(broken_objects_name_their_path);
    RUN(broken_buffers_and_files);
    RUN(every_truncated_glb_is_refused);
    RUN(glb_container_rules);
    RUN(limits_are_enforced);
    return test_summary();
}
