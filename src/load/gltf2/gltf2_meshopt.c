/* SPDX-License-Identifier: MIT */
/* EXT_meshopt_compression: a bufferView whose bytes are meshoptimizer's
 * vertex or index codec over another buffer, optionally followed by a
 * filter (octahedral normals, quaternions, exponent/mantissa floats). The
 * view is decoded once when the buffers load, into bytes the accessor code
 * reads as any view's; its own buffer is the fallback, which is never read.
 * A build without meshoptimizer refuses a view that has no fallback data or
 * whose extension is required. */
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf2/gltf2_internal.h"

#ifdef VSKIN_WITH_MESHOPT
#include <meshoptimizer.h>
#endif

#define EXT "EXT_meshopt_compression"
#define FAIL(...) set_error(c->error, VS_ERROR_INVALID, __VA_ARGS__)

static const cJSON *extension(const cJSON *obj)
{
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(obj, "extensions");
    return cJSON_GetObjectItemCaseSensitive(ext, EXT);
}

bool gltf2_meshopt_fallback(const cJSON *b, bool has_uri)
{
#ifndef VSKIN_WITH_MESHOPT
    /* Without the decoder the views read the fallback's data, if any. */
    if (has_uri) return false;
#else
    (void)has_uri;
#endif
    return cJSON_IsTrue(
        cJSON_GetObjectItemCaseSensitive(extension(b), "fallback"));
}

#ifdef VSKIN_WITH_MESHOPT

enum { MODE_ATTRIBUTES, MODE_TRIANGLES, MODE_INDICES };
enum { FILTER_NONE, FILTER_OCTAHEDRAL, FILTER_QUATERNION, FILTER_EXPONENTIAL };

/* Index of s in names (NULL-terminated), or -1. */
static int pick(const char *s, const char *const *names)
{
    for (int i = 0; names[i]; ++i)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

/* The extension's rules on stride and count for each mode and filter. */
static vs_result check_shape(gltf2_ctx *c, const char *ep, int mode,
                             int filter, uint64_t stride, uint64_t count)
{
    if (mode == MODE_ATTRIBUTES && (stride % 4 != 0 || stride < 4 ||
                                    stride > 256))
        return FAIL("%s: %s.byteStride: %llu is not a multiple of 4 in 4..256 "
                    "(mode ATTRIBUTES)",
                    c->src, ep, (unsigned long long)stride);
    if (mode != MODE_ATTRIBUTES && stride != 2 && stride != 4)
        return FAIL("%s: %s.byteStride: %llu is not 2 or 4 (index data)",
                    c->src, ep, (unsigned long long)stride);
    if (mode == MODE_TRIANGLES && count % 3 != 0)
        return FAIL("%s: %s.count: %llu is not a multiple of 3 (mode "
                    "TRIANGLES)",
                    c->src, ep, (unsigned long long)count);
    if (filter != FILTER_NONE && mode != MODE_ATTRIBUTES)
        return FAIL("%s: %s.filter: only mode ATTRIBUTES has a filter",
                    c->src, ep);
    if ((filter == FILTER_OCTAHEDRAL && stride != 4 && stride != 8) ||
        (filter == FILTER_QUATERNION && stride != 8))
        return FAIL("%s: %s.byteStride: %llu does not suit the filter (%s)",
                    c->src, ep, (unsigned long long)stride,
                    filter == FILTER_OCTAHEDRAL ? "OCTAHEDRAL: 4 or 8"
                                                : "QUATERNION: 8");
    return VS_OK;
}

static vs_result decode(gltf2_ctx *c, const cJSON *ext, const char *ep,
                        gltf2_view *view)
{
    static const char *const modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES",
                                        NULL};
    static const char *const filters[] = {"NONE", "OCTAHEDRAL", "QUATERNION",
                                          "EXPONENTIAL", NULL};
    int32_t buffer;
    uint64_t offset, length, stride, count;
    const char *mode_name, *filter_name;
    vs_result r;
    if ((r = json_element_object(c, ext, ep)) != VS_OK ||
        (r = json_index(c, ext, "buffer", ep, c->buffer_count, true,
                        &buffer)) != VS_OK ||
        (r = json_uint(c, ext, "byteOffset", ep, false, 0, &offset)) ||
        (r = json_uint(c, ext, "byteLength", ep, true, 0, &length)) ||
        (r = json_uint(c, ext, "byteStride", ep, true, 0, &stride)) ||
        (r = json_uint(c, ext, "count", ep, true, 0, &count)) ||
        (r = json_string(c, ext, "mode", ep, NULL, &mode_name)) ||
        (r = json_string(c, ext, "filter", ep, "NONE", &filter_name)))
        return r;
    int mode = mode_name ? pick(mode_name, modes) : -1;
    int filter = pick(filter_name, filters);
    if (mode < 0)
        return FAIL("%s: %s.mode: must be ATTRIBUTES, TRIANGLES or INDICES",
                    c->src, ep);
    if (filter < 0)
        return FAIL("%s: %s.filter: must be NONE, OCTAHEDRAL, QUATERNION or "
                    "EXPONENTIAL",
                    c->src, ep);
    if ((r = check_shape(c, ep, mode, filter, stride, count)) != VS_OK)
        return r;
    /* The decoded bytes are the view's: exactly byteLength of them, which
     * the fallback buffer's size (within max_buffer_size) already bounds. */
    if (count == 0 || count > view->size || count * stride != view->size)
        return FAIL("%s: %s: count %llu x byteStride %llu is not the view's "
                    "byteLength %zu",
                    c->src, ep, (unsigned long long)count,
                    (unsigned long long)stride, view->size);
    const gltf2_buffer *b = &c->buffers[buffer];
    if (!b->data)
        return set_error(c->error,
                         b->unsupported ? VS_ERROR_UNSUPPORTED
                                        : VS_ERROR_INVALID,
                         "%s: %s.buffer: buffers[%d] has no data (%s)", c->src,
                         ep, buffer, b->missing);
    if (offset > b->size || length > b->size - offset)
        return FAIL("%s: %s: bytes %llu..%llu lie outside buffers[%d] (%zu "
                    "bytes)",
                    c->src, ep, (unsigned long long)offset,
                    (unsigned long long)(offset + length), buffer, b->size);
    const mem_budget *budget = asset_budget(c->asset);
    if (!budget_fits(budget, view->size))
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: %s: %zu decoded bytes exceed the memory limit "
                         "(max_total_memory: %llu bytes for the whole load, "
                         "%llu in use)",
                         c->src, ep, view->size,
                         (unsigned long long)budget->limit,
                         (unsigned long long)budget->used);
    uint8_t *out = mem_alloc(c->io.alloc, view->size);
    if (!out)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: %s: out of memory", c->src, ep);
    const unsigned char *src = b->data + offset;
    int rc = mode == MODE_ATTRIBUTES
                 ? meshopt_decodeVertexBuffer(out, count, stride, src, length)
             : mode == MODE_TRIANGLES
                 ? meshopt_decodeIndexBuffer(out, count, stride, src, length)
                 : meshopt_decodeIndexSequence(out, count, stride, src, length);
    if (rc != 0) {
        mem_free(c->io.alloc, out);
        /* -1 is a header meshoptimizer does not know: newer codec
         * versions than the installed library's decode as that. */
        return FAIL("%s: %s: the %s data does not decode (meshoptimizer "
                    "error %d%s)",
                    c->src, ep, modes[mode], rc,
                    rc == -1 ? ": not a codec version this build reads" : "");
    }
    if (filter == FILTER_OCTAHEDRAL)
        meshopt_decodeFilterOct(out, count, stride);
    else if (filter == FILTER_QUATERNION)
        meshopt_decodeFilterQuat(out, count, stride);
    else if (filter == FILTER_EXPONENTIAL)
        meshopt_decodeFilterExp(out, count, stride);
    view->decoded = out;
    return VS_OK;
}

#endif

vs_result gltf2_meshopt_view(gltf2_ctx *c, const cJSON *v, const char *path,
                             gltf2_view *view)
{
    const cJSON *ext = extension(v);
    if (!ext) return VS_OK;
    char ep[GLTF2_PATH];
    path_fmt(ep, "%s.extensions." EXT, path);
#ifdef VSKIN_WITH_MESHOPT
    return decode(c, ext, ep, view);
#else
    /* Without the decoder the view is read as a plain one, which is right
     * only where the file promises uncompressed data: not required, and
     * its buffer has data. */
    if (c->meshopt_required || !c->buffers[view->buffer].data)
        return gltf2_no_decoder(c, path, EXT, "meshopt");
    return VS_OK;
#endif
}
