/* SPDX-License-Identifier: MIT */
/* glTF 2.0 materials (§3.9), textures, samplers and images (§3.8): the
 * base colour factor and texture (texCoord, sampler, KHR_texture_transform),
 * alphaMode, alphaCutoff and doubleSided. Images are not decoded: an
 * external or data: URI is kept as it is and a bufferView image's bytes
 * copied into the asset, for vs_asset_image_bytes. A flaw that only
 * changes the picture is a warning, never a refusal: a broken material is
 * dropped (its primitives get none), a broken sampler value is the
 * default, an image without its bytes is empty. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "load/gltf2/gltf2_internal.h"

#define ERR(c) ((c)->error ? (c)->error->code : VS_ERROR_LIMIT)

/* GL enums a glTF sampler may hold (§5.26). */
static bool valid_filter(uint64_t v, bool mag)
{
    return v == 9728 || v == 9729 || (!mag && v >= 9984 && v <= 9987);
}
static bool valid_wrap(uint64_t v)
{
    return v == 33071 || v == 33648 || v == 10497;
}

/* One sampler field: a valid enum, or (with a warning) the default. */
static vs_result sampler_field(gltf2_ctx *c, const cJSON *s, const char *key,
                               const char *path, int kind, uint32_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, key);
    *out = 0;
    if (!v) return VS_OK;
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1.0;
    uint64_t u = d >= 0 && d < 65536 && d == floor(d) ? (uint64_t)d : 0;
    bool ok = kind == 2 ? valid_wrap(u) : valid_filter(u, kind == 0);
    char where[GLTF2_PATH];
    path_fmt(where, "%s.%s", path, key);
    if (!ok)
        return asset_warn(c->asset, c->error, where, "the default is used",
                          "not a valid %s value",
                          kind == 2 ? "wrap" : "filter");
    *out = (uint32_t)u;
    return VS_OK;
}

static vs_result load_sampler(gltf2_ctx *c, int32_t index, vs_sampler *out)
{
    *out = (vs_sampler){0};
    if (index < 0) return VS_OK;
    const cJSON *s = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(c->root, "samplers"), index);
    char path[GLTF2_PATH];
    path_fmt(path, "samplers[%d]", index);
    vs_result r = json_element_object(c, s, path);
    if (r == VS_OK)
        r = sampler_field(c, s, "magFilter", path, 0, &out->mag_filter);
    if (r == VS_OK)
        r = sampler_field(c, s, "minFilter", path, 1, &out->min_filter);
    if (r == VS_OK) r = sampler_field(c, s, "wrapS", path, 2, &out->wrap_s);
    if (r == VS_OK) r = sampler_field(c, s, "wrapT", path, 2, &out->wrap_t);
    return r;
}

/* A finite number member (absent: def). */
static vs_result json_number(gltf2_ctx *c, const cJSON *obj, const char *key,
                             const char *path, float def, float *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = def;
    if (!v) return VS_OK;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.%s: must be a finite number", c->src, path,
                         key);
    *out = (float)v->valuedouble;
    return VS_OK;
}

/* KHR_texture_transform of a texture info, when present. */
static vs_result texture_transform(gltf2_ctx *c, const cJSON *info,
                                   const char *path, vs_texture_ref *t)
{
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(info, "extensions");
    const cJSON *x =
        cJSON_GetObjectItemCaseSensitive(ext, "KHR_texture_transform");
    if (!x) return VS_OK;
    char xp[GLTF2_PATH];
    path_fmt(xp, "%s.extensions.KHR_texture_transform", path);
    uint64_t set;
    vs_result r = json_element_object(c, x, xp);
    if (r == VS_OK) r = json_floats(c, x, "offset", xp, t->offset, 2, NULL);
    if (r == VS_OK) r = json_floats(c, x, "scale", xp, t->scale, 2, NULL);
    if (r == VS_OK) r = json_number(c, x, "rotation", xp, 0.0f, &t->rotation);
    if (r == VS_OK)
        r = json_uint(c, x, "texCoord", xp, false, t->texcoord, &set);
    if (r != VS_OK) return r;
    t->texcoord = (uint32_t)(set > 65535 ? 65535 : set);
    t->has_transform = true;
    return VS_OK;
}

/* A textureInfo (§5.30): index, texCoord, the texture's source image and
 * sampler, and KHR_texture_transform. */
static vs_result texture_info(gltf2_ctx *c, const cJSON *info, const char *path,
                              vs_texture_ref *t)
{
    *t = (vs_texture_ref){.image = -1, .scale = {1.0f, 1.0f}};
    if (!info) return VS_OK;
    const cJSON *texs = cJSON_GetObjectItemCaseSensitive(c->root, "textures");
    uint32_t count =
        cJSON_IsArray(texs) ? (uint32_t)cJSON_GetArraySize(texs) : 0;
    int32_t index;
    uint64_t set;
    vs_result r = json_element_object(c, info, path);
    if (r == VS_OK) r = json_index(c, info, "index", path, count, true, &index);
    if (r == VS_OK) r = json_uint(c, info, "texCoord", path, false, 0, &set);
    if (r != VS_OK) return r;
    t->texcoord = (uint32_t)(set > 65535 ? 65535 : set);
    const cJSON *tex = cJSON_GetArrayItem(texs, index);
    char tp[GLTF2_PATH];
    path_fmt(tp, "textures[%d]", index);
    int32_t sampler;
    const cJSON *samplers =
        cJSON_GetObjectItemCaseSensitive(c->root, "samplers");
    uint32_t ns =
        cJSON_IsArray(samplers) ? (uint32_t)cJSON_GetArraySize(samplers) : 0;
    if ((r = json_element_object(c, tex, tp)) != VS_OK ||
        (r = json_index(c, tex, "source", tp, c->asset->image_count, false,
                        &t->image)) != VS_OK ||
        (r = json_index(c, tex, "sampler", tp, ns, false, &sampler)) != VS_OK ||
        (r = load_sampler(c, sampler, &t->sampler)) != VS_OK)
        return r;
    return texture_transform(c, info, path, t);
}

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

static vs_result material(gltf2_ctx *c, const cJSON *e, const char *path,
                          vs_material *m)
{
    const cJSON *pbr;
    const char *mode;
    for (int k = 0; k < 4; ++k)
        m->base_color[k] = 1.0f;
    vs_result r;
    if ((r = json_element_object(c, e, path)) != VS_OK ||
        (r = json_name(c, e, path, &m->name)) != VS_OK ||
        (r = json_object(c, e, "pbrMetallicRoughness", path, &pbr)) ||
        (r = json_string(c, e, "alphaMode", path, "OPAQUE", &mode)) ||
        (r = json_number(c, e, "alphaCutoff", path, 0.5f, &m->alpha_cutoff)))
        return r;
    const cJSON *ds = cJSON_GetObjectItemCaseSensitive(e, "doubleSided");
    if (ds && !cJSON_IsBool(ds))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.doubleSided: must be a boolean", c->src, path);
    m->double_sided = cJSON_IsTrue(ds);
    if (strcmp(mode, "MASK") == 0)
        m->alpha_mode = VS_ALPHA_MASK;
    else if (strcmp(mode, "BLEND") == 0)
        m->alpha_mode = VS_ALPHA_BLEND;
    else if (strcmp(mode, "OPAQUE") != 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.alphaMode: \"%s\" is not OPAQUE, MASK or "
                         "BLEND",
                         c->src, path, mode);
    if (m->alpha_cutoff < 0.0f)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.alphaCutoff: must not be negative", c->src,
                         path);
    char pp[GLTF2_PATH], tp[GLTF2_PATH];
    path_fmt(pp, "%s.pbrMetallicRoughness", path);
    path_fmt(tp, "%s.baseColorTexture", pp);
    const cJSON *info =
        cJSON_GetObjectItemCaseSensitive(pbr, "baseColorTexture");
    if (pbr && (r = json_floats(c, pbr, "baseColorFactor", pp, m->base_color, 4,
                                NULL)) != VS_OK)
        return r;
    return texture_info(c, info, tp, &m->base_color_texture);
}

/* The default material a broken one becomes. */
static void default_material(vs_material *m)
{
    *m = (vs_material){.name = "",
                       .base_color = {1.0f, 1.0f, 1.0f, 1.0f},
                       .base_color_texture = {.image = -1,
                                              .scale = {1.0f, 1.0f}},
                       .alpha_cutoff = 0.5f};
}

/* Splits a refusal of material() ("SRC: materials[i].field: why") into
 * the field below the material and why, for the warning that replaces it. */
static void refusal_parts(const gltf2_ctx *c, const char *path, char *field,
                          size_t size, const char **why)
{
    const char *msg = asset_refusal_text(c->asset, c->error);
    size_t p = strlen(path);
    const char *colon = strncmp(msg, path, p) == 0 ? strstr(msg + p, ": ")
                                                   : NULL;
    *field = '\0';
    if (colon) {
        snprintf(field, size, "%.*s", (int)(colon - msg - p), msg + p);
        msg = colon + 2;
    }
    *why = *msg ? msg : "is invalid";
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
    if (!mats) return ERR(c);
    cJSON_ArrayForEach(e, arr)
    {
        char path[GLTF2_PATH], field[GLTF2_PATH], where[2 * GLTF2_PATH];
        char why_copy[VS_ERROR_MESSAGE_SIZE];
        const char *why = "";
        float factor[4];
        path_fmt(path, "materials[%u]", i);
        vs_material *m = &mats[i++];
        if (!broken(e, textures, factor, field, sizeof field, &why)) {
            if ((r = material(c, e, path, m)) == VS_OK) continue;
            if (r != VS_ERROR_INVALID) return r;
            refusal_parts(c, path, field, sizeof field, &why);
            snprintf(why_copy, sizeof why_copy, "%s", why);
            why = why_copy;
        }
        /* Shading only: a primitive without its material still has its
         * geometry and pose, drawn with the default material. */
        default_material(m);
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

/* images[i] with a bufferView: its bytes copied into the asset, as the
 * buffers are freed when the load ends. A view whose buffer has no data
 * leaves the image empty, which a renderer reports and does without. */
static vs_result view_bytes(gltf2_ctx *c, int32_t view, const char *path,
                            vs_image *img)
{
    const gltf2_view *v = &c->views[view];
    const gltf2_buffer *b = &c->buffers[v->buffer];
    if (!b->data)
        return asset_warn(c->asset, c->error, path, "the image is empty",
                          "its buffer has no data (%s)", b->missing);
    uint8_t *copy = vs_priv_asset_calloc(c->asset, v->size ? v->size : 1, 1,
                                         c->error, path);
    if (!copy) return ERR(c);
    memcpy(copy, b->data + v->buffer_offset, v->size);
    img->data = copy;
    img->size = v->size;
    return VS_OK;
}

vs_result gltf2_load_images(gltf2_ctx *c)
{
    const cJSON *arr, *e;
    uint32_t n, i = 0;
    vs_result r = json_array(c, c->root, "images", "", &arr, &n);
    if (r != VS_OK || n == 0) return r;
    vs_image *imgs =
        vs_priv_asset_calloc(c->asset, n, sizeof *imgs, c->error, "images");
    if (!imgs) return ERR(c);
    cJSON_ArrayForEach(e, arr)
    {
        char path[GLTF2_PATH];
        path_fmt(path, "images[%u]", i);
        vs_image *img = &imgs[i++];
        const char *uri, *mime;
        int32_t view;
        if ((r = json_element_object(c, e, path)) != VS_OK ||
            (r = json_name(c, e, path, &img->name)) != VS_OK ||
            (r = json_string(c, e, "uri", path, NULL, &uri)) != VS_OK ||
            (r = json_string(c, e, "mimeType", path, "", &mime)) != VS_OK ||
            (r = json_index(c, e, "bufferView", path, c->view_count, false,
                            &view)) != VS_OK)
            return r;
        /* §5.18: exactly one of uri and bufferView. Which one is meant is
         * unknown, and only the picture needs it: the image is empty. */
        if ((uri != NULL) == (view >= 0)) {
            if ((r = asset_warn(c->asset, c->error, path, "the image is empty",
                                "has %s of uri and bufferView",
                                uri ? "both" : "neither")) != VS_OK)
                return r;
            uri = NULL;
            view = -1;
        }
        img->mime_type = *mime ? vs_priv_asset_strdup(c->asset, mime) : "";
        img->uri = uri ? vs_priv_asset_strdup(c->asset, uri) : NULL;
        if (!img->mime_type || (uri && !img->uri))
            return set_error(c->error, VS_ERROR_LIMIT,
                             "%s: %s: exceeds the memory limit", c->src, path);
        if (view >= 0 && (r = view_bytes(c, view, path, img)) != VS_OK)
            return r;
    }
    c->asset->images = imgs;
    c->asset->image_count = n;
    return VS_OK;
}
