/* SPDX-License-Identifier: MIT */
/* KHR_draco_mesh_compression: a primitive whose attributes and indices are
 * one Draco mesh in a bufferView. Its accessors declare what the data is
 * (count, type, componentType, bounds) without a view of their own; the
 * loader decodes the mesh into arrays of exactly those types, sized by
 * those counts within the load's limits before the decoder runs, and lets
 * the accessor code read them as the accessors' data while the primitive
 * loads, so the checks and conversions are the ones of plain data. Draco
 * stores JOINTS_n/WEIGHTS_n as generic attributes, found like every other
 * by the unique ids of the extension's attributes map. */
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf2/gltf2_internal.h"

#ifdef VSKIN_WITH_DRACO
#include "load/gltf2/draco_decode.h"
#endif

#define EXT "KHR_draco_mesh_compression"
/* Entries of the attributes map: far more than any mesh has, and few
 * enough that matching each against the primitive's attributes and the
 * others stays linear in the file. */
#define MAX_ATTRIBUTES 256
#define FAIL(...) set_error(c->error, VS_ERROR_INVALID, __VA_ARGS__)

void gltf2_draco_end(gltf2_ctx *c)
{
    for (uint32_t i = 0; i < c->draco_accessor_count; ++i)
        c->decoded[c->draco_accessors[i]] = NULL;
    mem_free(c->io.alloc, c->draco_block);
    c->draco_block = NULL;
    c->draco_accessors = NULL;
    c->draco_accessor_count = 0;
}

#ifndef VSKIN_WITH_DRACO
/* Whether the accessor at attrs[name] (or prim.indices) has data of its
 * own, which a reader without the decoder may use instead. */
static bool has_fallback(const gltf2_ctx *c, const cJSON *v)
{
    gltf2_accessor_summary s;
    return gltf2_accessor_info(c, json_array_index(v), &s) && s.has_source;
}
#else

/* What one decoded accessor takes of the block. */
typedef struct slot {
    int32_t accessor;
    uint32_t id;
    uint32_t component_type, components;
    size_t offset, size;
} slot;

static size_t round4(size_t n) { return (n + 3) & ~(size_t)3; }

/* Narrows the decoded indices to the indices accessor's component type. */
static vs_result store_indices(gltf2_ctx *c, const char *path,
                               const uint32_t *u, uint32_t n, uint32_t ctype,
                               uint8_t *out)
{
    for (uint32_t i = 0; i < n; ++i) {
        if (ctype == GLTF_UNSIGNED_INT) {
            memcpy(out + 4 * (size_t)i, &u[i], 4);
        } else if (ctype == GLTF_UNSIGNED_SHORT && u[i] <= 0xFFFFu) {
            uint16_t v = (uint16_t)u[i];
            memcpy(out + 2 * (size_t)i, &v, 2);
        } else if (ctype == GLTF_UNSIGNED_BYTE && u[i] <= 0xFFu) {
            out[i] = (uint8_t)u[i];
        } else {
            return FAIL("%s: %s.indices: Draco index %u does not fit the "
                        "accessor's componentType %u",
                        c->src, path, u[i], ctype);
        }
    }
    return VS_OK;
}

/* One entry of the extension's attributes map, checked against the
 * primitive's attribute of the same name. */
static vs_result map_attribute(gltf2_ctx *c, const cJSON *attrs,
                               const cJSON *e, const char *ep, slot *s,
                               uint32_t *vertex_count)
{
    char ref[GLTF2_PATH];
    path_fmt(ref, "%s.attributes.%s", ep, e->string);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(attrs, e->string);
    if (!a)
        return FAIL("%s: %s: the primitive has no %s attribute", c->src, ref,
                    e->string);
    if (json_array_index(e) < 0)
        return FAIL("%s: %s: must be a Draco attribute id (an integer >= 0)",
                    c->src, ref);
    gltf2_accessor_summary info;
    s->accessor = json_array_index(a); /* checked by check_attributes */
    s->id = (uint32_t)json_array_index(e);
    if (!gltf2_accessor_info(c, s->accessor, &info) || !info.components)
        return FAIL("%s: %s: accessor %d is not a checked accessor", c->src,
                    ref, s->accessor);
    if (info.is_matrix || info.has_sparse)
        return set_error(c->error, VS_ERROR_UNSUPPORTED,
                         "%s: %s: accessor %d: Draco data for a %s accessor "
                         "is not supported",
                         c->src, ref, s->accessor,
                         info.is_matrix ? "matrix" : "sparse");
    s->component_type = info.component_type;
    s->components = info.components;
    s->size = (size_t)info.count * info.components *
              gltf_component_size(info.component_type);
    *vertex_count = info.count; /* equal for all (check_attributes) */
    return VS_OK;
}

static vs_result decode(gltf2_ctx *c, const cJSON *prim, const cJSON *attrs,
                        const cJSON *ext, const char *path, const char *ep)
{
    const cJSON *map, *e;
    int32_t view, index_accessor;
    vs_result r;
    if ((r = json_index(c, ext, "bufferView", ep, c->view_count, true,
                        &view)) != VS_OK ||
        (r = json_object(c, ext, "attributes", ep, &map)) != VS_OK ||
        (r = json_index(c, prim, "indices", path, c->accessor_count, false,
                        &index_accessor)) != VS_OK)
        return r;
    if (!map)
        return FAIL("%s: %s.attributes: required object is missing", c->src,
                    ep);
    if (index_accessor < 0)
        return set_error(c->error, VS_ERROR_UNSUPPORTED,
                         "%s: %s: a Draco primitive without indices (a point "
                         "cloud) is not supported",
                         c->src, path);
    uint32_t n = 0;
    cJSON_ArrayForEach(e, map) ++n;
    if (!c->decoded) {
        c->decoded = mem_calloc(c->io.alloc,
                                c->accessor_count ? c->accessor_count : 1,
                                sizeof *c->decoded);
        if (!c->decoded)
            return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: %s: out of memory", c->src, ep);
    }
    /* The slots, the attribute requests and the accessor list are
     * temporaries of this call; the block holds what the accessors read. */
    slot *slots = mem_calloc(c->io.alloc, n + 1, sizeof *slots);
    draco_attribute_out *req = mem_calloc(c->io.alloc, n ? n : 1, sizeof *req);
    r = slots && req ? VS_OK
                     : set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                                 "%s: %s: out of memory", c->src, ep);
    uint32_t k = 0, vertex_count = 0;
    size_t total = 0;
    gltf2_accessor_summary first;
    /* The attributes' common count (check_attributes), also when the map
     * names none of them. */
    if (attrs->child &&
        gltf2_accessor_info(c, json_array_index(attrs->child), &first))
        vertex_count = first.count;
    cJSON_ArrayForEach(e, map)
    {
        if (r != VS_OK) break;
        slot *s = &slots[k];
        r = map_attribute(c, attrs, e, ep, s, &vertex_count);
        for (uint32_t j = 0; r == VS_OK && j < k; ++j)
            if (slots[j].accessor == s->accessor)
                r = FAIL("%s: %s.attributes.%s: accessor %d already holds "
                         "another Draco attribute",
                         c->src, ep, e->string, s->accessor);
        s->offset = total;
        total += round4(s->size);
        ++k;
    }
    gltf2_accessor_summary ii;
    if (r == VS_OK && !gltf2_accessor_info(c, index_accessor, &ii))
        r = FAIL("%s: %s.indices: accessor %d does not exist", c->src, path,
                 index_accessor);
    if (r == VS_OK && (ii.components != 1 || ii.has_sparse))
        r = FAIL("%s: %s.indices: accessor %d is not a plain SCALAR accessor",
                 c->src, path, index_accessor);
    /* The decoder's indices (uint32), then the accessor's own. */
    size_t idx32 = total, idx_size = 0;
    if (r == VS_OK) {
        slot *s = &slots[k];
        s->accessor = index_accessor;
        s->component_type = ii.component_type;
        s->components = 1;
        idx_size = (size_t)ii.count * gltf_component_size(ii.component_type);
        total += round4((size_t)ii.count * 4);
        s->offset = total;
        s->size = idx_size;
        total += round4(idx_size) + (size_t)(k + 1) * sizeof(int32_t);
        for (uint32_t j = 0; j < k; ++j)
            if (slots[j].accessor == index_accessor)
                r = FAIL("%s: %s.indices: accessor %d also holds a Draco "
                         "attribute",
                         c->src, path, index_accessor);
    }
    /* Every count is an accessor's, within max_accessor_elements; together
     * they must fit the load's memory before the decoder starts. */
    const mem_budget *budget = asset_budget(c->asset);
    if (r == VS_OK && !budget_fits(budget, total))
        r = set_error(c->error, VS_ERROR_LIMIT,
                      "%s: %s: %zu decoded bytes exceed the memory limit "
                      "(max_total_memory: %llu bytes for the whole load, "
                      "%llu in use)",
                      c->src, ep, total, (unsigned long long)budget->limit,
                      (unsigned long long)budget->used);
    const uint8_t *bytes = NULL;
    if (r == VS_OK) {
        char vp[GLTF2_PATH];
        path_fmt(vp, "%s.bufferView", ep);
        bytes = gltf2_view_bytes(c, (uint32_t)view, vp);
        if (!bytes) r = c->error ? c->error->code : VS_ERROR_INVALID;
    }
    if (r == VS_OK && !(c->draco_block = mem_alloc(c->io.alloc, total)))
        r = set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: %s: out of memory", c->src, ep);
    if (r == VS_OK) {
        for (uint32_t j = 0; j < k; ++j)
            req[j] = (draco_attribute_out){
                .unique_id = slots[j].id,
                .component_type = slots[j].component_type,
                .components = slots[j].components,
                .out = c->draco_block + slots[j].offset};
        char why[160];
        uint32_t *u = (uint32_t *)(void *)(c->draco_block + idx32);
        if (draco_decode_mesh(bytes, c->views[view].size, vertex_count,
                              ii.count, u, req, k, why, sizeof why) != 0)
            r = FAIL("%s: %s: %s", c->src, ep, why);
        else
            r = store_indices(c, path, u, ii.count, ii.component_type,
                              c->draco_block + slots[k].offset);
    }
    if (r == VS_OK) {
        c->draco_accessors =
            (int32_t *)(void *)(c->draco_block + slots[k].offset +
                                round4(idx_size));
        for (uint32_t j = 0; j <= k; ++j) {
            c->draco_accessors[j] = slots[j].accessor;
            c->decoded[slots[j].accessor] = c->draco_block + slots[j].offset;
        }
        c->draco_accessor_count = k + 1;
    }
    mem_free(c->io.alloc, slots);
    mem_free(c->io.alloc, req);
    return r;
}

#endif

vs_result gltf2_draco_begin(gltf2_ctx *c, const cJSON *prim,
                            const cJSON *attrs, const char *path,
                            uint32_t mode)
{
    const cJSON *exts, *ext;
    vs_result r = json_object(c, prim, "extensions", path, &exts);
    if (r != VS_OK || !exts) return r;
    char xp[GLTF2_PATH], ep[GLTF2_PATH];
    path_fmt(xp, "%s.extensions", path);
    path_fmt(ep, "%s." EXT, xp);
    if ((r = json_object(c, exts, EXT, xp, &ext)) != VS_OK || !ext) return r;
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(ext, "attributes"), *e;
    if (!cJSON_IsObject(map)) map = NULL; /* decode() says what is wrong */
    uint32_t n = 0;
    cJSON_ArrayForEach(e, map) ++n;
    if (n > MAX_ATTRIBUTES)
        return set_error(c->error, VS_ERROR_UNSUPPORTED,
                         "%s: %s.attributes: %u attributes, more than the %d "
                         "vskin decodes",
                         c->src, ep, n, MAX_ATTRIBUTES);
#ifdef VSKIN_WITH_DRACO
    /* Draco's meshes are triangle lists; its point clouds are not read. */
    if (mode != VS_MODE_TRIANGLES)
        return set_error(c->error, VS_ERROR_UNSUPPORTED,
                         "%s: %s.mode: Draco data for mode %u is not "
                         "supported (TRIANGLES only)",
                         c->src, path, mode);
    return decode(c, prim, attrs, ext, path, ep);
#else
    (void)mode;
    /* Without the decoder the plain accessors are read, which is right
     * only where the file promises them: not required, and every
     * compressed attribute and the indices have data of their own. */
    bool fallback = !c->draco_required &&
                    has_fallback(c, cJSON_GetObjectItemCaseSensitive(
                                        prim, "indices"));
    cJSON_ArrayForEach(e, map)
    {
        fallback = fallback &&
                   has_fallback(c, cJSON_GetObjectItemCaseSensitive(
                                       attrs, e->string));
    }
    return fallback ? VS_OK : gltf2_no_decoder(c, path, EXT, "Draco");
#endif
}
