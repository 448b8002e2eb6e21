/* SPDX-License-Identifier: MIT */
/* Walks <library_animations> (any depth of nested <animation>, COLLADA
 * 1.4.1 "animation": an animation may contain animations) and turns each
 * <channel> into an anim_channel: target resolved, sampler read, and the
 * sampler's values per key matched against what the target takes. */
#include <string.h>

#include "load/collada/collada_anim.h"

static uint32_t count_channels(const xmlNode *root)
{
    uint32_t n = 0;
    for (const xmlNode *lib = root->children; lib; lib = lib->next) {
        if (!collada_is(lib, "library_animations")) continue;
        for (const xmlNode *e = collada_walk(lib, lib); e;
             e = collada_walk(e, lib))
            if (collada_is(e, "channel")) ++n;
    }
    return n;
}

static vs_result parse_channel(anim_ctx *ctx, const xmlNode *ch)
{
    anim_channel c = {0};
    bool skip = false, morph;
    vs_result r = anim_morph_target(ctx, ch, &c, &morph);
    if (r == VS_OK && !morph) r = anim_resolve_target(ctx, ch, &c, &skip);
    if (r != VS_OK || skip) return r;
    const xmlNode *sampler;
    if ((r = collada_resolve(ctx->c, ch, "source", collada_attr(ch, "source"),
                             "sampler", &sampler)) ||
        (r = anim_sampler_curve(ctx, ch, sampler, &c.curve)))
        return r;
    if (c.curve.components != c.count)
        return collada_fail(
            ctx->c, VS_ERROR_INVALID, ch, "target",
            "the sampler's OUTPUT has %u values per key but the "
            "target takes %u",
            c.curve.components, c.count);
    ctx->channels[ctx->channel_count++] = c;
    return VS_OK;
}

vs_result anim_parse_library(anim_ctx *ctx)
{
    const xmlNode *root = ctx->c->root;
    uint32_t n = count_channels(root);
    ctx->channel_count = 0;
    ctx->channels = collada_tmp(ctx->c, n, sizeof *ctx->channels, "channels");
    if (!ctx->channels) return COLLADA_ERR(ctx->c);
    for (const xmlNode *lib = root->children; lib; lib = lib->next) {
        if (!collada_is(lib, "library_animations")) continue;
        for (const xmlNode *e = collada_walk(lib, lib); e;
             e = collada_walk(e, lib)) {
            if (!collada_is(e, "channel")) continue;
            vs_result r = parse_channel(ctx, e);
            if (r != VS_OK) return r;
        }
    }
    return VS_OK;
}
