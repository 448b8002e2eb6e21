/* SPDX-License-Identifier: MIT */
/* Linear scans of JSON text made before and after cJSON parses it: an upper
 * bound of the memory cJSON's tree takes, so that a load refuses a text
 * whose tree would pass its memory budget before any of it is allocated,
 * and a strict syntax check that tells a parse cJSON gave up for want of
 * memory from a text that is not JSON. */
#ifndef VS_LOAD_JSON_SCAN_H
#define VS_LOAD_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct json_tree_bound {
    uint64_t values;  /* at most this many cJSON items */
    uint64_t strings; /* string tokens (member names and string values) */
    uint64_t
        bytes; /* upper bound of the tree's heap, allocator overhead included */
} json_tree_bound;

/* The bound for any text cJSON accepts (a tolerant scan: it counts what
 * could start a value and every string, valid or not). */
json_tree_bound json_tree_bound_of(const char *text, size_t size);

/* Whether the text starts with one well-formed JSON value (RFC 8259, no
 * deeper than cJSON's nesting limit); what follows it is ignored, as
 * cJSON_ParseWithLength does. Stricter than cJSON, never looser: a text it
 * accepts is one cJSON parses when memory allows. *error_at: the offset of
 * the first fault. */
bool json_well_formed(const char *text, size_t size, size_t *error_at);

#endif
