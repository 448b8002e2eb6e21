/* SPDX-License-Identifier: MIT */
/* The one memory budget of a load (vs_limits.max_total_memory): the asset's
 * arena, the loader's temporaries, the buffers it reads and the parser's
 * tree all charge it before they allocate, so that no pool can take the
 * whole budget on top of the others. */
#ifndef VS_BASE_BUDGET_H
#define VS_BASE_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

typedef struct mem_budget {
    uint64_t limit; /* bytes; 0: no limit */
    uint64_t used;  /* bytes charged and not yet given back */
    /* The first refused charge, for the message of the load that fails on
     * it: how much was asked while how much was in use. */
    uint64_t refused_bytes;
    uint64_t refused_used;
    bool refused;
} mem_budget;

/* Inline, so that base's copies in the tool libraries (the helpers stage
 * of src/CMakeLists.txt) need no other object. */
static inline void budget_init(mem_budget *b, uint64_t limit)
{
    *b = (mem_budget){limit, 0, 0, 0, false};
}

/* Whether `bytes` more fit under the limit. */
static inline bool budget_fits(const mem_budget *b, uint64_t bytes)
{
    return b->limit == 0 || (bytes <= b->limit && b->used <= b->limit - bytes);
}

/* Charges `bytes` when they fit under the limit and returns true; else
 * records the (first) refusal and returns false, charging nothing. */
static inline bool budget_charge(mem_budget *b, uint64_t bytes)
{
    if (budget_fits(b, bytes)) {
        b->used += bytes;
        return true;
    }
    if (!b->refused) {
        b->refused = true;
        b->refused_bytes = bytes;
        b->refused_used = b->used;
    }
    return false;
}

/* Gives back bytes an earlier budget_charge took. */
static inline void budget_release(mem_budget *b, uint64_t bytes)
{
    b->used = bytes <= b->used ? b->used - bytes : 0;
}

/* An allocator whose blocks are charged to `budget` (with their header)
 * before they come from `inner`: the load's temporaries use it, so that a
 * refusal is an ordinary NULL to the code that asked. *out keeps pointers
 * to both, which must outlive it. */
typedef struct budget_allocator {
    mem_budget *budget;
    const vs_allocator *inner;
} budget_allocator;
vs_allocator budget_allocator_make(budget_allocator *state);

#endif
