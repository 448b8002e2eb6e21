/* SPDX-License-Identifier: MIT */
/* COLLADA visual scenes to runtime nodes (COLLADA 1.4.1 spec, "node",
 * "instance_node", "visual_scene"). Every <node> becomes one vs_node in
 * pre-order, JOINT nodes included; <instance_node url> instantiates a copy
 * of the referenced node's subtree at that place. A node's transform
 * elements are kept as its stack (collada_node_stack, for animations) and
 * their product is its rest matrix. The first <instance_geometry> or
 * <instance_controller> of a node is that node's mesh; each further one gets
 * an extra child node (identity transform, name "<node>#<n>") because a
 * node holds one mesh and one skin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/xform.h"
#include "load/collada/collada_loader.h"

#define LIB "library_visual_scenes"

static const struct {
    const char *name;
    collada_xform_kind kind;
    uint32_t values;
} xform_elements[] = {
    {"matrix", COLLADA_XF_MATRIX, 16}, {"translate", COLLADA_XF_TRANSLATE, 3},
    {"rotate", COLLADA_XF_ROTATE, 4},  {"scale", COLLADA_XF_SCALE, 3},
    {"lookat", COLLADA_XF_LOOKAT, 9},  {"skew", COLLADA_XF_SKEW, 7},
};

static int xform_element(const xmlNode *e)
{
    for (size_t i = 0; i < sizeof xform_elements / sizeof xform_elements[0];
         ++i)
        if (collada_is(e, xform_elements[i].name)) return (int)i;
    return -1;
}

static bool is_instance(const xmlNode *e)
{
    return collada_is(e, "instance_geometry") ||
           collada_is(e, "instance_controller");
}

/* A new node at the end of the arrays; *out its index. */
static vs_result new_node(collada_ctx *ctx, const xmlNode *at, int32_t parent,
                          uint32_t *out)
{
    if (ctx->node_count >= asset_limits(ctx->asset)->max_nodes)
        return collada_fail(ctx, VS_ERROR_LIMIT, at, NULL,
                            "more than %u nodes (the node limit)",
                            asset_limits(ctx->asset)->max_nodes);
    if (ctx->node_count == ctx->node_cap) {
        const vs_allocator *alloc = asset_allocator(ctx->asset);
        const size_t old = ctx->node_cap;
        uint32_t cap = ctx->node_cap ? ctx->node_cap * 2 : 64;
        vs_node *nodes = mem_grow(alloc, ctx->nodes, old * sizeof *nodes,
                                  cap * sizeof *nodes);
        if (nodes) ctx->nodes = nodes;
        collada_node_stack *stacks =
            nodes ? mem_grow(alloc, ctx->stacks, old * sizeof *stacks,
                             cap * sizeof *stacks)
                  : NULL;
        if (stacks) ctx->stacks = stacks;
        uint32_t *ends = stacks
                             ? mem_grow(alloc, ctx->subtree_end,
                                        old * sizeof *ends, cap * sizeof *ends)
                             : NULL;
        if (!ends)
            return set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: nodes: out of memory", ctx->src);
        ctx->subtree_end = ends;
        ctx->node_cap = cap;
    }
    uint32_t i = ctx->node_count++;
    vs_node *n = &ctx->nodes[i];
    memset(n, 0, sizeof *n);
    memset(&ctx->stacks[i], 0, sizeof ctx->stacks[i]);
    n->name = "";
    n->parent = parent;
    n->mesh = -1;
    n->skin = -1;
    n->has_matrix = true;
    xform_identity(n->matrix);
    xform_trs_identity(&n->rest_trs);
    ctx->subtree_end[i] = i + 1;
    *out = i;
    return VS_OK;
}

static vs_result add_instance(collada_ctx *ctx, const xmlNode *e, uint32_t node,
                              uint32_t scene)
{
    if (ctx->instance_count == ctx->instance_cap) {
        uint32_t cap = ctx->instance_cap ? ctx->instance_cap * 2 : 16;
        collada_instance *p =
            mem_grow(asset_allocator(ctx->asset), ctx->instances,
                     ctx->instance_cap * sizeof *p, cap * sizeof *p);
        if (!p)
            return set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: instances: out of memory", ctx->src);
        ctx->instances = p;
        ctx->instance_cap = cap;
    }
    ctx->instances[ctx->instance_count++] = (collada_instance){e, node, scene};
    return VS_OK;
}

/* A <skew> near +-90 degrees would shear coordinates out by a huge or
 * infinite factor: refused instead of giving a silently wrong pose. */
static vs_result skew_fail(collada_ctx *ctx, const xmlNode *skew,
                           const xmlNode *node, float angle, double shear)
{
    const char *name = collada_attr(node, "name");
    if (!name) name = collada_attr(node, "id");
    return collada_fail(ctx, VS_ERROR_INVALID, skew, "sid",
                        "node \"%.120s\": <skew> angle %g is degenerate: its "
                        "shear factor %g is not below %g, beyond which the "
                        "matrix cannot be inverted in float",
                        name ? name : "", (double)angle, shear,
                        COLLADA_SKEW_MAX_SHEAR);
}

/* The transform stack of <node> e, in document order. */
static vs_result read_stack(collada_ctx *ctx, const xmlNode *e, uint32_t node)
{
    uint32_t n = 0;
    for (const xmlNode *c = e->children; c; c = c->next)
        n += xform_element(c) >= 0;
    collada_xform *xf = collada_tmp(ctx, n ? n : 1, sizeof *xf, "transforms");
    if (!xf) return COLLADA_ERR(ctx);
    n = 0;
    for (const xmlNode *c = e->children; c; c = c->next) {
        int k = xform_element(c);
        if (k < 0) continue;
        xf[n].kind = xform_elements[k].kind;
        xf[n].sid = collada_attr(c, "sid");
        vs_result r =
            collada_floats_n(ctx, c, xform_elements[k].values, xf[n].values);
        if (r != VS_OK) return r;
        double shear;
        if (xf[n].kind == COLLADA_XF_SKEW &&
            collada_skew_degenerate(xf[n].values, &shear))
            return skew_fail(ctx, c, e, xf[n].values[0], shear);
        ++n;
    }
    collada_node_stack *st = &ctx->stacks[node];
    st->id = collada_attr(e, "id");
    st->sid = collada_attr(e, "sid");
    st->xforms = xf;
    st->xform_count = n;
    vs_node *vn = &ctx->nodes[node];
    collada_stack_matrix(xf, n, vn->matrix);
    xform_decompose(vn->matrix, &vn->rest_trs);
    return VS_OK;
}

static vs_result node_strings(collada_ctx *ctx, const xmlNode *e, uint32_t node)
{
    const char *name = collada_attr(e, "name");
    if (!name) name = collada_attr(e, "id");
    vs_node *n = &ctx->nodes[node];
    if (!collada_strdup(ctx, name ? name : "", &n->name) ||
        !collada_strdup(ctx, collada_attr(e, "id"), &n->id) ||
        !collada_strdup(ctx, collada_attr(e, "sid"), &n->sid))
        return COLLADA_ERR(ctx);
    return VS_OK;
}

/* Extra child nodes for the second and later mesh instances of a node. */
static vs_result extra_instances(collada_ctx *ctx, const xmlNode *e,
                                 uint32_t node, uint32_t scene,
                                 uint32_t *children, uint32_t *k)
{
    uint32_t seen = 0;
    for (const xmlNode *c = e->children; c; c = c->next) {
        if (!is_instance(c)) continue;
        vs_result r;
        if (seen++ == 0) {
            if ((r = add_instance(ctx, c, node, scene))) return r;
            continue;
        }
        uint32_t extra;
        if ((r = new_node(ctx, c, (int32_t)node, &extra))) return r;
        const char *base = ctx->nodes[node].name;
        size_t len = strlen(base) + 16;
        char *name = vs_priv_asset_calloc(ctx->asset, len, 1, ctx->error, "node name");
        if (!name) return COLLADA_ERR(ctx);
        snprintf(name, len, "%s#%u", base, seen - 1);
        ctx->nodes[extra].name = name;
        children[(*k)++] = extra;
        if ((r = add_instance(ctx, c, extra, scene))) return r;
    }
    return VS_OK;
}

/* e: the <node>; at: where it is placed (itself or an <instance_node>). */
static vs_result walk_node(collada_ctx *ctx, const xmlNode *e,
                           const xmlNode *at, int32_t parent, uint32_t depth,
                           uint32_t scene, uint32_t *out)
{
    if (depth > asset_limits(ctx->asset)->max_depth)
        return collada_fail(ctx, VS_ERROR_LIMIT, at,
                            collada_is(at, "node") ? NULL : "url",
                            "node hierarchy deeper than %u levels (the depth "
                            "limit; an <instance_node> cycle?)",
                            asset_limits(ctx->asset)->max_depth);
    uint32_t node;
    vs_result r;
    if ((r = new_node(ctx, at, parent, &node)) ||
        (r = node_strings(ctx, e, node)) || (r = read_stack(ctx, e, node)))
        return r;
    uint32_t child_count = 0, instances = 0;
    for (const xmlNode *c = e->children; c; c = c->next) {
        child_count += collada_is(c, "node") || collada_is(c, "instance_node");
        instances += is_instance(c);
    }
    if (instances > 1) child_count += instances - 1;
    uint32_t *children = NULL;
    if (child_count) {
        children = vs_priv_asset_calloc(ctx->asset, child_count, sizeof *children,
                                ctx->error, "node children");
        if (!children) return COLLADA_ERR(ctx);
    }
    uint32_t k = 0;
    if ((r = extra_instances(ctx, e, node, scene, children, &k))) return r;
    for (const xmlNode *c = e->children; c; c = c->next) {
        const xmlNode *target = c;
        if (collada_is(c, "instance_node")) {
            r = collada_resolve(ctx, c, "url", collada_attr(c, "url"), "node",
                                &target);
            /* A node in another file (vskin reads only the one given):
             * this copy of it is left out, the rest of the tree stays. */
            if (r == VS_ERROR_UNSUPPORTED &&
                (r = collada_demote(ctx, c, "url", "the instance is left "
                                                   "out")) == VS_OK)
                continue;
            if (r != VS_OK) return r;
        } else if (!collada_is(c, "node")) {
            continue;
        }
        if ((r = walk_node(ctx, target, c, (int32_t)node, depth + 1, scene,
                           &children[k++])))
            return r;
    }
    ctx->nodes[node].children = children;
    ctx->nodes[node].child_count = k;
    ctx->subtree_end[node] = ctx->node_count;
    *out = node;
    return VS_OK;
}

static vs_result walk_scene(collada_ctx *ctx, const xmlNode *vs, uint32_t s,
                            vs_scene *out)
{
    uint32_t n = 0;
    for (const xmlNode *c = collada_child(vs, "node"); c;
         c = collada_next(c, "node"))
        ++n;
    uint32_t *roots = vs_priv_asset_calloc(ctx->asset, n ? n : 1, sizeof *roots,
                                   ctx->error, "scene nodes");
    const char *name = collada_attr(vs, "name");
    if (!name) name = collada_attr(vs, "id");
    if (!roots || !collada_strdup(ctx, name ? name : "", &out->name))
        return COLLADA_ERR(ctx);
    n = 0;
    for (const xmlNode *c = collada_child(vs, "node"); c;
         c = collada_next(c, "node")) {
        vs_result r = walk_node(ctx, c, c, -1, 1, s, &roots[n++]);
        if (r != VS_OK) return r;
    }
    out->nodes = roots;
    out->node_count = n;
    return VS_OK;
}

vs_result collada_load_scenes(collada_ctx *ctx)
{
    uint32_t n = 0;
    for (const xmlNode *v = collada_item(ctx->root, NULL, LIB, "visual_scene");
         v; v = collada_item(ctx->root, v, LIB, "visual_scene"))
        ++n;
    vs_scene *scenes = vs_priv_asset_calloc(ctx->asset, n ? n : 1, sizeof *scenes,
                                    ctx->error, "scenes");
    ctx->scene_begin =
        collada_tmp(ctx, n + 1, sizeof *ctx->scene_begin, "scenes");
    if (!scenes || !ctx->scene_begin) return COLLADA_ERR(ctx);
    /* <scene><instance_visual_scene> names the scene to show (spec,
     * "scene"); without it every root is shown. */
    const xmlNode *ivs = collada_child(collada_child(ctx->root, "scene"),
                                       "instance_visual_scene");
    const xmlNode *shown = NULL;
    vs_result r;
    if (ivs && (r = collada_resolve(ctx, ivs, "url", collada_attr(ivs, "url"),
                                    "visual_scene", &shown)))
        return r;
    uint32_t s = 0;
    for (const xmlNode *v = collada_item(ctx->root, NULL, LIB, "visual_scene");
         v; v = collada_item(ctx->root, v, LIB, "visual_scene"), ++s) {
        ctx->scene_begin[s] = ctx->node_count;
        /* The element finds its scene's node range in O(1) (a <skeleton>
         * may name the scene, collada_skin_joints.c). */
        ((xmlNode *)v)->_private = &ctx->scene_begin[s];
        if (v == shown) ctx->asset->default_scene = (int32_t)s;
        if ((r = walk_scene(ctx, v, s, &scenes[s]))) return r;
    }
    ctx->scene_begin[n] = ctx->node_count;
    ctx->asset->scenes = scenes;
    ctx->asset->scene_count = n;
    return VS_OK;
}
