/* SPDX-License-Identifier: MIT */
/* The node forest as the writer queries it: each node's root, and pre-order
 * runs (asset/subtree_runs.h), built once in linear time, so that "is the
 * skeleton a common root of the joints" and "which joint roots does this scene
 * need" cost no walk up the hierarchy per joint, per skinned node or per scene.
 */
#include <stdlib.h>

#include "asset/subtree_runs.h"
#include "base/alloc.h"
#include "write/gltf2/gltf2_writer.h"

struct gltf2w_tree {
    const vs_allocator *alloc;
    uint32_t node_count, skin_count;
    uint32_t *root;    /* per node: the root above it (itself for a root) */
    uint32_t *pre;     /* per node: pre-order number */
    uint32_t *size;    /* per node: nodes in its subtree, itself included */
    uint32_t *skinned; /* nodes with a skin, in pre-order */
    uint32_t skinned_count;
    /* Per skin: its joints' distinct roots, CSR (skin_roots_at[s] ..
     * skin_roots_at[s + 1] index skin_roots). */
    uint32_t *skin_roots_at;
    uint32_t *skin_roots;
    /* Per listed node, computed on first use: the distinct roots of the
     * joints of the skins used under it (need_at UINT32_MAX: not yet). */
    uint32_t *need_at, *need_count;
    uint32_t *need;
    size_t need_len, need_cap;
    /* Stamps for de-duplication without clearing: a node or skin is marked
     * in the current pass when its entry equals `stamp`. */
    uint32_t *node_stamp, *skin_stamp;
    uint32_t stamp;
};

void gltf2w_tree_free(gltf2w_tree *t)
{
    if (!t) return;
    const vs_allocator *a = t->alloc;
    uint32_t *arrays[] = {t->root,       t->pre,           t->size,
                          t->skinned,    t->skin_roots_at, t->skin_roots,
                          t->need_at,    t->need_count,    t->need,
                          t->node_stamp, t->skin_stamp};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
        mem_free(a, arrays[i]);
    mem_free(a, t);
}

static uint32_t next_stamp(gltf2w_tree *t)
{
    /* On wrap-around every mark is forgotten at once. */
    if (++t->stamp == 0) {
        for (uint32_t n = 0; n < t->node_count; ++n)
            t->node_stamp[n] = 0;
        for (uint32_t s = 0; s < t->skin_count; ++s)
            t->skin_stamp[s] = 0;
        t->stamp = 1;
    }
    return t->stamp;
}

static bool skin_roots(const vs_asset *a, gltf2w_tree *t)
{
    size_t total = 0;
    for (uint32_t s = 0; s < a->skin_count; ++s)
        total += a->skins[s].joint_count;
    t->skin_roots = mem_alloc(t->alloc, (total ? total : 1) * sizeof(uint32_t));
    if (!t->skin_roots) return false;
    uint32_t at = 0;
    for (uint32_t s = 0; s < a->skin_count; ++s) {
        uint32_t stamp = next_stamp(t);
        t->skin_roots_at[s] = at;
        for (uint32_t j = 0; j < a->skins[s].joint_count; ++j) {
            uint32_t r = t->root[a->skins[s].joints[j]];
            if (t->node_stamp[r] == stamp) continue;
            t->node_stamp[r] = stamp;
            t->skin_roots[at++] = r;
        }
    }
    t->skin_roots_at[a->skin_count] = at;
    return true;
}

gltf2w_tree *gltf2w_tree_build(const vs_asset *a, const vs_allocator *alloc)
{
    gltf2w_tree *t = mem_calloc(alloc, 1, sizeof *t);
    if (!t) return NULL;
    t->alloc = alloc;
    t->node_count = a->node_count;
    t->skin_count = a->skin_count;
    size_t n = a->node_count ? a->node_count : 1;
    size_t skins = (size_t)a->skin_count + 1;
    t->root = mem_alloc(alloc, n * sizeof(uint32_t));
    t->pre = mem_alloc(alloc, n * sizeof(uint32_t));
    t->size = mem_alloc(alloc, n * sizeof(uint32_t));
    t->skinned = mem_alloc(alloc, n * sizeof(uint32_t));
    t->need_at = mem_alloc(alloc, n * sizeof(uint32_t));
    t->need_count = mem_alloc(alloc, n * sizeof(uint32_t));
    t->node_stamp = mem_calloc(alloc, n, sizeof(uint32_t));
    t->skin_stamp = mem_calloc(alloc, skins, sizeof(uint32_t));
    t->skin_roots_at = mem_alloc(alloc, skins * sizeof(uint32_t));
    /* by_pre doubles as the next-child counter while numbering. */
    uint32_t *by_pre = mem_alloc(alloc, n * sizeof(uint32_t));
    bool ok = t->root && t->pre && t->size && t->skinned && t->need_at &&
              t->need_count && t->node_stamp && t->skin_stamp &&
              t->skin_roots_at && by_pre;
    if (ok) {
        asset_subtree_runs(a, t->pre, t->size, by_pre);
        for (uint32_t k = 0; k < a->node_count; ++k) {
            uint32_t n = a->node_order[k];
            int32_t p = a->nodes[n].parent;
            t->root[n] = p < 0 ? n : t->root[p];
        }
        for (uint32_t i = 0; i < a->node_count; ++i) {
            by_pre[t->pre[i]] = i;
            t->need_at[i] = UINT32_MAX;
        }
        for (uint32_t k = 0; k < a->node_count; ++k)
            if (a->nodes[by_pre[k]].skin >= 0)
                t->skinned[t->skinned_count++] = by_pre[k];
        ok = skin_roots(a, t);
    }
    mem_free(alloc, by_pre);
    if (!ok) {
        gltf2w_tree_free(t);
        return NULL;
    }
    return t;
}

bool gltf2w_tree_contains(const gltf2w_tree *t, uint32_t ancestor,
                          uint32_t node)
{
    return asset_subtree_contains(t->pre, t->size, ancestor, node);
}

uint32_t gltf2w_tree_root(const gltf2w_tree *t, uint32_t node)
{
    return t->root[node];
}

/* The first entry of t->skinned whose pre-order number is >= pre. */
static uint32_t skinned_from(const gltf2w_tree *t, uint32_t pre)
{
    uint32_t lo = 0, hi = t->skinned_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->pre[t->skinned[mid]] < pre)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool push_need(gltf2w_tree *t, uint32_t root)
{
    if (t->need_len == t->need_cap) {
        size_t cap = t->need_cap ? 2 * t->need_cap : 64;
        uint32_t *grown =
            mem_grow(t->alloc, t->need, t->need_cap * sizeof(uint32_t),
                     cap * sizeof(uint32_t));
        if (!grown) return false;
        t->need = grown;
        t->need_cap = cap;
    }
    t->need[t->need_len++] = root;
    return true;
}

bool gltf2w_tree_joint_roots(gltf2w_tree *t, const vs_asset *a, uint32_t node,
                             const uint32_t **out, uint32_t *out_count)
{
    /* Computed once per node: the skinned nodes under it are a contiguous
     * run of t->skinned, and each skin's roots are counted once. */
    if (t->need_at[node] == UINT32_MAX) {
        uint32_t stamp = next_stamp(t);
        size_t start = t->need_len;
        uint32_t end = t->pre[node] + t->size[node];
        for (uint32_t i = skinned_from(t, t->pre[node]);
             i < t->skinned_count && t->pre[t->skinned[i]] < end; ++i) {
            uint32_t s = (uint32_t)a->nodes[t->skinned[i]].skin;
            if (t->skin_stamp[s] == stamp) continue;
            t->skin_stamp[s] = stamp;
            for (uint32_t k = t->skin_roots_at[s]; k < t->skin_roots_at[s + 1];
                 ++k) {
                uint32_t r = t->skin_roots[k];
                if (t->node_stamp[r] == stamp) continue;
                t->node_stamp[r] = stamp;
                if (!push_need(t, r)) return false;
            }
        }
        t->need_at[node] = (uint32_t)start;
        t->need_count[node] = (uint32_t)(t->need_len - start);
    }
    /* need is NULL until a first root is kept: no arithmetic on it then. */
    *out = t->need_count[node] ? t->need + t->need_at[node] : NULL;
    *out_count = t->need_count[node];
    return true;
}

uint32_t gltf2w_tree_stamp(gltf2w_tree *t)
{
    return next_stamp(t);
}

bool gltf2w_tree_mark(gltf2w_tree *t, uint32_t node, uint32_t stamp)
{
    if (t->node_stamp[node] == stamp) return false;
    t->node_stamp[node] = stamp;
    return true;
}
