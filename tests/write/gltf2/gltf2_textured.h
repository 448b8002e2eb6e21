/* SPDX-License-Identifier: MIT */
/* Textured sources for the glTF 2.0 writer's tests: the quad of
 * tests/data/render/textured_quad with every material field vskin keeps,
 * a quad whose images cannot all be written, one whose colours leave
 * [0, 1], and glTF 1.0's and COLLADA's diffuse
 * textures (tests/data/collada/textured.dae read beside checker.png);
 * and the checks that an asset made from one of them (written, baked)
 * kept its images, materials and primitives' surface. */
#ifndef VS_TESTS_WRITE_GLTF2_TEXTURED_H
#define VS_TESTS_WRITE_GLTF2_TEXTURED_H

#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "vskin/vskin.h"

#define TEXTURED_DIR VS_TEST_DATA "/render/textured_quad"

/* The quad's buffers, views and accessors (positions, normals,
 * TEXCOORD_0, RGBA colours, indices, and a second texture coordinate set
 * over the normals), a bufferView image, and TEXTURED_MESH's primitives. */
#define TEXTURED_BUFFERS                                                       \
    "\"buffers\":[{\"uri\":\"quad.bin\",\"byteLength\":204},"                  \
    "{\"uri\":\"checker_alpha.png\",\"byteLength\":76}],"                      \
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},"                       \
    "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},"                      \
    "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":32},"                      \
    "{\"buffer\":0,\"byteOffset\":128,\"byteLength\":64},"                     \
    "{\"buffer\":0,\"byteOffset\":192,\"byteLength\":12},"                     \
    "{\"buffer\":1,\"byteLength\":76}],"                                       \
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,"     \
    "\"type\":\"VEC3\",\"min\":[-1,-1,0],\"max\":[1,1,0]},"                    \
    "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}," \
    "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"}," \
    "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"}," \
    "{\"bufferView\":4,\"componentType\":5123,\"count\":6,"                    \
    "\"type\":\"SCALAR\"},"                                                    \
    "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"}],"

/* One primitive per material m0..m2 (no texture coordinates but the
 * first's, so the writer has to carry set 1 over). */
#define TEXTURED_MESH                                                          \
    "\"meshes\":[{\"primitives\":["                                            \
    "{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2,"           \
    "\"TEXCOORD_1\":5,\"COLOR_0\":3},\"indices\":4,\"material\":0},"           \
    "{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":2},\"indices\":4,"         \
    "\"material\":1},"                                                         \
    "{\"attributes\":{\"POSITION\":0,\"TEXCOORD_0\":2},\"indices\":4,"         \
    "\"material\":2}]}],"                                                      \
    "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}],\"scene\":0}"

/* Material 0: a file image with a sampler, KHR_texture_transform reading
 * set 1, MASK, doubleSided and a factor; 1: the bufferView image, BLEND;
 * 2: the first texture again, with its own factor. */
static const char textured_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"extensionsUsed\":[\"KHR_texture_transform\"]," TEXTURED_BUFFERS
    "\"images\":[{\"uri\":\"checker.png\",\"name\":\"checker\"},"
    "{\"bufferView\":5,\"mimeType\":\"image/png\"}],"
    "\"samplers\":[{\"magFilter\":9728,\"minFilter\":9987,\"wrapS\":33648,"
    "\"wrapT\":33071}],"
    "\"textures\":[{\"source\":0,\"sampler\":0},{\"source\":1}],"
    "\"materials\":[{\"name\":\"masked\",\"alphaMode\":\"MASK\","
    "\"alphaCutoff\":0.25,\"doubleSided\":true,"
    "\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0.5,0.25,1],"
    "\"baseColorTexture\":{\"index\":0,\"extensions\":{"
    "\"KHR_texture_transform\":{\"offset\":[0.5,0],\"rotation\":1,"
    "\"scale\":[2,3],\"texCoord\":1}}}}},"
    "{\"alphaMode\":\"BLEND\",\"pbrMetallicRoughness\":{"
    "\"baseColorTexture\":{\"index\":1}}},"
    "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,1,0,1],"
    "\"baseColorTexture\":{\"index\":0}}}]," TEXTURED_MESH;

/* Images the writer cannot keep, one per material of the mesh: a missing
 * file, a file outside the folder, a PNG cut off inside its header;
 * material 3 (used by no primitive) keeps checker.png. */
static const char unwritable_images_doc[] =
    "{\"asset\":{\"version\":\"2.0\"}," TEXTURED_BUFFERS
    "\"images\":[{\"uri\":\"missing.png\"},"
    "{\"uri\":\"../simpleskin_outline_t0.png\"},{\"uri\":\"broken.png\"},"
    "{\"uri\":\"checker.png\"}],"
    "\"textures\":[{\"source\":0},{\"source\":1},{\"source\":2},"
    "{\"source\":3}],"
    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":"
    "[1,0,0,1],\"baseColorTexture\":{\"index\":0}}},"
    "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,1,0,1],"
    "\"baseColorTexture\":{\"index\":1}}},"
    "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":2}}},"
    "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":3}},"
    "\"doubleSided\":true}]," TEXTURED_MESH;

/* A glTF 1.0 diffuse texture with its sampler, and a diffuse colour of
 * KHR_materials_common, double sided (materials only). */
static const char gltf1_textured_doc[] =
    "{\"asset\":{\"version\":\"1.0\"},"
    "\"images\":{\"img\":{\"uri\":\"checker.png\"}},"
    "\"samplers\":{\"s\":{\"magFilter\":9728,\"wrapS\":33071}},"
    "\"textures\":{\"tex\":{\"source\":\"img\",\"sampler\":\"s\"}},"
    "\"materials\":{\"textured\":{\"values\":{\"diffuse\":\"tex\"}},"
    "\"plain\":{\"extensions\":{\"KHR_materials_common\":{"
    "\"doubleSided\":true,\"values\":{\"diffuse\":[0.5,0.25,1,1]}}}}}}";

/* doc loaded from memory with its files in TEXTURED_DIR; NULL on error. */
static inline vs_asset *textured_load(const char *doc, const char *name)
{
    vs_load_options lo = {.base_dir = TEXTURED_DIR};
    vs_asset *a = NULL;
    vs_error e;
    if (vs_asset_load_memory(doc, strlen(doc), name, &lo, &a, &e) != VS_OK) {
        fprintf(stderr, "%s: %s\n", name, e.message);
        return NULL;
    }
    return a;
}

/* textured_doc with COLOR_0 read from the positions, so that the colours
 * leave [0, 1] (-1 in x or y at three of the four corners); NULL on
 * error. */
static inline vs_asset *textured_colours_outside(void)
{
    char *doc = strdup(textured_doc);
    char *color = doc ? strstr(doc, "\"COLOR_0\":3") : NULL;
    vs_asset *a = NULL;
    if (color) {
        color[10] = '0';
        a = textured_load(doc, "colours.gltf");
    }
    free(doc);
    return a;
}

/* tests/data/collada/textured.dae read as if it lay in TEXTURED_DIR, so
 * its checker.png is found and its sub/other name.jpg is not. */
static inline vs_asset *textured_collada(void)
{
    char *text = test_read_text(VS_TEST_DATA "/collada/textured.dae");
    if (!text) return NULL;
    vs_asset *a = textured_load(text, "textured.dae");
    free(text);
    return a;
}

/* Whether images i of a and j of b have the same bytes (or both are -1:
 * no texture). */
static inline bool same_image(const vs_asset *a, int32_t i,
                              const vs_asset *b, int32_t j)
{
    if (i < 0 || j < 0) return i < 0 && j < 0;
    const uint8_t *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    vs_error e;
    bool ok = vs_asset_image_bytes(a, (uint32_t)i, NULL, &x, &nx, &e) == VS_OK;
    CHECK_MSG(ok, "%s", e.message);
    ok = ok && vs_asset_image_bytes(b, (uint32_t)j, NULL, &y, &ny, &e) == VS_OK;
    CHECK_MSG(ok, "%s", e.message);
    bool same = ok && nx == ny && memcmp(x, y, nx) == 0;
    if (x) vs_asset_image_bytes_free(a, (uint32_t)i, x, nx);
    if (y) vs_asset_image_bytes_free(b, (uint32_t)j, y, ny);
    return same;
}

/* Material m of out is material m of src; set 0 stays set 0, any other
 * set is written as set 1. */
static inline void same_material(const vs_asset *src, const vs_asset *out,
                                 uint32_t m)
{
    const vs_material *s = &src->materials[m], *o = &out->materials[m];
    CHECK(strcmp(s->name, o->name) == 0);
    CHECK(memcmp(s->base_color, o->base_color, sizeof s->base_color) == 0);
    CHECK(s->alpha_mode == o->alpha_mode);
    CHECK(s->alpha_cutoff == o->alpha_cutoff);
    CHECK(s->double_sided == o->double_sided);
    const vs_texture_ref *st = &s->base_color_texture;
    const vs_texture_ref *ot = &o->base_color_texture;
    CHECK_MSG(same_image(src, st->image, out, ot->image),
              "materials[%u]: texture image %d, written as %d", m, st->image,
              ot->image);
    CHECK(ot->texcoord == (st->texcoord ? 1u : 0u));
    CHECK(memcmp(&st->sampler, &ot->sampler, sizeof st->sampler) == 0);
    CHECK(st->has_transform == ot->has_transform);
    CHECK(memcmp(st->offset, ot->offset, sizeof st->offset) == 0);
    CHECK(st->rotation == ot->rotation);
    CHECK(memcmp(st->scale, ot->scale, sizeof st->scale) == 0);
}

static inline bool same_floats(const float *x, const float *y, size_t n)
{
    return (!x && !y) || (x && y && memcmp(x, y, n * sizeof *x) == 0);
}

/* Mesh 0's primitives of out are those of src: counts, materials, COLOR_0,
 * TEXCOORD_0 and the set each texture reads. */
static inline void same_primitives(const vs_asset *src, const vs_asset *out)
{
    const vs_mesh *sm = &src->meshes[0], *om = &out->meshes[0];
    CHECK(sm->primitive_count == om->primitive_count);
    for (uint32_t k = 0; k < sm->primitive_count; ++k) {
        const vs_primitive *s = &sm->primitives[k], *o = &om->primitives[k];
        size_t n = s->vertex_count;
        CHECK(o->vertex_count == n && o->material == s->material);
        CHECK_MSG(same_floats(s->colors, o->colors, n * 4),
                  "primitives[%u]: COLOR_0", k);
        CHECK(same_floats(s->texcoords, o->texcoords, n * 2));
        CHECK_MSG(same_floats(s->base_color_texcoords, o->base_color_texcoords,
                              n * 2),
                  "primitives[%u]: the texture's coordinates", k);
    }
}

#endif
