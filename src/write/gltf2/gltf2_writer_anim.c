/* SPDX-License-Identifier: MIT */
/* Animations: one glTF animation per clip, one sampler per channel (its
 * output may differ per target: roots get the axis correction), inputs
 * shared between the channels of one model sampler. Interpolation is kept,
 * CUBICSPLINE outputs in glTF's (in-tangent, value, out-tangent) layout as
 * the model stores them (§3.11). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/anim_names.h"
#include "base/error.h"
#include "write/gltf2/gltf2_writer.h"

/* LINEAR and STEP rotation keys must be unit quaternions (the validator's
 * ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION); the runtime
 * normalizes while interpolating, so this changes no pose. CUBICSPLINE
 * values are left alone: scaling them without their tangents would change
 * the curve. */
static void unit_keys(gltf2w_ctx *c, float *q, size_t keys)
{
    for (size_t i = 0; i < keys; ++i, q += 4) {
        float n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (n > 0.0f && isfinite(n) && fabsf(n - 1.0f) > GLTF2W_UNIT_FIX) {
            for (int k = 0; k < 4; ++k)
                q[k] /= n;
            c->report->normalized_rotations +=
                fabsf(n - 1.0f) > GLTF2W_UNIT_REPORT;
        }
    }
}

/* The output accessor of one channel. */
static int32_t output(gltf2w_ctx *c, const vs_anim_sampler *s,
                      const vs_anim_channel *ch)
{
    bool cubic = s->interpolation == VS_INTERP_CUBICSPLINE;
    size_t elements = (size_t)s->key_count * (cubic ? 3 : 1);
    size_t n = elements * s->components;
    float *v = mem_alloc(c->alloc, n * sizeof *v);
    if (!v) {
        gltf2w_oom(c, "animation outputs");
        return -1;
    }
    memcpy(v, s->values, n * sizeof *v);
    bool weights = ch->path == VS_PATH_WEIGHTS;
    if (ch->path == VS_PATH_ROTATION && !cubic) unit_keys(c, v, elements);
    if (!weights && gltf2w_corrects(c, ch->node))
        gltf2w_correct_values(c, ch->path, v, elements);
    /* Morph weights are SCALAR with targets * keys elements (§3.11). */
    int32_t acc = gltf2w_floats(c, v, (uint32_t)(weights ? n : elements),
                                weights ? 1 : s->components,
                                weights                        ? "SCALAR"
                                : ch->path == VS_PATH_ROTATION ? "VEC4"
                                                               : "VEC3",
                                0, false);
    mem_free(c->alloc, v);
    return acc;
}

/* A weights channel animates a mesh's morph targets (§3.11.2): on a node
 * whose mesh has none (a COLLADA morph whose mesh was left out) it moves
 * nothing, and glTF 2.0 forbids it, so it is not written. */
static bool writable(const vs_asset *a, const vs_anim_channel *ch)
{
    if (ch->path != VS_PATH_WEIGHTS) return true;
    if (ch->node >= a->node_count || a->nodes[ch->node].mesh < 0) return false;
    const vs_mesh *m = &a->meshes[a->nodes[ch->node].mesh];
    return m->primitive_count > 0 && m->primitives[0].target_count > 0;
}

static uint32_t writable_count(const vs_asset *a, const vs_clip *cl)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < cl->channel_count; ++i)
        n += writable(a, &cl->channels[i]);
    return n;
}

static vs_result clip(gltf2w_ctx *c, uint32_t k, cJSON *anim)
{
    const vs_clip *cl = &c->asset->clips[k];
    cJSON *samplers = cJSON_AddArrayToObject(anim, "samplers");
    cJSON *channels = cJSON_AddArrayToObject(anim, "channels");
    int32_t *inputs = mem_alloc(c->alloc, cl->sampler_count * sizeof *inputs);
    if (!samplers || !channels || !inputs) {
        mem_free(c->alloc, inputs);
        return gltf2w_oom(c, "animations");
    }
    for (uint32_t s = 0; s < cl->sampler_count; ++s)
        inputs[s] = -1;
    vs_result r = VS_OK;
    uint32_t written = 0;
    for (uint32_t i = 0; i < cl->channel_count && r == VS_OK; ++i) {
        const vs_anim_channel *ch = &cl->channels[i];
        const vs_anim_sampler *s = &cl->samplers[ch->sampler];
        if (!writable(c->asset, ch)) continue;
        if (s->key_count == 0) {
            r = set_error(c->error, VS_ERROR_UNSUPPORTED,
                          "%s: animations[%u].samplers[%u]: a sampler without "
                          "keys cannot be written as glTF 2.0",
                          c->asset->source_name, k, ch->sampler);
            break;
        }
        /* Inputs carry min/max (§3.6.2.5 requires them on animation
         * inputs). */
        if (inputs[ch->sampler] < 0)
            inputs[ch->sampler] =
                gltf2w_floats(c, s->times, s->key_count, 1, "SCALAR", 0, true);
        int32_t out = inputs[ch->sampler] < 0 ? -1 : output(c, s, ch);
        if (out < 0) {
            r = c->error->code;
            break;
        }
        cJSON *smp = cJSON_CreateObject(), *chan = cJSON_CreateObject();
        if (smp) cJSON_AddItemToArray(samplers, smp);
        if (chan) cJSON_AddItemToArray(channels, chan);
        cJSON *target = chan ? cJSON_AddObjectToObject(chan, "target") : NULL;
        if (!smp || !target ||
            !cJSON_AddNumberToObject(smp, "input", inputs[ch->sampler]) ||
            !cJSON_AddNumberToObject(smp, "output", out) ||
            !cJSON_AddStringToObject(smp, "interpolation",
                                     anim_interp_name(s->interpolation)) ||
            !cJSON_AddNumberToObject(chan, "sampler", written++) ||
            !cJSON_AddNumberToObject(target, "node", ch->node) ||
            !cJSON_AddStringToObject(target, "path", anim_path_name(ch->path)))
            r = gltf2w_oom(c, "animations");
    }
    mem_free(c->alloc, inputs);
    return r;
}

vs_result gltf2w_animations(gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    cJSON *list = NULL;
    for (uint32_t k = 0; k < a->clip_count; ++k) {
        const vs_clip *cl = &a->clips[k];
        /* glTF animations need at least one channel (§5.2); an empty clip
         * moves nothing and is left out. */
        if (writable_count(a, cl) == 0) continue;
        if (!list && !(list = cJSON_AddArrayToObject(c->root, "animations")))
            return gltf2w_oom(c, "animations");
        cJSON *anim = cJSON_CreateObject();
        if (!anim) return gltf2w_oom(c, "animations");
        cJSON_AddItemToArray(list, anim);
        if (cl->name && cl->name[0] &&
            !cJSON_AddStringToObject(anim, "name", cl->name))
            return gltf2w_oom(c, "animations");
        vs_result r = clip(c, k, anim);
        if (r != VS_OK) return r;
    }
    return VS_OK;
}

/* Marks the nodes an animation channel moves (translation, rotation or
 * scale); such nodes get TRS instead of matrix. */
bool *gltf2w_animated_nodes(const gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    bool *animated = mem_calloc(c->alloc, a->node_count ? a->node_count : 1,
                                sizeof *animated);
    if (!animated) return NULL;
    for (uint32_t k = 0; k < a->clip_count; ++k)
        for (uint32_t i = 0; i < a->clips[k].channel_count; ++i) {
            const vs_anim_channel *ch = &a->clips[k].channels[i];
            if (ch->path != VS_PATH_WEIGHTS && ch->node < a->node_count)
                animated[ch->node] = true;
        }
    return animated;
}
