/* Per clip, what vs_pose_sample does for each channel, worked out once when
 * the asset loads instead of on every sample: the channel's time group
 * (core/time_groups.h), whether it is a LINEAR translation or scale (a lerp
 * of three floats), a LINEAR rotation (the slerp batch, with its key pairs
 * prepared: anim/rotation_batch.h) or anything else (anim_sample_key). The
 * plan orders the channels by kind, which is only the same as channel
 * order when no two channels drive the same node and path: a clip that does
 * (legal only in a broken file) gets no plan and is sampled channel by
 * channel, so the later channel still wins. */
#ifndef VS_ANIM_CLIP_PLANS_H
#define VS_ANIM_CLIP_PLANS_H

#include <stdint.h>

#include "anim/rotation_batch.h"
#include "vskin/vskin.h"

typedef enum plan_kind {
    PLAN_LERP,    /* LINEAR translation or scale */
    PLAN_SLERP,   /* LINEAR rotation */
    PLAN_GENERIC, /* STEP, CUBICSPLINE, morph weights */
} plan_kind;

typedef struct plan_op {
    const vs_anim_sampler *sampler;
    /* PLAN_SLERP: key_count - 1 prepared pairs (pair k: keys k, k + 1). */
    const rotation_pair *pairs;
    uint32_t group; /* the sampler's time group */
    uint32_t node;
    vs_anim_path path;
    /* Where a TRS channel writes: offsetof its field in vs_trs. */
    uint32_t field;
} plan_op;

/* The LINEAR translations and scales of one time group, with their keys
 * side by side: ops[first + i]'s key k at values[k * stride + 3 * i],
 * stride = 3 * count, so that one key search gives every lerp of the group
 * its two keys a stride apart. One float of padding at the end lets each
 * lerp load its three floats as four. */
typedef struct plan_lerps {
    uint32_t group;
    uint32_t first, count;
    uint32_t stride;
    const float *values; /* key_count * stride + 1 floats */
} plan_lerps;

typedef struct clip_plan {
    /* The clip these were built for (as time_groups keeps them). */
    const vs_anim_channel *channels;
    const vs_anim_sampler *samplers;
    uint32_t channel_count, sampler_count;
    /* Channels with keys only: lerps (by time group), then slerps, then
     * generic ones. */
    const plan_op *ops;
    uint32_t lerp_count, slerp_count, generic_count;
    /* The lerps per time group that has any, in op order. */
    const plan_lerps *lerp_groups;
    uint32_t lerp_group_count;
} clip_plan;

/* Plans every clip that can have one. Called by asset_finalize after the
 * time groups; a plan is an optimisation, so a clip whose plan would not
 * fit the memory limit is simply left without one. */
void clip_plans_build(vs_asset *asset);

/* The plan of clip c, or NULL (none, or the clip no longer is the one it
 * was built for). */
const clip_plan *clip_plan_for(const vs_asset *asset, uint32_t c);

#endif
