/* SPDX-License-Identifier: MIT */
/* Sampling plans of the clips (asset/clip_plans.h). */
#include "asset/clip_plans.h"

#include <cglm/quat.h>
#include <stddef.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/time_groups.h"
#include "base/alloc.h"
#include "base/error.h"

static plan_kind kind_of(const vs_anim_channel *ch, const vs_anim_sampler *s)
{
    if (s->interpolation != VS_INTERP_LINEAR || ch->path == VS_PATH_WEIGHTS)
        return PLAN_GENERIC;
    return ch->path == VS_PATH_ROTATION ? PLAN_SLERP : PLAN_LERP;
}

/* Whether clip c can be planned: every channel names a node and sampler
 * that exist, LINEAR channels have the components their path needs (the
 * rest is vs_pose_sample's check_clip, which runs before any plan is used),
 * and no node and path is driven twice. seen holds 4 slots per node; a slot
 * equal to stamp was taken by this clip. */
static bool plannable(const vs_asset *asset, const vs_clip *clip,
                      uint32_t *seen, uint32_t stamp)
{
    for (uint32_t k = 0; k < clip->channel_count; ++k) {
        const vs_anim_channel *ch = &clip->channels[k];
        if (ch->node >= asset->node_count ||
            ch->sampler >= clip->sampler_count ||
            (unsigned)ch->path > VS_PATH_WEIGHTS)
            return false;
        const vs_anim_sampler *s = &clip->samplers[ch->sampler];
        if (s->key_count == 0) continue; /* sampling leaves it alone */
        const plan_kind kind = kind_of(ch, s);
        if (kind != PLAN_GENERIC &&
            s->components != (kind == PLAN_SLERP ? 4u : 3u))
            return false;
        uint32_t *slot = &seen[4 * (size_t)ch->node + (unsigned)ch->path];
        if (*slot == stamp) return false;
        *slot = stamp;
    }
    return true;
}

static uint32_t trs_field(vs_anim_path path)
{
    return path == VS_PATH_TRANSLATION ? offsetof(vs_trs, translation)
           : path == VS_PATH_ROTATION  ? offsetof(vs_trs, rotation)
                                       : offsetof(vs_trs, scale);
}

/* Sorts ops[0..count) (one kind, starting at plan index base) by time
 * group, groups in order of their first op and each group's ops in op
 * order, and describes the groups in *out (without their copies). Every
 * function here sets *refused when the allocator (not the limit) fails. */
/* The flag of a per_group entry that holds a run's next place rather than
 * a count (both stay below 2^31: ops are channels of one clip). */
#define PLACED 0x80000000u

static bool group_ops(vs_asset *asset, const time_groups *tg, plan_op *ops,
                      uint32_t count, uint32_t base, plan_group **out,
                      uint32_t *out_count, bool *refused)
{
    const vs_allocator *alloc = asset_load_allocator(asset);
    uint32_t *per_group = asset_temp_calloc_optional(
        asset, tg->group_count ? tg->group_count : 1, sizeof *per_group,
        refused);
    plan_op *sorted = asset_temp_calloc_optional(asset, count ? count : 1,
                                                 sizeof *sorted, refused);
    bool ok = per_group && sorted;
    uint32_t groups = 0;
    for (uint32_t i = 0; ok && i < count; ++i)
        groups += per_group[ops[i].group]++ == 0;
    plan_group *g = ok ? asset_calloc_optional(asset, groups ? groups : 1,
                                               sizeof *g, refused)
                       : NULL;
    if (g) {
        /* A counting sort: each group gets its run at the first op that
         * uses it (per_group then holds the run's next free place), and
         * every op goes to its group's run, in op order. */
        uint32_t placed = 0, made = 0;
        for (uint32_t i = 0; i < count; ++i) {
            const uint32_t tgi = ops[i].group;
            if (per_group[tgi] & PLACED) continue; /* run already given */
            g[made++] = (plan_group){tgi,  base + placed, per_group[tgi],
                                     NULL, NULL,          NULL,
                                     NULL};
            const uint32_t size = per_group[tgi];
            per_group[tgi] = PLACED | placed;
            placed += size;
        }
        for (uint32_t i = 0; i < count; ++i)
            sorted[per_group[ops[i].group]++ & ~PLACED] = ops[i];
        for (uint32_t i = 0; i < count; ++i)
            ops[i] = sorted[i];
        *out = g;
        *out_count = groups;
    }
    mem_free(alloc, per_group);
    mem_free(alloc, sorted);
    return g != NULL;
}

/* The keys of a group of lerps side by side (plan_group.keys). */
static bool copy_lerp_keys(vs_asset *asset, const plan_op *ops, plan_group *g,
                           bool *refused)
{
    const uint32_t keys = ops[g->first].sampler->key_count;
    float *v = asset_calloc_optional(asset, 3 * (size_t)keys * g->count + 1,
                                     sizeof *v, refused);
    if (!v) return false;
    for (uint32_t k = 0; k < keys; ++k)
        for (uint32_t i = 0; i < g->count; ++i)
            for (uint32_t e = 0; e < 3; ++e)
                v[3 * ((size_t)k * g->count + i) + e] =
                    ops[g->first + i].sampler->values[3 * (size_t)k + e];
    g->keys = v;
    return true;
}

/* Each key of a group of slerps as sampling gives it on that key
 * (plan_group.at_key): anim_sample_key copies the key and normalises it
 * with cglm's glm_quat_normalize (which writes the identity for a
 * zero-length key), so the same call here gives the same floats. */
static bool slerp_keys_at_key(vs_asset *asset, const plan_op *ops,
                              plan_group *g, bool *refused)
{
    const uint32_t keys = ops[g->first].sampler->key_count;
    float *v = asset_calloc_optional(asset, 4 * (size_t)keys * g->count,
                                     sizeof *v, refused);
    if (!v) return false;
    for (uint32_t k = 0; k < keys; ++k)
        for (uint32_t i = 0; i < g->count; ++i) {
            versor q;
            memcpy(q, ops[g->first + i].sampler->values + 4 * (size_t)k,
                   sizeof q);
            glm_quat_normalize(q);
            memcpy(v + 4 * ((size_t)k * g->count + i), q, sizeof q);
        }
    g->at_key = v;
    return true;
}

/* The prepared key pairs of a group of slerps in blocks
 * (plan_group.blocks), and their nodes (.nodes). */
static bool prepare_slerp_blocks(vs_asset *asset, const plan_op *ops,
                                 plan_group *g, bool *refused)
{
    const uint32_t keys = ops[g->first].sampler->key_count;
    const uint32_t per_key = rotation_blocks(g->count);
    uint32_t *nodes =
        asset_calloc_optional(asset, g->count, sizeof *nodes, refused);
    /* The asset's allocations are 16-byte aligned; the blocks' rows are
     * read 32 bytes at a time, so the blocks start at the first multiple
     * of 32 inside one block more than they need. */
    unsigned char *bytes =
        keys < 2 || !nodes
            ? NULL
            : asset_calloc_optional(asset, (size_t)(keys - 1) * per_key + 1,
                                    sizeof(rotation_block), refused);
    if (!nodes || (keys >= 2 && !bytes)) return false;
    rotation_block *blocks =
        bytes ? (rotation_block *)(bytes + (-(uintptr_t)bytes &
                                            (_Alignof(rotation_block) - 1)))
              : NULL;
    for (uint32_t i = 0; i < g->count; ++i)
        nodes[i] = ops[g->first + i].node;
    for (uint32_t k = 0; k + 1 < keys; ++k)
        for (uint32_t i = 0; i < per_key * ROTATION_LANES; ++i) {
            rotation_pair pair;
            if (i < g->count) {
                const float *v = ops[g->first + i].sampler->values;
                rotation_pair_prepare(v + 4 * (size_t)k,
                                      v + 4 * (size_t)(k + 1), &pair);
            }
            rotation_block_set(
                &blocks[(size_t)k * per_key + i / ROTATION_LANES],
                i % ROTATION_LANES, i < g->count ? &pair : NULL);
        }
    g->blocks = blocks;
    g->nodes = nodes;
    return true;
}

static bool plan_clip(vs_asset *asset, const vs_clip *clip,
                      const time_groups *tg, clip_plan *out, bool *refused)
{
    uint32_t count[3] = {0, 0, 0};
    for (uint32_t k = 0; k < clip->channel_count; ++k) {
        const vs_anim_channel *ch = &clip->channels[k];
        const vs_anim_sampler *s = &clip->samplers[ch->sampler];
        if (s->key_count) ++count[kind_of(ch, s)];
    }
    const uint32_t total = count[0] + count[1] + count[2];
    plan_op *ops =
        asset_calloc_optional(asset, total ? total : 1, sizeof *ops, refused);
    if (!ops) return false;
    uint32_t next[3] = {0, count[0], count[0] + count[1]};
    for (uint32_t k = 0; k < clip->channel_count; ++k) {
        const vs_anim_channel *ch = &clip->channels[k];
        const vs_anim_sampler *s = &clip->samplers[ch->sampler];
        if (!s->key_count) continue;
        ops[next[kind_of(ch, s)]++] =
            (plan_op){s, tg->group_of[ch->sampler], ch->node, ch->path,
                      trs_field(ch->path)};
    }
    plan_group *lerps = NULL, *slerps = NULL;
    uint32_t lerp_groups = 0, slerp_groups = 0;
    if (!group_ops(asset, tg, ops, count[0], 0, &lerps, &lerp_groups,
                   refused) ||
        !group_ops(asset, tg, ops + count[0], count[1], count[0], &slerps,
                   &slerp_groups, refused))
        return false;
    for (uint32_t i = 0; i < lerp_groups; ++i)
        if (!copy_lerp_keys(asset, ops, &lerps[i], refused)) return false;
    for (uint32_t i = 0; i < slerp_groups; ++i)
        if (!prepare_slerp_blocks(asset, ops, &slerps[i], refused) ||
            !slerp_keys_at_key(asset, ops, &slerps[i], refused))
            return false;
    bool clears_matrix = false;
    for (uint32_t i = 0; i < count[0] + count[1]; ++i)
        clears_matrix |= asset->nodes[ops[i].node].has_matrix;
    *out = (clip_plan){clip->channels,
                       clip->samplers,
                       clip->channel_count,
                       clip->sampler_count,
                       ops,
                       count[0],
                       count[1],
                       count[2],
                       lerps,
                       slerps,
                       lerp_groups,
                       slerp_groups,
                       clears_matrix};
    return true;
}

vs_result clip_plans_build(vs_asset *asset, vs_error *error)
{
    asset_internal *in = asset->internal_;
    if (asset->clip_count == 0) return VS_OK;
    bool refused = false;
    clip_plan *plans = asset_calloc_optional(asset, asset->clip_count,
                                             sizeof *plans, &refused);
    uint32_t *seen = asset_temp_calloc_optional(
        asset, 4 * (size_t)(asset->node_count ? asset->node_count : 1),
        sizeof *seen, &refused);
    if (plans && seen) {
        for (uint32_t c = 0; !refused && c < asset->clip_count; ++c) {
            const vs_clip *clip = &asset->clips[c];
            const time_groups *tg = time_groups_for(asset, c);
            /* A plan that failed half-way stays zeroed: no plan. */
            if (tg && plannable(asset, clip, seen, c + 1) &&
                !plan_clip(asset, clip, tg, &plans[c], &refused))
                plans[c] = (clip_plan){0};
        }
        in->clip_plans = plans;
        in->clip_plan_count = asset->clip_count;
    }
    mem_free(asset_load_allocator(asset), seen);
    if (refused)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: animation plans: out of memory",
                         asset->source_name);
    return VS_OK;
}

const clip_plan *clip_plan_for(const vs_asset *asset, uint32_t c)
{
    const asset_internal *in = asset->internal_;
    if (!in || !in->clip_plans || c >= in->clip_plan_count ||
        c >= asset->clip_count)
        return NULL;
    const clip_plan *p = &in->clip_plans[c];
    const vs_clip *clip = &asset->clips[c];
    if (!p->ops || p->channels != clip->channels ||
        p->samplers != clip->samplers ||
        p->channel_count != clip->channel_count ||
        p->sampler_count != clip->sampler_count)
        return NULL;
    return p;
}
