/* SPDX-License-Identifier: MIT */
/* Materials, textures and images reach one model from every format: glTF
 * 2.0 (texCoord, sampler, KHR_texture_transform, alphaMode, doubleSided,
 * COLOR_0, images by URI and bufferView), glTF 1.0 (a "diffuse" texture id
 * or colour) and COLLADA (<diffuse><texture> through sampler2D, surface and
 * <library_images>). Nothing is decoded or read by the load: images keep
 * their URIs. */
#include <string.h>

#include "test.h"
#include "vskin/vskin.h"

#define QUAD_DIR VS_TEST_DATA "/render/textured_quad"

static vs_asset *load_json(const char *json, const char *base_dir, vs_error *e)
{
    vs_load_options lo = {.base_dir = base_dir};
    vs_asset *a = NULL;
    if (vs_asset_load_memory(json, strlen(json), "m.gltf", &lo, &a, e) != VS_OK)
        return NULL;
    return a;
}

/* The quad of tests/data/render/textured_quad with TEXCOORD_0 and a
 * second set (the same accessor), RGB colours (its normals) and the
 * checker PNG as a buffer for a bufferView image. */
static const char gltf2_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"extensionsUsed\":[\"KHR_texture_transform\"],"
    "\"buffers\":[{\"uri\":\"quad.bin\",\"byteLength\":204},"
    "{\"uri\":\"checker.png\",\"byteLength\":75}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":32},"
    "{\"buffer\":1,\"byteLength\":75}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,"
    "\"type\":\"VEC3\",\"min\":[-1,-1,0],\"max\":[1,1,0]},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"}],"
    "\"images\":[{\"uri\":\"checker.png\",\"name\":\"c\"},"
    "{\"bufferView\":3,\"mimeType\":\"image/png\"}],"
    "\"samplers\":[{\"magFilter\":9728,\"wrapS\":33648,\"wrapT\":123}],"
    "\"textures\":[{\"source\":0,\"sampler\":0},{\"source\":1}],"
    "\"materials\":[{\"name\":\"a\",\"alphaMode\":\"MASK\","
    "\"alphaCutoff\":0.25,\"doubleSided\":true,"
    "\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0.5,0.25,1],"
    "\"baseColorTexture\":{\"index\":0,\"texCoord\":0,\"extensions\":{"
    "\"KHR_texture_transform\":{\"offset\":[0.5,0],\"rotation\":1,"
    "\"scale\":[2,3],\"texCoord\":1}}}}},"
    "{\"alphaMode\":\"BLEND\",\"pbrMetallicRoughness\":{"
    "\"baseColorTexture\":{\"index\":1}}},{}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
    "\"TEXCOORD_0\":2,\"TEXCOORD_1\":2,\"COLOR_0\":1},\"material\":0},"
    "{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":2},\"material\":1},"
    "{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":2},\"material\":2}]}],"
    "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}],\"scene\":0}";

static void test_gltf2_materials(void)
{
    vs_error e = {0};
    vs_asset *a = load_json(gltf2_doc, QUAD_DIR, &e);
    CHECK_MSG(a, "%s", e.message);
    if (!a) return;
    CHECK(a->image_count == 2 && a->material_count == 3);
    CHECK(strcmp(a->images[0].uri, "checker.png") == 0);
    CHECK(strcmp(a->images[0].name, "c") == 0 && !a->images[0].data);
    /* A bufferView image's bytes are the asset's (the PNG signature). */
    CHECK(!a->images[1].uri && a->images[1].size == 75 && a->images[1].data &&
          a->images[1].data[1] == 'P');
    CHECK(strcmp(a->images[1].mime_type, "image/png") == 0);
    const vs_material *m = &a->materials[0];
    CHECK(m->alpha_mode == VS_ALPHA_MASK && m->double_sided);
    CHECK_NEAR(m->alpha_cutoff, 0.25, 1e-6);
    CHECK_NEAR(m->base_color[2], 0.25, 1e-6);
    const vs_texture_ref *t = &m->base_color_texture;
    CHECK(t->image == 0 && t->texcoord == 1 && t->has_transform);
    CHECK_NEAR(t->offset[0], 0.5, 1e-6);
    CHECK_NEAR(t->rotation, 1.0, 1e-6);
    CHECK_NEAR(t->scale[1], 3.0, 1e-6);
    /* An invalid wrapT is a warning and the default (0: REPEAT). */
    CHECK(t->sampler.mag_filter == 9728 && t->sampler.min_filter == 0);
    CHECK(t->sampler.wrap_s == 33648 && t->sampler.wrap_t == 0);
    CHECK(a->warning_count == 1 &&
          strstr(a->warnings[0].object, "samplers[0].wrapT"));
    CHECK(a->materials[1].alpha_mode == VS_ALPHA_BLEND &&
          a->materials[1].base_color_texture.image == 1);
    /* Defaults: no texture, OPAQUE, cutoff 0.5, single sided. */
    m = &a->materials[2];
    CHECK(m->base_color_texture.image == -1 && !m->double_sided &&
          m->alpha_mode == VS_ALPHA_OPAQUE);
    CHECK_NEAR(m->alpha_cutoff, 0.5, 1e-6);
    CHECK_NEAR(m->base_color_texture.scale[0], 1.0, 1e-6);
    const vs_primitive *p = a->meshes[0].primitives;
    /* The transform's texCoord 1 is decoded; RGB COLOR_0 gets alpha 1. */
    CHECK(p[0].base_color_texcoords &&
          p[0].base_color_texcoords != p[0].texcoords);
    CHECK(p[0].colors && p[0].colors[2] == 1.0f && p[0].colors[3] == 1.0f);
    CHECK(p[1].base_color_texcoords == p[1].texcoords && !p[1].colors);
    CHECK(p[2].base_color_texcoords == NULL);
    vs_asset_free(a);
}

/* Loads json twice: it must load with one warning whose object and message
 * contain `where` (the material or image left out), and a strict load must
 * refuse it naming the same. */
static void expect_repaired(const char *json, const char *where)
{
    vs_error e = {0};
    vs_asset *a = load_json(json, NULL, &e);
    CHECK_MSG(a && a->warning_count == 1, "%s: %s", json, e.message);
    if (a && a->warning_count == 1) {
        char text[1024];
        snprintf(text, sizeof text, "%s: %s", a->warnings[0].object,
                 a->warnings[0].message);
        CHECK_MSG(strstr(text, where) != NULL, "%s", text);
    }
    vs_asset_free(a);
    vs_load_options strict = {.strict = true};
    a = NULL;
    CHECK(vs_asset_load_memory(json, strlen(json), "m.gltf", &strict, &a,
                               &e) == VS_ERROR_INVALID);
    CHECK_MSG(!a && strstr(e.message, where), "%s", e.message);
    vs_asset_free(a);
}

/* Materials and images only shade: a broken one is dropped (the default
 * material) or left empty, with a warning, and a strict load refuses it. */
static void test_gltf2_material_errors(void)
{
    static const char *const cases[][2] = {
        {"\"alphaMode\":\"CLEAR\"", "alphaMode"},
        {"\"alphaCutoff\":-1", "alphaCutoff"},
        {"\"doubleSided\":1", "doubleSided"},
        {"\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":5}}",
         "baseColorTexture"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"asset\":{\"version\":\"2.0\"},\"textures\":[],"
                 "\"materials\":[{\"name\":\"m\",%s}]}",
                 cases[i][0]);
        expect_repaired(json, cases[i][1]);
        vs_error e = {0};
        vs_asset *a = load_json(json, NULL, &e);
        /* Dropped: what is left is the default material. */
        CHECK(a && a->material_count == 1 && a->materials[0].name[0] == 0 &&
              a->materials[0].base_color_texture.image == -1 &&
              a->materials[0].alpha_mode == VS_ALPHA_OPAQUE);
        vs_asset_free(a);
    }
    /* An image needs exactly one of uri and bufferView. */
    expect_repaired("{\"asset\":{\"version\":\"2.0\"},\"images\":[{}]}",
                    "images[0]");
}

static void test_gltf1_diffuse_texture_and_colour(void)
{
    static const char doc[] =
        "{\"asset\":{\"version\":\"1.0\"},"
        "\"images\":{\"img\":{\"uri\":\"checker.png\"}},"
        "\"samplers\":{\"s\":{\"magFilter\":9728,\"wrapS\":33071}},"
        "\"textures\":{\"tex\":{\"source\":\"img\",\"sampler\":\"s\"}},"
        "\"materials\":{\"textured\":{\"values\":{\"diffuse\":\"tex\"}},"
        "\"plain\":{\"extensions\":{\"KHR_materials_common\":{"
        "\"doubleSided\":true,\"values\":{\"diffuse\":[0.5,0.25,1,1]}}}}}}";
    vs_error e = {0};
    vs_asset *a = load_json(doc, NULL, &e);
    CHECK_MSG(a, "%s", e.message);
    if (!a) return;
    CHECK(a->image_count == 1 && strcmp(a->images[0].uri, "checker.png") == 0);
    CHECK(a->material_count == 2);
    const vs_material *m = &a->materials[0];
    CHECK(m->base_color_texture.image == 0 && m->base_color[0] == 1.0f);
    CHECK(m->base_color_texture.sampler.mag_filter == 9728 &&
          m->base_color_texture.sampler.wrap_s == 33071);
    m = &a->materials[1];
    CHECK(m->base_color_texture.image == -1 && m->double_sided);
    CHECK_NEAR(m->base_color[1], 0.25, 1e-6);
    vs_asset_free(a);
    /* A texture id that names nothing is refused like any bad id. */
    a = load_json("{\"asset\":{\"version\":\"1.0\"},\"materials\":{\"m\":{"
                  "\"values\":{\"diffuse\":\"none\"}}}}",
                  NULL, &e);
    CHECK(!a && strstr(e.message, "none"));
    vs_asset_free(a);
}

static void test_collada_diffuse_textures(void)
{
    vs_asset *a = NULL;
    vs_error e = {0};
    vs_result r =
        vs_asset_load_file(VS_TEST_DATA "/collada/textured.dae", NULL, &a, &e);
    CHECK_MSG(r == VS_OK, "%s", e.message);
    if (r != VS_OK) return;
    CHECK(a->image_count == 2);
    CHECK(strcmp(a->images[0].uri, "checker.png") == 0 &&
          strcmp(a->images[0].name, "checker") == 0);
    CHECK(strcmp(a->images[1].uri, "sub/other%20name.jpg") == 0);
    CHECK(a->material_count == 3);
    CHECK(a->materials[0].base_color_texture.image == 0 &&
          !a->materials[0].double_sided);
    CHECK(a->materials[1].base_color_texture.image == 1 &&
          a->materials[1].double_sided);
    CHECK(a->materials[2].base_color_texture.image == -1);
    CHECK(a->warning_count == 1 && strstr(a->warnings[0].message, "nowhere"));
    const vs_primitive *p = &a->meshes[0].primitives[0];
    CHECK(p->material == 0 && p->texcoords &&
          p->base_color_texcoords == p->texcoords);
    vs_asset_free(a);
    /* A strict load refuses the texture that names nothing. */
    vs_load_options strict = {.strict = true};
    CHECK(vs_asset_load_file(VS_TEST_DATA "/collada/textured.dae", &strict, &a,
                             &e) == VS_ERROR_INVALID);
}

int main(void)
{
    RUN(test_gltf2_materials);
    RUN(test_gltf2_material_errors);
    RUN(test_gltf1_diffuse_texture_and_colour);
    RUN(test_collada_diffuse_textures);
    return test_summary();
}
