/* SPDX-License-Identifier: MIT */
/* vs_pose: the per-instance, mutable side of an asset. Everything is
 * allocated in vs_pose_create so that sampling and world updates, which run
 * every frame, never allocate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/anim_names.h"
#include "asset/asset_internal.h"
#include "asset/clip_plans.h"
#include "asset/time_groups.h"
#include "base/affine.h"
#include "base/alloc.h"
#include "base/cpu_avx2.h"
#include "base/cpu_avx512.h"
#include "base/error.h"
#include "base/xform.h"
#include "pose/local_batch.h"
#include "pose/pose_internal.h"
#include "pose/rotation_batch.h"
#include "pose/sample.h"
#include "pose/world_pass.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

struct vs_pose {
    const vs_asset *asset;
    vs_allocator alloc; /* the asset's, which made every array here */
    vs_trs *local; /* per node */
    /* Per node: the rest matrix is authoritative. A glTF node.matrix may hold
     * shear that TRS cannot express, so it is used as is until a channel (or
     * vs_pose_set_local) writes the node's TRS. */
    bool *use_matrix;
    float *world;            /* 16 per node */
    float *local_batch;      /* TRS local matrices (pose/local_batch.h) */
    float *weights;          /* morph weights of all nodes, back to back */
    uint32_t *weight_offset; /* per node, into weights */
    uint32_t *weight_count;  /* per node: its mesh's morph target count */
    /* Sampling cursors: one key index per sampler of every clip (clip c's
     * samplers start at cursor_base[c]), so playback forward only touches
     * new keys. Any value is safe: a wrong cursor just costs a search. */
    uint32_t *cursor;
    uint32_t *cursor_base;
    bool *clip_checked; /* per clip: check_clip passed once for this pose */
    /* Per time group of the clip being sampled (asset/time_groups.h): its
     * key, and the LINEAR fraction where there is one (has_u). Sized for
     * the most samplers of any clip. */
    uint32_t *group_key;
    float *group_u;
    bool *group_has_u;
};

/* glTF 2.0 §3.7.2.2: every primitive of a mesh has the same number of
 * targets; the largest count keeps a file that breaks this from reading out
 * of bounds. */
vs_result vs_pose_create(const vs_asset *asset, vs_pose **out_pose,
                         vs_error *error)
{
    if (out_pose) *out_pose = NULL;
    if (!asset || !out_pose)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_pose_create: asset and out_pose must not be NULL");
    uint32_t n = asset->node_count;
    const vs_allocator *alloc = asset_allocator(asset);
    vs_pose *pose = mem_calloc(alloc, 1, sizeof *pose);
    if (!pose) goto oom;
    pose->asset = asset;
    pose->alloc = *alloc;
    size_t slots = n ? n : 1;
    pose->local = mem_calloc(alloc, slots, sizeof *pose->local);
    pose->use_matrix = mem_calloc(alloc, slots, sizeof *pose->use_matrix);
    pose->world = mem_calloc(alloc, slots, 16 * sizeof *pose->world);
    pose->local_batch = mem_calloc(alloc, local_batch_floats(n ? n : 1),
                                   sizeof *pose->local_batch);
    pose->weight_offset = mem_calloc(alloc, slots, sizeof *pose->weight_offset);
    pose->weight_count = mem_calloc(alloc, slots, sizeof *pose->weight_count);
    if (!pose->local || !pose->use_matrix || !pose->world ||
        !pose->local_batch || !pose->weight_offset || !pose->weight_count)
        goto oom;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t c = node_target_count(asset, &asset->nodes[i]);
        if (total + c > UINT32_MAX) {
            vs_pose_free(pose);
            return set_error(error, VS_ERROR_LIMIT,
                             "%s: nodes[%u]: more than %u morph weights in "
                             "all",
                             asset->source_name, i, (unsigned)UINT32_MAX);
        }
        pose->weight_offset[i] = (uint32_t)total;
        pose->weight_count[i] = c;
        total += c;
    }
    pose->weights =
        mem_calloc(alloc, total ? (size_t)total : 1, sizeof *pose->weights);
    if (!pose->weights) goto oom;
    size_t clips = asset->clip_count ? asset->clip_count : 1;
    pose->cursor_base = mem_calloc(alloc, clips, sizeof *pose->cursor_base);
    pose->clip_checked = mem_calloc(alloc, clips, sizeof *pose->clip_checked);
    if (!pose->cursor_base || !pose->clip_checked) goto oom;
    uint64_t samplers = 0;
    for (uint32_t c = 0; c < asset->clip_count; ++c) {
        if (samplers + asset->clips[c].sampler_count > UINT32_MAX) {
            vs_pose_free(pose);
            return set_error(error, VS_ERROR_LIMIT,
                             "%s: animations[%u]: more than %u samplers in "
                             "all",
                             asset->source_name, c, (unsigned)UINT32_MAX);
        }
        pose->cursor_base[c] = (uint32_t)samplers;
        samplers += asset->clips[c].sampler_count;
    }
    pose->cursor = mem_calloc(alloc, samplers ? (size_t)samplers : 1,
                              sizeof *pose->cursor);
    uint32_t most = 1;
    for (uint32_t c = 0; c < asset->clip_count; ++c)
        if (asset->clips[c].sampler_count > most)
            most = asset->clips[c].sampler_count;
    pose->group_key = mem_calloc(alloc, most, sizeof *pose->group_key);
    pose->group_u = mem_calloc(alloc, most, sizeof *pose->group_u);
    pose->group_has_u = mem_calloc(alloc, most, sizeof *pose->group_has_u);
    if (!pose->cursor || !pose->group_key || !pose->group_u ||
        !pose->group_has_u)
        goto oom;
    vs_pose_reset(pose);
    vs_pose_update_world(pose);
    *out_pose = pose;
    return VS_OK;
oom:
    vs_pose_free(pose);
    return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                     "%s: pose: out of memory for %u nodes", asset->source_name,
                     n);
}

void vs_pose_free(vs_pose *pose)
{
    if (!pose) return;
    const vs_allocator alloc = pose->alloc;
    mem_free(&alloc, pose->local);
    mem_free(&alloc, pose->use_matrix);
    mem_free(&alloc, pose->world);
    mem_free(&alloc, pose->local_batch);
    mem_free(&alloc, pose->weights);
    mem_free(&alloc, pose->weight_offset);
    mem_free(&alloc, pose->weight_count);
    mem_free(&alloc, pose->cursor);
    mem_free(&alloc, pose->group_key);
    mem_free(&alloc, pose->group_u);
    mem_free(&alloc, pose->group_has_u);
    mem_free(&alloc, pose->cursor_base);
    mem_free(&alloc, pose->clip_checked);
    mem_free(&alloc, pose);
}

const vs_asset *vs_pose_asset(const vs_pose *pose)
{
    return pose ? pose->asset : NULL;
}

/* glTF 2.0 §3.7.2.2: default weights are node.weights, else mesh.weights,
 * else zero. */
static void reset_weights(vs_pose *pose, uint32_t i)
{
    const vs_node *node = &pose->asset->nodes[i];
    uint32_t count = pose->weight_count[i];
    float *w = pose->weights + pose->weight_offset[i];
    memset(w, 0, count * sizeof *w);
    const float *src = NULL;
    uint32_t src_count = 0;
    if (node->weight_count && node->weights) {
        src = node->weights;
        src_count = node->weight_count;
    } else if (node->mesh >= 0) {
        const vs_mesh *mesh = &pose->asset->meshes[node->mesh];
        src = mesh->weights;
        src_count = mesh->weights ? mesh->weight_count : 0;
    }
    if (src_count > count) src_count = count;
    if (src_count) memcpy(w, src, src_count * sizeof *w);
}

void vs_pose_reset(vs_pose *pose)
{
    if (!pose) return;
    for (uint32_t i = 0; i < pose->asset->node_count; ++i) {
        const vs_node *node = &pose->asset->nodes[i];
        pose->local[i] = node->rest_trs;
        pose->use_matrix[i] = node->has_matrix;
        reset_weights(pose, i);
    }
}

static void local_matrix(const vs_pose *pose, uint32_t i, float out[16])
{
    if (pose->use_matrix[i])
        xform_copy(pose->asset->nodes[i].matrix, out);
    else
        xform_from_trs(&pose->local[i], out);
}

void vs_pose_update_world(vs_pose *pose)
{
    if (!pose) return;
    const vs_asset *asset = pose->asset;
    /* Every TRS local matrix first, four or eight nodes at a time (nodes
     * that use their rest matrix are converted too, and ignored). */
    if (cpu_avx2())
        local_batch_run_avx(pose->local, asset->node_count, pose->local_batch);
    else
        local_batch_run(pose->local, asset->node_count, pose->local_batch);
    world_pass_args args = {pose->world,      pose->local_batch,
                            pose->use_matrix, asset->nodes,
                            asset->node_order, asset->node_count};
    if (cpu_avx512_preferred())
        world_pass_avx512(&args);
    else if (cpu_avx2())
        world_pass_avx(&args);
    else
        world_pass_baseline(&args);
}

void vs_pose_set_local(vs_pose *pose, uint32_t node, const vs_trs *trs)
{
    if (!pose || !trs || node >= pose->asset->node_count) return;
    pose->local[node] = *trs;
    pose->use_matrix[node] = false;
}

void vs_pose_get_local(const vs_pose *pose, uint32_t node, float out[16])
{
    if (!out) return;
    if (!pose || node >= pose->asset->node_count) {
        xform_identity(out);
        return;
    }
    local_matrix(pose, node, out);
}

const float *vs_pose_world(const vs_pose *pose, uint32_t node)
{
    if (!pose || node >= pose->asset->node_count) return NULL;
    return pose->world + 16 * (size_t)node;
}

const float *pose_worlds(const vs_pose *pose)
{
    return pose->world;
}

const float *vs_pose_morph_weights(const vs_pose *pose, uint32_t node,
                                   uint32_t *count)
{
    uint32_t c = 0;
    const float *w = NULL;
    if (pose && node < pose->asset->node_count && pose->weight_count[node]) {
        c = pose->weight_count[node];
        w = pose->weights + pose->weight_offset[node];
    }
    if (count) *count = c;
    return w;
}

/* ----------------------------------------------------------------- sampling */

/* Checked before anything is written, so a bad clip leaves the pose as it
 * was. Loaders validate too; this keeps a hand-built asset from reading or
 * writing out of bounds. */
static vs_result check_clip(const vs_pose *pose, uint32_t c, vs_error *error)
{
    const vs_asset *asset = pose->asset;
    const vs_clip *clip = &asset->clips[c];
    for (uint32_t k = 0; k < clip->channel_count; ++k) {
        const vs_anim_channel *ch = &clip->channels[k];
        if (ch->node >= asset->node_count || ch->sampler >= clip->sampler_count)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: animations[%u].channels[%u]: node %u or "
                             "sampler %u does not exist",
                             asset->source_name, c, k, ch->node, ch->sampler);
        if ((unsigned)ch->path > VS_PATH_WEIGHTS)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: animations[%u].channels[%u].target.path: "
                             "unknown path %u",
                             asset->source_name, c, k, (unsigned)ch->path);
        const vs_anim_sampler *s = &clip->samplers[ch->sampler];
        uint32_t want = ch->path == VS_PATH_ROTATION ? 4
                        : ch->path == VS_PATH_WEIGHTS
                            ? pose->weight_count[ch->node]
                            : 3;
        if (s->key_count && s->components != want)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: animations[%u].channels[%u]: sampler %u has "
                             "%u components per key but nodes[%u].%s needs %u",
                             asset->source_name, c, k, ch->sampler,
                             s->components, ch->node, anim_path_name(ch->path),
                             want);
    }
    return VS_OK;
}

/* Where a channel of the node's path writes: its local TRS field or its
 * morph weights. Writing the TRS hands the node over to it: the rest matrix
 * (and its shear) no longer applies (glTF 2.0 §3.7.2.1: animated nodes use
 * TRS). */
static float *channel_target(vs_pose *pose, uint32_t node, vs_anim_path path)
{
    if (path == VS_PATH_WEIGHTS)
        return pose->weights + pose->weight_offset[node];
    vs_trs *trs = &pose->local[node];
    pose->use_matrix[node] = false;
    return path == VS_PATH_TRANSLATION ? trs->translation
           : path == VS_PATH_ROTATION  ? trs->rotation
                                       : trs->scale;
}

/* Samplers sharing their key times: one key search and one fraction per
 * group (the same key and u each of them would find), through the group's
 * first sampler's cursor. */
static void sample_groups(vs_pose *pose, const vs_clip *clip,
                          const time_groups *tg, uint32_t *cursor, float t)
{
    for (uint32_t g = 0; g < tg->group_count; ++g) {
        const uint32_t f = tg->first[g];
        const vs_anim_sampler *s = &clip->samplers[f];
        if (s->key_count == 0) continue;
        const uint32_t key = sampler_find_key_cursor(s, t, cursor + f);
        float td;
        pose->group_key[g] = key;
        pose->group_has_u[g] =
            anim_key_fraction(s, key, t, &td, &pose->group_u[g]);
    }
}

/* out = a + (b - a) u for three floats: anim_sample_key's arithmetic, one
 * SSE lane per float (a and b may be read a float past their three). */
static inline void lerp3(const float *a, const float *b, float u, float *out)
{
#if defined(__SSE2__)
    const __m128 va = _mm_loadu_ps(a), vb = _mm_loadu_ps(b);
    const __m128 r =
        _mm_add_ps(va, _mm_mul_ps(_mm_sub_ps(vb, va), _mm_set1_ps(u)));
    _mm_storel_pi((__m64 *)out, r);
    _mm_store_ss(out + 2, _mm_movehl_ps(r, r));
#else
    out[0] = a[0] + (b[0] - a[0]) * u;
    out[1] = a[1] + (b[1] - a[1]) * u;
    out[2] = a[2] + (b[2] - a[2]) * u;
#endif
}

/* channel_target's flag for the count ops of a plan group: only a node
 * with a rest matrix can need it, and mostly none is animated, so the plan
 * says once whether any store is needed instead of storing per sample. */
static void clear_use_matrix(vs_pose *pose, const clip_plan *plan,
                             const plan_op *op, uint32_t count)
{
    if (!plan->clears_matrix) return;
    for (uint32_t i = 0; i < count; ++i)
        pose->use_matrix[op[i].node] = false;
}

/* Where a planned TRS op writes, in the pose's TRS array passed as a
 * local: the stores could alias pose->local for all the compiler knows,
 * which made it load it again for every op. */
static inline float *op_target(char *local, const plan_op *op)
{
    return (float *)(local + (size_t)op->node * sizeof(vs_trs) + op->field);
}

/* A group of the plan whose sample is a key's own value (no fraction: on
 * a key, before the first, after the last, times not increasing): each of
 * its channels gets what anim_sample_key gives there, copied from the
 * plan (the lerps' keys, the slerps' normalised keys), each copy of a
 * constant size. False, doing nothing, when the group has a fraction. */
static bool sample_group_at_key(vs_pose *pose, const clip_plan *plan,
                                const plan_group *g, bool rotation)
{
    if (pose->group_has_u[g->group]) return false;
    const plan_op *op = plan->ops + g->first;
    const uint32_t count = g->count;
    const size_t at = (size_t)pose->group_key[g->group] * count;
    clear_use_matrix(pose, plan, op, count);
    char *const local = (char *)pose->local;
    if (rotation) {
        const float *v = g->at_key + 4 * at;
        for (uint32_t i = 0; i < count; ++i, ++op, v += 4)
            memcpy(op_target(local, op), v, 4 * sizeof *v);
    } else {
        const float *v = g->keys + 3 * at;
        for (uint32_t i = 0; i < count; ++i, ++op, v += 3)
            memcpy(op_target(local, op), v, 3 * sizeof *v);
    }
    return true;
}

/* The clip's plan (asset/clip_plans.h) after sample_groups: LINEAR
 * rotations through the slerp batch, one call per time group, LINEAR
 * translations and scales inline (anim_sample_key's arithmetic, so bit for
 * bit the same), the rest and every sample that is a key's own value through
 * anim_sample_key. The slerps go first: their blocks wait on the
 * polynomial's chain, and the lerps, independent of them, fill that wait
 * (they write other fields, and a planned clip drives no node's path
 * twice, so the order of the two changes no result). */
static void sample_planned(vs_pose *pose, const clip_plan *plan, float t)
{
    for (uint32_t l = 0; l < plan->slerp_group_count; ++l) {
        const plan_group *sg = &plan->slerps[l];
        if (sample_group_at_key(pose, plan, sg, true)) continue;
        const uint32_t key = pose->group_key[sg->group];
        clear_use_matrix(pose, plan, plan->ops + sg->first, sg->count);
        rotation_batch_group(
            sg->blocks + (size_t)key * rotation_blocks(sg->count), sg->count,
            pose->group_u[sg->group], pose->local, sg->nodes);
    }
    for (uint32_t l = 0; l < plan->lerp_group_count; ++l) {
        const plan_group *lg = &plan->lerps[l];
        if (sample_group_at_key(pose, plan, lg, false)) continue;
        const plan_op *op = plan->ops + lg->first;
        const uint32_t key = pose->group_key[lg->group];
        /* Keys k and k + 1 of every lerp of the group, side by side. */
        const float *a = lg->keys + 3 * (size_t)key * lg->count;
        const float *b = a + 3 * lg->count;
        const float u = pose->group_u[lg->group];
        clear_use_matrix(pose, plan, op, lg->count);
        /* The count in a local too, for the same reason as op_target's. */
        char *const local = (char *)pose->local;
        const uint32_t count = lg->count;
        for (uint32_t i = 0; i < count; ++i, ++op, a += 3, b += 3)
            lerp3(a, b, u, op_target(local, op));
    }
    const plan_op *op = plan->ops + plan->lerp_count + plan->slerp_count;
    for (const plan_op *end = op + plan->generic_count; op < end; ++op)
        anim_sample_key(op->sampler, pose->group_key[op->group], t,
                        op->path == VS_PATH_ROTATION,
                        channel_target(pose, op->node, op->path));
}

/* A clip without a plan, channel by channel in order, so that of two
 * channels driving the same node and path the later one wins. */
static void sample_in_order(vs_pose *pose, const vs_clip *clip,
                            const time_groups *tg, uint32_t *cursor, float t)
{
    if (tg) sample_groups(pose, clip, tg, cursor, t);
    for (uint32_t k = 0; k < clip->channel_count; ++k) {
        const vs_anim_channel *ch = &clip->channels[k];
        const vs_anim_sampler *s = &clip->samplers[ch->sampler];
        if (s->key_count == 0) continue; /* nothing to say: keep the value */
        const uint32_t key =
            tg ? pose->group_key[tg->group_of[ch->sampler]]
               : sampler_find_key_cursor(s, t, cursor + ch->sampler);
        anim_sample_key(s, key, t, ch->path == VS_PATH_ROTATION,
                        channel_target(pose, ch->node, ch->path));
    }
}

vs_result vs_pose_sample(vs_pose *pose, uint32_t clip_index, float time,
                         vs_time_mode mode, vs_error *error)
{
    if (!pose)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_pose_sample: pose must not be NULL");
    const vs_asset *asset = pose->asset;
    if (clip_index >= asset->clip_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: animations[%u]: clip does not exist (%u clips)",
                         asset->source_name, clip_index, asset->clip_count);
    if (!isfinite(time))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: animations[%u]: time %g is not finite",
                         asset->source_name, clip_index, (double)time);
    if (!pose->clip_checked[clip_index]) {
        vs_result r = check_clip(pose, clip_index, error);
        if (r != VS_OK) return r;
        pose->clip_checked[clip_index] = true; /* the asset is immutable */
    }
    const vs_clip *clip = &asset->clips[clip_index];
    uint32_t *cursor = pose->cursor + pose->cursor_base[clip_index];
    const float t = anim_clip_time(clip, time, mode);
    const time_groups *tg = time_groups_for(asset, clip_index);
    const clip_plan *plan = tg ? clip_plan_for(asset, clip_index) : NULL;
    if (plan) {
        sample_groups(pose, clip, tg, cursor, t);
        sample_planned(pose, plan, t);
    } else {
        sample_in_order(pose, clip, tg, cursor, t);
    }
    return VS_OK;
}
