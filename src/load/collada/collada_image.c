/* SPDX-License-Identifier: MIT */
/* COLLADA images and diffuse textures: every <image> of <library_images>
 * becomes one vs_image (its <init_from> kept as a URI, not read), and a
 * <diffuse><texture texture="S"> is resolved the common profile's way,
 * sampler2D newparam S -> surface newparam -> <init_from> image id (1.4) or
 * <instance_image url> (1.5), or S naming the image itself as some
 * exporters write. A texture that does not resolve is a warning: the
 * material keeps its colour. */
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "load/collada/collada_loader.h"

#define LIB "library_images"

/* The file name of an image: <init_from> text (1.4) or <init_from><ref>
 * (1.5); a "file://" prefix is dropped, leaving the path to the URI rules
 * of vs_asset_image_bytes (an absolute one is refused unless the load
 * allowed external paths). */
static vs_result image_uri(collada_ctx *ctx, const xmlNode *image,
                           const char **out)
{
    *out = NULL;
    const xmlNode *from = collada_child(image, "init_from");
    if (from && collada_child(from, "ref")) from = collada_child(from, "ref");
    if (!from) return VS_OK;
    const char *text;
    vs_result r = collada_text(ctx, from, &text);
    if (r != VS_OK) return r;
    while (*text == ' ' || *text == '\n' || *text == '\t' || *text == '\r')
        ++text;
    if (strncmp(text, "file://", 7) == 0) text += 7;
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\n' ||
                 text[n - 1] == '\t' || text[n - 1] == '\r'))
        --n;
    *out = vs_priv_asset_strndup(ctx->asset, text, n);
    if (!*out)
        return collada_fail(ctx, VS_ERROR_LIMIT, image, NULL,
                            "exceeds the memory limit");
    return VS_OK;
}

vs_result collada_load_images(collada_ctx *ctx)
{
    uint32_t n = 0;
    for (const xmlNode *m = collada_item(ctx->root, NULL, LIB, "image"); m;
         m = collada_item(ctx->root, m, LIB, "image"))
        ++n;
    if (n == 0) return VS_OK;
    vs_image *imgs =
        vs_priv_asset_calloc(ctx->asset, n, sizeof *imgs, ctx->error, "images");
    if (!imgs) return COLLADA_ERR(ctx);
    n = 0;
    for (const xmlNode *m = collada_item(ctx->root, NULL, LIB, "image"); m;
         m = collada_item(ctx->root, m, LIB, "image"), ++n) {
        const char *name = collada_attr(m, "name");
        if (!name) name = collada_attr(m, "id");
        vs_result r = image_uri(ctx, m, &imgs[n].uri);
        if (r != VS_OK) return r;
        if (!collada_strdup(ctx, name ? name : "", &imgs[n].name))
            return COLLADA_ERR(ctx);
        imgs[n].mime_type = "";
        if (!imgs[n].uri) {
            imgs[n].uri = "";
            char where[64];
            snprintf(where, sizeof where, "line %ld: <image>",
                     xmlGetLineNo((xmlNode *)m));
            r = asset_warn(ctx->asset, ctx->error, where, "the image is empty",
                           "it has no <init_from>");
            if (r != VS_OK) return r;
        }
        /* The index, for the textures that name this element. */
        ((xmlNode *)m)->_private = (void *)(uintptr_t)(n + 1);
    }
    ctx->asset->images = imgs;
    ctx->asset->image_count = n;
    return VS_OK;
}

/* <newparam sid="sid"> of the effect or of its profile_COMMON. */
static const xmlNode *newparam(const xmlNode *effect, const xmlNode *profile,
                               const char *sid)
{
    const xmlNode *scopes[2] = {profile, effect};
    for (int s = 0; s < 2; ++s)
        for (const xmlNode *p = collada_child(scopes[s], "newparam"); p;
             p = collada_next(p, "newparam")) {
            const char *v = collada_attr(p, "sid");
            if (v && strcmp(v, sid) == 0) return p;
        }
    return NULL;
}

/* The <image> an id (without '#') names, or NULL; errors are not the
 * load's, as a texture that does not resolve only loses the texture. */
static const xmlNode *image_by_id(collada_ctx *ctx, const xmlNode *at,
                                  const char *id)
{
    char ref[256];
    if (!id || strlen(id) + 2 > sizeof ref) return NULL;
    snprintf(ref, sizeof ref, "%s%s", id[0] == '#' ? "" : "#", id);
    const xmlNode *img = NULL;
    vs_result r = collada_resolve(ctx, at, NULL, ref, "image", &img);
    return r == VS_OK ? img : NULL;
}

/* The image a texture's sampler reads, or NULL. */
static const xmlNode *sampler_image(collada_ctx *ctx, const xmlNode *effect,
                                    const xmlNode *profile,
                                    const xmlNode *texture)
{
    const char *sid = collada_attr(texture, "texture");
    if (!sid) return NULL;
    const xmlNode *sp = newparam(effect, profile, sid);
    const xmlNode *s2d = collada_child(sp, "sampler2D");
    if (!s2d) return image_by_id(ctx, texture, sid);
    const xmlNode *inst = collada_child(s2d, "instance_image");
    if (inst) return image_by_id(ctx, inst, collada_attr(inst, "url"));
    const xmlNode *src = collada_child(s2d, "source");
    const char *surface_sid = NULL;
    if (src && collada_text(ctx, src, &surface_sid) != VS_OK) return NULL;
    const xmlNode *surface = collada_child(
        newparam(effect, profile, surface_sid ? surface_sid : ""), "surface");
    const xmlNode *from = collada_child(surface, "init_from");
    const char *id = NULL;
    if (from && collada_text(ctx, from, &id) != VS_OK) return NULL;
    return image_by_id(ctx, from, id);
}

vs_result collada_diffuse_texture(collada_ctx *ctx, const xmlNode *effect,
                                  const xmlNode *texture, vs_texture_ref *out)
{
    *out = (vs_texture_ref){.image = -1, .scale = {1.0f, 1.0f}};
    const xmlNode *profile = collada_child(effect, "profile_COMMON");
    /* What fails on the way is reported as the warning below, not as the
     * load's error. */
    vs_error quiet;
    vs_error *saved = ctx->error;
    ctx->error = &quiet;
    const xmlNode *img = sampler_image(ctx, effect, profile, texture);
    ctx->error = saved;
    if (img && img->_private) {
        out->image = (int32_t)((uintptr_t)img->_private - 1);
        return VS_OK;
    }
    char where[64];
    snprintf(where, sizeof where, "line %ld: <texture>",
             xmlGetLineNo((xmlNode *)texture));
    const char *sid = collada_attr(texture, "texture");
    return asset_warn(ctx->asset, ctx->error, where, "the texture is ignored",
                      "texture=\"%.120s\" names no <image> through the "
                      "effect's sampler2D and surface",
                      sid ? sid : "");
}
