/* SPDX-License-Identifier: MIT */
/* Entry point of the COLLADA animation import: index ids, parse every
 * channel, then build the clips. COLLADA 1.4.1 <library_animation_clips>:
 * each <animation_clip> plays the <animation>s it instances (with their
 * nested ones) between its start (default 0) and end (default: the last
 * key). A file without clips gets one clip with every channel, named after
 * the file. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_anim.h"

static vs_result attr_time(anim_ctx *ctx, const xmlNode *clip, const char *name,
                           double fallback, double *out)
{
    const char *v = collada_attr(clip, name);
    *out = fallback;
    if (!v) return VS_OK;
    char *end = NULL;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end != '\0' || errno != 0 || !isfinite(x))
        return collada_fail(ctx->c, VS_ERROR_INVALID, clip, NULL,
                            "%s is not a finite number", name);
    *out = x;
    return VS_OK;
}

/* True when the channel lies inside one of the instanced <animation>s. */
static bool in_animations(const xmlNode *channel, const xmlNode *const *anims,
                          uint32_t count)
{
    for (const xmlNode *p = channel->parent; p && collada_is(p, "animation");
         p = p->parent)
        for (uint32_t i = 0; i < count; ++i)
            if (anims[i] == p) return true;
    return false;
}

static vs_result bake_animation_clip(anim_ctx *ctx, const xmlNode *clip,
                                     bool *use, vs_clip *out)
{
    double start, end;
    vs_result r;
    if ((r = attr_time(ctx, clip, "start", 0.0, &start)) ||
        (r = attr_time(ctx, clip, "end", INFINITY, &end)))
        return r;
    if (end < start)
        return collada_fail(ctx->c, VS_ERROR_INVALID, clip, "id",
                            "end %g is before start %g", end, start);
    uint32_t n = 0;
    for (const xmlNode *c = clip->children; c; c = c->next)
        n += collada_is(c, "instance_animation");
    const xmlNode **anims =
        collada_tmp(ctx->c, n, sizeof *anims, "clip animations");
    if (!anims) return COLLADA_ERR(ctx->c);
    n = 0;
    for (const xmlNode *c = clip->children; c; c = c->next) {
        if (!collada_is(c, "instance_animation")) continue;
        if ((r = collada_resolve(ctx->c, c, "url", collada_attr(c, "url"),
                                 "animation", &anims[n++])))
            return r;
    }
    for (uint32_t i = 0; i < ctx->channel_count; ++i)
        use[i] = in_animations(ctx->channels[i].element, anims, n);
    const char *name = collada_attr(clip, "name");
    if (!name) name = collada_attr(clip, "id");
    if (!collada_strdup(ctx->c, name ? name : "", &out->name))
        return COLLADA_ERR(ctx->c);
    return anim_bake_clip(ctx, use, start, end, out);
}

/* The file name without folders and extension, or "default". */
static const char *default_clip_name(vs_asset *asset)
{
    const char *s = asset->source_name;
    const char *base = strrchr(s, '/');
    base = base ? base + 1 : s;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    return len ? vs_priv_asset_strndup(asset, base, len)
               : vs_priv_asset_strdup(asset, "default");
}

static vs_result build_clips(anim_ctx *ctx)
{
    const xmlNode *root = ctx->c->root;
    uint32_t n = 0;
    for (const xmlNode *lib = root->children; lib; lib = lib->next)
        if (collada_is(lib, "library_animation_clips"))
            for (const xmlNode *c = lib->children; c; c = c->next)
                n += collada_is(c, "animation_clip");
    if (n == 0 && ctx->channel_count == 0) return VS_OK;
    uint32_t count = n ? n : 1;
    vs_clip *clips = vs_priv_asset_calloc(ctx->c->asset, count, sizeof *clips,
                                  ctx->c->error, "animation clips");
    bool *use =
        collada_tmp(ctx->c, ctx->channel_count, sizeof *use, "clip channels");
    if (!clips || !use) return COLLADA_ERR(ctx->c);
    vs_result r = VS_OK;
    if (n == 0) {
        for (uint32_t i = 0; i < ctx->channel_count; ++i)
            use[i] = true;
        clips[0].name = default_clip_name(ctx->c->asset);
        if (!clips[0].name)
            return set_error(ctx->c->error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: clip name: out of memory", ctx->c->src);
        r = anim_bake_clip(ctx, use, -INFINITY, INFINITY, &clips[0]);
    }
    uint32_t k = 0;
    for (const xmlNode *lib = root->children; lib && r == VS_OK;
         lib = lib->next) {
        if (!collada_is(lib, "library_animation_clips")) continue;
        for (const xmlNode *c = lib->children; c && r == VS_OK; c = c->next)
            if (collada_is(c, "animation_clip"))
                r = bake_animation_clip(ctx, c, use, &clips[k++]);
    }
    if (r != VS_OK) return r;
    ctx->c->asset->clips = clips;
    ctx->c->asset->clip_count = count;
    return VS_OK;
}

vs_result collada_load_animations(vs_asset *asset, xmlNode *collada_root,
                                  const collada_node_stack *stacks,
                                  const collada_instance *instances,
                                  uint32_t instance_count, vs_error *error)
{
    /* The loader's XML helpers and id index, over this document. */
    vs_error local;
    collada_ctx c = {.asset = asset,
                     .error = error ? error : &local,
                     .src = asset->source_name,
                     .root = collada_root};
    arena_init(&c.tmp, asset_limits(asset)->max_total_memory,
               asset_allocator(asset));
    anim_ctx ctx = {.c = &c,
                    .stacks = stacks,
                    .instances = instances,
                    .instance_count = instance_count};
    vs_result r = collada_index_ids(&c);
    if (r == VS_OK) r = anim_index_nodes(&ctx);
    if (r == VS_OK) r = anim_parse_library(&ctx);
    if (r == VS_OK) r = build_clips(&ctx);
    arena_free(&c.tmp);
    return r;
}
