/* SPDX-License-Identifier: MIT */
/* glTF 2.0 animations (§3.11) -> vs_clip. Channels are read first because
 * they decide what a sampler's output means: 3 components for translation
 * and scale, 4 for rotation, the morph target count for weights. */
#include <stdlib.h>
#include <string.h>

#include "asset/anim_names.h"
#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "load/gltf2/gltf2_internal.h"

#define ERR(c) ((c)->error ? (c)->error->code : VS_ERROR_LIMIT)

static const gltf2_expect expect_input = {.types = {"SCALAR"},
                                          .ctypes = GLTF2_CT_FLOAT};

/* What each sampler must produce, from the channels that use it. */
typedef struct sampler_use {
    uint32_t components; /* 0 = no channel uses it */
    vs_anim_path path;
} sampler_use;

/* Reads one channel; *keep is false for channels vskin ignores. */
static vs_result channel(gltf2_ctx *c, const cJSON *obj, const char *path,
                         uint32_t sampler_count, sampler_use *use,
                         vs_anim_channel *out, bool *keep)
{
    const cJSON *target;
    int32_t sampler, node;
    const char *pname;
    char tp[GLTF2_PATH];
    *keep = false;
    path_fmt(tp, "%s.target", path);
    vs_result r = json_element_object(c, obj, path);
    if (r != VS_OK ||
        (r = json_index(c, obj, "sampler", path, sampler_count, true,
                        &sampler)) != VS_OK ||
        (r = json_object(c, obj, "target", path, &target)) != VS_OK)
        return r;
    if (!target)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: required object is missing", c->src, tp);
    if ((r = json_index(c, target, "node", tp, c->node_count, false, &node)) ||
        (r = json_string(c, target, "path", tp, NULL, &pname)))
        return r;
    if (!pname)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.path: required string is missing", c->src, tp);
    /* §3.11: a channel without target.node may be ignored (extensions such
     * as KHR_animation_pointer target other things). A pointer channel
     * animates materials, lights, cameras or node properties through a JSON
     * pointer vskin does not follow: when the file does not require the
     * extension, a reader without it shows the rest pose of what it
     * targets, so the channel is ignored with a warning. */
    if (node < 0) {
        if (strcmp(pname, "pointer") != 0) return VS_OK;
        return asset_warn(c->asset, c->error, tp, "channel ignored",
                          "KHR_animation_pointer targets are not supported");
    }
    vs_anim_path p;
    if (!anim_path_parse(pname, &p))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.path: \"%s\" is not translation, rotation, "
                         "scale or weights",
                         c->src, tp, pname);
    uint32_t components = p == VS_PATH_ROTATION ? 4 : 3;
    if (p == VS_PATH_WEIGHTS) {
        int32_t mesh = c->asset->nodes[node].mesh;
        components = mesh >= 0 && mesh < (int32_t)c->asset->mesh_count
                         ? c->asset->meshes[mesh].primitives[0].target_count
                         : 0;
        if (components == 0)
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: weights of node %d whose mesh has no "
                             "morph targets",
                             c->src, tp, node);
    }
    sampler_use *u = &use[sampler];
    if (u->components && (u->components != components || u->path != p))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.sampler: sampler %d is also used for a "
                         "different kind of target",
                         c->src, path, sampler);
    u->components = components;
    u->path = p;
    *out = (vs_anim_channel){
        .node = (uint32_t)node, .path = p, .sampler = (uint32_t)sampler};
    *keep = true;
    return VS_OK;
}

static vs_result sampler(gltf2_ctx *c, const cJSON *obj, const char *path,
                         const sampler_use *use, vs_anim_sampler *s)
{
    int32_t input, output;
    const char *interp;
    char ref[GLTF2_PATH];
    vs_result r = json_element_object(c, obj, path);
    if (r != VS_OK ||
        (r = json_index(c, obj, "input", path, c->accessor_count, true,
                        &input)) != VS_OK ||
        (r = json_index(c, obj, "output", path, c->accessor_count, true,
                        &output)) != VS_OK ||
        (r = json_string(c, obj, "interpolation", path, "LINEAR", &interp)))
        return r;
    if (!anim_interp_parse(interp, &s->interpolation))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.interpolation: \"%s\" is not LINEAR, STEP or "
                         "CUBICSPLINE",
                         c->src, path, interp);
    float *times;
    path_fmt(ref, "%s.input", path);
    if ((r = gltf2_accessor_floats(c, input, ref, &expect_input, &times,
                                   &s->key_count, NULL)) != VS_OK)
        return r;
    /* Before the output (up to 3 x components values per key) is read. */
    if (s->key_count > asset_limits(c->asset)->max_keyframes)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: %s: %u keyframes exceed the limit of %u", c->src,
                         ref, s->key_count,
                         asset_limits(c->asset)->max_keyframes);
    /* §3.11: times are non-negative and strictly increasing. */
    for (uint32_t k = 0; k < s->key_count; ++k)
        if (times[k] < 0.0f || (k > 0 && times[k] <= times[k - 1]))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: accessor %d: key %u time %g is %s",
                             c->src, ref, input, k, (double)times[k],
                             times[k] < 0.0f ? "negative"
                                             : "not strictly increasing");
    s->times = times;
    bool cubic = s->interpolation == VS_INTERP_CUBICSPLINE;
    if (cubic && s->key_count < 2)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: CUBICSPLINE needs at least 2 keys", c->src,
                         ref);
    /* Output: float, or normalized integers for rotation and weights. */
    gltf2_expect e = {.types = {"SCALAR", "VEC3", "VEC4"},
                      .ctypes = GLTF2_CT_FLOAT};
    uint32_t per_key = use->components ? use->components : 0;
    if (use->components) {
        bool weights = use->path == VS_PATH_WEIGHTS;
        e.types[0] = weights ? "SCALAR" : per_key == 4 ? "VEC4" : "VEC3";
        e.types[1] = NULL;
        if (weights || use->path == VS_PATH_ROTATION)
            e.ctypes_normalized = GLTF2_CT_INTS;
        e.ctypes |= e.ctypes_normalized;
        e.count = s->key_count * (cubic ? 3u : 1u) * (weights ? per_key : 1u);
        if ((uint64_t)s->key_count * (cubic ? 3u : 1u) * per_key > UINT32_MAX)
            return set_error(c->error, VS_ERROR_LIMIT,
                             "%s: %s: too many output values", c->src, path);
    }
    float *values;
    uint32_t count, comps;
    path_fmt(ref, "%s.output", path);
    if ((r = gltf2_accessor_floats(c, output, ref, &e, &values, &count,
                                   &comps)) != VS_OK)
        return r;
    if (!use->components) {
        /* Unused by any channel vskin reads: keep the data as stored. */
        if (count != s->key_count * (cubic ? 3u : 1u))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: accessor %d has %u elements, expected "
                             "%u",
                             c->src, ref, output, count,
                             s->key_count * (cubic ? 3u : 1u));
        per_key = comps;
    }
    s->components = per_key;
    s->values = values;
    return VS_OK;
}

static vs_result animation(gltf2_ctx *c, const cJSON *obj, uint32_t i,
                           vs_clip *clip, bool *dropped)
{
    char path[GLTF2_PATH], sub[GLTF2_PATH];
    path_fmt(path, "animations[%u]", i);
    const cJSON *chans, *smps, *e;
    uint32_t nc, ns, k = 0, kept = 0;
    vs_result r = json_element_object(c, obj, path);
    if (r != VS_OK || (r = json_name(c, obj, path, &clip->name)) != VS_OK ||
        (r = json_array(c, obj, "channels", path, &chans, &nc)) != VS_OK ||
        (r = json_array(c, obj, "samplers", path, &smps, &ns)) != VS_OK)
        return r;
    /* Schema: minItems 1. An animation without channels animates nothing,
     * so dropping it loses nothing (three.js and assimp give an empty clip
     * or none). Channels without samplers have no data to animate with. */
    if (nc == 0) {
        *dropped = true;
        return asset_warn(c->asset, c->error, path, "animation dropped",
                          "has no channels");
    }
    if (ns == 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.samplers: its channels need samplers, and "
                         "there are none",
                         c->src, path);
    vs_anim_channel *ch =
        vs_priv_asset_calloc(c->asset, nc, sizeof *ch, c->error, path);
    vs_anim_sampler *sm =
        vs_priv_asset_calloc(c->asset, ns, sizeof *sm, c->error, path);
    sampler_use *use = mem_calloc(c->io.alloc, ns, sizeof *use);
    if (!ch || !sm || !use) {
        mem_free(c->io.alloc, use);
        return ch && sm ? set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                                    "%s: %s: out of memory", c->src, path)
                        : ERR(c);
    }
    /* §3.11: one channel per node and path (validator
     * ANIMATION_DUPLICATE_TARGETS); a mark bit per path keeps it linear. */
    marks_begin(c);
    cJSON_ArrayForEach(e, chans)
    {
        bool keep;
        path_fmt(sub, "%s.channels[%u]", path, k++);
        r = channel(c, e, sub, ns, use, &ch[kept], &keep);
        if (r == VS_OK && keep &&
            marks_test_set(c, ch[kept].node, (uint8_t)(1u << ch[kept].path)))
            r = set_error(c->error, VS_ERROR_INVALID,
                          "%s: %s.target: node %u %s is already animated by "
                          "another channel",
                          c->src, sub, ch[kept].node,
                          anim_path_name(ch[kept].path));
        if (r != VS_OK) break;
        kept += keep;
    }
    k = 0;
    cJSON_ArrayForEach(e, smps)
    {
        if (r != VS_OK) break;
        path_fmt(sub, "%s.samplers[%u]", path, k);
        r = sampler(c, e, sub, &use[k], &sm[k]);
        ++k;
    }
    mem_free(c->io.alloc, use);
    clip->channels = ch;
    clip->channel_count = kept;
    clip->samplers = sm;
    clip->sampler_count = ns;
    return r;
}

vs_result gltf2_load_animations(gltf2_ctx *c)
{
    const cJSON *arr, *e;
    uint32_t n, i = 0;
    vs_result r = json_array(c, c->root, "animations", "", &arr, &n);
    if (r != VS_OK || n == 0) return r;
    vs_clip *clips =
        vs_priv_asset_calloc(c->asset, n, sizeof *clips, c->error, "animations");
    if (!clips) return ERR(c);
    uint32_t kept = 0;
    cJSON_ArrayForEach(e, arr)
    {
        bool dropped = false;
        if ((r = animation(c, e, i++, &clips[kept], &dropped)) != VS_OK)
            return r;
        if (dropped)
            clips[kept] = (vs_clip){0};
        else
            ++kept;
    }
    c->asset->clips = clips;
    c->asset->clip_count = kept;
    return VS_OK;
}
