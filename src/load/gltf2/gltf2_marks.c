/* SPDX-License-Identifier: MIT */
/* Per-node marks for the glTF 2.0 loader's uniqueness rules (children and
 * scene nodes listed once, joints unique in a skin, one channel per node and
 * path): a stamp per node says whether its bits belong to the current list,
 * so each list costs its own length, never the node count or its square. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf2/gltf2_internal.h"

vs_result marks_alloc(gltf2_ctx *c)
{
    size_t n = c->node_count ? c->node_count : 1;
    c->mark_stamp = mem_calloc(c->io.alloc, n, sizeof *c->mark_stamp);
    c->mark_bits = mem_calloc(c->io.alloc, n, sizeof *c->mark_bits);
    c->mark_current = 0;
    if (!c->mark_stamp || !c->mark_bits)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: nodes: out of memory", c->src);
    return VS_OK;
}

void marks_begin(gltf2_ctx *c)
{
    if (++c->mark_current == 0) {
        /* The stamp wrapped: old stamps could match again. */
        memset(c->mark_stamp, 0,
               (c->node_count ? c->node_count : 1) * sizeof *c->mark_stamp);
        c->mark_current = 1;
    }
}

bool marks_test_set(gltf2_ctx *c, uint32_t node, uint8_t bit)
{
    if (c->mark_stamp[node] != c->mark_current) {
        c->mark_stamp[node] = c->mark_current;
        c->mark_bits[node] = 0;
    }
    bool was = (c->mark_bits[node] & bit) != 0;
    c->mark_bits[node] |= bit;
    return was;
}

void gltf2_ctx_free(gltf2_ctx *c)
{
    gltf2_draco_end(c);
    mem_free(c->io.alloc, c->decoded);
    c->decoded = NULL;
    gltf2_free_buffers(c);
    mem_free(c->io.alloc, c->mark_stamp);
    mem_free(c->io.alloc, c->mark_bits);
    mem_free(c->io.alloc, c->accessor_items);
    mem_free(c->io.alloc, c->parsed);
    mem_free(c->io.alloc, c->material_dropped);
    c->parsed = NULL;
    c->material_dropped = NULL;
    c->mark_stamp = NULL;
    c->mark_bits = NULL;
    c->accessor_items = NULL;
}
