/* SPDX-License-Identifier: MIT */
/* Skinned primitives grouped by array (prim_refs.h), by one sort. */
#include "asset/prim_refs.h"

#include <stdlib.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"

static int by_data(const void *a, const void *b)
{
    const prim_ref *x = a, *y = b;
    if (x->data != y->data)
        return (uintptr_t)x->data < (uintptr_t)y->data ? -1 : 1;
    if (x->mesh != y->mesh) return x->mesh < y->mesh ? -1 : 1;
    return (x->primitive > y->primitive) - (x->primitive < y->primitive);
}

prim_ref *prim_refs_sorted(const vs_asset *asset, bool weights, size_t *count)
{
    size_t n = 0;
    for (uint32_t m = 0; m < asset->mesh_count; ++m)
        for (uint32_t p = 0; p < asset->meshes[m].primitive_count; ++p)
            n += asset->meshes[m].primitives[p].influence_count != 0;
    prim_ref *refs =
        mem_alloc(asset_load_allocator(asset), (n ? n : 1) * sizeof *refs);
    *count = 0;
    if (!refs) return NULL;
    n = 0;
    for (uint32_t m = 0; m < asset->mesh_count; ++m)
        for (uint32_t p = 0; p < asset->meshes[m].primitive_count; ++p) {
            const vs_primitive *prim = &asset->meshes[m].primitives[p];
            if (prim->influence_count == 0) continue;
            refs[n++] = (prim_ref){weights ? (const void *)prim->weights
                                           : (const void *)prim->joints,
                                   m, p};
        }
    qsort(refs, n, sizeof *refs, by_data);
    *count = n;
    return refs;
}
