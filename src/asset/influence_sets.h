/* SPDX-License-Identifier: MIT */
/* The distinct influence sets of one primitive (the joints with a weight > 0
 * on a vertex), each member with the box of its vertices in that member's
 * bind space. Load-time scratch for asset/joint_bounds.c; docs/design/bounds.md says
 * why per-set boxes bound the posed mesh much tighter than per-joint boxes. */
#ifndef VS_ASSET_INFLUENCE_SETS_H
#define VS_ASSET_INFLUENCE_SETS_H

#include <stddef.h>
#include <stdint.h>

#include "asset/joint_bounds.h"
#include "vskin/vskin.h"

/* Distinct sets kept per primitive; vertices whose set would be a new one
 * past this count fall back to per-joint boxes (see influence_sets_find). */
#define INFLUENCE_SETS_MAX 4096u

typedef struct influence_sets {
    uint32_t count;     /* sets found */
    uint32_t *start;    /* set s: members start[s] .. start[s + 1] - 1 */
    uint16_t *joints;   /* member joints, ascending within a set */
    bounds_box *boxes;  /* one per member, in that member's bind space */
    float *lo;          /* per member: its least normalized weight */
    bounds_box *mesh;   /* per set: its vertices in the mesh's space */
    size_t len, cap;    /* members stored, members allocated */
    uint32_t *table;    /* open addressing: set index + 1, 0 = free */
    uint32_t slots;     /* table size, a power of two, over twice count */
    uint32_t set_cap;   /* sets start and mesh have room for */
    const vs_allocator *alloc; /* the asset's */
} influence_sets;

/* Empty sets whose arrays come from alloc (the asset's allocator, which
 * must outlive them). Returns false when out of memory. */
bool influence_sets_init(influence_sets *s, const vs_allocator *alloc);
void influence_sets_free(influence_sets *s);

/* The index of the set of the `n` ascending distinct joints (added, with
 * empty boxes and lo = 1, when new); its members are start[*set] ..
 * start[*set + 1] - 1. Sets *set = UINT32_MAX when the set is new and
 * INFLUENCE_SETS_MAX sets are already kept. Returns false when out of
 * memory. */
bool influence_sets_find(influence_sets *s, const uint16_t *joints, uint32_t n,
                         uint32_t *set);

#endif
