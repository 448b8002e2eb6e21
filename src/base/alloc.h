/* SPDX-License-Identifier: MIT */
/* The one door of the library's memory: every allocation and free goes
 * through a vs_allocator (vskin.h), whose zero value (or NULL) is the C
 * library's malloc and free. Objects keep a copy of the allocator they were
 * made with, so that they are freed through the same one. */
#ifndef VS_BASE_ALLOC_H
#define VS_BASE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#include "vskin/vskin.h"

/* Whether a (NULL: the default) is usable: alloc and free both set, or both
 * NULL. */
bool mem_allocator_valid(const vs_allocator *a);
/* The checks the public calls make of an allocator in their options: a
 * VS_ERROR_ARGUMENT naming `who` and `field` when it is not usable. */
vs_result mem_check_allocator(const vs_allocator *a, const char *who,
                              const char *field, vs_error *error);

/* size bytes (at least one), aligned for any object; NULL when the
 * allocator refuses or returns a block that is not so aligned. */
void *mem_alloc(const vs_allocator *a, size_t size);
/* count * size zeroed bytes; NULL on overflow or failure. */
void *mem_calloc(const vs_allocator *a, size_t count, size_t size);
/* A block of new_size bytes holding the first old_size bytes of p (which
 * may be NULL when old_size is 0), p freed; on failure NULL and p is left
 * as it was. The callbacks have no realloc, so this allocates anew. */
void *mem_grow(const vs_allocator *a, void *p, size_t old_size,
               size_t new_size);
/* Frees p (NULL is ignored). */
void mem_free(const vs_allocator *a, void *p);
/* Copies of a string (NULL: "") and of its first n bytes, NUL-terminated. */
char *mem_strdup(const vs_allocator *a, const char *s);
char *mem_strndup(const vs_allocator *a, const char *s, size_t n);

#endif
