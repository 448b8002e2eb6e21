/* SPDX-License-Identifier: MIT */
/* Raw accessor checks (glTF 2.0 §3.6.2 and the glTF-Validator's ACCESSOR_*
 * codes): layout (alignment, fit in the bufferView, stride, normalized,
 * sparse count) and data (non-finite floats, declared min/max against the
 * stored values, which the schema says are raw: `normalized` has no effect
 * on min/max). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "validate/validate_internal.h"

#define ERR VS_SEVERITY_ERROR

static void check_layout(vd_doc *d, uint32_t i, const cJSON *j)
{
    const vd_accessor *a = &d->accessors[i];
    char p[64];
    snprintf(p, sizeof p, "/accessors/%u", i);
    char q[96];
    if (a->normalized && (a->component_type == GLTF_FLOAT ||
                          a->component_type == GLTF_UNSIGNED_INT)) {
        snprintf(q, sizeof q, "%s/normalized", p);
        vd_issue(d->r, ERR, "ACCESSOR_NORMALIZED_INVALID", q,
                 "only (unsigned) byte and short accessors can be "
                 "normalized");
    }
    const cJSON *sparse = cJSON_GetObjectItemCaseSensitive(j, "sparse");
    int64_t sc = vd_int(sparse, "count");
    if (a->ok && sparse && sc > (int64_t)a->count) {
        snprintf(q, sizeof q, "%s/sparse/count", p);
        vd_issue(d->r, ERR, "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", q,
                 "sparse count %lld exceeds the accessor count %u",
                 (long long)sc, a->count);
    }
    if (!a->ok || a->view < 0) return;
    size_t comp = gltf_component_size(a->component_type);
    const vd_view *v = &d->views[a->view];
    snprintf(q, sizeof q, "%s/byteOffset", p);
    if (a->offset % comp)
        vd_issue(d->r, ERR, "ACCESSOR_OFFSET_ALIGNMENT", q,
                 "byteOffset %llu is not a multiple of the component size "
                 "%zu",
                 (unsigned long long)a->offset, comp);
    if (a->is_matrix && comp < 4 && a->offset % 4)
        vd_issue(d->r, ERR, "ACCESSOR_MATRIX_ALIGNMENT", q,
                 "matrix accessors must start on a 4-byte boundary "
                 "(§3.6.2.4)");
    if (v->declared && (v->offset + a->offset) % comp)
        vd_issue(d->r, ERR, "ACCESSOR_TOTAL_OFFSET_ALIGNMENT", p,
                 "bufferView.byteOffset + byteOffset = %llu is not a "
                 "multiple of the component size %zu",
                 (unsigned long long)(v->offset + a->offset), comp);
    gltf_accessor_desc desc = {.count = a->count,
                               .component_type = a->component_type,
                               .components = a->components,
                               .is_matrix = a->is_matrix,
                               .stride = v->stride};
    size_t elem = gltf_element_size(&desc);
    if (v->stride && v->stride < elem) {
        vd_issue(d->r, ERR, "ACCESSOR_SMALL_BYTESTRIDE", p,
                 "bufferView byteStride %u is less than the element size %zu",
                 v->stride, elem);
        return;
    }
    if (!v->declared) return;
    desc.available = a->offset <= v->size ? v->size - (size_t)a->offset : 0;
    /* Only the sizes matter here; a NULL data means "all zeros" to the
     * decoder, which always fits. */
    desc.data = (const uint8_t *)"";
    if (a->offset > v->size || !gltf_accessor_fits(&desc))
        vd_issue(d->r, ERR, "ACCESSOR_TOO_LONG", p,
                 "%u elements at byteOffset %llu do not fit bufferView %d "
                 "of %zu bytes",
                 a->count, (unsigned long long)a->offset, a->view, v->size);
}

/* Declared bound against the stored values, per component. */
static void check_bound(vd_doc *d, uint32_t i, const cJSON *j, const float *v,
                        bool is_min)
{
    const vd_accessor *a = &d->accessors[i];
    const cJSON *decl =
        cJSON_GetObjectItemCaseSensitive(j, is_min ? "min" : "max");
    if (!cJSON_IsArray(decl) || cJSON_GetArraySize(decl) != (int)a->components)
        return;
    uint32_t c = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, decl)
    {
        if (!cJSON_IsNumber(e)) {
            ++c;
            continue;
        }
        float bound = (float)e->valuedouble,
              actual = is_min ? INFINITY : -INFINITY;
        uint32_t outside = 0;
        for (uint32_t k = 0; k < a->count; ++k) {
            float x = v[(size_t)k * a->components + c];
            if (isnan(x)) continue;
            if (is_min ? x < actual : x > actual) actual = x;
            if (is_min ? x < bound : x > bound) ++outside;
        }
        char p[96];
        snprintf(p, sizeof p, "/accessors/%u/%s/%u", i, is_min ? "min" : "max",
                 c);
        if (isfinite(actual) && actual != bound)
            vd_issue(d->r, ERR,
                     is_min ? "ACCESSOR_MIN_MISMATCH" : "ACCESSOR_MAX_MISMATCH",
                     p, "declared %s %g does not match the actual %g",
                     is_min ? "minimum" : "maximum", (double)bound,
                     (double)actual);
        if (outside)
            vd_issue(d->r, ERR,
                     is_min ? "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND"
                            : "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND",
                     p, "%u element(s) %s the declared %s %g", outside,
                     is_min ? "below" : "above", is_min ? "minimum" : "maximum",
                     (double)bound);
        ++c;
    }
}

static void check_data(vd_doc *d, uint32_t i, const cJSON *j)
{
    const vd_accessor *a = &d->accessors[i];
    float *v = vd_accessor_floats(d, i, true);
    if (!v) return;
    size_t n = (size_t)a->count * a->components;
    if (a->component_type == GLTF_FLOAT) {
        size_t bad = 0, first = 0;
        for (size_t k = 0; k < n; ++k)
            if (!isfinite(v[k]) && bad++ == 0) first = k;
        if (bad) {
            char p[64];
            snprintf(p, sizeof p, "/accessors/%u", i);
            vd_issue(d->r, ERR, "ACCESSOR_INVALID_FLOAT", p,
                     "%zu component(s) are NaN or infinite (first at "
                     "component %zu)",
                     bad, first);
        }
    }
    check_bound(d, i, j, v, true);
    check_bound(d, i, j, v, false);
    mem_free(vd_alloc(d), v);
}

void vd_check_accessors(vd_doc *d)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(d->root, "accessors");
    uint32_t i = 0;
    const cJSON *j;
    if (!cJSON_IsArray(arr)) return;
    cJSON_ArrayForEach(j, arr)
    {
        if (i >= d->accessor_count || d->r->oom) return;
        check_layout(d, i, j);
        check_data(d, i, j);
        ++i;
    }
}
