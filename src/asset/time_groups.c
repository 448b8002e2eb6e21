/* SPDX-License-Identifier: MIT */
/* Grouping of samplers with identical key times (asset/time_groups.h). */
#include "asset/time_groups.h"

#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"

typedef struct hashed {
    uint64_t hash;
    uint32_t sampler;
} hashed;

static uint64_t times_hash(const vs_anim_sampler *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a, 64 bits */
    const unsigned char *p = (const unsigned char *)s->times;
    const size_t bytes = (size_t)s->key_count * sizeof *s->times;
    for (size_t i = 0; i < bytes; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h ^ s->key_count;
}

static int by_hash(const void *a, const void *b)
{
    const hashed *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    return x->sampler < y->sampler ? -1 : x->sampler > y->sampler;
}

static bool same_times(const vs_anim_sampler *a, const vs_anim_sampler *b)
{
    return a->key_count == b->key_count &&
           (a->times == b->times || a->key_count == 0 ||
            !memcmp(a->times, b->times, a->key_count * sizeof *a->times));
}

static vs_result build_clip(vs_asset *asset, const vs_clip *clip,
                            time_groups *out, hashed *order, vs_error *error)
{
    const uint32_t n = clip->sampler_count;
    uint32_t *group_of =
        vs_priv_asset_calloc(asset, n, sizeof *group_of, error, "time groups");
    uint32_t *first =
        vs_priv_asset_calloc(asset, n, sizeof *first, error, "time groups");
    if (!group_of || !first)
        return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    for (uint32_t s = 0; s < n; ++s)
        order[s] = (hashed){times_hash(&clip->samplers[s]), s};
    qsort(order, n, sizeof *order, by_hash);
    /* group_of[s] = the lowest sampler with the same times: within a run of
     * equal hashes (sorted by index), each sampler is compared with the
     * run's earlier representatives. */
    for (uint32_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && order[hi].hash == order[lo].hash; ++hi) {
        }
        for (uint32_t i = lo; i < hi; ++i) {
            const uint32_t s = order[i].sampler;
            group_of[s] = s;
            for (uint32_t j = lo; j < i; ++j) {
                const uint32_t r = order[j].sampler;
                if (group_of[r] == r &&
                    same_times(&clip->samplers[r], &clip->samplers[s])) {
                    group_of[s] = r;
                    break;
                }
            }
        }
    }
    /* Representatives become groups 0, 1, ... in sampler order. */
    uint32_t groups = 0;
    for (uint32_t s = 0; s < n; ++s) {
        if (group_of[s] == s) {
            first[groups] = s;
            group_of[s] = groups++;
        } else {
            group_of[s] = group_of[group_of[s]];
        }
    }
    *out = (time_groups){clip->samplers, n, groups, group_of, first};
    return VS_OK;
}

vs_result time_groups_build(vs_asset *asset, vs_error *error)
{
    asset_internal *in = asset->internal_;
    if (asset->clip_count == 0) return VS_OK;
    time_groups *groups = vs_priv_asset_calloc(asset, asset->clip_count, sizeof *groups,
                                       error, "time groups");
    if (!groups) return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    uint32_t most = 0;
    for (uint32_t c = 0; c < asset->clip_count; ++c)
        if (asset->clips[c].sampler_count > most)
            most = asset->clips[c].sampler_count;
    hashed *order =
        mem_calloc(asset_load_allocator(asset), most ? most : 1, sizeof *order);
    if (!order)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                         asset->source_name);
    vs_result r = VS_OK;
    for (uint32_t c = 0; c < asset->clip_count && r == VS_OK; ++c)
        r = build_clip(asset, &asset->clips[c], &groups[c], order, error);
    mem_free(asset_load_allocator(asset), order);
    if (r == VS_OK) {
        in->time_groups = groups;
        in->time_group_clips = asset->clip_count;
    }
    return r;
}

const time_groups *time_groups_for(const vs_asset *asset, uint32_t c)
{
    const asset_internal *in = asset->internal_;
    if (!in || !in->time_groups || c >= in->time_group_clips ||
        c >= asset->clip_count)
        return NULL;
    const time_groups *g = &in->time_groups[c];
    const vs_clip *clip = &asset->clips[c];
    if (g->samplers != clip->samplers ||
        g->sampler_count != clip->sampler_count)
        return NULL;
    return g;
}
