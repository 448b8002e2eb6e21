/* SPDX-License-Identifier: MIT */
/* The bump allocator that owns everything an asset points to (arena.h). */
#include "base/arena.h"

#include <string.h>

#include "base/alloc.h"

/* Small allocations share 64 KiB blocks; big ones get a block of their own. */
#define ARENA_BLOCK_SIZE (64u * 1024u)

struct arena_block {
    arena_block *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
};

void arena_init(arena *a, uint64_t limit, const vs_allocator *alloc)
{
    a->head = NULL;
    a->used = 0;
    a->limit = limit;
    a->alloc = alloc ? *alloc : (vs_allocator){0};
    a->budget = NULL;
}

void arena_init_budget(arena *a, mem_budget *budget, const vs_allocator *alloc)
{
    arena_init(a, 0, alloc);
    a->budget = budget;
}

static size_t align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

int arena_over_limit(const arena *a, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) return 1;
    const uint64_t bytes = (uint64_t)count * size;
    return (a->limit != 0 && a->used + bytes > a->limit) ||
           (a->budget && !budget_fits(a->budget, bytes));
}

void *arena_alloc(arena *a, size_t count, size_t size)
{
    if (size != 0 && count > (SIZE_MAX - 64) / size) return NULL;
    size_t bytes = align16(count != 0 && size != 0 ? count * size : 1);
    if (a->limit != 0 && a->used + bytes > a->limit) return NULL;
    if (a->budget && !budget_charge(a->budget, bytes)) return NULL;

    arena_block *b = a->head;
    if (b == NULL || b->size - b->used < bytes) {
        size_t cap = bytes > ARENA_BLOCK_SIZE / 4 ? bytes : ARENA_BLOCK_SIZE;
        arena_block *nb = mem_alloc(&a->alloc, sizeof *nb + cap);
        if (!nb) {
            if (a->budget) budget_release(a->budget, bytes);
            return NULL;
        }
        nb->size = cap;
        nb->used = 0;
        if (cap == bytes && b != NULL) {
            /* Keep the partly used block at the head for small requests. */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += bytes;
    a->used += bytes;
    memset(p, 0, bytes);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *d = arena_alloc(a, n + 1, 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

char *arena_strdup(arena *a, const char *s)
{
    return arena_strndup(a, s ? s : "", s ? strlen(s) : 0);
}

void arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        mem_free(&a->alloc, b);
        b = next;
    }
    if (a->budget) budget_release(a->budget, a->used);
    a->head = NULL;
    a->used = 0;
}
