/* SPDX-License-Identifier: MIT */
/* Each node's subtree as a run of pre-order places, from a finished asset's
 * node_order (parents before children): node a is b or an ancestor of b
 * exactly when pre[a] <= pre[b] < pre[a] + size[a], two comparisons where a
 * walk up the hierarchy would cost its depth per question. Inline, so that
 * the loaders and the writer (another library) share it without a symbol. */
#ifndef VS_ASSET_SUBTREE_RUNS_H
#define VS_ASSET_SUBTREE_RUNS_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* Fills pre and size (node_count entries each) in linear time; next is
 * node_count entries of scratch. */
static inline void asset_subtree_runs(const vs_asset *a, uint32_t *pre,
                                      uint32_t *size, uint32_t *next)
{
    for (uint32_t n = 0; n < a->node_count; ++n)
        size[n] = 1;
    for (uint32_t k = a->node_count; k-- > 0;) {
        uint32_t n = a->node_order[k];
        if (a->nodes[n].parent >= 0) size[a->nodes[n].parent] += size[n];
    }
    /* A node's first child starts right after it, each next child after
     * the previous child's subtree. */
    uint32_t counter = 0;
    for (uint32_t k = 0; k < a->node_count; ++k) {
        uint32_t n = a->node_order[k];
        int32_t p = a->nodes[n].parent;
        if (p < 0) {
            pre[n] = counter;
            counter += size[n];
        } else {
            pre[n] = next[p];
            next[p] += size[n];
        }
        next[n] = pre[n] + 1;
    }
}

/* Whether `ancestor` is `node` or one of its ancestors. */
static inline bool asset_subtree_contains(const uint32_t *pre,
                                          const uint32_t *size,
                                          uint32_t ancestor, uint32_t node)
{
    return pre[node] >= pre[ancestor] &&
           pre[node] - pre[ancestor] < size[ancestor];
}

#endif
