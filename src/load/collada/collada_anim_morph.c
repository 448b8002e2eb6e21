/* SPDX-License-Identifier: MIT */
/* Animated <morph> weights -> VS_PATH_WEIGHTS channels. COLLADA 1.4.1 has
 * no sid on a morph's weights, so exporters address the MORPH_WEIGHT
 * <source> (or its array) by id with an index, "morph-weights(1)"
 * (ColladaMaya, FCollada), or the controller, "morphCtrl/weights(1)"; both
 * are read, as is the whole array without an index. Each animated morph
 * gets one sampler holding every weight per key (the MORPH_WEIGHT values
 * where no channel drives one), and each node showing the morph, directly
 * or under a <skin>, a channel on it. Weights blend linearly, so LINEAR and
 * STEP keys are exact; cubic segments are sampled at
 * COLLADA_ANIM_SAMPLE_RATE like transforms. */
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_anim.h"

typedef struct anim_morph_weights {
    const xmlNode *morph;
    const float *values; /* NULL until read */
    uint32_t count;
} anim_morph_weights;

static int ptr_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y ? -1 : (x > y);
}

static int weights_cmp(const void *pa, const void *pb)
{
    return ptr_cmp(((const anim_morph_weights *)pa)->morph,
                   ((const anim_morph_weights *)pb)->morph);
}

/* ctx->morphs: every <controller><morph> of the document. */
static vs_result index_morphs(anim_ctx *ctx)
{
    const xmlNode *root = ctx->c->root;
    uint32_t n = 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (const xmlNode *lib = root->children; lib; lib = lib->next) {
            if (!collada_is(lib, "library_controllers")) continue;
            for (const xmlNode *c = lib->children; c; c = c->next) {
                const xmlNode *m = collada_is(c, "controller")
                                       ? collada_child(c, "morph")
                                       : NULL;
                if (m && pass == 1)
                    ctx->morphs[n] = (anim_morph_weights){m, NULL, 0};
                n += m != NULL;
            }
        }
        if (pass == 0) {
            ctx->morphs =
                collada_tmp(ctx->c, n ? n : 1, sizeof *ctx->morphs, "morphs");
            if (!ctx->morphs) return COLLADA_ERR(ctx->c);
            n = 0;
        }
    }
    qsort(ctx->morphs, n, sizeof *ctx->morphs, weights_cmp);
    ctx->morph_count = n;
    ctx->morphs_indexed = true;
    return VS_OK;
}

/* The MORPH_WEIGHT <source> of a <morph>, or NULL. */
static const xmlNode *weight_source(anim_ctx *ctx, const xmlNode *morph)
{
    const xmlNode *targets = collada_child(morph, "targets");
    for (const xmlNode *i = targets ? collada_child(targets, "input") : NULL; i;
         i = collada_next(i, "input")) {
        const char *sem = collada_attr(i, "semantic");
        const char *src = collada_attr(i, "source");
        if (sem && strcmp(sem, "MORPH_WEIGHT") == 0 && src && src[0] == '#')
            return collada_find(ctx->c, src + 1, strlen(src + 1));
    }
    return NULL;
}

/* "", or "(i)" with i below count. */
static vs_result select_weights(anim_ctx *ctx, const xmlNode *channel,
                                const char *sel, uint32_t count,
                                anim_channel *out)
{
    if (count == 0)
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "the morph has no weights to animate");
    if (*sel == '\0') {
        out->first = 0;
        out->count = count;
        return VS_OK;
    }
    char *end = NULL;
    unsigned long i = sel[0] == '(' && sel[1] >= '0' && sel[1] <= '9'
                          ? strtoul(sel + 1, &end, 10)
                          : 0;
    if (!end || end[0] != ')' || end[1] != '\0' || i >= count)
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "\"%s\" does not select one of the morph's %u "
                            "weights (\"(i)\", or nothing for all of them)",
                            sel, count);
    out->first = (uint32_t)i;
    out->count = 1;
    return VS_OK;
}

vs_result anim_morph_target(anim_ctx *ctx, const xmlNode *channel,
                            anim_channel *out, bool *is_morph)
{
    *is_morph = false;
    const char *t = collada_attr(channel, "target");
    if (!t) return VS_OK;
    size_t len = strcspn(t, "/(");
    const xmlNode *e = collada_find(ctx->c, t, len);
    const char *sel = t + len;
    const xmlNode *morph = NULL;
    if (collada_is(e, "controller") && sel[0] == '/') {
        morph = collada_child(e, "morph");
        sel += 1 + strcspn(sel + 1, "(");
    } else if (e && sel[0] != '/') {
        if (collada_is(e, "float_array")) e = e->parent;
        if (collada_is(e, "source") && collada_is(e->parent, "morph"))
            morph = e->parent;
    }
    if (!morph) return VS_OK;
    *is_morph = true;
    const xmlNode *ws = weight_source(ctx, morph);
    if (!ws || (collada_is(e, "source") && e != ws))
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "the target is not the MORPH_WEIGHT source of "
                            "its <morph>");
    vs_result r = ctx->morphs_indexed ? VS_OK : index_morphs(ctx);
    if (r != VS_OK) return r;
    anim_morph_weights key = {.morph = morph},
                       *w = bsearch(&key, ctx->morphs, ctx->morph_count,
                                    sizeof key, weights_cmp);
    if (!w) /* a <morph> outside <library_controllers> */
        return collada_fail(ctx->c, VS_ERROR_INVALID, channel, "target",
                            "the <morph> is not in <library_controllers>");
    if (!w->values) {
        collada_floats_src f;
        if ((r = collada_source_floats(ctx->c, ws, 1, &f))) return r;
        w->values = f.values;
        w->count = f.count;
    }
    out->element = channel;
    out->morph = morph;
    out->weights = w->values;
    out->weight_count = w->count;
    return select_weights(ctx, channel, sel, w->count, out);
}

/* The morph an instance shows: its controller's, or the one under its
 * <skin>; NULL for none. */
static const xmlNode *instance_morph(anim_ctx *ctx, const xmlNode *inst)
{
    const char *url = collada_attr(inst, "url");
    if (!collada_is(inst, "instance_controller") || !url || url[0] != '#')
        return NULL;
    const xmlNode *c = collada_find(ctx->c, url + 1, strlen(url + 1));
    const xmlNode *skin = collada_child(c, "skin");
    const char *src = skin ? collada_attr(skin, "source") : NULL;
    if (src && src[0] == '#')
        c = collada_find(ctx->c, src + 1, strlen(src + 1));
    return collada_is(c, "controller") ? collada_child(c, "morph") : NULL;
}

typedef struct shown {
    const xmlNode *morph;
    const xmlNode *instance; /* the <instance_controller> */
    uint32_t node;
} shown;

static int shown_cmp(const void *pa, const void *pb)
{
    const shown *a = pa, *b = pb;
    int c = ptr_cmp(a->morph, b->morph);
    return c ? c : (a->node > b->node) - (a->node < b->node);
}

typedef struct group_ref {
    const xmlNode *morph;
    uint32_t index; /* channel index */
} group_ref;

static int group_cmp(const void *pa, const void *pb)
{
    const group_ref *a = pa, *b = pb;
    int c = ptr_cmp(a->morph, b->morph);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* One morph's run [begin, end) of the sorted refs; ordered by its first
 * channel, so the output follows the document, not addresses. */
typedef struct group {
    uint32_t begin, end, first_channel;
} group;

static int first_cmp(const void *pa, const void *pb)
{
    const group *a = pa, *b = pb;
    return (a->first_channel > b->first_channel) -
           (a->first_channel < b->first_channel);
}

/* First entry of sh[0..n) showing morph (sh is sorted by morph). */
static uint32_t lower_bound(const shown *sh, uint32_t n, const xmlNode *morph)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ptr_cmp(sh[mid].morph, morph) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Keeps, in order, the channels of g[0..*n) (document order) that some
 * weight takes its value from: a later channel on the same weight, or on
 * all of them, overrides an earlier one. So at most weight_count + 1
 * curves are evaluated per sample, whatever the file repeats. */
static vs_result effective_channels(anim_ctx *ctx, anim_ref *g, uint32_t *n)
{
    uint32_t m = ctx->channels[g[0].index].weight_count;
    uint32_t *last = collada_tmp(ctx->c, m, sizeof *last, "weights");
    if (!last) return COLLADA_ERR(ctx->c);
    uint32_t from = 0; /* the last channel on all weights, else 0 */
    for (uint32_t i = 0; i < *n; ++i)
        if (ctx->channels[g[i].index].count == m) from = i;
    for (uint32_t w = 0; w < m; ++w)
        last[w] = UINT32_MAX;
    for (uint32_t i = from; i < *n; ++i) {
        const anim_channel *c = &ctx->channels[g[i].index];
        if (c->count == 1) last[c->first] = i;
    }
    uint32_t k = 0;
    for (uint32_t i = from; i < *n; ++i) {
        const anim_channel *c = &ctx->channels[g[i].index];
        if ((i == from && c->count == m) || last[c->first] == i) g[k++] = g[i];
    }
    *n = k;
    return VS_OK;
}

/* The sampler of one morph's channels g[0..n): every weight at every
 * sample time. */
static vs_result bake_morph(anim_ctx *ctx, anim_ref *g, uint32_t n,
                            double start, double end, vs_anim_sampler *out)
{
    const anim_channel *c0 = &ctx->channels[g[0].index];
    uint32_t m = c0->weight_count;
    vs_result r = effective_channels(ctx, g, &n);
    if (r != VS_OK) return r;
    bool all_step = true, cubic = false;
    for (uint32_t i = 0; i < n; ++i) {
        all_step = all_step && ctx->channels[g[i].index].curve.all_step;
        cubic = cubic || ctx->channels[g[i].index].curve.any_cubic;
    }
    float *t;
    uint32_t count;
    r = anim_sample_times(ctx, g, n, start, end, all_step, !all_step && cubic,
                          &t, &count);
    if (r != VS_OK) return r;
    vs_asset *a = ctx->c->asset;
    float *times = vs_priv_asset_calloc(a, count ? count : 1, sizeof *times,
                                        ctx->c->error, "weight times");
    size_t total = (size_t)count * m;
    float *values =
        times ? vs_priv_asset_calloc(a, total ? total : 1, sizeof *values,
                                     ctx->c->error, "animation weights")
              : NULL;
    if (!values) return COLLADA_ERR(ctx->c);
    memcpy(times, t, sizeof *times * count);
    for (uint32_t s = 0; s < count; ++s) {
        float *v = values + (size_t)s * m;
        memcpy(v, c0->weights, sizeof *v * m);
        for (uint32_t i = 0; i < n; ++i) {
            const anim_channel *c = &ctx->channels[g[i].index];
            anim_curve_eval(&c->curve, times[s], v + c->first);
        }
    }
    *out = (vs_anim_sampler){.interpolation =
                                 all_step ? VS_INTERP_STEP : VS_INTERP_LINEAR,
                             .key_count = count,
                             .times = times,
                             .components = m,
                             .values = values};
    return VS_OK;
}

/* (morph, node) for every instance showing a morph, sorted. */
static vs_result shown_morphs(anim_ctx *ctx, shown **out, uint32_t *count)
{
    uint32_t n = ctx->instance_count;
    shown *s = collada_tmp(ctx->c, n ? n : 1, sizeof *s, "morph instances");
    if (!s) return COLLADA_ERR(ctx->c);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const xmlNode *m = instance_morph(ctx, ctx->instances[i].element);
        if (m)
            s[k++] = (shown){m, ctx->instances[i].element,
                             ctx->instances[i].node};
    }
    qsort(s, k, sizeof *s, shown_cmp);
    *out = s;
    *count = k;
    return VS_OK;
}

vs_result anim_bake_weights(anim_ctx *ctx, const bool *use, double start,
                            double end, uint32_t sampler_base,
                            vs_anim_channel **ch, uint32_t *ch_count,
                            vs_anim_sampler **smp, uint32_t *smp_count)
{
    *ch_count = *smp_count = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < ctx->channel_count; ++i)
        n += use[i] && ctx->channels[i].morph;
    group_ref *refs = collada_tmp(ctx->c, n ? n : 1, sizeof *refs, "weights");
    anim_ref *g = collada_tmp(ctx->c, n ? n : 1, sizeof *g, "weights");
    group *groups = collada_tmp(ctx->c, n ? n : 1, sizeof *groups, "weights");
    *smp = collada_tmp(ctx->c, n ? n : 1, sizeof **smp, "weight samplers");
    if (!refs || !g || !groups || !*smp) return COLLADA_ERR(ctx->c);
    n = 0;
    for (uint32_t i = 0; i < ctx->channel_count; ++i)
        if (use[i] && ctx->channels[i].morph)
            refs[n++] = (group_ref){ctx->channels[i].morph, i};
    qsort(refs, n, sizeof *refs, group_cmp);
    shown *sh = NULL;
    uint32_t shown_count = 0;
    vs_result r = n ? shown_morphs(ctx, &sh, &shown_count) : VS_OK;
    if (r != VS_OK) return r;
    /* Each instance shows one morph, so there are at most shown_count
     * channels. */
    *ch = collada_tmp(ctx->c, shown_count ? shown_count : 1, sizeof **ch,
                      "weight channels");
    if (!*ch) return COLLADA_ERR(ctx->c);
    uint32_t group_count = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t e = i;
        while (e < n && refs[e].morph == refs[i].morph)
            ++e;
        groups[group_count++] = (group){i, e, refs[i].index};
        i = e;
    }
    qsort(groups, group_count, sizeof *groups, first_cmp);
    for (uint32_t q = 0; q < group_count; ++q) {
        uint32_t i = groups[q].begin, e = groups[q].end;
        uint32_t k = lower_bound(sh, shown_count, refs[i].morph), first = k;
        while (k < shown_count && sh[k].morph == refs[i].morph)
            ++k;
        /* A node whose mesh was left out (its geometry unreadable) or
         * has another number of targets cannot take the weights: its
         * channel goes, with a warning, so the clip still samples. */
        uint32_t m = ctx->channels[refs[i].index].weight_count, kept = 0;
        for (uint32_t j = first; j < k; ++j) {
            const vs_asset *a = ctx->c->asset;
            uint32_t t = node_target_count(a, &a->nodes[sh[j].node]);
            if (t == m) {
                sh[first + kept++] = sh[j];
                continue;
            }
            r = collada_warn(ctx->c, sh[j].instance, "url", "channel ignored",
                             "the animated morph has %u weights but the "
                             "node's mesh has %u morph targets",
                             m, t);
            if (r != VS_OK) return r;
        }
        k = first + kept;
        if (k == first) continue; /* a morph no node shows */
        for (uint32_t j = i; j < e; ++j)
            g[j - i] = (anim_ref){0, refs[j].index};
        if ((r = bake_morph(ctx, g, e - i, start, end, &(*smp)[*smp_count])))
            return r;
        for (uint32_t j = first; j < k; ++j)
            (*ch)[(*ch_count)++] =
                (vs_anim_channel){.node = sh[j].node,
                                  .path = VS_PATH_WEIGHTS,
                                  .sampler = sampler_base + *smp_count};
        ++*smp_count;
    }
    return VS_OK;
}
