/* SPDX-License-Identifier: MIT */
/* The writer's single buffer, its bufferViews and accessors. Every accessor
 * gets its own tightly packed bufferView, so no byteStride is needed
 * (glTF 2.0 §3.6.2.4: stride is required only when views are shared by
 * vertex attributes), and every view starts at a 4-byte boundary, which
 * satisfies the alignment of every component type (§3.6.2.4). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "write/gltf2/gltf2_writer.h"
#include "format/gltf_common.h"

vs_result gltf2w_oom(gltf2w_ctx *c, const char *what)
{
    return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                     "%s: out of memory while writing %s", c->path, what);
}

cJSON *gltf2w_number(float value)
{
    /* JSON has no infinity or NaN: null marks the value, and the document
     * is refused once built (gltf2_writer.c finds where). */
    if (!isfinite(value)) return cJSON_CreateNull();
    /* %.9g round-trips every float; the double read back from those digits
     * is what cJSON then prints with its shortest %1.15g form. */
    char text[32];
    snprintf(text, sizeof text, "%.9g", (double)value);
    return cJSON_CreateNumber(strtod(text, NULL));
}

bool gltf2w_add_floats(cJSON *obj, const char *key, const float *v, size_t n)
{
    cJSON *array = cJSON_AddArrayToObject(obj, key);
    if (!array) return false;
    for (size_t i = 0; i < n; ++i) {
        cJSON *item = gltf2w_number(v[i]);
        if (!item) return false;
        cJSON_AddItemToArray(array, item);
    }
    return true;
}

int32_t gltf2w_view(gltf2w_ctx *c, const void *data, size_t size, int target)
{
    if (size == 0) {
        /* byteLength >= 1 (§5.11): callers only write non-empty data. */
        set_error(c->error, VS_ERROR_INVALID,
                  "%s: bufferViews: refusing an empty bufferView", c->path);
        return -1;
    }
    size_t offset = (c->bin_size + 3) & ~(size_t)3;
    if (size > SIZE_MAX - offset || offset + size > UINT32_MAX) {
        set_error(c->error, VS_ERROR_LIMIT,
                  "%s: buffers[0]: the asset needs more than 4 GiB of binary "
                  "data",
                  c->path);
        return -1;
    }
    if (offset + size > c->bin_capacity) {
        size_t cap = c->bin_capacity ? c->bin_capacity : 4096;
        while (cap < offset + size)
            cap *= 2;
        uint8_t *grown = mem_grow(c->alloc, c->bin, c->bin_size, cap);
        if (!grown) {
            gltf2w_oom(c, "the binary buffer");
            return -1;
        }
        c->bin = grown;
        c->bin_capacity = cap;
    }
    memset(c->bin + c->bin_size, 0, offset - c->bin_size);
    memcpy(c->bin + offset, data, size);
    c->bin_size = offset + size;
    cJSON *view = cJSON_CreateObject();
    if (!view) {
        gltf2w_oom(c, "bufferViews");
        return -1;
    }
    cJSON_AddItemToArray(c->views, view);
    if (!cJSON_AddNumberToObject(view, "buffer", 0) ||
        (offset &&
         !cJSON_AddNumberToObject(view, "byteOffset", (double)offset)) ||
        !cJSON_AddNumberToObject(view, "byteLength", (double)size) ||
        (target && !cJSON_AddNumberToObject(view, "target", target))) {
        gltf2w_oom(c, "bufferViews");
        return -1;
    }
    return c->view_count++;
}

/* The accessor object shared by both kinds; NULL with the error set. */
static cJSON *accessor(gltf2w_ctx *c, int32_t view, uint32_t component_type,
                       uint32_t count, const char *type)
{
    cJSON *acc = cJSON_CreateObject();
    if (!acc) {
        gltf2w_oom(c, "accessors");
        return NULL;
    }
    cJSON_AddItemToArray(c->accessors, acc);
    if (!cJSON_AddNumberToObject(acc, "bufferView", view) ||
        !cJSON_AddNumberToObject(acc, "componentType", component_type) ||
        !cJSON_AddNumberToObject(acc, "count", count) ||
        !cJSON_AddStringToObject(acc, "type", type)) {
        gltf2w_oom(c, "accessors");
        return NULL;
    }
    c->accessor_count++;
    return acc;
}

/* min and max as exact doubles of the stored floats: the validator compares
 * them with the data bit for bit (ACCESSOR_MIN_MISMATCH), so the shortest
 * decimal of gltf2w_number would not do. */
static bool add_bounds(cJSON *acc, const float *data, uint32_t count,
                       uint32_t components)
{
    cJSON *min = cJSON_AddArrayToObject(acc, "min");
    cJSON *max = cJSON_AddArrayToObject(acc, "max");
    if (!min || !max) return false;
    for (uint32_t k = 0; k < components; ++k) {
        float lo = INFINITY, hi = -INFINITY;
        for (uint32_t i = 0; i < count; ++i) {
            float v = data[(size_t)i * components + k];
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        cJSON *a = cJSON_CreateNumber((double)lo);
        cJSON *b = cJSON_CreateNumber((double)hi);
        if (a) cJSON_AddItemToArray(min, a);
        if (b) cJSON_AddItemToArray(max, b);
        if (!a || !b) return false;
    }
    return true;
}

int32_t gltf2w_floats(gltf2w_ctx *c, const float *data, uint32_t count,
                      uint32_t components, const char *type, int target,
                      bool bounds)
{
    size_t size = (size_t)count * components * sizeof(float);
    /* What vskin writes, vskin reads: its loaders refuse non-finite data
     * (and glTF readers cannot use it), so such a file is not written. */
    for (size_t i = 0; i < (size_t)count * components; ++i)
        if (!isfinite(data[i])) {
            set_error(c->error, VS_ERROR_INVALID,
                      "%s: a %s accessor of %u elements would hold a value "
                      "that is not a finite number (element %zu)",
                      c->path, type, count, i / components);
            return -1;
        }
    int32_t view = gltf2w_view(c, data, size, target);
    if (view < 0) return -1;
    cJSON *acc = accessor(c, view, GLTF_FLOAT, count, type);
    if (!acc) return -1;
    if (bounds && !add_bounds(acc, data, count, components)) {
        gltf2w_oom(c, "accessor bounds");
        return -1;
    }
    return c->accessor_count - 1;
}

int32_t gltf2w_uints(gltf2w_ctx *c, const uint32_t *data, uint32_t count,
                     uint32_t components, const char *type,
                     uint32_t component_type, int target)
{
    size_t n = (size_t)count * components;
    size_t width = gltf_component_size(component_type);
    uint8_t *bytes = mem_alloc(c->alloc, n * width > 0 ? n * width : 1);
    if (!bytes) {
        gltf2w_oom(c, "integer data");
        return -1;
    }
    /* Little-endian as glTF requires (§3.6.2.2), whatever the host. */
    for (size_t i = 0; i < n; ++i)
        for (size_t b = 0; b < width; ++b)
            bytes[i * width + b] = (uint8_t)(data[i] >> (8 * b));
    int32_t view = gltf2w_view(c, bytes, n * width, target);
    mem_free(c->alloc, bytes);
    if (view < 0) return -1;
    if (!accessor(c, view, component_type, count, type)) return -1;
    return c->accessor_count - 1;
}
