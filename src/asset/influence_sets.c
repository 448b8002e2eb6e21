/* SPDX-License-Identifier: MIT */
/* Distinct influence sets (see influence_sets.h): a hash table of joint
 * lists, members stored back to back in growing arrays. */
#include "asset/influence_sets.h"

#include <string.h>

#include "base/alloc.h"

/* The tables start small and double with the sets found, so the scratch
 * of a primitive is proportional to its distinct sets (it is charged to the
 * load's memory budget); the hash table stays over twice the sets, a power
 * of two, so probes stay short. */
#define FIRST_SETS 16u

bool influence_sets_init(influence_sets *s, const vs_allocator *alloc)
{
    memset(s, 0, sizeof *s);
    s->alloc = alloc;
    s->set_cap = FIRST_SETS;
    s->slots = 2 * FIRST_SETS;
    s->start = mem_calloc(alloc, s->set_cap + 1, sizeof *s->start);
    s->table = mem_calloc(alloc, s->slots, sizeof *s->table);
    s->mesh = mem_calloc(alloc, s->set_cap, sizeof *s->mesh);
    return s->start && s->table && s->mesh;
}

void influence_sets_free(influence_sets *s)
{
    mem_free(s->alloc, s->start);
    mem_free(s->alloc, s->joints);
    mem_free(s->alloc, s->boxes);
    mem_free(s->alloc, s->table);
    mem_free(s->alloc, s->lo);
    mem_free(s->alloc, s->mesh);
    memset(s, 0, sizeof *s);
}

static uint32_t hash_joints(const uint16_t *joints, uint32_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (uint32_t i = 0; i < n; ++i) {
        h = (h ^ joints[i]) * 16777619u;
        h = (h ^ (joints[i] >> 8)) * 16777619u;
    }
    return h ^ n;
}

static bool same_set(const influence_sets *s, uint32_t set,
                     const uint16_t *joints, uint32_t n)
{
    uint32_t a = s->start[set], b = s->start[set + 1];
    return b - a == n && memcmp(s->joints + a, joints, n * sizeof *joints) == 0;
}

static bool grow(influence_sets *s, size_t need)
{
    if (need <= s->cap) return true;
    size_t cap = s->cap ? s->cap : 64;
    while (cap < need)
        cap *= 2;
    uint16_t *j =
        mem_grow(s->alloc, s->joints, s->cap * sizeof *j, cap * sizeof *j);
    if (!j) return false;
    s->joints = j;
    bounds_box *b =
        mem_grow(s->alloc, s->boxes, s->cap * sizeof *b, cap * sizeof *b);
    if (!b) return false;
    s->boxes = b;
    float *lo =
        mem_grow(s->alloc, s->lo, s->cap * sizeof *lo, cap * sizeof *lo);
    if (!lo) return false;
    s->lo = lo;
    s->cap = cap;
    return true;
}

/* Room for one more set: the per-set arrays and the hash table doubled
 * (the table rebuilt) when full. */
static bool grow_sets(influence_sets *s)
{
    if (s->count < s->set_cap) return true;
    const uint32_t cap = 2 * s->set_cap, slots = 2 * s->slots;
    uint32_t *start = mem_grow(s->alloc, s->start,
                               (s->set_cap + 1) * sizeof *start,
                               (cap + 1) * sizeof *start);
    if (!start) return false;
    s->start = start;
    bounds_box *mesh = mem_grow(s->alloc, s->mesh, s->set_cap * sizeof *mesh,
                                cap * sizeof *mesh);
    if (!mesh) return false;
    s->mesh = mesh;
    uint32_t *table = mem_calloc(s->alloc, slots, sizeof *table);
    if (!table) return false;
    for (uint32_t set = 0; set < s->count; ++set) {
        const uint32_t a = s->start[set], n = s->start[set + 1] - a;
        uint32_t slot = hash_joints(s->joints + a, n) & (slots - 1);
        while (table[slot]) slot = (slot + 1) & (slots - 1);
        table[slot] = set + 1;
    }
    mem_free(s->alloc, s->table);
    s->table = table;
    s->slots = slots;
    s->set_cap = cap;
    return true;
}

bool influence_sets_find(influence_sets *s, const uint16_t *joints, uint32_t n,
                         uint32_t *set)
{
    uint32_t slot = hash_joints(joints, n) & (s->slots - 1);
    while (s->table[slot]) {
        *set = s->table[slot] - 1;
        if (same_set(s, *set, joints, n)) return true;
        slot = (slot + 1) & (s->slots - 1);
    }
    if (s->count == INFLUENCE_SETS_MAX) {
        *set = UINT32_MAX;
        return true;
    }
    if (s->count == s->set_cap) {
        if (!grow_sets(s)) return false;
        /* The table was rebuilt: find the new set's free slot again. */
        slot = hash_joints(joints, n) & (s->slots - 1);
        while (s->table[slot]) slot = (slot + 1) & (s->slots - 1);
    }
    if (!grow(s, s->len + n)) return false;
    memcpy(s->joints + s->len, joints, n * sizeof *joints);
    for (uint32_t i = 0; i < n; ++i) {
        bounds_box_empty(&s->boxes[s->len + i]);
        s->lo[s->len + i] = 1.0f;
    }
    bounds_box_empty(&s->mesh[s->count]);
    *set = s->count;
    s->len += n;
    s->table[slot] = ++s->count;
    s->start[s->count] = (uint32_t)s->len;
    return true;
}
