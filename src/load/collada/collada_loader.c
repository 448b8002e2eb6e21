/* SPDX-License-Identifier: MIT */
/* COLLADA 1.4.x / 1.5 loader: reads the XML (collada_xml_read.c) and fills
 * the vs_asset (see collada_loader.h for the parts). */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "load/collada/collada_loader.h"
#include "load/loaders.h"

/* Trimmed text of an element as an asset string. */
static vs_result trimmed(collada_ctx *ctx, const xmlNode *e, const char **out)
{
    const char *t;
    vs_result r = collada_text(ctx, e, &t);
    if (r != VS_OK) return r;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        ++t;
    size_t len = strlen(t);
    while (len && strchr(" \t\r\n", t[len - 1]))
        --len;
    if (!(*out = vs_priv_asset_strndup(ctx->asset, t, len)))
        return set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory", ctx->src);
    return VS_OK;
}

/* A positive finite number, the whole text (spaces around allowed). */
static bool read_positive(const char *text, double *out)
{
    char *end = NULL;
    double v = strtod(text, &end);
    while (end && *end && strchr(" \t\r\n", *end))
        ++end;
    *out = v;
    return end != text && !*end && isfinite(v) && v > 0.0;
}

/* <unit meter>: the unit scales a converted file, never the pose in the
 * file's own units. One number cannot be misread for a decimal comma
 * (unlike a list), so "0,01" from an exporter run under a comma locale
 * reads as 0.01; anything else unreadable is 1 m. Both warn. */
static vs_result read_unit(collada_ctx *ctx, const xmlNode *unit,
                           const char *meter)
{
    double m;
    if (read_positive(meter, &m)) {
        ctx->asset->unit_meters = (float)m;
        return VS_OK;
    }
    char dotted[64];
    const char *comma = strchr(meter, ',');
    if (comma && !strchr(comma + 1, ',') && !strchr(meter, '.') &&
        strlen(meter) < sizeof dotted) {
        snprintf(dotted, sizeof dotted, "%s", meter);
        dotted[comma - meter] = '.';
        if (read_positive(dotted, &m)) {
            ctx->asset->unit_meters = (float)m;
            return collada_warn(ctx, unit, "meter", "read with a decimal point",
                                "a decimal comma (exported under a comma "
                                "locale?)");
        }
    }
    return collada_warn(ctx, unit, "meter", "1 m is used",
                        "meter is not a positive number");
}

/* <asset>: <unit meter>, <up_axis>, <contributor><authoring_tool>. */
static vs_result load_asset_info(collada_ctx *ctx)
{
    const xmlNode *info = collada_child(ctx->root, "asset");
    vs_result r;
    for (const xmlNode *c = collada_child(info, "contributor"); c;
         c = collada_next(c, "contributor")) {
        const xmlNode *tool = collada_child(c, "authoring_tool");
        if (tool) {
            if ((r = trimmed(ctx, tool, &ctx->asset->generator))) return r;
            break;
        }
    }
    const xmlNode *unit = collada_child(info, "unit");
    const char *meter = collada_attr(unit, "meter");
    if (meter && (r = read_unit(ctx, unit, meter)) != VS_OK) return r;
    const xmlNode *up = collada_child(info, "up_axis");
    if (up) {
        const char *axis;
        if ((r = trimmed(ctx, up, &axis))) return r;
        if (strcmp(axis, "Y_UP") == 0)
            ctx->asset->up_axis = VS_UP_Y;
        else if (strcmp(axis, "Z_UP") == 0)
            ctx->asset->up_axis = VS_UP_Z;
        else if (strcmp(axis, "X_UP") == 0)
            ctx->asset->up_axis = VS_UP_X;
        /* The axis orients a converted file, never the pose in the file's
         * own axes: an unreadable one is the default. */
        else if ((r = collada_warn(ctx, up, NULL, "Y_UP (the default) is used",
                                   "\"%.40s\" is not X_UP, Y_UP or Z_UP",
                                   axis)) != VS_OK)
            return r;
    }
    return VS_OK;
}

static vs_result load_document(collada_ctx *ctx)
{
    if (!collada_is(ctx->root, "COLLADA"))
        return collada_fail(ctx, VS_ERROR_PARSE, ctx->root, NULL,
                            "not a COLLADA document (the root element must "
                            "be <COLLADA>)");
    const char *version = collada_attr(ctx->root, "version");
    if (version && strncmp(version, "1.4", 3) != 0 &&
        strncmp(version, "1.5", 3) != 0)
        return collada_fail(ctx, VS_ERROR_UNSUPPORTED, ctx->root, "version",
                            "only COLLADA 1.4 and 1.5 are supported");
    vs_result r;
    if ((r = load_asset_info(ctx)) || (r = collada_index_ids(ctx)) ||
        (r = collada_load_materials(ctx)) || (r = collada_load_scenes(ctx)) ||
        (r = collada_build_instances(ctx)) ||
        (r = collada_load_animations(ctx->asset, (xmlNode *)ctx->root,
                                     ctx->stacks, ctx->instances,
                                     ctx->instance_count, ctx->error)))
        return r;
    return vs_priv_asset_finalize(ctx->asset, ctx->error);
}

vs_result collada_load(vs_asset *asset, const uint8_t *xml, size_t size,
                       const char *base_dir, vs_error *error)
{
    (void)base_dir; /* external references are refused, see collada_xml.c */
    vs_error local;
    collada_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.asset = asset;
    ctx.src = asset->source_name;
    ctx.error = error ? error : &local;
    clear_error(ctx.error);
    asset->format = VS_FORMAT_COLLADA;
    const vs_allocator *alloc = asset_allocator(asset);
    arena_init_budget(&ctx.tmp, asset_budget(asset), alloc);
    xmlParserCtxtPtr pctx = NULL;
    xmlDocPtr doc = NULL;
    vs_result r = collada_xml_read(&ctx, xml, size, &pctx, &doc);
    if (r == VS_OK) {
        ctx.root = xmlDocGetRootElement(doc);
        r = load_document(&ctx);
    }
    mem_free(alloc, ctx.nodes);
    mem_free(alloc, ctx.stacks);
    mem_free(alloc, ctx.subtree_end);
    mem_free(alloc, ctx.instances);
    arena_free(&ctx.tmp);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pctx);
    budget_release(asset_budget(asset), ctx.xml_charged);
    return r;
}
