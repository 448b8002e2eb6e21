/* SPDX-License-Identifier: MIT */
/* Per clip, what vs_pose_sample does for each channel, worked out once when
 * the asset loads instead of on every sample: the channel's time group
 * (asset/time_groups.h), whether it is a LINEAR translation or scale (a lerp
 * of three floats), a LINEAR rotation (the slerp batch, with its key pairs
 * prepared: pose/rotation_batch.h) or anything else (anim_sample_key), and
 * the keys of the lerps and slerps of each time group side by side. The
 * plan orders the channels by kind and time group, which comes to the same
 * as channel order only when no two channels drive the same node and path: a
 * clip that does (legal only in a broken file) gets no plan and is sampled
 * channel by channel, so the later channel still wins. */
#ifndef VS_ASSET_CLIP_PLANS_H
#define VS_ASSET_CLIP_PLANS_H

#include <stdint.h>

#include "asset/rotation_keys.h"
#include "vskin/vskin.h"

typedef enum plan_kind {
    PLAN_LERP,    /* LINEAR translation or scale */
    PLAN_SLERP,   /* LINEAR rotation */
    PLAN_GENERIC, /* STEP, CUBICSPLINE, morph weights */
} plan_kind;

typedef struct plan_op {
    const vs_anim_sampler *sampler;
    uint32_t group; /* the sampler's time group */
    uint32_t node;
    vs_anim_path path;
    /* Where a TRS channel writes: offsetof its field in vs_trs. */
    uint32_t field;
} plan_op;

/* The lerps or the slerps of one time group, next to each other in the
 * plan's ops, with what they read copied side by side, so that one key
 * search serves them all and their inputs for one key are contiguous. */
typedef struct plan_group {
    uint32_t group;        /* the time group */
    uint32_t first, count; /* ops[first .. first + count) */
    /* Lerps: key k of ops[first + i] at keys[3 * (k * count + i)], three
     * floats, and one float of padding at the end so that each lerp may
     * load its three floats as four. */
    const float *keys;
    /* Slerps: pair k (keys k and k + 1) of ops[first + i], prepared
     * (pose/rotation_batch.h), in lane i % ROTATION_LANES of
     * blocks[k * rotation_blocks(count) + i / ROTATION_LANES]; and the
     * node of ops[first + i] at nodes[i]. */
    const rotation_block *blocks;
    const uint32_t *nodes;
    /* Slerps: what sampling ops[first + i] gives at a time with no
     * fraction (on key k, before the first key or after the last: key k
     * itself, normalised as anim_sample_key normalises it) at
     * at_key[4 * (k * count + i)]. Sampling at the keys' own times is
     * common (a clip played at its key rate, or at a multiple of it), and
     * there a copy replaces a normalisation per channel. */
    const float *at_key;
} plan_group;

typedef struct clip_plan {
    /* The clip these were built for (as time_groups keeps them). */
    const vs_anim_channel *channels;
    const vs_anim_sampler *samplers;
    uint32_t channel_count, sampler_count;
    /* Channels with keys only: lerps, then slerps (each by time group),
     * then generic ones. */
    const plan_op *ops;
    uint32_t lerp_count, slerp_count, generic_count;
    const plan_group *lerps, *slerps; /* in op order */
    uint32_t lerp_group_count, slerp_group_count;
    /* Whether a lerp or slerp drives a node with a rest matrix
     * (vs_node.has_matrix), the only nodes whose use_matrix a sample must
     * clear: glTF animates TRS nodes only, so usually none. */
    bool clears_matrix;
} clip_plan;

/* Plans every clip that can have one. Called last by vs_priv_asset_finalize
 * (after the time groups and everything essential): a plan is an
 * optimisation, so a clip whose plan would not fit the memory limit is
 * simply left without one. An allocator that refuses is
 * VS_ERROR_OUT_OF_MEMORY, as everywhere else. */
vs_result clip_plans_build(vs_asset *asset, vs_error *error);

/* The plan of clip c, or NULL (none, or the clip no longer is the one it
 * was built for). */
const clip_plan *clip_plan_for(const vs_asset *asset, uint32_t c);

#endif
