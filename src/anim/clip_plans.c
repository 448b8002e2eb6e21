/* Sampling plans of the clips (anim/clip_plans.h). */
#include "anim/clip_plans.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/asset_internal.h"
#include "core/time_groups.h"

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

/* The lerp ops of each time group next to each other, with their keys
 * copied side by side (plan_lerps). */
static bool plan_lerp_groups(vs_asset *asset, const time_groups *tg,
                             plan_op *ops, uint32_t count, clip_plan *out)
{
    uint32_t *per_group =
        calloc(tg->group_count ? tg->group_count : 1, sizeof *per_group);
    plan_op *sorted = malloc((count ? count : 1) * sizeof *sorted);
    bool ok = per_group && sorted;
    uint32_t groups = 0;
    for (uint32_t i = 0; ok && i < count; ++i)
        groups += per_group[ops[i].group]++ == 0;
    plan_lerps *lerps = ok ? asset_calloc(asset, groups ? groups : 1,
                                          sizeof *lerps, NULL, "plans")
                           : NULL;
    ok = ok && lerps;
    /* Groups in order of their first lerp; each group's ops in op order. */
    uint32_t placed = 0, made = 0;
    for (uint32_t i = 0; ok && i < count; ++i) {
        const uint32_t g = ops[i].group;
        if (per_group[g] == 0) continue; /* group already placed */
        plan_lerps *l = &lerps[made++];
        l->group = g;
        l->first = placed;
        l->count = per_group[g];
        l->stride = 3 * l->count;
        per_group[g] = 0;
        for (uint32_t j = i; j < count; ++j)
            if (ops[j].group == g) sorted[placed++] = ops[j];
        const uint32_t keys = sorted[l->first].sampler->key_count;
        float *v = asset_calloc(asset, (size_t)keys * l->stride + 1, sizeof *v,
                                NULL, "plans");
        if (!v) {
            ok = false;
            break;
        }
        for (uint32_t k = 0; k < keys; ++k)
            for (uint32_t c = 0; c < l->count; ++c)
                for (uint32_t e = 0; e < 3; ++e)
                    v[(size_t)k * l->stride + 3 * c + e] =
                        sorted[l->first + c].sampler->values[3 * (size_t)k + e];
        l->values = v;
    }
    if (ok) {
        for (uint32_t i = 0; i < count; ++i)
            ops[i] = sorted[i];
        out->lerp_groups = lerps;
        out->lerp_group_count = groups;
    }
    free(per_group);
    free(sorted);
    return ok;
}

static bool plan_clip(vs_asset *asset, const vs_clip *clip,
                      const time_groups *tg, clip_plan *out)
{
    uint32_t count[3] = {0, 0, 0};
    for (uint32_t k = 0; k < clip->channel_count; ++k) {
        const vs_anim_channel *ch = &clip->channels[k];
        const vs_anim_sampler *s = &clip->samplers[ch->sampler];
        if (s->key_count) ++count[kind_of(ch, s)];
    }
    const uint32_t total = count[0] + count[1] + count[2];
    plan_op *ops =
        asset_calloc(asset, total ? total : 1, sizeof *ops, NULL, "plans");
    if (!ops) return false;
    uint32_t next[3] = {0, count[0], count[0] + count[1]};
    for (uint32_t k = 0; k < clip->channel_count; ++k) {
        const vs_anim_channel *ch = &clip->channels[k];
        const vs_anim_sampler *s = &clip->samplers[ch->sampler];
        if (!s->key_count) continue;
        const plan_kind kind = kind_of(ch, s);
        plan_op *op = &ops[next[kind]++];
        *op = (plan_op){s,        NULL,     tg->group_of[ch->sampler],
                        ch->node, ch->path, trs_field(ch->path)};
        if (kind != PLAN_SLERP || s->key_count < 2) continue;
        rotation_pair *pairs =
            asset_calloc(asset, s->key_count - 1, sizeof *pairs, NULL, "plans");
        if (!pairs) return false;
        for (uint32_t i = 0; i + 1 < s->key_count; ++i)
            rotation_pair_prepare(s->values + 4 * (size_t)i,
                                  s->values + 4 * (size_t)(i + 1), &pairs[i]);
        op->pairs = pairs;
    }
    *out = (clip_plan){clip->channels,
                       clip->samplers,
                       clip->channel_count,
                       clip->sampler_count,
                       ops,
                       count[0],
                       count[1],
                       count[2],
                       NULL,
                       0};
    return plan_lerp_groups(asset, tg, ops, count[0], out);
}

void clip_plans_build(vs_asset *asset)
{
    asset_internal *in = asset->internal_;
    if (asset->clip_count == 0) return;
    clip_plan *plans =
        asset_calloc(asset, asset->clip_count, sizeof *plans, NULL, "plans");
    uint32_t *seen = calloc(
        4 * (size_t)(asset->node_count ? asset->node_count : 1), sizeof *seen);
    if (plans && seen) {
        for (uint32_t c = 0; c < asset->clip_count; ++c) {
            const vs_clip *clip = &asset->clips[c];
            const time_groups *tg = time_groups_for(asset, c);
            /* A plan that failed half-way stays zeroed: no plan. */
            if (tg && plannable(asset, clip, seen, c + 1) &&
                !plan_clip(asset, clip, tg, &plans[c]))
                plans[c] = (clip_plan){0};
        }
        in->clip_plans = plans;
        in->clip_plan_count = asset->clip_count;
    }
    free(seen);
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
