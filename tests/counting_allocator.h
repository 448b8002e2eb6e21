/* SPDX-License-Identifier: MIT */
/* A vs_allocator for tests: it counts its calls and the most bytes live at
 * once, tags every block it hands out so that a free of a block it did not
 * make is caught, can refuse the n-th allocation, and can hand out blocks
 * with a chosen misalignment.
 * Blocks come from the C library's allocator through counting_raw_alloc,
 * which a test may point at the unwrapped malloc (test_load_allocator.c
 * wraps the C library's functions to catch vskin calling them directly). */
#ifndef VS_TESTS_COUNTING_ALLOCATOR_H
#define VS_TESTS_COUNTING_ALLOCATOR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vskin/vskin.h"

#ifndef COUNTING_RAW_ALLOC
#define COUNTING_RAW_ALLOC malloc
#define COUNTING_RAW_FREE free
#endif

/* Header before every block: keeps the user block 16-byte aligned. */
#define COUNTING_HEADER 32u
#define COUNTING_MAGIC 0x5a11c0deu

typedef struct counting {
    atomic_size_t allocs;     /* blocks handed out */
    atomic_size_t frees;      /* blocks taken back */
    atomic_size_t bytes;      /* bytes requested in all */
    atomic_size_t calls;      /* alloc calls, refused ones included */
    atomic_size_t foreign;    /* frees of blocks this allocator did not make */
    atomic_size_t refused;    /* allocations refused */
    atomic_size_t live_bytes; /* bytes of the blocks not yet taken back */
    atomic_size_t peak_bytes; /* the most live_bytes has been */
    size_t fail_at;  /* refuse the fail_at-th call (1-based); 0: none */
    bool fail_after; /* ... and every call after it */
    size_t misalign; /* bytes added to every block's address */
} counting;

typedef struct counting_tag {
    uint32_t magic;
    uint32_t misalign;
    size_t size;
} counting_tag;

static void *counting_alloc(size_t size, void *user)
{
    counting *c = user;
    const size_t n = atomic_fetch_add(&c->calls, 1) + 1;
    if (c->fail_at && (n == c->fail_at || (c->fail_after && n > c->fail_at))) {
        atomic_fetch_add(&c->refused, 1);
        return NULL;
    }
    unsigned char *raw = COUNTING_RAW_ALLOC(COUNTING_HEADER + size + 16);
    if (!raw) return NULL;
    unsigned char *p = raw + COUNTING_HEADER + c->misalign;
    counting_tag tag = {COUNTING_MAGIC, (uint32_t)c->misalign, size};
    memcpy(p - sizeof tag, &tag, sizeof tag);
    memset(p, 0xa5, size); /* vskin must not rely on zeroed blocks */
    atomic_fetch_add(&c->allocs, 1);
    atomic_fetch_add(&c->bytes, size);
    size_t live = atomic_fetch_add(&c->live_bytes, size) + size;
    size_t peak = atomic_load(&c->peak_bytes);
    while (live > peak &&
           !atomic_compare_exchange_weak(&c->peak_bytes, &peak, live)) {
    }
    return p;
}

static void counting_free(void *ptr, void *user)
{
    counting *c = user;
    unsigned char *p = ptr;
    counting_tag tag;
    memcpy(&tag, p - sizeof tag, sizeof tag);
    if (tag.magic != COUNTING_MAGIC) {
        atomic_fetch_add(&c->foreign, 1);
        return; /* not ours: leak rather than corrupt */
    }
    tag.magic = 0; /* a second free of the block is foreign too */
    memcpy(p - sizeof tag, &tag, sizeof tag);
    atomic_fetch_add(&c->frees, 1);
    atomic_fetch_sub(&c->live_bytes, tag.size);
    COUNTING_RAW_FREE(p - COUNTING_HEADER - tag.misalign);
}

/* A zeroed counter and the vs_allocator that uses it. */
static inline vs_allocator counting_allocator(counting *c)
{
    memset(c, 0, sizeof *c);
    return (vs_allocator){counting_alloc, counting_free, c};
}

/* Starts measuring the peak from now: the peak becomes the bytes live. */
static inline void counting_reset_peak(counting *c)
{
    atomic_store(&c->peak_bytes, atomic_load(&c->live_bytes));
}

/* Blocks handed out and not yet taken back. */
static inline size_t counting_live(counting *c)
{
    return atomic_load(&c->allocs) - atomic_load(&c->frees);
}

#endif
