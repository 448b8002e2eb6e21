/* SPDX-License-Identifier: MIT */
/* The load's memory budget and the allocator that charges it (budget.h). */
#include "base/budget.h"

#include <stdalign.h>
#include <string.h>

#include "base/alloc.h"

/* Each block starts with its size, in a header that keeps the block's
 * alignment (vs_allocator promises alignof(max_align_t)). */
#define HEADER                                                                 \
    (alignof(max_align_t) > sizeof(uint64_t) ? alignof(max_align_t)            \
                                             : sizeof(uint64_t))

static void *charged_alloc(size_t size, void *user)
{
    budget_allocator *s = user;
    if (size > SIZE_MAX - HEADER) return NULL;
    if (!budget_charge(s->budget, (uint64_t)size + HEADER)) return NULL;
    unsigned char *p = mem_alloc(s->inner, size + HEADER);
    if (!p) {
        budget_release(s->budget, (uint64_t)size + HEADER);
        return NULL;
    }
    uint64_t n = size;
    memcpy(p, &n, sizeof n);
    return p + HEADER;
}

static void charged_free(void *ptr, void *user)
{
    budget_allocator *s = user;
    unsigned char *p = (unsigned char *)ptr - HEADER;
    uint64_t n;
    memcpy(&n, p, sizeof n);
    budget_release(s->budget, n + HEADER);
    mem_free(s->inner, p);
}

vs_allocator budget_allocator_make(budget_allocator *state)
{
    return (vs_allocator){charged_alloc, charged_free, state};
}
