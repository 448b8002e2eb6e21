/* SPDX-License-Identifier: MIT */
/* glTF 2.0 materials (§3.9) -> vs_material: the name and baseColorFactor;
 * a broken material is dropped with a warning. */
#include <math.h>
#include <stdio.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "load/gltf2/gltf2_internal.h"

/* Texture references (textureInfo) of a material and of its
 * pbrMetallicRoughness. */
static const char *const material_textures[] = {
    "normalTexture", "occlusionTexture", "emissiveTexture", NULL};
static const char *const pbr_textures[] = {"baseColorTexture",
                                           "metallicRoughnessTexture", NULL};

/* Whether textureInfo `key` of obj is broken, and why. */
static bool bad_texture(const cJSON *obj, const char *key, uint32_t textures,
                        const char **why)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!t) return false;
    const cJSON *index = cJSON_GetObjectItemCaseSensitive(t, "index");
    if (!cJSON_IsObject(t) || !cJSON_IsNumber(index) ||
        index->valuedouble != floor(index->valuedouble)) {
        *why = "is not a textureInfo with an integer index";
        return true;
    }
    if (!(index->valuedouble >= 0 && index->valuedouble < textures)) {
        *why = "index names no texture";
        return true;
    }
    return false;
}

/* The first flaw of material obj: *field is the member's path below the
 * material ("" for the material itself) and *why what is wrong. */
static bool broken(const cJSON *obj, uint32_t textures, float base_color[4],
                   char *field, size_t size, const char **why)
{
    *field = '\0';
    if (!cJSON_IsObject(obj)) {
        *why = "is not an object";
        return true;
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(obj, "name");
    if (name && !cJSON_IsString(name)) {
        snprintf(field, size, ".name");
        *why = "is not a string";
        return true;
    }
    for (int i = 0; material_textures[i]; ++i)
        if (bad_texture(obj, material_textures[i], textures, why)) {
            snprintf(field, size, ".%s", material_textures[i]);
            return true;
        }
    const cJSON *pbr =
        cJSON_GetObjectItemCaseSensitive(obj, "pbrMetallicRoughness");
    if (!pbr) return false;
    if (!cJSON_IsObject(pbr)) {
        snprintf(field, size, ".pbrMetallicRoughness");
        *why = "is not an object";
        return true;
    }
    for (int i = 0; pbr_textures[i]; ++i)
        if (bad_texture(pbr, pbr_textures[i], textures, why)) {
            snprintf(field, size, ".pbrMetallicRoughness.%s", pbr_textures[i]);
            return true;
        }
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(pbr, "baseColorFactor");
    if (!f) return false;
    int k = 0;
    const cJSON *e;
    bool ok = cJSON_IsArray(f) && cJSON_GetArraySize(f) == 4;
    const cJSON *items = ok ? f : NULL;
    cJSON_ArrayForEach(e, items)
    {
        ok &= cJSON_IsNumber(e);
        if (ok) base_color[k++] = (float)e->valuedouble;
    }
    if (!ok) {
        snprintf(field, size, ".pbrMetallicRoughness.baseColorFactor");
        *why = "is not an array of 4 numbers";
        return true;
    }
    return false;
}

vs_result gltf2_load_materials(gltf2_ctx *c)
{
    const cJSON *arr, *e;
    uint32_t n, i = 0;
    vs_result r = json_array(c, c->root, "materials", "", &arr, &n);
    if (r != VS_OK || n == 0) return r;
    const cJSON *tex = cJSON_GetObjectItemCaseSensitive(c->root, "textures");
    const uint32_t textures =
        cJSON_IsArray(tex) ? (uint32_t)cJSON_GetArraySize(tex) : 0;
    vs_material *mats =
        vs_priv_asset_calloc(c->asset, n, sizeof *mats, c->error, "materials");
    if (!mats) return c->error ? c->error->code : VS_ERROR_LIMIT;
    cJSON_ArrayForEach(e, arr)
    {
        char path[GLTF2_PATH], field[GLTF2_PATH], where[2 * GLTF2_PATH];
        const char *why = "";
        path_fmt(path, "materials[%u]", i);
        vs_material *m = &mats[i++];
        m->name = "";
        for (int k = 0; k < 4; ++k)
            m->base_color[k] = 1.0f;
        if (!broken(e, textures, m->base_color, field, sizeof field, &why)) {
            if ((r = json_name(c, e, path, &m->name)) != VS_OK) return r;
            continue;
        }
        /* Shading only: a primitive without its material still has its
         * geometry and pose, drawn with the default material. */
        for (int k = 0; k < 4; ++k)
            m->base_color[k] = 1.0f;
        if (!c->material_dropped &&
            !(c->material_dropped = mem_calloc(c->io.alloc, n, 1)))
            return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: materials: out of memory", c->src);
        c->material_dropped[i - 1] = 1;
        snprintf(where, sizeof where, "%s%s", path, field);
        if ((r = asset_warn(c->asset, c->error, where, "material dropped", "%s",
                            why)) != VS_OK)
            return r;
    }
    c->asset->materials = mats;
    c->asset->material_count = n;
    return VS_OK;
}
