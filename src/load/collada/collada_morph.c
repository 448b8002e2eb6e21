/* SPDX-License-Identifier: MIT */
/* COLLADA morph controllers (COLLADA 1.4.1 spec, "morph", "targets") as
 * glTF-style morph targets: per primitive of the base geometry, one
 * vs_morph_target per MORPH_TARGET geometry holding displacements from
 * the base, and the MORPH_WEIGHT values as the mesh's default weights.
 * The spec's two methods are both "base + sum_i w_i * d_i":
 *     NORMALIZED  (1 - sum w_i) base + sum w_i target_i: d_i = target_i - base
 *     RELATIVE    base + sum w_i target_i:               d_i = target_i
 * (FCollada states the same reading: NORMALIZED targets hold absolute
 * positions, RELATIVE ones displacements.) A target is paired with the base
 * by COLLADA position index, the index skin weights use too, so its
 * polygons may be listed in another order; normals belong to polygon
 * corners and are paired only when the target's polygons match the base's
 * corner for corner. */
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

typedef struct morph_inputs {
    bool relative;
    char **names; /* target geometry ids */
    uint32_t count;
    collada_floats_src weights;
} morph_inputs;

static vs_result read_inputs(collada_ctx *ctx, const xmlNode *morph,
                             morph_inputs *in)
{
    const char *method = collada_attr(morph, "method");
    if (method && strcmp(method, "RELATIVE") != 0 &&
        strcmp(method, "NORMALIZED") != 0)
        return collada_fail(ctx, VS_ERROR_INVALID, morph, "method",
                            "method must be NORMALIZED or RELATIVE");
    in->relative = method && strcmp(method, "RELATIVE") == 0;
    const xmlNode *targets = collada_child(morph, "targets");
    if (!targets)
        return collada_fail(ctx, VS_ERROR_INVALID, morph, "source",
                            "<morph> has no <targets>");
    const xmlNode *tsrc = NULL, *wsrc = NULL;
    vs_result r;
    for (const xmlNode *i = collada_child(targets, "input"); i;
         i = collada_next(i, "input")) {
        const char *sem = collada_attr(i, "semantic");
        const xmlNode **slot = !sem                               ? NULL
                               : strcmp(sem, "MORPH_TARGET") == 0 ? &tsrc
                               : strcmp(sem, "MORPH_WEIGHT") == 0 ? &wsrc
                                                                  : NULL;
        if (slot &&
            (r = collada_resolve(ctx, i, "source", collada_attr(i, "source"),
                                 "source", slot)))
            return r;
    }
    if (!tsrc || !wsrc)
        return collada_fail(ctx, VS_ERROR_INVALID, targets, NULL,
                            "needs a MORPH_TARGET and a MORPH_WEIGHT input");
    bool idref;
    if ((r = collada_source_names(ctx, tsrc, &in->names, &in->count, &idref)) ||
        (r = collada_source_floats(ctx, wsrc, 1, &in->weights)))
        return r;
    if (in->weights.count != in->count)
        return collada_fail(ctx, VS_ERROR_INVALID, wsrc, NULL,
                            "%u MORPH_WEIGHT values for %u MORPH_TARGETs",
                            in->weights.count, in->count);
    return VS_OK;
}

static vs_result target_geometry(collada_ctx *ctx, const xmlNode *morph,
                                 const char *name, const collada_geometry **out)
{
    size_t len = strlen(name);
    char *ref = collada_tmp(ctx, len + 2, 1, "morph target reference");
    if (!ref) return COLLADA_ERR(ctx);
    ref[0] = '#';
    memcpy(ref + 1, name, len + 1);
    const xmlNode *g;
    vs_result r = collada_resolve(ctx, morph, "source", ref, "geometry", &g);
    if (r != VS_OK) return r;
    return collada_geometry_get(ctx, g, morph, out);
}

/* Same polygons, corner for corner: the de-indexed vertices then match. */
static bool same_corners(const collada_geometry *a, const collada_geometry *b)
{
    if (a->primitive_count != b->primitive_count) return false;
    for (uint32_t p = 0; p < a->primitive_count; ++p) {
        const vs_primitive *x = &a->primitives[p], *y = &b->primitives[p];
        if (x->vertex_count != y->vertex_count ||
            x->index_count != y->index_count ||
            memcmp(x->source_vertex, y->source_vertex,
                   sizeof(uint32_t) * x->vertex_count) != 0 ||
            memcmp(x->indices, y->indices, sizeof(uint32_t) * x->index_count) !=
                0)
            return false;
    }
    return true;
}

/* The target's positions by COLLADA position index, and which are known:
 * its position source (all of them), else what its polygons use. A
 * target needs no polygons of its own (exporters write bare position
 * lists), as its positions pair with the base's by index. */
static vs_result target_positions(collada_ctx *ctx, const collada_geometry *t,
                                  float **pos, uint8_t **known)
{
    size_t n = t->position_count;
    *pos = collada_tmp(ctx, n ? 3 * n : 1, sizeof **pos, "morph positions");
    *known = collada_tmp(ctx, n ? n : 1, 1, "morph positions");
    if (!*pos || !*known) return COLLADA_ERR(ctx);
    if (t->source_positions) {
        memcpy(*pos, t->source_positions, 3 * n * sizeof **pos);
        memset(*known, 1, n);
        return VS_OK;
    }
    for (uint32_t p = 0; p < t->primitive_count; ++p) {
        const vs_primitive *q = &t->primitives[p];
        for (uint32_t u = 0; u < q->vertex_count; ++u) {
            uint32_t i = q->source_vertex[u];
            memcpy(*pos + 3 * (size_t)i, q->positions + 3 * (size_t)u,
                   3 * sizeof(float));
            (*known)[i] = 1;
        }
    }
    return VS_OK;
}

static float *deltas(collada_ctx *ctx, const float *target, const float *base,
                     uint32_t count, bool relative)
{
    float *d = vs_priv_asset_calloc(ctx->asset, count ? 3 * (size_t)count : 1,
                                    sizeof *d, ctx->error, "morph targets");
    for (size_t k = 0; d && k < 3 * (size_t)count; ++k)
        d[k] = relative ? target[k] : target[k] - base[k];
    return d;
}

/* Fills target t (geometry tg) of every primitive p: all[p * count + t]. */
static vs_result add_target(collada_ctx *ctx, const xmlNode *morph,
                            const morph_inputs *in, uint32_t t,
                            const collada_geometry *base,
                            const collada_geometry *tg, vs_morph_target *all)
{
    if (tg->position_count != base->position_count)
        return collada_fail(ctx, VS_ERROR_INVALID, morph, "source",
                            "MORPH_TARGET %u (\"%.120s\") has %u positions but "
                            "the base geometry has %u: a target must list the "
                            "base's vertices, in the same order",
                            t, in->names[t], tg->position_count,
                            base->position_count);
    float *raw;
    uint8_t *known;
    vs_result r = target_positions(ctx, tg, &raw, &known);
    if (r != VS_OK) return r;
    bool corners = same_corners(base, tg), dropped = false;
    for (uint32_t p = 0; p < base->primitive_count; ++p) {
        const vs_primitive *b = &base->primitives[p];
        float *pos =
            collada_tmp(ctx, b->vertex_count ? 3 * (size_t)b->vertex_count : 1,
                        sizeof *pos, "morph positions");
        if (!pos) return COLLADA_ERR(ctx);
        for (uint32_t v = 0; v < b->vertex_count; ++v) {
            uint32_t i = b->source_vertex[v];
            if (!known[i])
                return collada_fail(ctx, VS_ERROR_INVALID, morph, "source",
                                    "MORPH_TARGET %u (\"%.120s\"): no polygon "
                                    "uses position %u, which the base "
                                    "geometry's polygons use",
                                    t, in->names[t], i);
            memcpy(pos + 3 * (size_t)v, raw + 3 * (size_t)i, 3 * sizeof(float));
        }
        vs_morph_target *mt = &all[(size_t)p * in->count + t];
        mt->positions =
            deltas(ctx, pos, b->positions, b->vertex_count, in->relative);
        if (!mt->positions) return COLLADA_ERR(ctx);
        if (!b->normals) continue;
        const float *tn = corners ? tg->primitives[p].normals : NULL;
        if (!tn) {
            dropped = true;
            continue;
        }
        mt->normals =
            deltas(ctx, tn, b->normals, b->vertex_count, in->relative);
        if (!mt->normals) return COLLADA_ERR(ctx);
    }
    if (dropped)
        return collada_warn(ctx, morph, "source", "its normals are not morphed",
                            "MORPH_TARGET %u (\"%.120s\") %s", t, in->names[t],
                            corners ? "has no normals"
                                    : "lists its polygons differently from "
                                      "the base geometry, so its normals "
                                      "cannot be paired with the base's");
    return VS_OK;
}

static vs_result build(collada_ctx *ctx, const xmlNode *morph,
                       collada_geometry *out)
{
    morph_inputs in;
    const xmlNode *base_el;
    const collada_geometry *base;
    vs_result r;
    if ((r = read_inputs(ctx, morph, &in)) ||
        (r = collada_resolve(ctx, morph, "source",
                             collada_attr(morph, "source"), NULL, &base_el)))
        return r;
    if (!collada_is(base_el, "geometry"))
        return collada_fail(ctx, VS_ERROR_UNSUPPORTED, morph, "source",
                            "the base is a <%s>; only a <geometry> can be "
                            "morphed",
                            (const char *)base_el->name);
    if ((r = collada_geometry_get(ctx, base_el, morph, &base))) return r;
    *out = *base;
    uint32_t n = base->primitive_count;
    vs_primitive *prims = vs_priv_asset_calloc(
        ctx->asset, n ? n : 1, sizeof *prims, ctx->error, "morph primitives");
    float *weights =
        vs_priv_asset_calloc(ctx->asset, in.count ? in.count : 1,
                             sizeof *weights, ctx->error, "morph weights");
    size_t slots = (size_t)n * in.count;
    vs_morph_target *all =
        vs_priv_asset_calloc(ctx->asset, slots ? slots : 1, sizeof *all,
                             ctx->error, "morph targets");
    if (!prims || !weights || !all) return COLLADA_ERR(ctx);
    for (uint32_t p = 0; p < n; ++p) {
        prims[p] = base->primitives[p];
        prims[p].target_count = in.count;
        prims[p].targets = in.count ? all + (size_t)p * in.count : NULL;
    }
    for (uint32_t t = 0; t < in.count; ++t) {
        const collada_geometry *tg;
        if ((r = target_geometry(ctx, morph, in.names[t], &tg)) ||
            (r = add_target(ctx, morph, &in, t, base, tg, all)))
            return r;
    }
    memcpy(weights, in.weights.values, sizeof *weights * in.count);
    out->primitives = prims;
    out->weight_count = in.count;
    out->weights = weights;
    return VS_OK;
}

vs_result collada_morph_get(collada_ctx *ctx, const xmlNode *controller,
                            const collada_geometry **out)
{
    const xmlNode *morph = collada_child(controller, "morph");
    if (!morph)
        return collada_fail(ctx, VS_ERROR_INVALID, controller, NULL,
                            "controller has no <morph>");
    if (morph->_private) {
        *out = morph->_private;
        return VS_OK;
    }
    collada_geometry *g = collada_tmp(ctx, 1, sizeof *g, "morph");
    if (!g) return COLLADA_ERR(ctx);
    vs_result r = build(ctx, morph, g);
    if (r != VS_OK) return r;
    ((xmlNode *)morph)->_private = g;
    *out = g;
    return VS_OK;
}

bool collada_instance_is_morph(collada_ctx *ctx, const xmlNode *instance)
{
    const char *url = collada_attr(instance, "url");
    if (!url || url[0] != '#') return false;
    const xmlNode *c = collada_find(ctx, url + 1, strlen(url + 1));
    return collada_is(c, "controller") && collada_child(c, "morph") &&
           !collada_child(c, "skin");
}
