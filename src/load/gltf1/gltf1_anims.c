/* SPDX-License-Identifier: MIT */
/* glTF 1.0 animations: one vs_clip per animation. Samplers are keyed by id
 * and name their input/output through animation.parameters (glTF 1.0
 * §animation.sampler: "the parameter name"); the 1.1 draft used by the glTF
 * tutorial names accessors directly, so a name that is not a parameter is
 * looked up as an accessor id. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf1/gltf1_internal.h"

/* An animation's parameters sorted by name (then file order, so the first
 * of a repeated name wins, as cJSON's lookup does): a lookup per sampler in
 * the JSON object would cost samplers x parameters. */
typedef struct param {
    const char *name;
    uint32_t order;
    const cJSON *item;
} param;

typedef struct params {
    param *all;
    uint32_t count;
} params;

static int by_param(const void *a, const void *b)
{
    const param *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->order > y->order) - (x->order < y->order);
}

static vs_result params_build(gltf1_ctx *c, const cJSON *anim,
                              const char *path, params *out)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(anim, "parameters");
    uint32_t n = 0;
    for (const cJSON *e = obj ? obj->child : NULL; e; e = e->next) n += !!e->string;
    out->count = 0;
    out->all = mem_alloc(c->io.alloc, (n ? n : 1) * sizeof *out->all);
    if (!out->all)
        return gltf1_fail(c, VS_ERROR_OUT_OF_MEMORY, path, "out of memory");
    for (const cJSON *e = obj ? obj->child : NULL; e; e = e->next)
        if (e->string) {
            out->all[out->count] = (param){e->string, out->count, e};
            ++out->count;
        }
    qsort(out->all, out->count, sizeof *out->all, by_param);
    return VS_OK;
}

static const cJSON *params_find(const params *p, const char *name)
{
    uint32_t lo = 0, hi = p->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (strcmp(p->all[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->count && strcmp(p->all[lo].name, name) == 0 ? p->all[lo].item
                                                              : NULL;
}

static vs_result sampler_accessor(gltf1_ctx *c, const params *ps,
                                  const char *anim_path, const cJSON *smp,
                                  const char *spath, const char *key,
                                  gltf1_accessor *out)
{
    char path[GLTF1_PATH_SIZE];
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(smp, key);
    gltf1_pathf(path, "%s.%s", spath, key);
    if (!ref)
        return gltf1_fail(c, VS_ERROR_INVALID, spath, "%s is missing", key);
    if (!cJSON_IsString(ref))
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "expected a parameter name (a string)");
    const cJSON *param = params_find(ps, ref->valuestring);
    if (param) {
        gltf1_pathf(path, "%s.parameters[\"%.*s\"]", anim_path, GLTF1_ID_SHOWN,
                    ref->valuestring);
        ref = param;
    }
    return gltf1_accessor_get(c, ref, path, out);
}

static vs_result load_sampler(gltf1_ctx *c, const params *ps,
                              const char *anim_path, const cJSON *smp,
                              vs_anim_sampler *out)
{
    char spath[GLTF1_PATH_SIZE];
    gltf1_pathf(spath, "%s.samplers[\"%.*s\"]", anim_path, GLTF1_ID_SHOWN,
                smp->string);
    const char *interp;
    vs_result r = gltf1_get_string(c, smp, "interpolation", spath, &interp);
    if (r != VS_OK) return r;
    uint32_t per_key = 1;
    if (!interp || strcmp(interp, "LINEAR") == 0) {
        out->interpolation = VS_INTERP_LINEAR;
    } else if (strcmp(interp, "STEP") == 0) {
        out->interpolation = VS_INTERP_STEP;
    } else if (strcmp(interp, "CUBICSPLINE") == 0) {
        out->interpolation = VS_INTERP_CUBICSPLINE;
        per_key = 3;
    } else {
        return gltf1_fail(c, VS_ERROR_UNSUPPORTED, spath,
                          "interpolation \"%.*s\" is not LINEAR, STEP or "
                          "CUBICSPLINE",
                          GLTF1_ID_SHOWN, interp);
    }
    gltf1_accessor in, val;
    float *times, *values;
    if ((r = sampler_accessor(c, ps, anim_path, smp, spath, "input", &in)) !=
        VS_OK)
        return r;
    char path[GLTF1_PATH_SIZE];
    gltf1_pathf(path, "%s.input", spath);
    if (in.desc.count > asset_limits(c->asset)->max_keyframes)
        return gltf1_fail(c, VS_ERROR_LIMIT, path,
                          "%u keyframes exceed the limit of %u",
                          in.desc.count, asset_limits(c->asset)->max_keyframes);
    if ((r = gltf1_accessor_floats(c, &in, path, 1, true, false, &times)) !=
        VS_OK)
        return r;
    if (in.desc.count == 0)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "accessor \"%.*s\" has no keys", GLTF1_ID_SHOWN,
                          in.id);
    for (uint32_t k = 0; k < in.desc.count; ++k)
        if (!isfinite(times[k]) || (k && !(times[k] > times[k - 1])))
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "key times must be finite and strictly "
                              "increasing (key %u is %g)",
                              k, (double)times[k]);
    if ((r = sampler_accessor(c, ps, anim_path, smp, spath, "output",
                              &val)) != VS_OK)
        return r;
    gltf1_pathf(path, "%s.output", spath);
    if ((r = gltf1_accessor_floats(c, &val, path, 0, false, true, &values)) !=
        VS_OK)
        return r;
    if ((uint64_t)val.desc.count != (uint64_t)in.desc.count * per_key)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "accessor \"%.*s\" has %u elements but the input "
                          "has %u keys%s",
                          GLTF1_ID_SHOWN, val.id, val.desc.count, in.desc.count,
                          per_key == 3 ? " (3 values per key)" : "");
    out->key_count = in.desc.count;
    out->times = times;
    out->components = val.desc.components;
    out->values = values;
    return VS_OK;
}

static vs_result load_channel(gltf1_ctx *c, const cJSON *ch, const char *path,
                              const gltf1_dict *samplers,
                              const vs_anim_sampler *smp, vs_anim_channel *out)
{
    if (!cJSON_IsObject(ch))
        return gltf1_fail(c, VS_ERROR_INVALID, path, "not a JSON object");
    char field[GLTF1_PATH_SIZE];
    gltf1_pathf(field, "%s.sampler", path);
    vs_result r = gltf1_resolve(c, samplers,
                                cJSON_GetObjectItemCaseSensitive(ch, "sampler"),
                                field, &out->sampler);
    if (r != VS_OK) return r;
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
    if (!cJSON_IsObject(target))
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "target is missing or not an object");
    gltf1_pathf(field, "%s.target.id", path);
    if ((r = gltf1_resolve(c, &c->nodes,
                           cJSON_GetObjectItemCaseSensitive(target, "id"),
                           field, &out->node)) != VS_OK)
        return r;
    gltf1_pathf(field, "%s.target", path);
    const char *p;
    if ((r = gltf1_get_string(c, target, "path", field, &p)) != VS_OK) return r;
    uint32_t want;
    if (p && strcmp(p, "translation") == 0) {
        out->path = VS_PATH_TRANSLATION;
        want = 3;
    } else if (p && strcmp(p, "rotation") == 0) {
        out->path = VS_PATH_ROTATION;
        want = 4;
    } else if (p && strcmp(p, "scale") == 0) {
        out->path = VS_PATH_SCALE;
        want = 3;
    } else {
        return gltf1_fail(c, VS_ERROR_UNSUPPORTED, field,
                          "path must be translation, rotation or scale");
    }
    if (smp[out->sampler].components != want)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "%s needs %u components per key but sampler "
                          "\"%.*s\" has %u",
                          p, want, GLTF1_ID_SHOWN,
                          gltf1_id_of(samplers, out->sampler),
                          smp[out->sampler].components);
    return VS_OK;
}

static vs_result load_animation(gltf1_ctx *c, const cJSON *anim, vs_clip *clip)
{
    char path[GLTF1_PATH_SIZE];
    gltf1_path(path, "animations", anim->string);
    if (!(clip->name = gltf1_name(c, anim, anim->string)))
        return c->error->code;
    gltf1_dict samplers;
    vs_result r =
        gltf1_dict_build(c, anim, "samplers", path, "sampler", &samplers);
    const cJSON *channels = NULL;
    vs_anim_sampler *smp = NULL;
    vs_anim_channel *chs = NULL;
    if (r == VS_OK) r = gltf1_get_array(c, anim, "channels", path, &channels);
    uint32_t nc = channels ? (uint32_t)cJSON_GetArraySize(channels) : 0;
    if (r == VS_OK) {
        smp = vs_priv_asset_calloc(c->asset, samplers.count ? samplers.count : 1,
                           sizeof *smp, c->error, path);
        chs = vs_priv_asset_calloc(c->asset, nc ? nc : 1, sizeof *chs, c->error, path);
        if (!smp || !chs) r = c->error->code;
    }
    params ps = {NULL, 0};
    if (r == VS_OK) r = params_build(c, anim, path, &ps);
    for (uint32_t s = 0; r == VS_OK && s < samplers.count; ++s)
        r = load_sampler(c, &ps, path, samplers.items[s], &smp[s]);
    mem_free(c->io.alloc, ps.all);
    uint32_t k = 0;
    for (const cJSON *ch = channels ? channels->child : NULL; r == VS_OK && ch;
         ch = ch->next, ++k) {
        char cpath[GLTF1_PATH_SIZE];
        gltf1_pathf(cpath, "%s.channels[%u]", path, k);
        r = load_channel(c, ch, cpath, &samplers, smp, &chs[k]);
    }
    if (r == VS_OK) {
        clip->samplers = smp;
        clip->sampler_count = samplers.count;
        clip->channels = chs;
        clip->channel_count = nc;
    }
    gltf1_dict_free(c, &samplers);
    return r;
}

vs_result gltf1_load_animations(gltf1_ctx *c)
{
    uint32_t n = c->animations.count;
    if (n == 0) return VS_OK;
    vs_clip *clips =
        vs_priv_asset_calloc(c->asset, n, sizeof *clips, c->error, "animations");
    if (!clips) return c->error->code;
    for (uint32_t i = 0; i < n; ++i) {
        vs_result r = load_animation(c, c->animations.items[i], &clips[i]);
        if (r != VS_OK) return r;
    }
    c->asset->clips = clips;
    c->asset->clip_count = n;
    return VS_OK;
}
