/* SPDX-License-Identifier: MIT */
/* A bump allocator that owns everything an asset points to, so a loader that
 * fails half-way leaks nothing and vs_asset_free is one call. It also enforces
 * the total-memory limit before any allocation is made. */
#ifndef VS_BASE_ARENA_H
#define VS_BASE_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "base/budget.h"
#include "vskin/vskin.h"

typedef struct arena_block arena_block;

typedef struct arena {
    arena_block *head;
    uint64_t used;  /* bytes handed out */
    uint64_t limit; /* 0 = no limit */
    vs_allocator alloc; /* where the blocks come from */
    /* The load's shared budget, charged for every byte handed out (NULL:
     * only `limit` applies). */
    mem_budget *budget;
} arena;

/* An empty arena whose blocks come from alloc (NULL: the C library). */
void arena_init(arena *a, uint64_t limit, const vs_allocator *alloc);
/* The same, drawing on a load's shared budget instead of a limit of its
 * own; the budget must outlive the arena. */
void arena_init_budget(arena *a, mem_budget *budget, const vs_allocator *alloc);
/* count * size zeroed bytes aligned to 16; NULL on overflow, limit or OOM
 * (arena_alloc_failed tells which). */
void *arena_alloc(arena *a, size_t count, size_t size);
/* True when count * size more bytes would pass the limit or the budget: a
 * failed arena_alloc then hit the limit, not the system. */
int arena_over_limit(const arena *a, size_t count, size_t size);
char *arena_strdup(arena *a, const char *s);
char *arena_strndup(arena *a, const char *s, size_t n);
void arena_free(arena *a);

#endif
