/* SPDX-License-Identifier: MIT */
/* glTF 2.0 buffers (§3.6.1) and bufferViews (§3.6.2.x): every buffer's bytes
 * are loaded up front (external file, data: URI or the GLB BIN chunk) and
 * every view is checked against its buffer, so accessor code only has to
 * check against a view. The bytes are temporary: decoded arrays live in the
 * asset, buffers are freed when loading ends. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf2/gltf2_internal.h"

static vs_result load_buffer(gltf2_ctx *c, const cJSON *b, uint32_t i,
                             const uint8_t *bin, size_t bin_size,
                             const char *base_dir)
{
    char path[GLTF2_PATH];
    path_fmt(path, "buffers[%u]", i);
    vs_result r = json_element_object(c, b, path);
    if (r != VS_OK) return r;
    uint64_t length;
    const char *uri;
    if ((r = json_uint(c, b, "byteLength", path, true, 0, &length)) != VS_OK ||
        (r = json_string(c, b, "uri", path, NULL, &uri)) != VS_OK)
        return r;
    uint64_t max = asset_limits(c->asset)->max_buffer_size;
    if (length == 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.byteLength: must be at least 1", c->src,
                         path);
    if (length > max)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: %s.byteLength: %llu bytes exceed the buffer "
                         "size limit of %llu",
                         c->src, path, (unsigned long long)length,
                         (unsigned long long)max);
    gltf2_buffer *buf = &c->buffers[i];
    buf->size = (size_t)length;
    if (gltf2_meshopt_fallback(b, uri != NULL)) {
        /* Only the views of EXT_meshopt_compression name it; their data
         * comes from the compressed buffer (gltf2_meshopt.c). */
        buf->missing = "it is EXT_meshopt_compression's fallback buffer, "
                       "which is not read";
        return VS_OK;
    }
    if (!uri) {
        /* §4.4.3.3: buffer 0 without uri is the GLB BIN chunk (which may be
         * padded by up to 3 bytes). Any other buffer without uri is a
         * placeholder whose data an extension would supply: an error only
         * if something reads it. */
        if (i != 0 || !bin) {
            buf->missing = "it has no uri and is not the GLB BIN chunk";
            return VS_OK;
        }
        if (bin_size == 0)
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: has no uri but the GLB has no BIN "
                             "chunk",
                             c->src, path);
        if (bin_size < length)
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s.byteLength: %llu is larger than the GLB "
                             "BIN chunk of %zu bytes",
                             c->src, path, (unsigned long long)length,
                             bin_size);
        buf->data = bin;
        return VS_OK;
    }
    char uri_path[GLTF2_PATH];
    path_fmt(uri_path, "%s.uri", path);
    if (strncmp(uri, "data:", 5) == 0) {
        /* §3.6.1: embedded buffers are application/octet-stream or
         * application/gltf-buffer. */
        size_t m = strcspn(uri + 5, ";,");
        if (!((m == 24 && !strncmp(uri + 5, "application/octet-stream", m)) ||
              (m == 23 && !strncmp(uri + 5, "application/gltf-buffer", m))))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: data URI media type must be "
                             "application/octet-stream or "
                             "application/gltf-buffer",
                             c->src, uri_path);
    } else if (strcspn(uri, ":") < strcspn(uri, "/")) {
        /* RFC 3986 §3.1: scheme = ALPHA *(ALPHA / DIGIT / "+" / "-" / ".");
         * a ':' in a relative path's first segment is not allowed (§4.2),
         * so anything else before the ':' is no URI at all. */
        size_t n = strcspn(uri, ":");
        bool scheme = n > 0 && isalpha((unsigned char)uri[0]);
        for (size_t k = 1; scheme && k < n; ++k)
            scheme = isalnum((unsigned char)uri[k]) || strchr("+-.", uri[k]);
        if (!scheme)
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: \"%s\" is not a valid URI", c->src,
                             uri_path, uri);
        buf->unsupported = true; /* http:, file:, ...: never read */
        buf->missing = "its URI scheme is not supported (only data: URIs and "
                       "relative paths)";
        return VS_OK;
    }
    r = gltf_load_uri_io(&c->io, c->src, base_dir, uri, uri_path, max,
                         asset_allow_external_paths(c->asset), &buf->owned,
                         c->error);
    if (r != VS_OK) return r;
    buf->data = buf->owned.data;
    if (buf->owned.size != length)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.byteLength: %llu but the data has %zu bytes",
                         c->src, path, (unsigned long long)length,
                         buf->owned.size);
    return VS_OK;
}

static vs_result load_view(gltf2_ctx *c, const cJSON *v, uint32_t i)
{
    char path[GLTF2_PATH];
    path_fmt(path, "bufferViews[%u]", i);
    vs_result r = json_element_object(c, v, path);
    if (r != VS_OK) return r;
    int32_t buffer;
    uint64_t offset, length, stride, target;
    if ((r = json_index(c, v, "buffer", path, c->buffer_count, true,
                        &buffer)) != VS_OK ||
        (r = json_uint(c, v, "byteOffset", path, false, 0, &offset)) != VS_OK ||
        (r = json_uint(c, v, "byteLength", path, true, 0, &length)) != VS_OK ||
        (r = json_uint(c, v, "byteStride", path, false, 0, &stride)) != VS_OK ||
        (r = json_uint(c, v, "target", path, false, 0, &target)) != VS_OK)
        return r;
    const gltf2_buffer *b = &c->buffers[buffer];
    if (length == 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.byteLength: must be at least 1", c->src,
                         path);
    if (offset > b->size || length > b->size - offset)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: bytes %llu..%llu lie outside buffers[%d] "
                         "(%zu bytes)",
                         c->src, path, (unsigned long long)offset,
                         (unsigned long long)(offset + length), buffer,
                         b->size);
    /* §3.6.2.4 / schema: byteStride is 4..252 and a multiple of 4. */
    if (cJSON_GetObjectItemCaseSensitive(v, "byteStride") &&
        (stride < 4 || stride > 252 || stride % 4 != 0))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.byteStride: %llu is not a multiple of 4 in "
                         "4..252",
                         c->src, path, (unsigned long long)stride);
    if (stride > length)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.byteStride: %llu is larger than byteLength "
                         "%llu",
                         c->src, path, (unsigned long long)stride,
                         (unsigned long long)length);
    /* §3.6.2.4: index data (ELEMENT_ARRAY_BUFFER) is tightly packed. */
    if (target && target != 34962 && target != 34963)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.target: %llu is not ARRAY_BUFFER (34962) or "
                         "ELEMENT_ARRAY_BUFFER (34963)",
                         c->src, path, (unsigned long long)target);
    if (target == 34963 && stride)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.byteStride: not allowed for index data "
                         "(target 34963)",
                         c->src, path);
    c->views[i].buffer = (uint32_t)buffer;
    c->views[i].size = (size_t)length;
    c->views[i].buffer_offset = (size_t)offset;
    c->views[i].stride = (uint32_t)stride;
    return gltf2_meshopt_view(c, v, path, &c->views[i]);
}

const uint8_t *gltf2_view_bytes(gltf2_ctx *c, uint32_t view, const char *path)
{
    const gltf2_view *v = &c->views[view];
    const gltf2_buffer *b = &c->buffers[v->buffer];
    if (v->decoded) return v->decoded;
    if (b->data) return b->data + v->buffer_offset;
    set_error(c->error, b->unsupported ? VS_ERROR_UNSUPPORTED : VS_ERROR_INVALID,
              "%s: %s: bufferViews[%u] uses buffers[%u], which has no data "
              "(%s)",
              c->src, path, view, v->buffer, b->missing);
    return NULL;
}

vs_result gltf2_load_buffers(gltf2_ctx *c, const uint8_t *bin,
                             size_t bin_size, const char *base_dir)
{
    const cJSON *buffers, *views;
    uint32_t nb, nv;
    vs_result r;
    if ((r = json_array(c, c->root, "buffers", "", &buffers, &nb)) != VS_OK ||
        (r = json_array(c, c->root, "bufferViews", "", &views, &nv)) != VS_OK)
        return r;
    c->buffers = mem_calloc(c->io.alloc, nb ? nb : 1, sizeof *c->buffers);
    c->views = mem_calloc(c->io.alloc, nv ? nv : 1, sizeof *c->views);
    if (!c->buffers || !c->views)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: buffers: out of memory", c->src);
    c->buffer_count = nb;
    c->view_count = nv;
    uint32_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, buffers)
    {
        if ((r = load_buffer(c, e, i++, bin, bin_size, base_dir)) != VS_OK)
            return r;
    }
    i = 0;
    cJSON_ArrayForEach(e, views)
    {
        if ((r = load_view(c, e, i++)) != VS_OK) return r;
    }
    return VS_OK;
}

void gltf2_free_buffers(gltf2_ctx *c)
{
    for (uint32_t i = 0; c->buffers && i < c->buffer_count; ++i)
        file_bytes_release(&c->io, &c->buffers[i].owned);
    for (uint32_t i = 0; c->views && i < c->view_count; ++i)
        mem_free(c->io.alloc, c->views[i].decoded);
    mem_free(c->io.alloc, c->buffers);
    mem_free(c->io.alloc, c->views);
    c->buffers = NULL;
    c->views = NULL;
}
