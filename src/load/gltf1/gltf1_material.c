/* SPDX-License-Identifier: MIT */
/* glTF 1.0 materials onto the glTF 2.0 material model: the technique value
 * "diffuse" (plain or in KHR_materials_common) is either a colour (the base
 * colour) or a texture id (the base colour texture: its image and sampler),
 * and KHR_materials_common's doubleSided. Images are kept undecoded, their
 * URI as the file gives it (vs_asset_image_bytes reads them on demand). */
#include <math.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/error.h"
#include "load/gltf1/gltf1_internal.h"

/* What the material reads: "values" of the material, or of
 * KHR_materials_common when the plain values have no diffuse. */
static const cJSON *material_values(const cJSON *mat, const cJSON **common)
{
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(mat, "values");
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(mat, "extensions");
    *common = cJSON_GetObjectItemCaseSensitive(ext, "KHR_materials_common");
    if (cJSON_GetObjectItemCaseSensitive(values, "diffuse")) return values;
    return cJSON_GetObjectItemCaseSensitive(*common, "values");
}

/* glTF 1.0 sampler values: the GL enums of glTF 2.0; anything else keeps
 * the default. */
static uint32_t sampler_enum(const cJSON *s, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, key);
    if (!cJSON_IsNumber(v)) return 0;
    double d = v->valuedouble;
    bool ok = d == 9728 || d == 9729 ||
              (d >= 9984 && d <= 9987 && d == floor(d)) || d == 33071 ||
              d == 33648 || d == 10497;
    return ok ? (uint32_t)d : 0;
}

typedef struct texture_dicts {
    gltf1_dict textures, images, samplers;
} texture_dicts;

/* The texture id `id` (found at path) as a texture reference. */
static vs_result texture_ref(gltf1_ctx *c, const texture_dicts *d,
                             const cJSON *id, const char *path,
                             vs_texture_ref *t)
{
    uint32_t ti;
    vs_result r = gltf1_resolve(c, &d->textures, id, path, &ti);
    if (r != VS_OK) return r;
    const cJSON *tex = d->textures.items[ti];
    char tp[GLTF1_PATH_SIZE];
    gltf1_path(tp, "textures", gltf1_id_of(&d->textures, ti));
    const cJSON *source = cJSON_GetObjectItemCaseSensitive(tex, "source");
    const cJSON *sampler = cJSON_GetObjectItemCaseSensitive(tex, "sampler");
    char sp[GLTF1_PATH_SIZE];
    uint32_t image;
    gltf1_pathf(sp, "%s.source", tp);
    if (!source)
        return asset_warn(c->asset, c->error, tp, "the texture is ignored",
                          "it has no source image");
    if ((r = gltf1_resolve(c, &d->images, source, sp, &image)) != VS_OK)
        return r;
    t->image = (int32_t)image;
    if (sampler) {
        uint32_t si;
        gltf1_pathf(sp, "%s.sampler", tp);
        if ((r = gltf1_resolve(c, &d->samplers, sampler, sp, &si)) != VS_OK)
            return r;
        const cJSON *s = d->samplers.items[si];
        t->sampler = (vs_sampler){.mag_filter = sampler_enum(s, "magFilter"),
                                  .min_filter = sampler_enum(s, "minFilter"),
                                  .wrap_s = sampler_enum(s, "wrapS"),
                                  .wrap_t = sampler_enum(s, "wrapT")};
    }
    return VS_OK;
}

static vs_result material(gltf1_ctx *c, const texture_dicts *d, uint32_t i,
                          vs_material *m)
{
    const cJSON *mat = c->materials.items[i];
    m->name = gltf1_name(c, mat, mat->string);
    if (!m->name) return c->error->code;
    m->base_color[0] = m->base_color[1] = m->base_color[2] = 1.0f;
    m->base_color[3] = 1.0f;
    m->base_color_texture = (vs_texture_ref){.image = -1, .scale = {1, 1}};
    m->alpha_cutoff = 0.5f;
    const cJSON *common;
    const cJSON *values = material_values(mat, &common);
    const cJSON *diffuse = cJSON_GetObjectItemCaseSensitive(values, "diffuse");
    m->double_sided =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(common, "doubleSided"));
    char path[GLTF1_PATH_SIZE];
    gltf1_path(path, "materials", mat->string);
    if (cJSON_IsString(diffuse)) {
        char dp[GLTF1_PATH_SIZE];
        gltf1_pathf(dp, "%s.values.diffuse", path);
        return texture_ref(c, d, diffuse, dp, &m->base_color_texture);
    }
    int n = cJSON_IsArray(diffuse) ? cJSON_GetArraySize(diffuse) : 0;
    if (n != 3 && n != 4) return VS_OK;
    int k = 0;
    for (const cJSON *e = diffuse->child; e; e = e->next, ++k)
        if (cJSON_IsNumber(e) && isfinite(e->valuedouble))
            m->base_color[k] = (float)e->valuedouble;
    return VS_OK;
}

/* Every image of the file, in id order, with its URI. */
static vs_result load_images(gltf1_ctx *c, const gltf1_dict *images)
{
    uint32_t n = images->count;
    if (n == 0) return VS_OK;
    vs_image *imgs =
        vs_priv_asset_calloc(c->asset, n, sizeof *imgs, c->error, "images");
    if (!imgs) return c->error->code;
    for (uint32_t i = 0; i < n; ++i) {
        const cJSON *img = images->items[i];
        char path[GLTF1_PATH_SIZE];
        gltf1_path(path, "images", img->string);
        const char *uri;
        vs_result r = gltf1_get_string(c, img, "uri", path, &uri);
        if (r != VS_OK) return r;
        imgs[i].name = gltf1_name(c, img, img->string);
        imgs[i].mime_type = "";
        if (!imgs[i].name) return c->error->code;
        if (!uri) {
            /* KHR_binary_glTF's bufferView images are not read. */
            r = asset_warn(c->asset, c->error, path, "the image is empty",
                           "it has no uri");
            if (r != VS_OK) return r;
            continue;
        }
        if (!(imgs[i].uri = vs_priv_asset_strdup(c->asset, uri)))
            return gltf1_fail(c, VS_ERROR_LIMIT, path,
                              "exceeds the memory limit");
    }
    c->asset->images = imgs;
    c->asset->image_count = n;
    return VS_OK;
}

static vs_result load_all(gltf1_ctx *c, texture_dicts *d)
{
    vs_result r;
    if ((r = gltf1_dict_build(c, c->root, "textures", "", "texture",
                              &d->textures)) != VS_OK ||
        (r = gltf1_dict_build(c, c->root, "images", "", "image", &d->images)) !=
            VS_OK ||
        (r = gltf1_dict_build(c, c->root, "samplers", "", "sampler",
                              &d->samplers)) != VS_OK ||
        (r = load_images(c, &d->images)) != VS_OK)
        return r;
    uint32_t n = c->materials.count;
    if (n == 0) return VS_OK;
    vs_material *mats =
        vs_priv_asset_calloc(c->asset, n, sizeof *mats, c->error, "materials");
    if (!mats) return c->error->code;
    for (uint32_t i = 0; i < n; ++i)
        if ((r = material(c, d, i, &mats[i])) != VS_OK) return r;
    c->asset->materials = mats;
    c->asset->material_count = n;
    return VS_OK;
}

vs_result gltf1_load_materials(gltf1_ctx *c)
{
    texture_dicts d;
    memset(&d, 0, sizeof d);
    vs_result r = load_all(c, &d);
    gltf1_dict_free(c, &d.textures);
    gltf1_dict_free(c, &d.images);
    gltf1_dict_free(c, &d.samplers);
    return r;
}
