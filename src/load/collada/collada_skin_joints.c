/* SPDX-License-Identifier: MIT */
/* Joints of an <instance_controller> resolved to runtime nodes. COLLADA
 * 1.4.1 ("instance_controller", "skeleton"): the <skeleton> elements name
 * where to start looking for the joint nodes. An IDREF_array holds node
 * ids; a Name_array holds sids (the spec's reading, used by Max and Maya)
 * and, from some exporters, node names or ids, so a name is matched to a
 * sid first, then a name, then an id. Each name is looked up under the
 * skeleton roots first, then in the instance's visual scene, then
 * anywhere, so instanced copies of a skeleton bind to their own copy. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/xform.h"
#include "load/collada/collada_skin.h"

static int cmp_key(const void *a, const void *b)
{
    const collada_key *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c) return c;
    return x->node < y->node ? -1 : x->node > y->node;
}

static vs_result build_keys(collada_ctx *ctx, size_t field, collada_key **out,
                            uint32_t *count)
{
    uint32_t n = 0;
    collada_key *keys = collada_tmp(ctx, ctx->node_count ? ctx->node_count : 1,
                                    sizeof *keys, "node index");
    if (!keys) return COLLADA_ERR(ctx);
    for (uint32_t i = 0; i < ctx->node_count; ++i) {
        const char *k =
            *(const char *const *)((const char *)&ctx->nodes[i] + field);
        if (k && *k) keys[n++] = (collada_key){k, i};
    }
    qsort(keys, n, sizeof *keys, cmp_key);
    *out = keys;
    *count = n;
    return VS_OK;
}

vs_result collada_index_nodes(collada_ctx *ctx)
{
    vs_result r;
    if ((r = build_keys(ctx, offsetof(vs_node, id), &ctx->by_id,
                        &ctx->by_id_count)) ||
        (r = build_keys(ctx, offsetof(vs_node, sid), &ctx->by_sid,
                        &ctx->by_sid_count)))
        return r;
    return build_keys(ctx, offsetof(vs_node, name), &ctx->by_name,
                      &ctx->by_name_count);
}

/* The first node in [lo, hi) with this key, or -1: the lower bound of
 * (key, lo) in the (key, node) order, so many equal keys cost nothing. */
static int64_t find_key(const collada_key *keys, uint32_t count,
                        const char *key, uint32_t lo, uint32_t hi)
{
    uint32_t a = 0, b = count;
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        int c = strcmp(keys[mid].key, key);
        if (c < 0 || (c == 0 && keys[mid].node < lo))
            a = mid + 1;
        else
            b = mid;
    }
    if (a < count && keys[a].node < hi && strcmp(keys[a].key, key) == 0)
        return keys[a].node;
    return -1;
}

static int64_t find_in(const collada_ctx *ctx, const char *name, bool idref,
                       uint32_t lo, uint32_t hi)
{
    int64_t n = -1;
    if (!idref) n = find_key(ctx->by_sid, ctx->by_sid_count, name, lo, hi);
    if (n < 0 && !idref)
        n = find_key(ctx->by_name, ctx->by_name_count, name, lo, hi);
    if (n < 0) n = find_key(ctx->by_id, ctx->by_id_count, name, lo, hi);
    return n;
}

/* Where a <skeleton> says joints are looked up: the runtime nodes [lo, hi)
 * (a subtree, or a whole visual scene); node is the skeleton root node, or
 * -1 for a scene. */
typedef struct skeleton_root {
    uint32_t lo, hi;
    int32_t node;
} skeleton_root;

static int64_t find_joint(const collada_ctx *ctx, const char *name, bool idref,
                          const skeleton_root *roots, uint32_t root_count,
                          uint32_t scene)
{
    for (uint32_t k = 0; k < root_count; ++k) {
        int64_t n = find_in(ctx, name, idref, roots[k].lo, roots[k].hi);
        if (n >= 0) return n;
    }
    int64_t n = find_in(ctx, name, idref, ctx->scene_begin[scene],
                        ctx->scene_begin[scene + 1]);
    return n >= 0 ? n : find_in(ctx, name, idref, 0, ctx->node_count);
}

/* One <skeleton>: a node of the scene is a subtree to search first. Two
 * other readings, each with a warning, follow three.js and assimp, which
 * use the skeleton only as where to look joints up: a <visual_scene> is
 * that whole scene, a <node> that no scene instances (it lives only in
 * <library_nodes>) leaves the lookup to the instance's scene. */
static vs_result skeleton_root_of(collada_ctx *ctx,
                                  const collada_instance *inst,
                                  const xmlNode *s, skeleton_root *out)
{
    const char *text;
    vs_result r = collada_text(ctx, s, &text);
    if (r != VS_OK) return r;
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        ++text;
    size_t len = strcspn(text, " \t\r\n");
    char *id = collada_tmp(ctx, len + 1, 1, "skeleton");
    if (!id) return COLLADA_ERR(ctx);
    memcpy(id, text, len);
    const xmlNode *e = collada_lookup(ctx, id);
    if (!e)
        return collada_fail(ctx, VS_ERROR_INVALID, s, NULL,
                            "\"%.120s\" is not the \"#id\" of a node in "
                            "the scene",
                            id);
    const xmlNode *target;
    if ((r = collada_resolve(ctx, s, NULL, id, NULL, &target))) return r;
    const char *key = id[0] == '#' ? id + 1 : id;
    int64_t node = find_in(ctx, key, true, ctx->scene_begin[inst->scene],
                           ctx->scene_begin[inst->scene + 1]);
    if (node < 0) node = find_in(ctx, key, true, 0, ctx->node_count);
    if (node >= 0) {
        *out = (skeleton_root){(uint32_t)node, ctx->subtree_end[(uint32_t)node],
                               (int32_t)node};
        return VS_OK;
    }
    uint32_t scene = inst->scene;
    if (collada_is(e, "visual_scene") && e->_private) {
        scene = (uint32_t)((const uint32_t *)e->_private - ctx->scene_begin);
        r = collada_warn(ctx, s, NULL, "joints looked up in that whole scene",
                         "\"%.120s\" names a <visual_scene>, not a node", id);
    } else if (collada_is(e, "node")) {
        r = collada_warn(ctx, s, NULL,
                         "joints looked up in the instance's whole scene",
                         "\"%.120s\" names a <node> that no visual scene "
                         "holds",
                         id);
    } else {
        return collada_fail(ctx, VS_ERROR_INVALID, s, NULL,
                            "\"%.120s\" is a <%s>, not a node in the scene", id,
                            (const char *)e->name);
    }
    *out = (skeleton_root){ctx->scene_begin[scene], ctx->scene_begin[scene + 1],
                           -1};
    return r;
}

static vs_result skeleton_roots(collada_ctx *ctx, const collada_instance *inst,
                                skeleton_root **out, uint32_t *count)
{
    uint32_t n = 0;
    for (const xmlNode *s = collada_child(inst->element, "skeleton"); s;
         s = collada_next(s, "skeleton"))
        ++n;
    skeleton_root *roots =
        collada_tmp(ctx, n ? n : 1, sizeof *roots, "skeletons");
    if (!roots) return COLLADA_ERR(ctx);
    n = 0;
    for (const xmlNode *s = collada_child(inst->element, "skeleton"); s;
         s = collada_next(s, "skeleton")) {
        vs_result r = skeleton_root_of(ctx, inst, s, &roots[n++]);
        if (r != VS_OK) return r;
    }
    *out = roots;
    *count = n;
    return VS_OK;
}

/* The rest world matrix of a runtime node before the asset is finalised. */
static void rest_world(const collada_ctx *ctx, uint32_t node, float out[16])
{
    xform_identity(out);
    for (int32_t n = (int32_t)node; n >= 0; n = ctx->nodes[n].parent)
        xform_mul(ctx->nodes[n].matrix, out, out);
}

static vs_result fill_skin(collada_ctx *ctx, const collada_instance *inst,
                           const xmlNode *controller, const skin_data *d,
                           vs_skin *skin)
{
    skeleton_root *roots = NULL;
    uint32_t root_count = 0;
    vs_result r = skeleton_roots(ctx, inst, &roots, &root_count);
    if (r != VS_OK) return r;
    uint32_t n = d->joint_count + (d->bind_shape_joint ? 1 : 0);
    uint32_t *joints = vs_priv_asset_calloc(ctx->asset, n ? n : 1, sizeof *joints,
                                    ctx->error, "skin joints");
    float *ibm = NULL;
    if (d->ibm || d->bind_shape_joint)
        ibm = vs_priv_asset_calloc(ctx->asset, n ? n : 1, 16 * sizeof *ibm, ctx->error,
                           "inverse bind matrices");
    if (!joints || ((d->ibm || d->bind_shape_joint) && !ibm))
        return COLLADA_ERR(ctx);
    for (uint32_t j = 0; j < d->joint_count; ++j) {
        int64_t node = find_joint(ctx, d->joint_names[j], d->idref, roots,
                                  root_count, inst->scene);
        if (node < 0)
            return collada_fail(ctx, VS_ERROR_INVALID, inst->element, "url",
                                "joint %u \"%.120s\" matches no node %s%s", j,
                                d->joint_names[j],
                                d->idref ? "id" : "sid, name or id",
                                root_count ? " under its <skeleton> roots or "
                                             "in the scene"
                                           : " in the scene");
        joints[j] = (uint32_t)node;
        if (d->ibm)
            memcpy(ibm + 16 * (size_t)j, d->ibm + 16 * (size_t)j,
                   16 * sizeof *ibm);
        else if (ibm)
            xform_identity(ibm + 16 * (size_t)j);
    }
    if (d->bind_shape_joint) {
        float world[16];
        rest_world(ctx, inst->node, world);
        joints[d->joint_count] = inst->node;
        if (!xform_invert(world, ibm + 16 * (size_t)d->joint_count))
            return collada_fail(ctx, VS_ERROR_INVALID, inst->element, "url",
                                "influences with joint -1 (the bind shape) "
                                "need an invertible node transform");
    }
    const char *name = collada_attr(controller, "name");
    if (!name) name = collada_attr(controller, "id");
    if (!collada_strdup(ctx, name ? name : "", &skin->name))
        return COLLADA_ERR(ctx);
    skin->joint_count = n;
    skin->joints = joints;
    skin->inverse_bind_matrices = ibm;
    xform_copy(d->bsm, skin->bind_shape_matrix);
    skin->skeleton = root_count ? roots[0].node : -1;
    return VS_OK;
}

vs_result collada_load_controller(collada_ctx *ctx,
                                  const collada_instance *inst, vs_mesh *mesh,
                                  vs_skin *skin, int32_t skin_index,
                                  bool *loaded)
{
    const xmlNode *controller;
    const skin_data *d;
    vs_result r;
    *loaded = false;
    if ((r = collada_resolve(ctx, inst->element, "url",
                             collada_attr(inst->element, "url"), "controller",
                             &controller)) ||
        (r = collada_skin_get(ctx, controller, &d)))
        return r;
    if (!d->geometry) return VS_OK; /* warned once per controller */
    if ((r = fill_skin(ctx, inst, controller, d, skin))) return r;
    *loaded = true;
    ctx->nodes[inst->node].skin = skin_index;
    return collada_instance_mesh(ctx, inst->element, d->geometry, d->primitives,
                                 d->geometry->name, mesh);
}
