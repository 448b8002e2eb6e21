/* SPDX-License-Identifier: MIT */
/* COLLADA materials: every <material> of <library_materials> becomes one
 * vs_material, its base colour the <diffuse><color> of the common profile
 * of its effect (<emission> for <constant>), white when the diffuse is a
 * texture or absent. Primitives name a material symbol that each instance
 * binds through <bind_material><instance_material symbol target>. */
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

#define LIB "library_materials"

static const char *const shaders[] = {"lambert", "phong", "blinn", "constant"};

static vs_result effect_color(collada_ctx *ctx, const xmlNode *material,
                              float out[4])
{
    out[0] = out[1] = out[2] = out[3] = 1.0f;
    const xmlNode *ie = collada_child(material, "instance_effect");
    if (!ie) return VS_OK;
    const xmlNode *effect;
    vs_result r = collada_resolve(ctx, ie, "url", collada_attr(ie, "url"),
                                  "effect", &effect);
    if (r != VS_OK) return r;
    const xmlNode *tech =
        collada_child(collada_child(effect, "profile_COMMON"), "technique");
    const xmlNode *shader = NULL;
    for (size_t i = 0; i < sizeof shaders / sizeof shaders[0] && !shader; ++i)
        shader = collada_child(tech, shaders[i]);
    if (!shader) return VS_OK;
    const xmlNode *slot = collada_child(
        shader, collada_is(shader, "constant") ? "emission" : "diffuse");
    const xmlNode *color = collada_child(slot, "color");
    if (!color) return VS_OK; /* a texture or nothing: neutral */
    float *v;
    uint32_t n;
    if ((r = collada_floats(ctx, color, &v, &n))) return r;
    if (n != 3 && n != 4)
        return collada_fail(ctx, VS_ERROR_INVALID, color, NULL,
                            "a colour has 3 or 4 values, found %u", n);
    memcpy(out, v, n * sizeof *v);
    return VS_OK;
}

vs_result collada_load_materials(collada_ctx *ctx)
{
    uint32_t n = 0;
    for (const xmlNode *m = collada_item(ctx->root, NULL, LIB, "material"); m;
         m = collada_item(ctx->root, m, LIB, "material"))
        ++n;
    if (n == 0) return VS_OK;
    vs_material *mats =
        vs_priv_asset_calloc(ctx->asset, n, sizeof *mats, ctx->error, "materials");
    ctx->materials = collada_tmp(ctx, n, sizeof *ctx->materials, "materials");
    if (!mats || !ctx->materials) return COLLADA_ERR(ctx);
    n = 0;
    for (const xmlNode *m = collada_item(ctx->root, NULL, LIB, "material"); m;
         m = collada_item(ctx->root, m, LIB, "material"), ++n) {
        const char *name = collada_attr(m, "name");
        if (!name) name = collada_attr(m, "id");
        vs_result r = effect_color(ctx, m, mats[n].base_color);
        if (r != VS_OK) return r;
        if (!collada_strdup(ctx, name ? name : "", &mats[n].name))
            return COLLADA_ERR(ctx);
        ctx->materials[n] = m;
    }
    ctx->material_count = n;
    ctx->asset->materials = mats;
    ctx->asset->material_count = n;
    return VS_OK;
}

static int32_t material_index(const collada_ctx *ctx, const xmlNode *m)
{
    for (uint32_t i = 0; i < ctx->material_count; ++i)
        if (ctx->materials[i] == m) return (int32_t)i;
    return -1;
}

vs_result collada_bind_material(collada_ctx *ctx, const xmlNode *instance,
                                const char *symbol, int32_t *out)
{
    *out = -1;
    if (!symbol) return VS_OK;
    const xmlNode *tc = collada_child(collada_child(instance, "bind_material"),
                                      "technique_common");
    for (const xmlNode *im = collada_child(tc, "instance_material"); im;
         im = collada_next(im, "instance_material")) {
        const char *sym = collada_attr(im, "symbol");
        if (!sym || strcmp(sym, symbol) != 0) continue;
        const char *target = collada_attr(im, "target");
        const xmlNode *m = collada_lookup(ctx, target);
        /* A binding to nothing leaves the primitive without a material,
         * as three.js and assimp load it: the pose does not depend on it. */
        if (!m || !collada_is(m, "material"))
            return collada_warn(ctx, im, "target", "material binding dropped",
                                "\"%.120s\" is not a <material> of the "
                                "document",
                                target ? target : "");
        vs_result r =
            collada_resolve(ctx, im, "target", target, "material", &m);
        if (r != VS_OK) return r;
        *out = material_index(ctx, m);
        return VS_OK;
    }
    return VS_OK;
}

vs_result collada_instance_mesh(collada_ctx *ctx, const xmlNode *instance,
                                const collada_geometry *g,
                                const vs_primitive *prims, const char *name,
                                vs_mesh *mesh)
{
    uint32_t n = g->primitive_count;
    vs_primitive *p = vs_priv_asset_calloc(ctx->asset, n ? n : 1, sizeof *p, ctx->error,
                                   "primitives");
    if (!p || !collada_strdup(ctx, name, &mesh->name)) return COLLADA_ERR(ctx);
    for (uint32_t i = 0; i < n; ++i) {
        p[i] = prims[i];
        vs_result r =
            collada_bind_material(ctx, instance, g->symbols[i], &p[i].material);
        if (r != VS_OK) return r;
    }
    mesh->primitives = p;
    mesh->primitive_count = n;
    mesh->weight_count = g->weight_count;
    mesh->weights = g->weights;
    return VS_OK;
}
