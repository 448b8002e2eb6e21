/* SPDX-License-Identifier: MIT */
/* <sampler> -> anim_curve (COLLADA 1.4.1 "sampler", "Curve Interpolation").
 * INPUT holds the key times, OUTPUT the values (its accessor's params per
 * key), INTERPOLATION one name per key for the segment that starts there
 * (LINEAR when absent), IN_TANGENT / OUT_TANGENT the cubic control data.
 * HERMITE and 1-D (pre-1.4.1) tangents are turned into 2-D Bezier control
 * points here so that evaluation has one case for tangent-driven cubics;
 * CARDINAL and BSPLINE need no tangents. */
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "load/collada/collada_anim.h"

enum { SEM_INPUT, SEM_OUTPUT, SEM_INTERP, SEM_IN_TAN, SEM_OUT_TAN, SEM_COUNT };
static const char *const semantics[SEM_COUNT] = {
    "INPUT", "OUTPUT", "INTERPOLATION", "IN_TANGENT", "OUT_TANGENT"};

/* Original kind of each key's segment, before HERMITE became Bezier. */
enum {
    KIND_LINEAR,
    KIND_STEP,
    KIND_BEZIER,
    KIND_HERMITE,
    KIND_CARDINAL,
    KIND_BSPLINE
};

/* The kinds whose segments are shaped by IN_TANGENT / OUT_TANGENT. */
static bool uses_tangents(uint8_t kind)
{
    return kind == KIND_BEZIER || kind == KIND_HERMITE;
}

/* A float <source>: count keys of *components values (the accessor's
 * named params). */
static vs_result source_floats(anim_ctx *ctx, const xmlNode *source,
                               uint32_t *count, uint32_t *components,
                               float **out)
{
    collada_floats_src f;
    vs_result r = collada_source_floats(ctx->c, source, 0, &f);
    if (r != VS_OK) return r;
    *count = f.count;
    *components = f.components;
    *out = f.values;
    return VS_OK;
}

static vs_result find_inputs(anim_ctx *ctx, const xmlNode *sampler,
                             const xmlNode **src)
{
    for (int i = 0; i < SEM_COUNT; ++i)
        src[i] = NULL;
    for (const xmlNode *in = sampler->children; in; in = in->next) {
        if (!collada_is(in, "input")) continue;
        const char *sem = collada_attr(in, "semantic");
        for (int i = 0; sem && i < SEM_COUNT; ++i) {
            if (strcmp(sem, semantics[i]) != 0) continue;
            vs_result r =
                collada_resolve(ctx->c, in, "source",
                                collada_attr(in, "source"), "source", &src[i]);
            if (r != VS_OK) return r;
        }
    }
    if (!src[SEM_INPUT] || !src[SEM_OUTPUT])
        return collada_fail(ctx->c, VS_ERROR_INVALID, sampler, "id",
                            "a sampler needs INPUT and OUTPUT inputs");
    return VS_OK;
}

static vs_result read_kinds(anim_ctx *ctx, const xmlNode *source, uint32_t keys,
                            uint8_t *kind)
{
    uint32_t n;
    char **names;
    bool idref;
    vs_result r = collada_source_names(ctx->c, source, &names, &n, &idref);
    if (r != VS_OK) return r;
    if (n != keys)
        return collada_fail(ctx->c, VS_ERROR_INVALID, source, "id",
                            "INTERPOLATION has %u entries for %u keys", n,
                            keys);
    for (uint32_t k = 0; k < n; ++k) {
        if (strcmp(names[k], "LINEAR") == 0)
            kind[k] = KIND_LINEAR;
        else if (strcmp(names[k], "STEP") == 0)
            kind[k] = KIND_STEP;
        else if (strcmp(names[k], "BEZIER") == 0)
            kind[k] = KIND_BEZIER;
        else if (strcmp(names[k], "HERMITE") == 0)
            kind[k] = KIND_HERMITE;
        else if (strcmp(names[k], "CARDINAL") == 0)
            kind[k] = KIND_CARDINAL;
        else if (strcmp(names[k], "BSPLINE") == 0)
            kind[k] = KIND_BSPLINE;
        else
            return collada_fail(ctx->c, VS_ERROR_UNSUPPORTED, source, "id",
                                "key %u: interpolation \"%s\" is not supported "
                                "(LINEAR, STEP, BEZIER, HERMITE, CARDINAL, "
                                "BSPLINE)",
                                k, names[k]);
    }
    return VS_OK;
}

/* Reads a tangent source: per key either `m` values (1-D) or `2m` (time,
 * value pairs, COLLADA 1.4.1). *pairs tells which. */
static vs_result read_tangents(anim_ctx *ctx, const xmlNode *source,
                               uint32_t keys, uint32_t m, float **out,
                               bool *pairs)
{
    uint32_t n, comps;
    vs_result r = source_floats(ctx, source, &n, &comps, out);
    if (r != VS_OK) return r;
    if (n != keys)
        return collada_fail(ctx->c, VS_ERROR_INVALID, source, "id",
                            "tangents have %u keys, INPUT has %u", n, keys);
    if (comps != m && comps != 2 * m)
        return collada_fail(ctx->c, VS_ERROR_INVALID, source, "id",
                            "tangents have %u values per key; expected %u or "
                            "%u (time, value pairs)",
                            comps, m, 2 * m);
    *pairs = comps == 2 * m;
    return VS_OK;
}

/* Control points of key k, component i, for the segment kinds on its left
 * (in point) and right (out point). 2-D tangents are absolute Bezier points
 * (1.4.1) or, for HERMITE, (dtime, dvalue) derivatives over the segment.
 * 1-D tangents follow FCollada's reading of 1.4.0 files: BEZIER ones are
 * value offsets of control points a third of the way along the segment,
 * HERMITE ones derivatives per segment (H(s) in the spec). */
static void control_point(const float *times, const float *values,
                          uint32_t keys, uint32_t m, const uint8_t *kind,
                          const float *in, const float *out, bool in_pairs,
                          bool out_pairs, uint32_t k, uint32_t i, float *cp)
{
    double t = times[k], v = values[(size_t)k * m + i];
    double dprev = k > 0 ? t - times[k - 1] : 0.0;
    double dnext = k + 1 < keys ? times[k + 1] - t : 0.0;
    /* In point: belongs to the segment (k-1, k). */
    if (k > 0 && uses_tangents(kind[k - 1])) {
        bool herm = kind[k - 1] == KIND_HERMITE;
        double x, y;
        if (in_pairs) {
            x = in[((size_t)k * m + i) * 2];
            y = in[((size_t)k * m + i) * 2 + 1];
            if (herm) {
                x = t - x / 3.0;
                y = v - y / 3.0;
            }
        } else {
            double d = in[(size_t)k * m + i];
            x = t - dprev / 3.0;
            y = herm ? v - d / 3.0 : v - d;
        }
        cp[0] = (float)x;
        cp[1] = (float)y;
    }
    if (k + 1 < keys && uses_tangents(kind[k])) {
        bool herm = kind[k] == KIND_HERMITE;
        double x, y;
        if (out_pairs) {
            x = out[((size_t)k * m + i) * 2];
            y = out[((size_t)k * m + i) * 2 + 1];
            if (herm) {
                x = t + x / 3.0;
                y = v + y / 3.0;
            }
        } else {
            double d = out[(size_t)k * m + i];
            x = t + dnext / 3.0;
            y = herm ? v + d / 3.0 : v + d;
        }
        cp[2] = (float)x;
        cp[3] = (float)y;
    }
}

static vs_result read_control(anim_ctx *ctx, const xmlNode *const *src,
                              anim_curve *c, const uint8_t *kind)
{
    uint32_t n = c->key_count, m = c->components;
    float *in, *out;
    bool in_pairs, out_pairs;
    vs_result r;
    if ((r = read_tangents(ctx, src[SEM_IN_TAN], n, m, &in, &in_pairs)) ||
        (r = read_tangents(ctx, src[SEM_OUT_TAN], n, m, &out, &out_pairs)))
        return r;
    float *cp =
        collada_tmp(ctx->c, (size_t)n * m * 4, sizeof *cp, "control points");
    if (!cp) return COLLADA_ERR(ctx->c);
    for (uint32_t k = 0; k < n; ++k)
        for (uint32_t i = 0; i < m; ++i)
            control_point(c->times, c->values, n, m, kind, in, out, in_pairs,
                          out_pairs, k, i, cp + ((size_t)k * m + i) * 4);
    c->control = cp;
    return VS_OK;
}

vs_result anim_sampler_curve(anim_ctx *ctx, const xmlNode *channel,
                             const xmlNode *sampler, anim_curve *c)
{
    const xmlNode *src[SEM_COUNT];
    uint32_t n, comps, out_n;
    float *times, *values;
    vs_result r = find_inputs(ctx, sampler, src);
    if (r != VS_OK ||
        (r = source_floats(ctx, src[SEM_INPUT], &n, &comps, &times)))
        return r;
    if (n == 0)
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "the sampler's INPUT has no keys");
    /* Before OUTPUT and the tangents are read and the curves baked. */
    if (n > asset_limits(ctx->c->asset)->max_keyframes)
        return collada_fail(ctx->c, VS_ERROR_LIMIT, src[SEM_INPUT], "id",
                            "%u keyframes exceed the limit of %u", n,
                            asset_limits(ctx->c->asset)->max_keyframes);
    if (comps != 1)
        return collada_fail(ctx->c, VS_ERROR_INVALID, src[SEM_INPUT], "id",
                            "INPUT must hold one time per key, not %u values",
                            comps);
    /* Strictly increasing times: otherwise "the value at t" is undefined. */
    for (uint32_t k = 1; k < n; ++k)
        if (!(times[k] > times[k - 1]))
            return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                                "key times must increase: key %u is at %g, "
                                "key %u at %g",
                                k - 1, (double)times[k - 1], k,
                                (double)times[k]);
    if ((r = source_floats(ctx, src[SEM_OUTPUT], &out_n, &comps, &values)))
        return r;
    if (out_n != n)
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "OUTPUT has %u keys but INPUT has %u", out_n, n);
    uint8_t *kind = collada_tmp(ctx->c, n, 1, "interpolations");
    uint8_t *interp = collada_tmp(ctx->c, n, 1, "interpolations");
    if (!kind || !interp) return COLLADA_ERR(ctx->c);
    memset(kind, KIND_LINEAR, n);
    if (src[SEM_INTERP] && (r = read_kinds(ctx, src[SEM_INTERP], n, kind)))
        return r;
    bool tangents = false;
    for (uint32_t k = 0; k + 1 < n; ++k)
        tangents = tangents || uses_tangents(kind[k]);
    if (tangents && (!src[SEM_IN_TAN] || !src[SEM_OUT_TAN])) {
        /* The curve's shape between its keys is unknown while every key
         * value is: the keys are kept and joined by straight segments, as
         * assimp and three.js play such curves. */
        if ((r = collada_warn(ctx->c, sampler, "id", "treated as LINEAR",
                              "BEZIER / HERMITE keys without %s",
                              !src[SEM_IN_TAN] && !src[SEM_OUT_TAN]
                                  ? "IN_TANGENT and OUT_TANGENT inputs"
                              : !src[SEM_IN_TAN] ? "an IN_TANGENT input"
                                                 : "an OUT_TANGENT input")))
            return r;
        for (uint32_t k = 0; k < n; ++k)
            if (uses_tangents(kind[k])) kind[k] = KIND_LINEAR;
        tangents = false;
    }
    *c = (anim_curve){.key_count = n,
                      .components = comps,
                      .times = times,
                      .values = values,
                      .interp = interp,
                      .all_step = true};
    static const uint8_t to_interp[] = {
        [KIND_LINEAR] = ANIM_LINEAR,     [KIND_STEP] = ANIM_STEP,
        [KIND_BEZIER] = ANIM_CUBIC,      [KIND_HERMITE] = ANIM_CUBIC,
        [KIND_CARDINAL] = ANIM_CARDINAL, [KIND_BSPLINE] = ANIM_BSPLINE};
    for (uint32_t k = 0; k + 1 < n; ++k) {
        interp[k] = to_interp[kind[k]];
        if (interp[k] != ANIM_STEP) c->all_step = false;
        if (interp[k] != ANIM_STEP && interp[k] != ANIM_LINEAR)
            c->any_cubic = true;
    }
    interp[n - 1] = ANIM_STEP; /* the last key starts no segment */
    if (tangents) return read_control(ctx, src, c, kind);
    return VS_OK;
}
