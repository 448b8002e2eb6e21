/* SPDX-License-Identifier: MIT */
/* Runtime nodes by <node id>, for channel targets ("nodeId/sid..."). Ids
 * are not unique among runtime nodes: every <instance_node> copy of a
 * <node> keeps its id, and a channel animates all of them. */
#include <stdlib.h>
#include <string.h>

#include "load/collada/collada_anim.h"

static int key_cmp(const void *pa, const void *pb)
{
    const collada_key *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->node > b->node) - (a->node < b->node);
}

vs_result anim_index_nodes(anim_ctx *ctx)
{
    uint32_t count = ctx->c->asset->node_count, m = 0;
    ctx->node_ids = collada_tmp(ctx->c, count ? count : 1,
                                sizeof *ctx->node_ids, "node ids");
    if (!ctx->node_ids) return COLLADA_ERR(ctx->c);
    for (uint32_t i = 0; i < count; ++i)
        if (ctx->stacks[i].id)
            ctx->node_ids[m++] = (collada_key){ctx->stacks[i].id, i};
    qsort(ctx->node_ids, m, sizeof *ctx->node_ids, key_cmp);
    ctx->node_id_count = m;
    return VS_OK;
}

/* strcmp of s and the first len bytes of id. */
static int cmp_n(const char *s, const char *id, size_t len)
{
    int c = strncmp(s, id, len);
    return c != 0 ? c : (s[len] != '\0');
}

uint32_t anim_find_nodes(const anim_ctx *ctx, const char *id, size_t len,
                         uint32_t *first)
{
    uint32_t lo = 0, hi = ctx->node_id_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_n(ctx->node_ids[mid].key, id, len) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t end = lo;
    while (end < ctx->node_id_count &&
           cmp_n(ctx->node_ids[end].key, id, len) == 0)
        ++end;
    *first = lo;
    return end - lo;
}
