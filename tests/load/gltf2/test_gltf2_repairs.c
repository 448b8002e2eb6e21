/* SPDX-License-Identifier: MIT */
/* glTF 2.0 flaws in the objects around the geometry that leave the pose
 * known (docs/formats.md, "Refused or repaired"): each file loads with a
 * warning, a strict load refuses it, and it poses as three.js and assimp
 * pose it. Shading-only required extensions, a skin.skeleton that is no root
 * of the joints, scenes that list child nodes, empty animations,
 * KHR_animation_pointer channels, broken materials; and an inverse bind
 * accessor longer than the joint list, which is valid and loads silently. */
#include "load/gltf2/gltf2_fixture.h"
#include "load/gltf2/gltf2_repair_check.h"

/* A skinned triangle: node 0 holds the mesh and skin, joints are node 1
 * (at x = 1) and its child node 2 (2 above it); vertex 1 follows joint 1,
 * the others joint 0. Clip 0 moves node 1 up z by 3 over one second. The
 * inverse binds undo the joints' rest placement, so the rest pose is the
 * mesh as stored. */
static const float rest[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
static const float moved[9] = {0, 0, 3, 1, 0, 3, 0, 1, 3};

static void build(fx_gltf *g)
{
    memset(g, 0, sizeof *g);
    const float w[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    float ibm[48] = {0};
    for (int m = 0; m < 3; ++m)
        for (int k = 0; k < 4; ++k)
            ibm[16 * m + 5 * k] = 1;
    ibm[12] = -1;      /* joint 0 (node 1): T(-1, 0, 0) */
    ibm[16 + 12] = -1; /* joint 1 (node 2): T(-1, -2, 0) */
    ibm[16 + 13] = -2;
    ibm[32 + 3] = 0.5f; /* a third, projective matrix */
    const float times[] = {0, 1}, tr[] = {1, 0, 0, 1, 0, 3};
    /* 0 POSITION, 1 JOINTS_0, 2 WEIGHTS_0, 3 IBM (3 matrices) */
    fx_floats(g, rest, 3, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_view_begin(g);
    const uint8_t j[] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 12; ++i)
        fx_u8(&g->bin, j[i]);
    fx_accessor(g, fx_view_end(g, 0), 5121, 3, "VEC4", "");
    fx_floats(g, w, 3, 4, "VEC4", "");
    fx_floats(g, ibm, 3, 16, "MAT4", "");
    /* 4 animation input, 5 translation output */
    fx_floats(g, times, 2, 1, "SCALAR", ",\"min\":[0],\"max\":[1]");
    fx_floats(g, tr, 2, 3, "VEC3", "");
}

typedef struct parts {
    const char *nodes, *meshes, *skins, *animations, *scenes, *extra;
} parts;

#define SKIN "[{\"joints\":[1,2],\"inverseBindMatrices\":3}]"
#define ANIM                                                                   \
    "{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":"           \
    "\"translation\"}}],\"samplers\":[{\"input\":4,\"output\":5}]}"

static char *document(const fx_gltf *g, parts p)
{
    char *rest_json = fx_format(
        "\"nodes\":%s,\"meshes\":%s,\"skins\":%s,\"animations\":%s,"
        "\"scenes\":%s%s",
        p.nodes ? p.nodes
                : "[{\"mesh\":0,\"skin\":0},{\"translation\":[1,0,0],"
                  "\"children\":[2]},{\"translation\":[0,2,0]}]",
        p.meshes ? p.meshes
                 : "[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
                   "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}]",
        p.skins ? p.skins : SKIN, p.animations ? p.animations : "[" ANIM "]",
        p.scenes ? p.scenes : "[{\"nodes\":[0,1]}]", p.extra ? p.extra : "");
    char *json = fx_gltf_embedded(g, rest_json);
    free(rest_json);
    return json;
}

/* Loads the repaired document; checks the rest pose and clip 0's end. */
static vs_asset *repaired(const fx_gltf *g, parts p, const char *object,
                          const char *part)
{
    char *json = document(g, p);
    vs_asset *a = rc_load_text(json, object, part);
    free(json);
    if (a) {
        rc_check_posed(a, 0, -1, 0, rest, 3);
        rc_check_posed(a, 0, 0, 1, moved, 3);
    }
    return a;
}

static void base_document_loads_without_warnings(void)
{
    fx_gltf g;
    build(&g);
    char *json = document(&g, (parts){0});
    vs_asset *a = NULL;
    vs_error err;
    vs_load_options strict = {.strict = true};
    CHECK_MSG(vs_asset_load_memory(json, strlen(json), "ok.gltf", &strict, &a,
                                   &err) == VS_OK,
              "%s", err.message);
    if (a) {
        /* The IBM accessor has 3 matrices for 2 joints (§5.26: at least
         * as many as joints); the third, projective one is never used. */
        CHECK(a->warning_count == 0 && a->skins[0].joint_count == 2);
        rc_check_posed(a, 0, -1, 0, rest, 3);
        rc_check_posed(a, 0, 0, 1, moved, 3);
    }
    vs_asset_free(a);
    free(json);
}

static void shading_extensions_are_ignored(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(
        &g,
        (parts){.extra = ",\"extensionsUsed\":[\"KHR_techniques_webgl\","
                         "\"KHR_materials_unlit\"],\"extensionsRequired\":["
                         "\"KHR_techniques_webgl\",\"KHR_materials_unlit\"]"},
        "extensionsRequired[0]",
        "\"KHR_techniques_webgl\" is required: "
        "shading is ignored");
    if (a) CHECK(rc_has_warning(a, "extensionsRequired[1]", "shading"));
    vs_asset_free(a);
    /* One that may change geometry stays refused. */
    char *json = document(
        &g, (parts){.extra = ",\"extensionsUsed\":[\"EXT_mesh_gpu_instancing"
                             "\"],\"extensionsRequired\":["
                             "\"EXT_mesh_gpu_instancing\"]"});
    vs_error err;
    CHECK(vs_asset_load_memory(json, strlen(json), "x.gltf", NULL, &a, &err) ==
          VS_ERROR_UNSUPPORTED);
    free(json);
}

/* The draft name some exporters wrote for KHR_techniques_webgl. */
static void draft_technique_extension_is_ignored(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(
        &g,
        (parts){.extra = ",\"extensionsUsed\":[\"KHR_technique_webgl\"],"
                         "\"extensionsRequired\":[\"KHR_technique_webgl\"]"},
        "extensionsRequired[0]", "shading is ignored");
    vs_asset_free(a);
}

/* A name only labels: one that is no string is left out. */
static void names_that_are_no_strings_are_left_out(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(
        &g,
        (parts){.nodes = "[{\"mesh\":0,\"skin\":0},{\"name\":5,"
                         "\"translation\":[1,0,0],\"children\":[2]},"
                         "{\"translation\":[0,2,0]}]"},
        "nodes[1].name", "is not a string: the name is left out");
    if (a) CHECK(a->nodes[1].name && a->nodes[1].name[0] == '\0');
    vs_asset_free(a);
}

/* "scene" in a file whose scenes list is empty: every root is shown. */
static void scene_in_a_file_without_scenes(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(&g, (parts){.scenes = "[]", .extra = ",\"scene\":0"},
                           "scene", "every root node is shown");
    if (a) CHECK(a->scene_count == 0 && a->default_scene == -1);
    vs_asset_free(a);
}

static void skeleton_that_is_no_root_is_ignored(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(
        &g,
        (parts){.skins = "[{\"joints\":[1,2],\"inverseBindMatrices\":3,"
                         "\"skeleton\":0}]"},
        "skins[0].skeleton", "not an ancestor of joint 0");
    if (a) CHECK(a->skins[0].skeleton == -1);
    vs_asset_free(a);
}

/* Node 2 is listed and so is its parent: three.js would move it to the
 * scene root (losing node 1's x = 1), assimp would copy it there; the
 * hierarchy keeps it under node 1, which the rest pose proves: the vertex
 * that follows it would otherwise move by -1 in x. */
static void scene_listing_a_child_keeps_its_parent(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a =
        repaired(&g, (parts){.scenes = "[{\"nodes\":[0,2,1]}]"},
                 "scenes[0].nodes[1]",
                 "node 2 is not a root node (an ancestor is listed too)");
    if (a) {
        CHECK(a->scenes[0].node_count == 2);
        CHECK(a->nodes[2].parent == 1);
    }
    vs_asset_free(a);
}

/* Node 4 is listed and its parent, node 3 at y = 5, is not: three.js and
 * assimp both show node 4 on its own, with its own transform only. */
static void scene_listing_a_lone_child_shows_it_alone(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(
        &g,
        (parts){.nodes = "[{\"mesh\":0,\"skin\":0},{\"translation\":[1,0,0],"
                         "\"children\":[2]},{\"translation\":[0,2,0]},"
                         "{\"translation\":[0,5,0],\"children\":[4]},"
                         "{\"mesh\":1}]",
                .meshes = "[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
                          "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]},{\"primitives\":"
                          "[{\"attributes\":{\"POSITION\":0}}]}]",
                .scenes = "[{\"nodes\":[0,1,4]}]"},
        "scenes[0].nodes[2]",
        "node 4 is not a root node (child of node 3, which the scene does "
        "not list): detached from its parent");
    if (a) {
        CHECK(a->scenes[0].node_count == 3 && a->nodes[4].parent == -1);
        CHECK(a->nodes[3].child_count == 0 && a->instance_count == 2);
        rc_check_posed(a, 4, -1, 0, rest, 3);
    }
    vs_asset_free(a);
}

static void empty_animations_are_dropped(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(
        &g,
        (parts){.animations = "[{\"channels\":[],\"samplers\":[]}," ANIM
                              ",{\"name\":\"none\"}]"},
        "animations[0]", "has no channels: animation dropped");
    if (a) {
        CHECK(a->clip_count == 1);
        CHECK(rc_has_warning(a, "animations[2]", "has no channels"));
    }
    vs_asset_free(a);
    /* Channels without samplers have no data: refused. */
    char *json = document(
        &g, (parts){.animations = "[{\"channels\":[{\"sampler\":0,"
                                  "\"target\":{\"node\":1,\"path\":"
                                  "\"translation\"}}],\"samplers\":[]}]"});
    vs_error err;
    a = NULL;
    CHECK(vs_asset_load_memory(json, strlen(json), "x.gltf", NULL, &a,
                               &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "animations[0].samplers") != NULL);
    free(json);
}

static void pointer_channels_are_ignored(void)
{
    fx_gltf g;
    build(&g);
    vs_asset *a = repaired(
        &g,
        (parts){.animations =
                    "[{\"channels\":[{\"sampler\":1,\"target\":{\"path\":"
                    "\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{"
                    "\"pointer\":\"/nodes/2/translation\"}}}},{\"sampler\":0,"
                    "\"target\":{\"node\":1,\"path\":\"translation\"}}],"
                    "\"samplers\":[{\"input\":4,\"output\":5},{\"input\":4,"
                    "\"output\":5}]}]",
                .extra = ",\"extensionsUsed\":[\"KHR_animation_pointer\"]"},
        "animations[0].channels[0].target", "channel ignored");
    if (a) CHECK(a->clip_count == 1 && a->clips[0].channel_count == 1);
    vs_asset_free(a);
}

static void broken_materials_are_dropped(void)
{
    fx_gltf g;
    build(&g);
    const char *meshes =
        "[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,"
        "\"WEIGHTS_0\":2},\"material\":1}]},{\"primitives\":[{\"attributes\":"
        "{\"POSITION\":0},\"material\":0}]}]";
    vs_asset *a = repaired(
        &g,
        (parts){.meshes = meshes,
                .extra = ",\"materials\":[{\"pbrMetallicRoughness\":{"
                         "\"baseColorFactor\":[0.5,0.5,0.5,1]}},{\"name\":"
                         "\"bad\",\"pbrMetallicRoughness\":{"
                         "\"baseColorTexture\":{\"index\":4}}},7]"},
        "materials[1].pbrMetallicRoughness.baseColorTexture",
        "index names no texture: material dropped");
    if (a) {
        CHECK(rc_has_warning(a, "materials[2]", "is not an object"));
        CHECK(a->meshes[0].primitives[0].material == -1);
        CHECK(a->meshes[1].primitives[0].material == 0);
        CHECK(a->material_count == 3 && a->materials[0].base_color[0] == 0.5f);
    }
    vs_asset_free(a);
}

int main(void)
{
    RUN(base_document_loads_without_warnings);
    RUN(shading_extensions_are_ignored);
    RUN(draft_technique_extension_is_ignored);
    RUN(names_that_are_no_strings_are_left_out);
    RUN(scene_in_a_file_without_scenes);
    RUN(skeleton_that_is_no_root_is_ignored);
    RUN(scene_listing_a_child_keeps_its_parent);
    RUN(scene_listing_a_lone_child_shows_it_alone);
    RUN(empty_animations_are_dropped);
    RUN(pointer_channels_are_ignored);
    RUN(broken_materials_are_dropped);
    return test_summary();
}
