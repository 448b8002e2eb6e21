/* SPDX-License-Identifier: MIT */
/* glTF 1.0 buffers, bufferViews and accessors down to a gltf_accessor_desc;
 * the bytes are then decoded by the code shared with glTF 2.0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf1/gltf1_internal.h"

/* KHR_binary_glTF: "the buffer with id binary_glTF refers to the binary
 * body"; its uri (normally "data:,") is not read when a body exists. */
static const char binary_buffer_id[] = "binary_glTF";

/* A buffer that names no data of its own: no uri, an empty one, or the
 * "data:," KHR_binary_glTF writes for the body. */
static bool names_no_data(const cJSON *buf)
{
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(buf, "uri");
    return !uri || (cJSON_IsString(uri) && (strcmp(uri->valuestring, "") == 0 ||
                                            strcmp(uri->valuestring, "data:,") ==
                                                0));
}

/* Some binary glTF 1.0 exporters give the body's buffer another id than
 * binary_glTF. When the file has a body, no buffer binary_glTF, and exactly
 * one buffer that names no data, that buffer can only be the body; with
 * two such buffers which one is the body is unknown, and both stay
 * refused. Found once per load. */
static int32_t body_alias(gltf1_ctx *c)
{
    if (c->body_alias_known) return c->body_alias;
    c->body_alias_known = true;
    c->body_alias = -1;
    if (!c->bin || gltf1_dict_find(&c->buffers, binary_buffer_id) >= 0)
        return -1;
    for (uint32_t b = 0; b < c->buffers.count; ++b) {
        if (!names_no_data(c->buffers.items[b])) continue;
        if (c->body_alias >= 0) {
            c->body_alias = -1;
            break;
        }
        c->body_alias = (int32_t)b;
    }
    return c->body_alias;
}

static vs_result buffer_bytes(gltf1_ctx *c, uint32_t b, const uint8_t **data,
                              size_t *size)
{
    const cJSON *buf = c->buffers.items[b];
    char path[GLTF1_PATH_SIZE];
    gltf1_path(path, "buffers", buf->string);
    bool alias = body_alias(c) == (int32_t)b;
    if (alias && !c->body_alias_warned) {
        c->body_alias_warned = true;
        vs_result r = asset_warn(c->asset, c->error, path,
                                 "read from the binary body",
                                 "names no data and the file's binary body "
                                 "has no buffer \"%s\"",
                                 binary_buffer_id);
        if (r != VS_OK) return r;
    }
    if (c->bin && (alias || strcmp(buf->string, binary_buffer_id) == 0)) {
        *data = c->bin;
        *size = c->bin_size;
    } else {
        if (!c->buffer_loaded[b]) {
            const char *uri;
            vs_result r = gltf1_get_string(c, buf, "uri", path, &uri);
            if (r != VS_OK) return r;
            if (strcmp(buf->string, binary_buffer_id) == 0 &&
                (!uri || strcmp(uri, "data:,") == 0))
                return gltf1_fail(c, VS_ERROR_INVALID, path,
                                  "refers to the KHR_binary_glTF body but "
                                  "there is none");
            if (!uri)
                return gltf1_fail(c, VS_ERROR_INVALID, path, "uri is missing");
            char uri_path[GLTF1_PATH_SIZE];
            gltf1_pathf(uri_path, "%s.uri", path);
            r = gltf_load_uri_io(&c->io, c->src, c->base_dir, uri, uri_path,
                                 asset_limits(c->asset)->max_buffer_size,
                                 asset_allow_external_paths(c->asset),
                                 &c->buffer_data[b], c->error);
            if (r != VS_OK) return r;
            c->buffer_loaded[b] = true;
        }
        *data = c->buffer_data[b].data;
        *size = c->buffer_data[b].size;
    }
    /* glTF 1.0 buffer.byteLength (default 0) may not exceed the data. */
    uint64_t declared;
    vs_result r =
        gltf1_get_uint(c, buf, "byteLength", path, 0, UINT64_MAX, &declared);
    if (r != VS_OK) return r;
    if (declared > *size)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "byteLength is %llu but the data has %zu bytes",
                          (unsigned long long)declared, *size);
    return VS_OK;
}

/* A bufferView as a byte range inside its buffer. */
static vs_result view_bytes(gltf1_ctx *c, uint32_t v, const uint8_t **data,
                            size_t *size)
{
    const cJSON *view = c->views.items[v];
    char path[GLTF1_PATH_SIZE], field[GLTF1_PATH_SIZE];
    gltf1_path(path, "bufferViews", view->string);
    gltf1_pathf(field, "%s.buffer", path);
    uint32_t b;
    vs_result r = gltf1_resolve(
        c, &c->buffers, cJSON_GetObjectItemCaseSensitive(view, "buffer"), field,
        &b);
    if (r != VS_OK) return r;
    const uint8_t *bytes = NULL;
    size_t buffer_size = 0;
    if ((r = buffer_bytes(c, b, &bytes, &buffer_size)) != VS_OK) return r;
    uint64_t offset, length;
    if ((r = gltf1_get_uint(c, view, "byteOffset", path, 0, UINT64_MAX,
                            &offset)) != VS_OK)
        return r;
    if (offset > buffer_size)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "byteOffset %llu is past the end of buffer "
                          "\"%.*s\" (%zu bytes)",
                          (unsigned long long)offset, GLTF1_ID_SHOWN,
                          gltf1_id_of(&c->buffers, b), buffer_size);
    /* An absent byteLength is read as "to the end of the buffer". */
    if ((r = gltf1_get_uint(c, view, "byteLength", path, buffer_size - offset,
                            UINT64_MAX, &length)) != VS_OK)
        return r;
    if (length > buffer_size - offset)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "byteOffset %llu + byteLength %llu exceed buffer "
                          "\"%.*s\" (%zu bytes)",
                          (unsigned long long)offset,
                          (unsigned long long)length, GLTF1_ID_SHOWN,
                          gltf1_id_of(&c->buffers, b), buffer_size);
    *data = bytes + offset;
    *size = (size_t)length;
    return VS_OK;
}

static uint32_t type_components(const char *type)
{
    static const struct {
        const char *name;
        uint32_t n;
    } types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4},
                 {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(types[i].name, type) == 0) return types[i].n;
    return 0;
}

static vs_result accessor_read(gltf1_ctx *c, uint32_t a, gltf1_accessor *out);

vs_result gltf1_accessor_get(gltf1_ctx *c, const cJSON *ref, const char *path,
                             gltf1_accessor *out)
{
    uint32_t a;
    vs_result r = gltf1_resolve(c, &c->accessors, ref, path, &a);
    if (r != VS_OK) return r;
    if (!c->accessor_cache) {
        const uint32_t n = c->accessors.count ? c->accessors.count : 1;
        c->accessor_cache =
            mem_alloc(c->io.alloc, n * sizeof *c->accessor_cache);
        c->accessor_cached =
            mem_calloc(c->io.alloc, n, sizeof *c->accessor_cached);
        if (!c->accessor_cache || !c->accessor_cached)
            return gltf1_fail(c, VS_ERROR_OUT_OF_MEMORY, path,
                              "out of memory");
    }
    if (c->accessor_cached[a]) {
        *out = c->accessor_cache[a];
        return VS_OK;
    }
    if ((r = accessor_read(c, a, out)) != VS_OK) return r;
    c->accessor_cache[a] = *out;
    c->accessor_cached[a] = true;
    return VS_OK;
}

/* Accessor a's JSON, its bufferView and buffer, checked. */
static vs_result accessor_read(gltf1_ctx *c, uint32_t a, gltf1_accessor *out)
{
    vs_result r;
    const cJSON *acc = c->accessors.items[a];
    char apath[GLTF1_PATH_SIZE], field[GLTF1_PATH_SIZE];
    gltf1_path(apath, "accessors", acc->string);
    memset(out, 0, sizeof *out);
    out->index = a;
    out->id = acc->string;

    const char *type;
    if ((r = gltf1_get_string(c, acc, "type", apath, &type)) != VS_OK) return r;
    out->desc.components = type ? type_components(type) : 0;
    if (!out->desc.components)
        return gltf1_fail(c, VS_ERROR_INVALID, apath,
                          "type must be SCALAR, VEC2-4 or MAT2-4");
    uint64_t v;
    if (!cJSON_GetObjectItemCaseSensitive(acc, "componentType"))
        return gltf1_fail(c, VS_ERROR_INVALID, apath,
                          "componentType is missing");
    if ((r = gltf1_get_uint(c, acc, "componentType", apath, 0, UINT32_MAX,
                            &v)) != VS_OK)
        return r;
    out->desc.component_type = (uint32_t)v;
    if (gltf_component_size(out->desc.component_type) == 0)
        return gltf1_fail(c, VS_ERROR_INVALID, apath,
                          "componentType %llu is unknown",
                          (unsigned long long)v);
    if (!cJSON_GetObjectItemCaseSensitive(acc, "count"))
        return gltf1_fail(c, VS_ERROR_INVALID, apath, "count is missing");
    if ((r = gltf1_get_uint(c, acc, "count", apath, 0, UINT32_MAX, &v)) !=
        VS_OK)
        return r;
    if (v > asset_limits(c->asset)->max_accessor_elements)
        return gltf1_fail(c, VS_ERROR_LIMIT, apath,
                          "count %llu exceeds the limit of %llu elements",
                          (unsigned long long)v,
                          (unsigned long long)asset_limits(c->asset)
                              ->max_accessor_elements);
    out->desc.count = (uint32_t)v;
    /* glTF 1.0 keeps byteStride on the accessor (0 = tightly packed). */
    if ((r = gltf1_get_uint(c, acc, "byteStride", apath, 0, 255, &v)) != VS_OK)
        return r;
    out->desc.stride = (size_t)v;
    if (out->desc.stride && out->desc.stride < gltf_element_size(&out->desc))
        return gltf1_fail(c, VS_ERROR_INVALID, apath,
                          "byteStride %zu is smaller than one element (%zu "
                          "bytes)",
                          out->desc.stride, gltf_element_size(&out->desc));

    gltf1_pathf(field, "%s.bufferView", apath);
    uint32_t view;
    if ((r = gltf1_resolve(c, &c->views,
                           cJSON_GetObjectItemCaseSensitive(acc, "bufferView"),
                           field, &view)) != VS_OK)
        return r;
    const uint8_t *bytes = NULL;
    size_t size = 0;
    if ((r = view_bytes(c, view, &bytes, &size)) != VS_OK) return r;
    uint64_t offset;
    if ((r = gltf1_get_uint(c, acc, "byteOffset", apath, 0, UINT64_MAX,
                            &offset)) != VS_OK)
        return r;
    if (offset > size)
        return gltf1_fail(c, VS_ERROR_INVALID, apath,
                          "byteOffset %llu is past the end of bufferView "
                          "\"%.*s\" (%zu bytes)",
                          (unsigned long long)offset, GLTF1_ID_SHOWN,
                          gltf1_id_of(&c->views, view), size);
    out->desc.data = bytes + offset;
    out->desc.available = size - (size_t)offset;
    if (!gltf_accessor_fits(&out->desc))
        return gltf1_fail(c, VS_ERROR_INVALID, apath,
                          "%u elements do not fit in the %zu bytes of "
                          "bufferView \"%.*s\" after byteOffset %llu",
                          out->desc.count, out->desc.available, GLTF1_ID_SHOWN,
                          gltf1_id_of(&c->views, view),
                          (unsigned long long)offset);
    return VS_OK;
}

vs_result gltf1_accessor_floats(gltf1_ctx *c, const gltf1_accessor *acc,
                                const char *path, uint32_t components,
                                bool float_only, bool normalized, float **out)
{
    if (components && acc->desc.components != components)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "accessor \"%.*s\" has %u components per element, "
                          "expected %u",
                          GLTF1_ID_SHOWN, acc->id, acc->desc.components,
                          components);
    if (float_only && acc->desc.component_type != GLTF_FLOAT)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "accessor \"%.*s\" must have componentType FLOAT "
                          "(5126), not %u",
                          GLTF1_ID_SHOWN, acc->id, acc->desc.component_type);
    size_t n = (size_t)acc->desc.count * acc->desc.components;
    float *f = vs_priv_asset_calloc(c->asset, n ? n : 1, sizeof *f, c->error, path);
    if (!f) return c->error->code;
    gltf_accessor_desc desc = acc->desc;
    desc.normalized = normalized && desc.component_type != GLTF_FLOAT;
    gltf_decode_floats(&desc, f);
    *out = f;
    return VS_OK;
}

void gltf1_buffers_free(gltf1_ctx *c)
{
    if (c->buffer_data)
        for (uint32_t i = 0; i < c->buffers.count; ++i)
            file_bytes_release(&c->io, &c->buffer_data[i]);
    mem_free(c->io.alloc, c->buffer_data);
    mem_free(c->io.alloc, c->buffer_loaded);
    mem_free(c->io.alloc, c->accessor_cache);
    mem_free(c->io.alloc, c->accessor_cached);
    c->buffer_data = NULL;
    c->buffer_loaded = NULL;
    c->accessor_cache = NULL;
    c->accessor_cached = NULL;
}
