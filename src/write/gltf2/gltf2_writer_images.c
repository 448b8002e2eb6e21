/* SPDX-License-Identifier: MIT */
/* The materials' base colour textures: images, samplers and textures. */
#include <string.h>

#include "format/png_chunks.h"
#include "write/gltf2/gltf2_writer.h"

/* image_out's marks besides an output index: not read yet, or left out
 * (unreadable, or bytes glTF 2.0 cannot hold). */
#define IMAGE_UNTRIED (-2)
#define IMAGE_DROPPED (-1)

/* A PNG whose IHDR is whole and whose chunks lie inside the data: the
 * validator reads the header, and refuses a stream that ends inside it. */
static bool whole_png(const uint8_t *d, size_t n)
{
    vs_error ignored;
    return n >= 33 && png_has_signature(d, n) &&
           memcmp(d + 8, "\0\0\0\x0DIHDR", 8) == 0 &&
           png_chunks_fit(d, n, &ignored) == VS_OK;
}

/* A JPEG whose segments, from SOI up to the first SOF (which holds the
 * size the validator reads), lie inside the data (ITU T.81 B.1.1). */
static bool whole_jpeg(const uint8_t *d, size_t n)
{
    if (n < 4 || d[0] != 0xFF || d[1] != 0xD8) return false;
    size_t i = 2;
    while (i + 1 < n) {
        if (d[i] != 0xFF) return false;
        uint8_t m = d[i + 1];
        if (m == 0xFF) { /* fill byte */
            ++i;
            continue;
        }
        i += 2;
        /* Markers without a segment: TEM and RSTn. */
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) continue;
        if (m == 0xD9 || m == 0xDA || i + 2 > n) return false;
        size_t len = (size_t)d[i] << 8 | d[i + 1];
        if (len < 2 || len > n - i) return false;
        bool sof =
            m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
        if (sof) return len >= 8;
        i += len;
    }
    return false;
}

/* glTF 2.0 images are PNG or JPEG (§3.8.1), their mimeType told by the
 * bytes rather than the source's word for them; NULL for anything else. */
static const char *media_type(const uint8_t *d, size_t n)
{
    if (whole_png(d, n)) return "image/png";
    if (whole_jpeg(d, n)) return "image/jpeg";
    return NULL;
}

/* images[i] as a bufferView image, its original bytes; sets *out to its
 * index, or IMAGE_DROPPED when its bytes cannot be read or written. */
static vs_result add_image(gltf2w_ctx *c, uint32_t i, cJSON *images,
                           int32_t *out)
{
    const vs_asset *a = c->asset;
    const uint8_t *data = NULL;
    size_t size = 0;
    vs_error ignored;
    *out = IMAGE_DROPPED;
    if (vs_asset_image_bytes(a, i, NULL, &data, &size, &ignored) != VS_OK) {
        c->report->dropped_images++;
        return VS_OK;
    }
    const char *mime = media_type(data, size);
    int32_t view = mime ? gltf2w_view(c, data, size, 0) : 0;
    vs_asset_image_bytes_free(a, i, data, size);
    if (!mime) {
        c->report->dropped_images++;
        return VS_OK;
    }
    if (view < 0) return c->error->code;
    cJSON *obj = cJSON_CreateObject();
    if (!obj) return gltf2w_oom(c, "images");
    cJSON_AddItemToArray(images, obj);
    const char *name = a->images[i].name;
    if ((name && name[0] && !cJSON_AddStringToObject(obj, "name", name)) ||
        !cJSON_AddNumberToObject(obj, "bufferView", view) ||
        !cJSON_AddStringToObject(obj, "mimeType", mime))
        return gltf2w_oom(c, "images");
    *out = cJSON_GetArraySize(images) - 1;
    return VS_OK;
}

/* A sampler with the fields that differ from glTF's defaults (zero). */
static bool add_sampler(cJSON *samplers, const vs_sampler *s)
{
    cJSON *obj = cJSON_CreateObject();
    if (!obj) return false;
    cJSON_AddItemToArray(samplers, obj);
    const struct {
        const char *key;
        uint32_t value;
    } fields[] = {{"magFilter", s->mag_filter},
                  {"minFilter", s->min_filter},
                  {"wrapS", s->wrap_s},
                  {"wrapT", s->wrap_t}};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; ++k)
        if (fields[k].value &&
            !cJSON_AddNumberToObject(obj, fields[k].key, fields[k].value))
            return false;
    return true;
}

static bool same_texture(const vs_texture_ref *x, const vs_texture_ref *y)
{
    return x->image == y->image &&
           memcmp(&x->sampler, &y->sampler, sizeof x->sampler) == 0;
}

/* The root's array `key`, added when absent; NULL when out of memory. */
static cJSON *root_array(gltf2w_ctx *c, const char *key)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(c->root, key);
    return list ? list : cJSON_AddArrayToObject(c->root, key);
}

static vs_result textures(gltf2w_ctx *c, int32_t *tex, int32_t *image_out)
{
    const vs_asset *a = c->asset;
    cJSON *images = NULL, *samplers = NULL, *list = NULL;
    for (uint32_t m = 0; m < a->material_count; ++m) {
        const vs_texture_ref *ref = &a->materials[m].base_color_texture;
        tex[m] = -1;
        if (ref->image < 0 || (uint32_t)ref->image >= a->image_count) continue;
        /* Materials sharing an image and sampler share one texture. */
        for (uint32_t k = 0; k < m && tex[m] < 0; ++k)
            if (tex[k] >= 0 &&
                same_texture(&a->materials[k].base_color_texture, ref))
                tex[m] = tex[k];
        if (tex[m] >= 0) continue;
        int32_t *img = &image_out[ref->image];
        if (*img == IMAGE_UNTRIED) {
            if (!images && !(images = root_array(c, "images")))
                return gltf2w_oom(c, "images");
            vs_result r = add_image(c, (uint32_t)ref->image, images, img);
            if (r != VS_OK) return r;
        }
        if (*img < 0) continue;
        if (!list && !(list = root_array(c, "textures")))
            return gltf2w_oom(c, "textures");
        cJSON *obj = cJSON_CreateObject();
        if (!obj) return gltf2w_oom(c, "textures");
        cJSON_AddItemToArray(list, obj);
        if (!cJSON_AddNumberToObject(obj, "source", *img))
            return gltf2w_oom(c, "textures");
        static const vs_sampler none = {0};
        if (memcmp(&ref->sampler, &none, sizeof none) != 0) {
            if (!samplers && !(samplers = root_array(c, "samplers")))
                return gltf2w_oom(c, "samplers");
            if (!add_sampler(samplers, &ref->sampler) ||
                !cJSON_AddNumberToObject(obj, "sampler",
                                         cJSON_GetArraySize(samplers) - 1))
                return gltf2w_oom(c, "samplers");
        }
        tex[m] = cJSON_GetArraySize(list) - 1;
    }
    /* Empty top-level arrays are invalid (§5: minItems 1): every image may
     * have been left out. */
    if (images && cJSON_GetArraySize(images) == 0)
        cJSON_DeleteItemFromObjectCaseSensitive(c->root, "images");
    return VS_OK;
}

vs_result gltf2w_textures(gltf2w_ctx *c, int32_t *tex)
{
    const vs_asset *a = c->asset;
    int32_t *image_out = NULL;
    if (a->image_count > 0) {
        image_out = mem_alloc(c->alloc, a->image_count * sizeof *image_out);
        if (!image_out) return gltf2w_oom(c, "images");
        for (uint32_t i = 0; i < a->image_count; ++i)
            image_out[i] = IMAGE_UNTRIED;
    }
    vs_result r = textures(c, tex, image_out);
    mem_free(c->alloc, image_out);
    return r;
}

/* KHR_texture_transform on a textureInfo, its texCoord already the
 * textureInfo's own (the model holds the set after the override). */
static bool add_transform(gltf2w_ctx *c, const vs_texture_ref *ref, cJSON *info)
{
    cJSON *ext = cJSON_AddObjectToObject(info, "extensions");
    cJSON *t =
        ext ? cJSON_AddObjectToObject(ext, "KHR_texture_transform") : NULL;
    if (!t) return false;
    if ((ref->offset[0] != 0 || ref->offset[1] != 0) &&
        !gltf2w_add_floats(t, "offset", ref->offset, 2))
        return false;
    if (ref->rotation != 0) {
        cJSON *rot = gltf2w_number(ref->rotation);
        if (!rot || !cJSON_AddItemToObject(t, "rotation", rot)) return false;
    }
    if ((ref->scale[0] != 1 || ref->scale[1] != 1) &&
        !gltf2w_add_floats(t, "scale", ref->scale, 2))
        return false;
    /* extensionsUsed lists each extension once (§3.12). */
    cJSON *used = root_array(c, "extensionsUsed");
    if (!used) return false;
    cJSON *e;
    cJSON_ArrayForEach(e, used)
    {
        if (strcmp(e->valuestring, "KHR_texture_transform") == 0) return true;
    }
    cJSON *name = cJSON_CreateString("KHR_texture_transform");
    return name && cJSON_AddItemToArray(used, name);
}

bool gltf2w_texture_info(gltf2w_ctx *c, const vs_texture_ref *ref,
                         int32_t texture, cJSON *pbr)
{
    cJSON *info = cJSON_AddObjectToObject(pbr, "baseColorTexture");
    if (!info || !cJSON_AddNumberToObject(info, "index", texture)) return false;
    uint32_t set = gltf2w_texcoord_set(ref);
    if (set != 0 && !cJSON_AddNumberToObject(info, "texCoord", set))
        return false;
    return !ref->has_transform || add_transform(c, ref, info);
}

uint32_t gltf2w_texcoord_set(const vs_texture_ref *ref)
{
    return ref->texcoord == 0 ? 0 : 1;
}
