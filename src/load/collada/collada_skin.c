/* SPDX-License-Identifier: MIT */
/* COLLADA skin controllers (COLLADA 1.4.1 spec, "skin", "joints",
 * "vertex_weights"). A <skin> is parsed once per <controller>: bind shape
 * matrix and inverse bind matrices (row-major in the file, column-major
 * here), and per COLLADA position its (joint, weight) pairs, spread to the
 * de-indexed vertices through vs_primitive.source_vertex and padded with
 * zero weights to a multiple of 4 influences. The skinning equation
 *     v' = sum_i w_i * JM_i * IBM_i * BSM * v   (spec, "skin")
 * is the runtime's J = G(joint) * IBM * BSM with world-space joint
 * matrices. Joint index -1 means "the bind shape": those influences get an
 * extra last joint, the node holding the instance, whose inverse bind
 * matrix is the inverse of its rest world matrix, so at rest they give
 * BSM * v and they follow that node when it moves. Joints are resolved per
 * <instance_controller> (collada_skin_joints.c). */
#include <string.h>

#include "asset/asset_internal.h"
#include "base/xform.h"
#include "load/collada/collada_skin.h"

static void row_major(const float *in, float *out)
{
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            out[c * 4 + r] = in[r * 4 + c];
}

static vs_result read_joints(collada_ctx *ctx, const xmlNode *skin,
                             skin_data *d)
{
    const xmlNode *joints = collada_child(skin, "joints");
    if (!joints)
        return collada_fail(ctx, VS_ERROR_INVALID, skin, "source",
                            "<skin> has no <joints>");
    const xmlNode *names_src = NULL, *ibm_src = NULL;
    vs_result r;
    for (const xmlNode *in = collada_child(joints, "input"); in;
         in = collada_next(in, "input")) {
        const char *sem = collada_attr(in, "semantic");
        const xmlNode **slot = !sem                        ? NULL
                               : strcmp(sem, "JOINT") == 0 ? &names_src
                               : strcmp(sem, "INV_BIND_MATRIX") == 0 ? &ibm_src
                                                                     : NULL;
        if (slot &&
            (r = collada_resolve(ctx, in, "source", collada_attr(in, "source"),
                                 "source", slot)))
            return r;
    }
    if (!names_src)
        return collada_fail(ctx, VS_ERROR_INVALID, joints, NULL,
                            "no JOINT input");
    if ((r = collada_source_names(ctx, names_src, &d->joint_names,
                                  &d->joint_count, &d->idref)))
        return r;
    uint32_t limit = asset_limits(ctx->asset)->max_joints;
    if (limit > 65536) limit = 65536; /* uint16 joint indices */
    if (d->joint_count > limit)
        return collada_fail(ctx, VS_ERROR_LIMIT, names_src, NULL,
                            "%u joints exceed the limit of %u", d->joint_count,
                            limit);
    if (!ibm_src) return VS_OK; /* identity, as glTF's absent IBMs */
    collada_floats_src m;
    if ((r = collada_source_floats(ctx, ibm_src, 16, &m))) return r;
    if (m.count != d->joint_count)
        return collada_fail(ctx, VS_ERROR_INVALID, ibm_src, NULL,
                            "%u inverse bind matrices for %u joints", m.count,
                            d->joint_count);
    d->ibm = collada_tmp(ctx, (size_t)m.count * 16, sizeof *d->ibm, "IBMs");
    if (!d->ibm) return COLLADA_ERR(ctx);
    for (uint32_t j = 0; j < m.count; ++j)
        row_major(m.values + 16 * (size_t)j, d->ibm + 16 * (size_t)j);
    return VS_OK;
}

/* The <vertex_weights> pairs as per-position lists (start has
 * position_count + 1 entries into joint / weight). */
typedef struct weights {
    uint32_t *start;
    int64_t *joint;
    float *weight;
    uint32_t max_count;
} weights;

static vs_result read_weight_inputs(collada_ctx *ctx, const xmlNode *vw,
                                    uint32_t *stride, uint32_t *joint_off,
                                    uint32_t *weight_off, collada_floats_src *w)
{
    const xmlNode *wsrc = NULL;
    bool has_joint = false;
    vs_result r;
    *stride = 0;
    for (const xmlNode *in = collada_child(vw, "input"); in;
         in = collada_next(in, "input")) {
        const char *sem = collada_attr(in, "semantic");
        uint32_t off;
        if ((r = collada_uint_attr(ctx, in, "offset", UINT32_MAX, &off)))
            return r;
        if (off >= 4096)
            return collada_fail(ctx, VS_ERROR_INVALID, in, "semantic",
                                "offset is missing or above 4095");
        if (off + 1 > *stride) *stride = off + 1;
        if (sem && strcmp(sem, "JOINT") == 0) {
            *joint_off = off;
            has_joint = true;
        } else if (sem && strcmp(sem, "WEIGHT") == 0) {
            *weight_off = off;
            if ((r = collada_resolve(ctx, in, "source",
                                     collada_attr(in, "source"), "source",
                                     &wsrc)))
                return r;
        }
    }
    if (!has_joint || !wsrc)
        return collada_fail(ctx, VS_ERROR_INVALID, vw, NULL,
                            "needs a JOINT and a WEIGHT input");
    return collada_source_floats(ctx, wsrc, 1, w);
}

static vs_result read_weights(collada_ctx *ctx, const xmlNode *skin,
                              skin_data *d, weights *out)
{
    const xmlNode *vw = collada_child(skin, "vertex_weights");
    if (!vw)
        return collada_fail(ctx, VS_ERROR_INVALID, skin, "source",
                            "<skin> has no <vertex_weights>");
    uint32_t count, stride, joff = 0, woff = 0, nvc = 0, nv = 0;
    collada_floats_src w;
    int64_t *vc = NULL, *v = NULL;
    const xmlNode *vc_e = collada_child(vw, "vcount");
    const xmlNode *v_e = collada_child(vw, "v");
    vs_result r;
    if ((r = collada_uint_attr(ctx, vw, "count", UINT32_MAX, &count)) ||
        (r = read_weight_inputs(ctx, vw, &stride, &joff, &woff, &w)) ||
        (vc_e && (r = collada_ints(ctx, vc_e, 0, &vc, &nvc))) ||
        (v_e && (r = collada_ints(ctx, v_e, -1, &v, &nv))))
        return r;
    if (!collada_attr(vw, "count"))
        return collada_fail(ctx, VS_ERROR_INVALID, vw, NULL,
                            "count is missing");
    /* Spec, "vertex_weights": one entry per vertex of the base mesh. */
    if (count != d->geometry->position_count)
        return collada_fail(ctx, VS_ERROR_INVALID, vw, NULL,
                            "count is %u but the skinned geometry has %u "
                            "positions",
                            count, d->geometry->position_count);
    if (nvc != count)
        return collada_fail(ctx, VS_ERROR_INVALID, vc_e ? vc_e : vw, NULL,
                            "<vcount> has %u entries but count is %u", nvc,
                            count);
    out->start =
        collada_tmp(ctx, (size_t)count + 1, sizeof *out->start, "weights");
    if (!out->start) return COLLADA_ERR(ctx);
    uint64_t sum = 0;
    out->max_count = 0;
    for (uint32_t i = 0; i < count; ++i) {
        out->start[i] = (uint32_t)(sum < UINT32_MAX ? sum : UINT32_MAX);
        sum += (uint64_t)vc[i];
        if (vc[i] > out->max_count) out->max_count = (uint32_t)vc[i];
    }
    if (sum * stride != nv)
        return collada_fail(ctx, VS_ERROR_INVALID, v_e ? v_e : vw, NULL,
                            "<vcount> adds up to %llu influences (%llu "
                            "indices) but <v> holds %u indices",
                            (unsigned long long)sum,
                            (unsigned long long)(sum * stride), nv);
    out->start[count] = (uint32_t)sum;
    out->joint = collada_tmp(ctx, sum ? sum : 1, sizeof *out->joint, "joints");
    out->weight =
        collada_tmp(ctx, sum ? sum : 1, sizeof *out->weight, "weights");
    if (!out->joint || !out->weight) return COLLADA_ERR(ctx);
    for (uint64_t k = 0; k < sum; ++k) {
        int64_t j = v[k * stride + joff], wi = v[k * stride + woff];
        if (j >= (int64_t)d->joint_count || wi < 0 || wi >= w.count)
            return collada_fail(ctx, VS_ERROR_INVALID, v_e, NULL,
                                "influence %llu: joint %lld of %u or weight "
                                "%lld of %u out of range",
                                (unsigned long long)k, (long long)j,
                                d->joint_count, (long long)wi, w.count);
        if (j < 0) d->bind_shape_joint = true;
        out->joint[k] = j;
        out->weight[k] = w.values[wi];
    }
    return VS_OK;
}

/* The geometry's primitives with JOINTS/WEIGHTS added. */
static vs_result skin_primitives(collada_ctx *ctx, skin_data *d,
                                 const weights *w)
{
    const collada_geometry *g = d->geometry;
    uint64_t ic64 = ((uint64_t)w->max_count + 3) / 4 * 4;
    if (ic64 > 65536)
        return set_error(ctx->error, VS_ERROR_LIMIT,
                         "%s: a vertex has %u influences (at most 65536 are "
                         "supported)",
                         ctx->src, w->max_count);
    uint32_t ic = ic64 ? (uint32_t)ic64 : 4;
    d->influence_count = ic;
    d->primitives =
        vs_priv_asset_calloc(ctx->asset, g->primitive_count ? g->primitive_count : 1,
                     sizeof *d->primitives, ctx->error, "skinned primitives");
    if (!d->primitives) return COLLADA_ERR(ctx);
    if (d->bind_shape_joint && d->joint_count >= 65536)
        return set_error(ctx->error, VS_ERROR_LIMIT,
                         "%s: 65536 joints and the bind shape joint do not fit "
                         "16-bit joint indices",
                         ctx->src);
    uint16_t bind_shape = (uint16_t)d->joint_count;
    for (uint32_t p = 0; p < g->primitive_count; ++p) {
        vs_primitive *prim = &d->primitives[p];
        *prim = g->primitives[p];
        size_t n = (size_t)prim->vertex_count * ic;
        uint16_t *joints = vs_priv_asset_calloc(ctx->asset, n ? n : 1, sizeof *joints,
                                        ctx->error, "JOINTS");
        float *weights = vs_priv_asset_calloc(ctx->asset, n ? n : 1, sizeof *weights,
                                      ctx->error, "WEIGHTS");
        if (!joints || !weights) return COLLADA_ERR(ctx);
        for (uint32_t v = 0; v < prim->vertex_count; ++v) {
            uint32_t src = prim->source_vertex[v];
            uint32_t k = 0;
            for (uint32_t i = w->start[src]; i < w->start[src + 1]; ++i, ++k) {
                joints[(size_t)v * ic + k] =
                    w->joint[i] < 0 ? bind_shape : (uint16_t)w->joint[i];
                weights[(size_t)v * ic + k] = w->weight[i];
            }
        }
        prim->influence_count = ic;
        prim->joints = joints;
        prim->weights = weights;
    }
    return VS_OK;
}

static vs_result parse_controller(collada_ctx *ctx, const xmlNode *controller,
                                  skin_data *d)
{
    const xmlNode *skin = collada_child(controller, "skin");
    if (!skin)
        return collada_fail(ctx, VS_ERROR_INVALID, controller, NULL,
                            "controller has no <skin>");
    const xmlNode *base;
    const char *source = collada_attr(skin, "source");
    vs_result r;
    /* Skeleton and animation exports keep the <skin> but not the mesh it
     * deforms: with no geometry there is nothing to skin and nothing this
     * skin's weights could misplace, so the instance loads without a mesh
     * (the nodes, joints included, and the clips stay). */
    if (!collada_lookup(ctx, source)) {
        d->geometry = NULL;
        return collada_warn(ctx, skin, "source", "loaded without the mesh",
                            "the skinned geometry does not exist");
    }
    if ((r = collada_resolve(ctx, skin, "source", source, NULL, &base)))
        return r;
    /* A <morph> under the skin: its targets ride on the skinned primitives,
     * so the runtime morphs first and skins the result, as the spec's
     * chain of controllers does. */
    if (collada_is(base, "controller") && collada_child(base, "morph") &&
        !collada_child(base, "skin"))
        r = collada_morph_get(ctx, base, &d->geometry);
    else if (collada_is(base, "controller"))
        return collada_fail(ctx, VS_ERROR_UNSUPPORTED, skin, "source",
                            "skinning a <skin> controller is not supported");
    else if (!collada_is(base, "geometry"))
        return collada_fail(ctx, VS_ERROR_INVALID, skin, "source",
                            "source is a <%s>, not a <geometry>",
                            (const char *)base->name);
    else
        r = collada_geometry_get(ctx, base, skin, &d->geometry);
    if (r != VS_OK) return r;
    xform_identity(d->bsm);
    const xmlNode *bsm = collada_child(skin, "bind_shape_matrix");
    if (bsm) {
        float m[16];
        if ((r = collada_floats_n(ctx, bsm, 16, m))) return r;
        row_major(m, d->bsm);
    }
    weights w = {NULL, NULL, NULL, 0};
    if ((r = read_joints(ctx, skin, d)) || (r = read_weights(ctx, skin, d, &w)))
        return r;
    return skin_primitives(ctx, d, &w);
}

vs_result collada_skin_get(collada_ctx *ctx, const xmlNode *controller,
                           const skin_data **out)
{
    if (controller->_private) {
        *out = controller->_private;
        return VS_OK;
    }
    skin_data *d = collada_tmp(ctx, 1, sizeof *d, "controller");
    if (!d) return COLLADA_ERR(ctx);
    vs_result r = parse_controller(ctx, controller, d);
    if (r != VS_OK) return r;
    ((xmlNode *)controller)->_private = d;
    *out = d;
    return VS_OK;
}
