/* SPDX-License-Identifier: MIT */
/* glTF 2.0 accessors (§3.6.2, §3.6.2.3 sparse): JSON -> gltf_accessor_desc,
 * checked against the bufferView and against what the referencing property
 * expects, then decoded with the shared decoder and patched with sparse
 * values. Only accessors something reads are decoded. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf2/gltf2_internal.h"

static const struct {
    const char *name;
    uint32_t components;
    bool matrix;
} types[] = {{"SCALAR", 1, false}, {"VEC2", 2, false}, {"VEC3", 3, false},
             {"VEC4", 4, false},   {"MAT2", 4, true},  {"MAT3", 9, true},
             {"MAT4", 16, true}};

/* A parsed accessor: the dense part plus the sparse substitution. */
typedef struct gltf2_parsed {
    gltf_accessor_desc desc;
    const char *type;
    uint32_t sparse_count;
    gltf_accessor_desc sparse_indices; /* SCALAR u8/u16/u32 */
    gltf_accessor_desc sparse_values;  /* same type as the accessor */
    bool has_source;  /* a bufferView or sparse values (else all zeros) */
    bool unavailable; /* a view's buffer has no data to read */
    bool has_bounds;  /* min and max present */
    bool valid;       /* parsed and checked by gltf2_check_accessors */
} parsed;

#define FAIL(...) set_error(c->error, VS_ERROR_INVALID, __VA_ARGS__)

/* Resolves bufferView + byteOffset into desc->data/available/stride and
 * checks the elements fit. *unavailable is set when the view's buffer has no
 * data (a placeholder buffer): only an error when need_data. */
static vs_result place(gltf2_ctx *c, const cJSON *obj, const char *path,
                       gltf_accessor_desc *d, bool allow_stride, bool required,
                       bool need_data, bool *unavailable)
{
    int32_t view;
    uint64_t offset;
    vs_result r;
    if ((r = json_index(c, obj, "bufferView", path, c->view_count, required,
                        &view)) != VS_OK ||
        (r = json_uint(c, obj, "byteOffset", path, false, 0, &offset)) != VS_OK)
        return r;
    if (view < 0) {
        /* Schema: byteOffset depends on bufferView. */
        if (cJSON_GetObjectItemCaseSensitive(obj, "byteOffset"))
            return FAIL("%s: %s.byteOffset: not allowed without bufferView",
                        c->src, path);
        return VS_OK; /* zeros (§3.6.2.3: sparse without a view) */
    }
    const gltf2_view *v = &c->views[view];
    const gltf2_buffer *b = &c->buffers[v->buffer];
    /* A meshopt view's bytes are its decoded ones, from byte 0. */
    const uint8_t *base = v->decoded ? v->decoded
                          : b->data  ? b->data + v->buffer_offset
                                     : NULL;
    if (!base) {
        if (need_data)
            return set_error(c->error,
                             b->unsupported ? VS_ERROR_UNSUPPORTED
                                            : VS_ERROR_INVALID,
                             "%s: %s: bufferViews[%d] uses buffers[%u], which "
                             "has no data (%s)",
                             c->src, path, view, v->buffer, b->missing);
        *unavailable = true;
    }
    size_t comp = gltf_component_size(d->component_type);
    /* §3.6.2.4: the accessor offset, and its offset in the buffer, are
     * multiples of the component size, and a matrix accessor starts on a
     * 4-byte boundary of its bufferView (the validator,
     * ACCESSOR_MATRIX_ALIGNMENT, measures it there). The rule serves GPUs;
     * the decoder reads every component byte by byte, so the values are the
     * same at any offset. */
    size_t unit = offset % comp != 0 || (v->buffer_offset + offset) % comp
                      ? comp
                  : d->is_matrix && offset % 4 != 0 ? 4
                                                     : 0;
    if (unit) {
        char where[GLTF2_PATH];
        path_fmt(where, "%s.byteOffset", path);
        vs_result w = asset_warn(c->asset, c->error, where,
                                 "read byte by byte",
                                 "%llu (+ bufferViews[%d].byteOffset %zu) is "
                                 "not a multiple of %zu",
                                 (unsigned long long)offset, view,
                                 v->buffer_offset, unit);
        if (w != VS_OK) return w;
    }
    if (offset > v->size)
        return FAIL("%s: %s.byteOffset: %llu is past the end of "
                    "bufferViews[%d] (%zu bytes)",
                    c->src, path, (unsigned long long)offset, view, v->size);
    d->available = v->size - (size_t)offset;
    d->stride = allow_stride ? v->stride : 0;
    size_t elem = gltf_element_size(d);
    if (d->stride && d->stride < elem)
        return FAIL("%s: %s: bufferViews[%d].byteStride %zu is smaller than "
                    "one element (%zu bytes)",
                    c->src, path, view, d->stride, elem);
    /* The fit depends on sizes only; a placeholder buffer is checked too
     * (any non-NULL data pointer makes gltf_accessor_fits look). */
    d->data = base ? base + offset : (const uint8_t *)path;
    bool fits = gltf_accessor_fits(d);
    if (!base) d->data = NULL;
    if (!fits)
        return FAIL("%s: %s: %u elements of %zu bytes (stride %zu) from "
                    "byte %llu do not fit in bufferViews[%d] (%zu bytes)",
                    c->src, path, d->count, elem, d->stride ? d->stride : elem,
                    (unsigned long long)offset, view, v->size);
    return VS_OK;
}

static vs_result parse_sparse(gltf2_ctx *c, const cJSON *sparse,
                              const char *path, parsed *p, bool need_data)
{
    char sp[GLTF2_PATH], ip[GLTF2_PATH], vp[GLTF2_PATH];
    path_fmt(sp, "%s.sparse", path);
    path_fmt(ip, "%s.indices", sp);
    path_fmt(vp, "%s.values", sp);
    uint64_t count, ctype;
    const cJSON *ind, *val;
    vs_result r;
    if ((r = json_uint(c, sparse, "count", sp, true, 0, &count)) != VS_OK ||
        (r = json_object(c, sparse, "indices", sp, &ind)) != VS_OK ||
        (r = json_object(c, sparse, "values", sp, &val)) != VS_OK)
        return r;
    if (!ind || !val)
        return FAIL("%s: %s: indices and values are required", c->src, sp);
    if (count == 0 || count > p->desc.count)
        return FAIL("%s: %s.count: %llu must be in 1..%u (the accessor count)",
                    c->src, sp, (unsigned long long)count, p->desc.count);
    if ((r = json_uint(c, ind, "componentType", ip, true, 0, &ctype)) != VS_OK)
        return r;
    if (ctype != GLTF_UNSIGNED_BYTE && ctype != GLTF_UNSIGNED_SHORT &&
        ctype != GLTF_UNSIGNED_INT)
        return FAIL("%s: %s.componentType: %llu is not UNSIGNED_BYTE, "
                    "UNSIGNED_SHORT or UNSIGNED_INT",
                    c->src, ip, (unsigned long long)ctype);
    p->sparse_count = (uint32_t)count;
    p->sparse_indices = (gltf_accessor_desc){
        .count = (uint32_t)count, .component_type = (uint32_t)ctype,
        .components = 1};
    p->sparse_values = p->desc;
    p->sparse_values.count = (uint32_t)count;
    p->sparse_values.data = NULL;
    if ((r = place(c, ind, ip, &p->sparse_indices, false, true, need_data,
                   &p->unavailable)) != VS_OK)
        return r;
    p->has_source = true;
    return place(c, val, vp, &p->sparse_values, false, true, need_data,
                 &p->unavailable);
}

static vs_result parse(gltf2_ctx *c, uint32_t index, const char *path,
                       parsed *p, bool need_data)
{
    const cJSON *a = c->accessor_items[index];
    vs_result r = json_element_object(c, a, path);
    if (r != VS_OK) return r;
    uint64_t ctype, count;
    const char *type;
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(a, "normalized");
    const cJSON *sparse;
    if ((r = json_uint(c, a, "componentType", path, true, 0, &ctype)) != VS_OK ||
        (r = json_uint(c, a, "count", path, true, 0, &count)) != VS_OK ||
        (r = json_string(c, a, "type", path, NULL, &type)) != VS_OK ||
        (r = json_object(c, a, "sparse", path, &sparse)) != VS_OK)
        return r;
    memset(p, 0, sizeof *p);
    if (gltf_component_size((uint32_t)ctype) == 0 || ctype > GLTF_FLOAT)
        return FAIL("%s: %s.componentType: %llu is not a glTF component type",
                    c->src, path, (unsigned long long)ctype);
    if (count == 0 || count > UINT32_MAX)
        return FAIL("%s: %s.count: %llu is not in 1..%u", c->src, path,
                    (unsigned long long)count, UINT32_MAX);
    if (count > asset_limits(c->asset)->max_accessor_elements)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: %s.count: %llu elements exceed the limit of %llu",
                         c->src, path, (unsigned long long)count,
                         (unsigned long long)asset_limits(c->asset)
                             ->max_accessor_elements);
    for (size_t i = 0; type && i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(type, types[i].name) == 0) {
            p->type = types[i].name;
            p->desc.components = types[i].components;
            p->desc.is_matrix = types[i].matrix;
        }
    if (!p->type)
        return FAIL("%s: %s.type: %s%s%s is not SCALAR, VEC2..4 or MAT2..4",
                    c->src, path, type ? "\"" : "",
                    type ? type : "missing", type ? "\"" : "");
    if (norm && !cJSON_IsBool(norm))
        return FAIL("%s: %s.normalized: must be a boolean", c->src, path);
    p->desc.normalized = cJSON_IsTrue(norm);
    /* §3.6.2.1: normalized is only meaningful for 8/16-bit integers. */
    if (p->desc.normalized &&
        (ctype == GLTF_FLOAT || ctype == GLTF_UNSIGNED_INT))
        return FAIL("%s: %s.normalized: must not be true for FLOAT or "
                    "UNSIGNED_INT",
                    c->src, path);
    p->desc.component_type = (uint32_t)ctype;
    p->desc.count = (uint32_t)count;
    if ((r = place(c, a, path, &p->desc, true, false, need_data,
                   &p->unavailable)) != VS_OK)
        return r;
    p->has_source = cJSON_GetObjectItemCaseSensitive(a, "bufferView") != NULL;
    p->has_bounds = cJSON_GetObjectItemCaseSensitive(a, "min") &&
                    cJSON_GetObjectItemCaseSensitive(a, "max");
    if (sparse) return parse_sparse(c, sparse, path, p, need_data);
    return VS_OK;
}

static vs_result check_expect(gltf2_ctx *c, const parsed *p, const char *where,
                              const gltf2_expect *e)
{
    bool type_ok = false;
    for (int i = 0; i < 4 && e->types[i]; ++i)
        type_ok |= strcmp(e->types[i], p->type) == 0;
    if (!type_ok)
        return FAIL("%s: %s: type %s is not allowed here (expected %s%s%s)",
                    c->src, where, p->type, e->types[0],
                    e->types[1] ? " or " : "", e->types[1] ? e->types[1] : "");
    uint32_t bit = GLTF2_CT(p->desc.component_type);
    if (!(e->ctypes & bit))
        return FAIL("%s: %s: componentType %u is not allowed here%s", c->src,
                    where, p->desc.component_type,
                    e->quantizable ? " (KHR_mesh_quantization is not in "
                                     "extensionsRequired)"
                                   : "");
    if ((e->ctypes_normalized & bit) && !p->desc.normalized)
        return FAIL("%s: %s: componentType %u must be normalized here",
                    c->src, where, p->desc.component_type);
    if (e->count && p->desc.count != e->count)
        return FAIL("%s: %s: has %u elements, expected %u", c->src, where,
                    p->desc.count, e->count);
    return VS_OK;
}

/* Reads and checks the sparse indices: strictly increasing, below count. */
static vs_result sparse_indices(gltf2_ctx *c, const parsed *p,
                                const char *where, uint32_t **out)
{
    *out = mem_alloc(c->io.alloc, (size_t)p->sparse_count * sizeof **out);
    if (!*out)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: %s: out of memory", c->src, where);
    gltf_decode_uints(&p->sparse_indices, *out);
    for (uint32_t i = 0; i < p->sparse_count; ++i) {
        uint32_t v = (*out)[i];
        if (v >= p->desc.count || (i > 0 && v <= (*out)[i - 1])) {
            mem_free(c->io.alloc, *out);
            *out = NULL;
            return FAIL("%s: %s.sparse.indices[%u]: %u is %s", c->src, where,
                        i, v,
                        v >= p->desc.count ? "past the accessor count"
                                           : "not strictly increasing");
        }
    }
    return VS_OK;
}

/* Common front half: index check, parse, expectations, message prefix. */
static vs_result prepare(gltf2_ctx *c, int32_t index, const char *ref,
                         const gltf2_expect *e, parsed *p, char *where)
{
    if (index < 0 || (uint32_t)index >= c->accessor_count)
        return FAIL("%s: %s: accessor %d does not exist (%u accessors)",
                    c->src, ref, index, c->accessor_count);
    path_fmt(where, "%s: accessor %d", ref, index);
    if (c->decoded && c->decoded[index] && c->parsed &&
        c->parsed[index].valid) {
        /* Decoded from Draco (gltf2_draco.c): packed elements of the
         * accessor's own type, in place of a view. */
        *p = c->parsed[index];
        p->desc.data = c->decoded[index];
        p->desc.stride = 0;
        p->desc.available = (size_t)p->desc.count * gltf_element_size(&p->desc);
        p->has_source = true;
        p->unavailable = false;
        return check_expect(c, p, where, e);
    }
    if (c->parsed && c->parsed[index].valid) *p = c->parsed[index];
    if (!c->parsed || !c->parsed[index].valid || p->unavailable) {
        /* Not checked yet, or the data is needed now: parsing (again)
         * says which buffer lacks it (the load ends there). */
        char path[GLTF2_PATH];
        path_fmt(path, "accessors[%d]", index);
        vs_result r = parse(c, (uint32_t)index, path, p, true);
        if (r != VS_OK) return r;
    }
    return check_expect(c, p, where, e);
}

vs_result gltf2_accessor_floats(gltf2_ctx *c, int32_t index, const char *ref,
                                const gltf2_expect *e, float **out,
                                uint32_t *count, uint32_t *components)
{
    parsed p;
    char where[GLTF2_PATH];
    vs_result r = prepare(c, index, ref, e, &p, where);
    if (r != VS_OK) return r;
    uint32_t n = p.desc.components;
    float *f = vs_priv_asset_calloc(c->asset, (size_t)p.desc.count * n, sizeof *f,
                            c->error, where);
    if (!f) return c->error ? c->error->code : VS_ERROR_LIMIT;
    gltf_decode_floats(&p.desc, f);
    if (p.sparse_count) {
        uint32_t *idx;
        float *vals =
            mem_alloc(c->io.alloc, (size_t)p.sparse_count * n * sizeof *vals);
        if (!vals)
            return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: %s: out of memory", c->src, where);
        if ((r = sparse_indices(c, &p, where, &idx)) != VS_OK) {
            mem_free(c->io.alloc, vals);
            return r;
        }
        gltf_decode_floats(&p.sparse_values, vals);
        for (uint32_t i = 0; i < p.sparse_count; ++i)
            memcpy(f + (size_t)idx[i] * n, vals + (size_t)i * n,
                   n * sizeof *f);
        mem_free(c->io.alloc, idx);
        mem_free(c->io.alloc, vals);
    }
    /* Validator ACCESSOR_INVALID_FLOAT: NaN/infinity is never valid data. */
    for (size_t i = 0; i < (size_t)p.desc.count * n; ++i)
        if (!isfinite(f[i]))
            return FAIL("%s: %s: element %zu holds a non-finite float",
                        c->src, where, i / n);
    *out = f;
    *count = p.desc.count;
    if (components) *components = n;
    return VS_OK;
}

vs_result gltf2_accessor_uints(gltf2_ctx *c, int32_t index, const char *ref,
                               const gltf2_expect *e, uint32_t **out,
                               uint32_t *count, uint32_t *components)
{
    parsed p;
    char where[GLTF2_PATH];
    *out = NULL;
    vs_result r = prepare(c, index, ref, e, &p, where);
    if (r != VS_OK) return r;
    uint32_t n = p.desc.components;
    size_t total = (size_t)p.desc.count * n;
    /* A view-less accessor can claim any count: the load's budget decides
     * before anything is allocated. */
    const mem_budget *budget = asset_budget(c->asset);
    if (!budget_fits(budget, (uint64_t)total * sizeof(uint32_t)))
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: %s: %zu values exceed the memory limit "
                         "(max_total_memory: %llu bytes for the whole load, "
                         "%llu in use)",
                         c->src, where, total,
                         (unsigned long long)budget->limit,
                         (unsigned long long)budget->used);
    uint32_t *u = mem_alloc(c->io.alloc, total * sizeof *u);
    if (!u)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: %s: out of memory", c->src, where);
    gltf_decode_uints(&p.desc, u);
    if (p.sparse_count) {
        uint32_t *idx;
        uint32_t *vals =
            mem_alloc(c->io.alloc, (size_t)p.sparse_count * n * sizeof *vals);
        if (!vals || (r = sparse_indices(c, &p, where, &idx)) != VS_OK) {
            mem_free(c->io.alloc, vals);
            mem_free(c->io.alloc, u);
            return vals ? r
                        : set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                                    "%s: %s: out of memory", c->src, where);
        }
        gltf_decode_uints(&p.sparse_values, vals);
        for (uint32_t i = 0; i < p.sparse_count; ++i)
            memcpy(u + (size_t)idx[i] * n, vals + (size_t)i * n,
                   n * sizeof *u);
        mem_free(c->io.alloc, idx);
        mem_free(c->io.alloc, vals);
    }
    *out = u;
    *count = p.desc.count;
    if (components) *components = n;
    return VS_OK;
}

/* Validator ACCESSOR_INVALID_FLOAT for accessors nobody decodes: one element
 * at a time, so the scan allocates nothing. */
static bool all_finite(const gltf_accessor_desc *d)
{
    if (d->component_type != GLTF_FLOAT || !d->data) return true;
    size_t stride = d->stride ? d->stride : gltf_element_size(d);
    gltf_accessor_desc one = *d;
    one.count = 1;
    float f[16];
    for (uint32_t e = 0; e < d->count; ++e) {
        one.data = d->data + (size_t)e * stride;
        gltf_decode_floats(&one, f);
        for (uint32_t k = 0; k < d->components; ++k)
            if (!isfinite(f[k])) return false;
    }
    return true;
}

vs_result gltf2_index_accessors(gltf2_ctx *c)
{
    vs_result r = json_array(c, c->root, "accessors", "", &c->accessors,
                             &c->accessor_count);
    if (r != VS_OK) return r;
    c->accessor_items =
        mem_alloc(c->io.alloc, (c->accessor_count ? c->accessor_count : 1) *
                                   sizeof *c->accessor_items);
    if (!c->accessor_items)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: accessors: out of memory", c->src);
    uint32_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, c->accessors) c->accessor_items[i++] = e;
    return VS_OK;
}

vs_result gltf2_check_accessors(gltf2_ctx *c)
{
    c->parsed = mem_calloc(c->io.alloc,
                           c->accessor_count ? c->accessor_count : 1,
                           sizeof *c->parsed);
    if (!c->parsed)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: accessors: out of memory", c->src);
    for (uint32_t i = 0; i < c->accessor_count; ++i) {
        char path[GLTF2_PATH];
        path_fmt(path, "accessors[%u]", i);
        parsed *pp = &c->parsed[i];
        vs_result r = parse(c, i, path, pp, false);
        if (r != VS_OK) return r;
        const parsed p = *pp;
        pp->valid = true;
        if (p.unavailable) continue;
        if (!all_finite(&p.desc) || !all_finite(&p.sparse_values))
            return FAIL("%s: %s: holds a non-finite float", c->src, path);
        if (p.sparse_count) {
            uint32_t *idx;
            if ((r = sparse_indices(c, &p, path, &idx)) != VS_OK) return r;
            mem_free(c->io.alloc, idx);
        }
    }
    return VS_OK;
}

bool gltf2_accessor_info(const gltf2_ctx *c, int32_t index,
                         gltf2_accessor_summary *out)
{
    if (index < 0 || (uint32_t)index >= c->accessor_count) return false;
    const parsed *p = c->parsed ? &c->parsed[index] : NULL;
    if (!p || !p->valid) {
        /* Before the check: straight from the JSON. */
        const cJSON *a = c->accessor_items[index];
        if (!cJSON_IsObject(a)) return false;
        const cJSON *count = cJSON_GetObjectItemCaseSensitive(a, "count");
        const cJSON *ctype =
            cJSON_GetObjectItemCaseSensitive(a, "componentType");
        int32_t n = json_array_index(count), t = json_array_index(ctype);
        out->count = n > 0 ? (uint32_t)n : 0;
        out->component_type = t > 0 ? (uint32_t)t : 0;
        out->has_source = cJSON_GetObjectItemCaseSensitive(a, "bufferView") ||
                          cJSON_GetObjectItemCaseSensitive(a, "sparse");
        out->has_bounds = cJSON_GetObjectItemCaseSensitive(a, "min") &&
                          cJSON_GetObjectItemCaseSensitive(a, "max");
        out->has_sparse = cJSON_GetObjectItemCaseSensitive(a, "sparse");
        out->components = 0;
        out->is_matrix = false;
        return true;
    }
    out->count = p->desc.count;
    out->component_type = p->desc.component_type;
    out->has_source = p->has_source || p->sparse_count != 0 ||
                      (c->decoded && c->decoded[index]);
    out->has_bounds = p->has_bounds;
    out->has_sparse = p->sparse_count != 0;
    out->components = p->desc.components;
    out->is_matrix = p->desc.is_matrix;
    return true;
}
