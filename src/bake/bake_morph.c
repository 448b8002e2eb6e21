/* SPDX-License-Identifier: MIT */
/* A clip baked into morph targets (bake/bake.h): frame 0 is the base mesh,
 * frame f (f >= 1) is morph target f-1 holding posed(f) - posed(0) for
 * positions and normals, and one weights channel per node keys the one-hot
 * vector of each frame at its time (relative to the clip's start), so
 * sampling the baked clip at a frame time gives that frame's posed mesh;
 * LINEAR blends neighbouring frames, STEP holds each. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "bake/bake.h"
#include "bake/bake_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "write/posed_scene.h"

vs_result bake_frame_times(const vs_asset *asset, uint32_t clip, float fps,
                           float **out_times, uint32_t *out_count,
                           vs_error *error)
{
    if (clip >= asset->clip_count)
        return set_error(error, VS_ERROR_NOT_FOUND,
                         "%s: animations[%u]: no such clip (%u clips)",
                         asset->source_name, clip, asset->clip_count);
    if (!(fps > 0.0f) || !isfinite(fps))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: bake: fps must be a positive number, not %g",
                         asset->source_name, fps);
    const vs_clip *c = &asset->clips[clip];
    double duration = (double)c->end - (double)c->start;
    /* Frames on the 1/fps grid, plus the end itself when it is off grid. */
    double steps = ceil(duration * fps - 1e-4);
    if (!(steps >= 0.0)) steps = 0.0;
    if (steps + 1.0 > BAKE_MAX_FRAMES)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: animations[%u]: %.0f frames at %g fps exceed the "
                         "limit of %u frames",
                         asset->source_name, clip, steps + 1.0, fps,
                         BAKE_MAX_FRAMES);
    uint32_t count = (uint32_t)steps + 1;
    float *times = mem_alloc(asset_allocator(asset), count * sizeof *times);
    if (!times)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %u frames", asset->source_name,
                         count);
    for (uint32_t f = 0; f < count; ++f)
        times[f] = f + 1 == count && count > 1
                       ? c->end
                       : (float)((double)c->start + f / (double)fps);
    *out_times = times;
    *out_count = count;
    return VS_OK;
}

/* Every frame posed: frames[f] holds pose_all_primitives' array for frame f. */
static vs_result pose_frames(const vs_asset *asset, uint32_t clip,
                             const bake_clip_options *o, const float *times,
                             uint32_t count, vs_posed_primitive **frames,
                             uint32_t *prims, vs_error *error)
{
    vs_pose *pose = NULL;
    vs_result r = vs_pose_create(asset, &pose, error);
    for (uint32_t f = 0; r == VS_OK && f < count; ++f)
        r = bake_pose_frame(pose, clip, times[f], &o->mesh, &frames[f], prims,
                            error);
    vs_pose_free(pose);
    return r;
}

/* The byte size of all frames' vertex data, checked against the limit. */
static vs_result check_size(const vs_asset *asset, uint32_t frames,
                            vs_error *error)
{
    double vertices = 0.0;
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        const vs_mesh *m =
            &asset->meshes[asset->nodes[asset->instances[i]].mesh];
        for (uint32_t p = 0; p < m->primitive_count; ++p)
            vertices += m->primitives[p].vertex_count;
    }
    double bytes = vertices * frames * 6.0 * sizeof(float);
    if (bytes > (double)BAKE_MAX_BYTES)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: baking %u frames of %.0f vertices needs %.0f "
                         "bytes, over the limit of %llu",
                         asset->source_name, frames, vertices, bytes,
                         (unsigned long long)BAKE_MAX_BYTES);
    return VS_OK;
}

static float *deltas(vs_asset *a, const float *frame, const float *base,
                     size_t n, vs_error *error)
{
    float *d = vs_priv_asset_calloc(a, n ? n : 1, sizeof *d, error, "morph targets");
    if (d)
        for (size_t k = 0; k < n; ++k)
            d[k] = frame[k] - base[k];
    return d;
}

/* Attributes of primitive k: frame 0 as base, the other frames as targets. */
static vs_result fill_primitive(vs_asset *a, uint32_t k,
                                vs_posed_primitive *const *frames,
                                uint32_t count, vs_error *error)
{
    vs_primitive *dp = bake_primitive(a, k);
    const vs_posed_primitive *base = &frames[0][k];
    size_t n = base->vertex_count;
    dp->positions = bake_copy_floats(a, base->positions, n * 3, error);
    dp->normals = bake_copy_floats(a, base->normals, n * 3, error);
    if (!dp->positions || (base->normals && !dp->normals)) return error->code;
    if (count < 2) return VS_OK;
    vs_morph_target *targets =
        vs_priv_asset_calloc(a, count - 1, sizeof *targets, error, "morph targets");
    if (!targets) return error->code;
    for (uint32_t f = 1; f < count; ++f) {
        const vs_posed_primitive *pp = &frames[f][k];
        vs_morph_target *t = &targets[f - 1];
        t->positions = deltas(a, pp->positions, base->positions, n * 3, error);
        if (!t->positions) return error->code;
        if (base->normals) {
            t->normals = deltas(a, pp->normals, base->normals, n * 3, error);
            if (!t->normals) return error->code;
        }
    }
    dp->targets = targets;
    dp->target_count = count - 1;
    return VS_OK;
}

/* One weights channel per node: key f holds the one-hot vector of frame f
 * (all zero for frame 0, the base). */
static vs_result weights_clip(vs_asset *a, const vs_clip *src_clip,
                              const float *times, uint32_t count,
                              vs_interpolation interp, vs_error *error)
{
    const uint32_t nodes = a->node_count, targets = count - 1;
    vs_clip *clip = vs_priv_asset_calloc(a, 1, sizeof *clip, error, "animation");
    vs_anim_channel *ch =
        vs_priv_asset_calloc(a, nodes ? nodes : 1, sizeof *ch, error, "animation");
    vs_anim_sampler *s = vs_priv_asset_calloc(a, 1, sizeof *s, error, "animation");
    float *keys = vs_priv_asset_calloc(a, count, sizeof *keys, error, "animation");
    float *values = vs_priv_asset_calloc(a, (size_t)count * targets, sizeof *values,
                                 error, "animation");
    if (!clip || !ch || !s || !keys || !values) return error->code;
    for (uint32_t f = 0; f < count; ++f) {
        keys[f] = times[f] - times[0];
        if (f > 0) values[(size_t)f * targets + (f - 1)] = 1.0f;
    }
    *s = (vs_anim_sampler){.interpolation = interp,
                           .key_count = count,
                           .times = keys,
                           .components = targets,
                           .values = values};
    for (uint32_t i = 0; i < nodes; ++i)
        ch[i] =
            (vs_anim_channel){.node = i, .path = VS_PATH_WEIGHTS, .sampler = 0};
    clip->name = vs_priv_asset_strdup(a, src_clip->name ? src_clip->name : "");
    if (!clip->name) return error->code;
    clip->channels = ch;
    clip->channel_count = nodes;
    clip->samplers = s;
    clip->sampler_count = 1;
    a->clips = clip;
    a->clip_count = 1;
    return VS_OK;
}

vs_result bake_clip_morph(const vs_asset *asset, uint32_t clip,
                          const bake_clip_options *options, vs_asset **out,
                          vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    if (!asset || !options || !out)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_bake_clip_morph: asset and out_asset are needed");
    *out = NULL;
    if (options->interpolation == VS_INTERP_CUBICSPLINE)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: bake: morph weights are LINEAR or STEP",
                         asset->source_name);
    float *times = NULL;
    uint32_t count = 0, prims = 0;
    vs_result r = bake_check_meshes(asset, error);
    if (r != VS_OK) return r;
    r = bake_frame_times(asset, clip, options->fps, &times, &count, error);
    if (r != VS_OK) return r;
    /* Every frame's posed vertices are held at once. */
    r = instance_primitives_budget(asset, count, &prims, error);
    if (r != VS_OK) {
        mem_free(asset_allocator(asset), times);
        return r;
    }
    vs_posed_primitive **frames = NULL;
    if ((r = check_size(asset, count, error)) == VS_OK &&
        !(frames = mem_calloc(asset_allocator(asset), count, sizeof *frames)))
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                      asset->source_name);
    if (r == VS_OK)
        r = pose_frames(asset, clip, options, times, count, frames, &prims,
                        error);
    vs_asset *a = NULL;
    if (r == VS_OK) r = bake_skeleton_asset(asset, &a, error);
    for (uint32_t k = 0; r == VS_OK && k < prims; ++k)
        r = fill_primitive(a, k, frames, count, error);
    if (r == VS_OK && count > 1)
        r = weights_clip(a, &asset->clips[clip], times, count,
                         options->interpolation, error);
    if (r == VS_OK) r = vs_priv_asset_finalize(a, error);
    for (uint32_t f = 0; frames && f < count; ++f)
        posed_primitives_free(asset_allocator(asset), frames[f], prims);
    mem_free(asset_allocator(asset), frames);
    mem_free(asset_allocator(asset), times);
    if (r != VS_OK) {
        vs_asset_free(a);
        return r;
    }
    *out = a;
    return VS_OK;
}
