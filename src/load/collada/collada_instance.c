/* SPDX-License-Identifier: MIT */
/* Mesh instances to vs_mesh / vs_skin, once every node exists: each
 * <instance_geometry> and <instance_controller> gets its own vs_mesh (its
 * <bind_material> picks the materials; the vertex arrays are shared between
 * instances of one geometry or controller), each <instance_controller> its
 * own vs_skin; an <instance_controller> whose skin lost its geometry gets
 * neither. Then the nodes move into the asset. */
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

static vs_result geometry_instance(collada_ctx *ctx,
                                   const collada_instance *inst, vs_mesh *mesh)
{
    const xmlNode *geometry;
    const collada_geometry *g;
    vs_result r;
    if ((r = collada_resolve(ctx, inst->element, "url",
                             collada_attr(inst->element, "url"), "geometry",
                             &geometry)) ||
        (r = collada_geometry_get(ctx, geometry, inst->element, &g)))
        return r;
    return collada_instance_mesh(ctx, inst->element, g, g->primitives, g->name,
                                 mesh);
}

/* An <instance_controller> of a <morph>: a mesh with targets, no skin. */
static vs_result morph_instance(collada_ctx *ctx, const collada_instance *inst,
                                vs_mesh *mesh)
{
    const xmlNode *controller;
    const collada_geometry *g;
    vs_result r;
    if ((r = collada_resolve(ctx, inst->element, "url",
                             collada_attr(inst->element, "url"), "controller",
                             &controller)) ||
        (r = collada_morph_get(ctx, controller, &g)))
        return r;
    return collada_instance_mesh(ctx, inst->element, g, g->primitives, g->name,
                                 mesh);
}

static bool skinned(collada_ctx *ctx, const collada_instance *inst)
{
    return collada_is(inst->element, "instance_controller") &&
           !collada_instance_is_morph(ctx, inst->element);
}

vs_result collada_build_instances(collada_ctx *ctx)
{
    vs_result r = collada_index_nodes(ctx);
    if (r != VS_OK) return r;
    uint32_t n = ctx->instance_count, skins = 0;
    for (uint32_t i = 0; i < n; ++i)
        skins += skinned(ctx, &ctx->instances[i]);
    vs_mesh *meshes = vs_priv_asset_calloc(ctx->asset, n ? n : 1, sizeof *meshes,
                                   ctx->error, "meshes");
    vs_skin *sk = vs_priv_asset_calloc(ctx->asset, skins ? skins : 1, sizeof *sk,
                               ctx->error, "skins");
    if (!meshes || !sk) return COLLADA_ERR(ctx);
    skins = 0;
    uint32_t mesh_count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const collada_instance *inst = &ctx->instances[i];
        bool loaded = true;
        if (skinned(ctx, inst)) {
            r = collada_load_controller(ctx, inst, &meshes[mesh_count],
                                        &sk[skins], (int32_t)skins, &loaded);
            skins += loaded;
        } else if (collada_is(inst->element, "instance_controller")) {
            r = morph_instance(ctx, inst, &meshes[mesh_count]);
        } else {
            r = geometry_instance(ctx, inst, &meshes[mesh_count]);
        }
        /* A geometry vskin cannot read (in another file, or a <brep> or
         * spline instead of a <mesh>): the node stays, without the mesh. */
        if (r == VS_ERROR_UNSUPPORTED &&
            (r = collada_demote(ctx, inst->element, "url",
                                "the node has no mesh")) == VS_OK)
            loaded = false;
        if (r != VS_OK) return r;
        if (loaded) ctx->nodes[inst->node].mesh = (int32_t)mesh_count++;
    }
    vs_node *nodes =
        vs_priv_asset_calloc(ctx->asset, ctx->node_count ? ctx->node_count : 1,
                     sizeof *nodes, ctx->error, "nodes");
    if (!nodes) return COLLADA_ERR(ctx);
    if (ctx->node_count)
        memcpy(nodes, ctx->nodes, ctx->node_count * sizeof *nodes);
    ctx->asset->nodes = nodes;
    ctx->asset->node_count = ctx->node_count;
    ctx->asset->meshes = meshes;
    ctx->asset->mesh_count = mesh_count;
    ctx->asset->skins = sk;
    ctx->asset->skin_count = skins;
    return VS_OK;
}
