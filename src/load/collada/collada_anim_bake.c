/* SPDX-License-Identifier: MIT */
/* Channels of one clip -> vs_clip with T/R/S channels per animated node.
 * vs_clip samplers are TRS only, while a COLLADA channel drives one value
 * of one element of a transform stack; so each animated node's whole stack
 * is evaluated at sample times, multiplied out (collada_stack_matrix) and
 * decomposed. The sample times are the union of the node's key times, plus,
 * unless linear interpolation of the result is exact there, uniform samples
 * at COLLADA_ANIM_SAMPLE_RATE between them (docs/collada-animation.md states
 * the rule and the error it leaves). Morph weight channels are baked by
 * collada_anim_morph.c and appended after the TRS ones. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/xform.h"
#include "load/collada/collada_anim.h"

static int ref_cmp(const void *pa, const void *pb)
{
    const anim_ref *a = pa, *b = pb;
    if (a->node != b->node) return a->node < b->node ? -1 : 1;
    return a->index < b->index ? -1 : (a->index > b->index);
}

static int float_cmp(const void *pa, const void *pb)
{
    float a = *(const float *)pa, b = *(const float *)pb;
    return a < b ? -1 : (a > b);
}

/* The node's key times are enough when every curve steps (a STEP sampler
 * holds exactly), or when only translate / scale elements move, linearly:
 * the stack product is then affine in each value, so T and S move linearly
 * between keys and linear interpolation reproduces them. Rotations, matrices,
 * lookat, skew and curved segments are sampled densely. */
static bool keys_suffice(const anim_ctx *ctx, const anim_ref *g, uint32_t n,
                         bool all_step)
{
    if (all_step) return true;
    for (uint32_t i = 0; i < n; ++i) {
        const anim_channel *c = &ctx->channels[g[i].index];
        collada_xform_kind k = ctx->stacks[c->node].xforms[c->xform].kind;
        if (c->curve.any_cubic ||
            (k != COLLADA_XF_TRANSLATE && k != COLLADA_XF_SCALE))
            return false;
    }
    return true;
}

/* True when the curve may jump at key k > 0: a STEP segment ends there, or
 * a BSPLINE segment ends or starts there next to another kind (a B-spline
 * passes near its keys, not through them). */
static bool may_jump(const anim_curve *c, uint32_t k)
{
    uint8_t before = c->interp[k - 1];
    return before == ANIM_STEP || before == ANIM_BSPLINE ||
           (k + 1 < c->key_count && c->interp[k] == ANIM_BSPLINE);
}

/* Sorted, distinct key times of the group within [start, end] (and start /
 * end themselves when finite). When the output is LINEAR, a jump also gets
 * a sample just before it (the largest float below the key), so the jump
 * stays a jump instead of becoming a ramp. */
static vs_result key_times(anim_ctx *ctx, const anim_ref *g, uint32_t n,
                           double start, double end, bool step_out, float **out,
                           uint32_t *count)
{
    uint64_t cap = 2;
    for (uint32_t i = 0; i < n; ++i)
        cap += 2ull * ctx->channels[g[i].index].curve.key_count;
    float *t = collada_tmp(ctx->c, (size_t)cap, sizeof *t, "sample times");
    if (!t) return COLLADA_ERR(ctx->c);
    uint32_t m = 0;
    if (isfinite(start)) t[m++] = (float)start;
    if (isfinite(end)) t[m++] = (float)end;
    for (uint32_t i = 0; i < n; ++i) {
        const anim_curve *c = &ctx->channels[g[i].index].curve;
        for (uint32_t k = 0; k < c->key_count; ++k) {
            float x = c->times[k];
            if (x >= start && x <= end) t[m++] = x;
            float before = nextafterf(x, -INFINITY);
            if (!step_out && k > 0 && may_jump(c, k) && before >= start &&
                before <= end)
                t[m++] = before;
        }
    }
    qsort(t, m, sizeof *t, float_cmp);
    uint32_t u = 0;
    for (uint32_t i = 0; i < m; ++i)
        if (u == 0 || t[i] != t[u - 1]) t[u++] = t[i];
    *out = t;
    *count = u;
    return VS_OK;
}

static uint64_t steps_between(float a, float b)
{
    /* The slack keeps float-rounded spans (0.8f * 30 is 24.0000004) from
     * getting one extra, uneven step. */
    double s = ceil(((double)b - (double)a) * COLLADA_ANIM_SAMPLE_RATE - 1e-3);
    return s < 1.0 ? 1 : (s > 1e12 ? (uint64_t)1e12 : (uint64_t)s);
}

/* Adds uniform samples between the key times; checks the sample limit
 * before allocating. */
static vs_result densify(anim_ctx *ctx, const anim_channel *first, float **t,
                         uint32_t *count)
{
    uint64_t total = *count ? 1 : 0;
    for (uint32_t i = 0; i + 1 < *count && total <= COLLADA_ANIM_MAX_SAMPLES;
         ++i)
        total += steps_between((*t)[i], (*t)[i + 1]);
    if (total > COLLADA_ANIM_MAX_SAMPLES)
        return collada_fail(ctx->c, VS_ERROR_LIMIT, first->element, "target",
                            "sampling %g s of keys at %g Hz would take more "
                            "than %u samples",
                            (double)(*t)[*count - 1] - (double)(*t)[0],
                            COLLADA_ANIM_SAMPLE_RATE, COLLADA_ANIM_MAX_SAMPLES);
    float *d = collada_tmp(ctx->c, (size_t)total, sizeof *d, "sample times");
    if (!d) return COLLADA_ERR(ctx->c);
    uint32_t m = 0;
    for (uint32_t i = 0; i + 1 < *count; ++i) {
        double a = (*t)[i], b = (*t)[i + 1];
        uint64_t steps = steps_between((*t)[i], (*t)[i + 1]);
        for (uint64_t j = 0; j < steps; ++j) {
            float x = (float)(a + (b - a) * (double)j / (double)steps);
            if (m == 0 || x > d[m - 1]) d[m++] = x;
        }
    }
    if (*count && (m == 0 || (*t)[*count - 1] > d[m - 1]))
        d[m++] = (*t)[*count - 1];
    *t = d;
    *count = m;
    return VS_OK;
}

/* An animated <skew> passing +-90 degrees shears by a huge or infinite
 * factor at that time: refused like a static one. */
static vs_result check_skews(anim_ctx *ctx, const anim_ref *g, uint32_t n,
                             const collada_xform *xf, float time)
{
    for (uint32_t i = 0; i < n; ++i) {
        const anim_channel *c = &ctx->channels[g[i].index];
        double shear;
        if (xf[c->xform].kind != COLLADA_XF_SKEW ||
            !collada_skew_degenerate(xf[c->xform].values, &shear))
            continue;
        return collada_fail(ctx->c, VS_ERROR_INVALID, c->element, "target",
                            "at %g s the <skew> angle %g is degenerate: its "
                            "shear factor %g is not below %g, beyond which "
                            "the matrix cannot be inverted in float",
                            (double)time, (double)xf[c->xform].values[0], shear,
                            COLLADA_SKEW_MAX_SHEAR);
    }
    return VS_OK;
}

vs_result anim_sample_times(anim_ctx *ctx, const anim_ref *g, uint32_t n,
                            double start, double end, bool step_out, bool dense,
                            float **out, uint32_t *count)
{
    vs_result r = key_times(ctx, g, n, start, end, step_out, out, count);
    if (r == VS_OK && dense)
        r = densify(ctx, &ctx->channels[g[0].index], out, count);
    return r;
}

/* Evaluates the node's stack at every time and writes T, R, S. */
static vs_result sample_node(anim_ctx *ctx, const anim_ref *g, uint32_t n,
                             const float *times, uint32_t count, float *tv,
                             float *rv, float *sv)
{
    const collada_node_stack *st = &ctx->stacks[g[0].node];
    collada_xform *xf =
        collada_tmp(ctx->c, st->xform_count, sizeof *xf, "transform stack");
    if (!xf) return COLLADA_ERR(ctx->c);
    for (uint32_t s = 0; s < count; ++s) {
        memcpy(xf, st->xforms, sizeof *xf * st->xform_count);
        for (uint32_t i = 0; i < n; ++i) {
            const anim_channel *c = &ctx->channels[g[i].index];
            float v[16];
            anim_curve_eval(&c->curve, times[s], v);
            memcpy(xf[c->xform].values + c->first, v, sizeof(float) * c->count);
        }
        vs_result r = check_skews(ctx, g, n, xf, times[s]);
        if (r != VS_OK) return r;
        float m[16];
        vs_trs trs;
        collada_stack_matrix(xf, st->xform_count, m);
        xform_decompose(m, &trs);
        float *q = trs.rotation;
        /* A zero scale (objects are often hidden that way) leaves the
         * rotation undefined: keep the previous one. */
        if (!(isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) &&
              isfinite(q[3]))) {
            if (s > 0)
                memcpy(q, rv + 4 * s - 4, sizeof(float) * 4);
            else
                memcpy(q, (const float[4]){0, 0, 0, 1}, sizeof(float) * 4);
        }
        /* Consecutive quaternions in one hemisphere, so the runtime's
         * shortest-path slerp follows the sampled motion. */
        if (s > 0 && q[0] * rv[4 * s - 4] + q[1] * rv[4 * s - 3] +
                             q[2] * rv[4 * s - 2] + q[3] * rv[4 * s - 1] <
                         0.0f)
            for (int k = 0; k < 4; ++k)
                q[k] = -q[k];
        memcpy(tv + 3 * s, trs.translation, sizeof(float) * 3);
        memcpy(rv + 4 * s, q, sizeof(float) * 4);
        memcpy(sv + 3 * s, trs.scale, sizeof(float) * 3);
    }
    return VS_OK;
}

static vs_result bake_node(anim_ctx *ctx, const anim_ref *g, uint32_t n,
                           double start, double end, vs_anim_channel *ch,
                           vs_anim_sampler *smp)
{
    bool all_step = true;
    for (uint32_t i = 0; i < n; ++i)
        all_step = all_step && ctx->channels[g[i].index].curve.all_step;
    float *t = NULL;
    uint32_t count = 0;
    vs_result r =
        anim_sample_times(ctx, g, n, start, end, all_step,
                          !keys_suffice(ctx, g, n, all_step), &t, &count);
    if (r != VS_OK) return r;
    vs_asset *a = ctx->c->asset;
    float *times = vs_priv_asset_calloc(a, count, sizeof(float), ctx->c->error,
                                "animation sample times");
    float *tv = times ? vs_priv_asset_calloc(a, (size_t)count * 3, sizeof(float),
                                     ctx->c->error, "animation translations")
                      : NULL;
    float *rv = tv ? vs_priv_asset_calloc(a, (size_t)count * 4, sizeof(float),
                                  ctx->c->error, "animation rotations")
                   : NULL;
    float *sv = rv ? vs_priv_asset_calloc(a, (size_t)count * 3, sizeof(float),
                                  ctx->c->error, "animation scales")
                   : NULL;
    if (!sv) return COLLADA_ERR(ctx->c);
    memcpy(times, t, sizeof(float) * count);
    if ((r = sample_node(ctx, g, n, times, count, tv, rv, sv)) != VS_OK)
        return r;
    vs_interpolation mode = all_step ? VS_INTERP_STEP : VS_INTERP_LINEAR;
    const float *values[3] = {tv, rv, sv};
    for (uint32_t p = 0; p < 3; ++p) {
        smp[p] = (vs_anim_sampler){.interpolation = mode,
                                   .key_count = count,
                                   .times = times,
                                   .components = p == 1 ? 4 : 3,
                                   .values = values[p]};
        ch[p] = (vs_anim_channel){.node = g[0].node, .path = (vs_anim_path)p};
    }
    return VS_OK;
}

vs_result anim_bake_clip(anim_ctx *ctx, const bool *use, double start,
                         double end, vs_clip *out)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < ctx->channel_count; ++i)
        total += use[i] ? ctx->channels[i].node_count : 0;
    anim_ref *refs =
        collada_tmp(ctx->c, (size_t)total, sizeof *refs, "clip channels");
    if (!refs) return COLLADA_ERR(ctx->c);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ctx->channel_count; ++i) {
        const anim_channel *c = &ctx->channels[i];
        for (uint32_t j = 0; use[i] && j < c->node_count; ++j)
            refs[n++] = (anim_ref){ctx->node_ids[c->node_first + j].node, i};
    }
    qsort(refs, n, sizeof *refs, ref_cmp);
    uint32_t nodes = 0;
    for (uint32_t i = 0; i < n; ++i)
        nodes += i == 0 || refs[i].node != refs[i - 1].node;
    vs_anim_channel *wch;
    vs_anim_sampler *wsmp;
    uint32_t wch_count, wsmp_count;
    vs_result r = anim_bake_weights(ctx, use, start, end, nodes * 3, &wch,
                                    &wch_count, &wsmp, &wsmp_count);
    if (r != VS_OK) return r;
    size_t ch_total = (size_t)nodes * 3 + wch_count;
    size_t smp_total = (size_t)nodes * 3 + wsmp_count;
    vs_anim_channel *ch =
        vs_priv_asset_calloc(ctx->c->asset, ch_total, sizeof *ch, ctx->c->error,
                             "animation channels");
    vs_anim_sampler *smp =
        ch ? vs_priv_asset_calloc(ctx->c->asset, smp_total, sizeof *smp,
                                  ctx->c->error, "animation samplers")
           : NULL;
    if (!smp) return COLLADA_ERR(ctx->c);
    if (wch_count) memcpy(ch + (size_t)nodes * 3, wch, sizeof *ch * wch_count);
    if (wsmp_count)
        memcpy(smp + (size_t)nodes * 3, wsmp, sizeof *smp * wsmp_count);
    uint32_t j = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t e = i;
        while (e < n && refs[e].node == refs[i].node)
            ++e;
        r = bake_node(ctx, refs + i, e - i, start, end, ch + 3 * j,
                      smp + 3 * j);
        if (r != VS_OK) return r;
        for (uint32_t p = 0; p < 3; ++p)
            ch[3 * j + p].sampler = 3 * j + p;
        ++j;
        i = e;
    }
    out->channel_count = (uint32_t)ch_total;
    out->sampler_count = (uint32_t)smp_total;
    out->channels = ch;
    out->samplers = smp;
    return VS_OK;
}
