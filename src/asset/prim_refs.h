/* SPDX-License-Identifier: MIT */
/* The skinned primitives of an asset grouped by the arrays they read: a
 * glTF 1.0 node with several meshes gets a merged mesh whose primitives
 * share their arrays with the originals, so a pass per mesh would visit
 * those vertices once per such node; a pass per group visits them once. */
#ifndef VS_ASSET_PRIM_REFS_H
#define VS_ASSET_PRIM_REFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

typedef struct prim_ref {
    const void *data; /* the primitive's joints or weights */
    uint32_t mesh, primitive;
} prim_ref;

/* Every primitive with influences, sorted by its joints array (weights:
 * false) or weights array (true), then by mesh and primitive: a run of
 * equal data is one array, its first entry the first user in the file.
 * From the load's allocator (mem_free(asset_load_allocator(asset), refs));
 * NULL when it refuses. */
prim_ref *prim_refs_sorted(const vs_asset *asset, bool weights, size_t *count);

#endif
