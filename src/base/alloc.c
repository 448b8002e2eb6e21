/* SPDX-License-Identifier: MIT */
/* Allocation through a vs_allocator, or the C library's (base/alloc.h). */
#include "base/alloc.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

static bool custom(const vs_allocator *a)
{
    return a && a->alloc;
}

bool mem_allocator_valid(const vs_allocator *a)
{
    return !a || (a->alloc == NULL) == (a->free == NULL);
}

vs_result mem_check_allocator(const vs_allocator *a, const char *who,
                              const char *field, vs_error *error)
{
    if (mem_allocator_valid(a)) return VS_OK;
    return set_error(error, VS_ERROR_ARGUMENT,
                     "%s: %s: alloc and free must both be set or both be "
                     "NULL",
                     who, field);
}

void *mem_alloc(const vs_allocator *a, size_t size)
{
    if (size == 0) size = 1;
    if (!custom(a)) return malloc(size);
    void *p = a->alloc(size, a->user);
    /* The library places any object in what it gets, as it does in
     * malloc's blocks (vs_allocator's contract). */
    if (p && (uintptr_t)p % alignof(max_align_t) != 0) {
        a->free(p, a->user);
        return NULL;
    }
    return p;
}

void *mem_calloc(const vs_allocator *a, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    if (!custom(a)) return calloc(count ? count : 1, size ? size : 1);
    const size_t bytes = count * size;
    void *p = mem_alloc(a, bytes);
    if (p) memset(p, 0, bytes > 0 ? bytes : 1);
    return p;
}

void *mem_grow(const vs_allocator *a, void *p, size_t old_size, size_t new_size)
{
    if (new_size == 0) new_size = 1;
    if (!custom(a)) return realloc(p, new_size);
    void *q = mem_alloc(a, new_size);
    if (!q) return NULL;
    if (p) {
        memcpy(q, p, old_size < new_size ? old_size : new_size);
        a->free(p, a->user);
    }
    return q;
}

void mem_free(const vs_allocator *a, void *p)
{
    if (!p) return;
    if (custom(a))
        a->free(p, a->user);
    else
        free(p);
}

char *mem_strndup(const vs_allocator *a, const char *s, size_t n)
{
    if (n == SIZE_MAX) return NULL;
    char *d = mem_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

char *mem_strdup(const vs_allocator *a, const char *s)
{
    return mem_strndup(a, s ? s : "", s ? strlen(s) : 0);
}
