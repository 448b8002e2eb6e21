/* SPDX-License-Identifier: MIT */
/* COLLADA materials: every <material> of <library_materials> becomes one
 * vs_material, its base colour the <diffuse><color> of the common profile
 * of its effect (<emission> for <constant>), or its base colour texture the
 * <diffuse><texture> (collada_image.c) on a white factor; white when absent.
 * <double_sided> in an extra technique of the effect or profile (as Maya
 * and FCollada write it) makes it double sided. Primitives name a material
 * symbol that each instance binds through <bind_material><instance_material
 * symbol target>. */
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

#define LIB "library_materials"

static const char *const shaders[] = {"lambert", "phong", "blinn", "constant"};

/* <extra><technique><double_sided>1 under the effect or its profile. */
static bool double_sided(collada_ctx *ctx, const xmlNode *effect)
{
    const xmlNode *scopes[2] = {effect, collada_child(effect, "profile_COMMON")};
    for (int s = 0; s < 2; ++s)
        for (const xmlNode *x = collada_child(scopes[s], "extra"); x;
             x = collada_next(x, "extra"))
            for (const xmlNode *t = collada_child(x, "technique"); t;
                 t = collada_next(t, "technique")) {
                const xmlNode *d = collada_child(t, "double_sided");
                const char *v = NULL;
                if (d && collada_text(ctx, d, &v) == VS_OK && v &&
                    (v[strspn(v, " \t\r\n")] == '1' ||
                     strncmp(v + strspn(v, " \t\r\n"), "true", 4) == 0))
                    return true;
            }
    return false;
}

static vs_result effect_color(collada_ctx *ctx, const xmlNode *material,
                              vs_material *m)
{
    float *out = m->base_color;
    out[0] = out[1] = out[2] = out[3] = 1.0f;
    m->base_color_texture = (vs_texture_ref){.image = -1, .scale = {1, 1}};
    m->alpha_cutoff = 0.5f;
    const xmlNode *ie = collada_child(material, "instance_effect");
    if (!ie) return VS_OK;
    const xmlNode *effect;
    vs_result r = collada_resolve(ctx, ie, "url", collada_attr(ie, "url"),
                                  "effect", &effect);
    if (r != VS_OK) return r;
    /* A malformed hint is no reason to refuse the file, nor an error
     * to leave behind. */
    vs_error quiet;
    vs_error *saved = ctx->error;
    ctx->error = &quiet;
    m->double_sided = double_sided(ctx, effect);
    ctx->error = saved;
    const xmlNode *tech =
        collada_child(collada_child(effect, "profile_COMMON"), "technique");
    const xmlNode *shader = NULL;
    for (size_t i = 0; i < sizeof shaders / sizeof shaders[0] && !shader; ++i)
        shader = collada_child(tech, shaders[i]);
    if (!shader) return VS_OK;
    const xmlNode *slot = collada_child(
        shader, collada_is(shader, "constant") ? "emission" : "diffuse");
    const xmlNode *texture = collada_child(slot, "texture");
    if (texture)
        return collada_diffuse_texture(ctx, effect, texture,
                                       &m->base_color_texture);
    const xmlNode *color = collada_child(slot, "color");
    if (!color) return VS_OK; /* nothing: neutral */
    float *v;
    uint32_t n;
    if ((r = collada_floats(ctx, color, &v, &n))) return r;
    if (n != 3 && n != 4)
        return collada_fail(ctx, VS_ERROR_INVALID, color, NULL,
                            "a colour has 3 or 4 values, found %u", n);
    memcpy(out, v, n * sizeof *v);
    return VS_OK;
}

/* An effect that cannot be read (colour values under a comma locale, an
 * effect in another file) only changes how the surface is shaded: the
 * material keeps the neutral white, and the refusal becomes a warning. */
static vs_result shading_flaw(collada_ctx *ctx, const xmlNode *material,
                              vs_material *m)
{
    for (int k = 0; k < 4; ++k)
        m->base_color[k] = 1.0f;
    m->base_color_texture = (vs_texture_ref){.image = -1, .scale = {1, 1}};
    return collada_demote(ctx, material, "id",
                          "its effect is not read, its colour is white");
}

vs_result collada_load_materials(collada_ctx *ctx)
{
    uint32_t n = 0;
    for (const xmlNode *m = collada_item(ctx->root, NULL, LIB, "material"); m;
         m = collada_item(ctx->root, m, LIB, "material"))
        ++n;
    vs_result r = collada_load_images(ctx);
    if (r != VS_OK || n == 0) return r;
    vs_material *mats =
        vs_priv_asset_calloc(ctx->asset, n, sizeof *mats, ctx->error, "materials");
    ctx->materials = collada_tmp(ctx, n, sizeof *ctx->materials, "materials");
    if (!mats || !ctx->materials) return COLLADA_ERR(ctx);
    n = 0;
    for (const xmlNode *m = collada_item(ctx->root, NULL, LIB, "material"); m;
         m = collada_item(ctx->root, m, LIB, "material"), ++n) {
        const char *name = collada_attr(m, "name");
        if (!name) name = collada_attr(m, "id");
        r = effect_color(ctx, m, &mats[n]);
        if (r == VS_ERROR_INVALID || r == VS_ERROR_UNSUPPORTED)
            r = shading_flaw(ctx, m, &mats[n]);
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
        /* The geometry keeps its lowest TEXCOORD set, the one the common
         * profile's textures read unless <bind_vertex_input> says
         * otherwise. */
        if (p[i].material >= 0 &&
            ctx->asset->materials[p[i].material].base_color_texture.image >= 0)
            p[i].base_color_texcoords = p[i].texcoords;
    }
    mesh->primitives = p;
    mesh->primitive_count = n;
    mesh->weight_count = g->weight_count;
    mesh->weights = g->weights;
    return VS_OK;
}
