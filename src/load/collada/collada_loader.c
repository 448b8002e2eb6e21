/* SPDX-License-Identifier: MIT */
/* COLLADA 1.4.x / 1.5 loader: parses the XML with libxml2 and fills the
 * vs_asset (see collada_loader.h for the parts). The document must have no
 * DOCTYPE: COLLADA uses an XML Schema, never a DTD, and refusing DTDs
 * rules out entity expansion attacks while large arrays may exceed
 * libxml2's default text size limit (XML_PARSE_HUGE). */
#include <libxml/parser.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "load/collada/collada_loader.h"
#include "load/loaders.h"

/* True when a DOCTYPE appears before the root element: the prolog may only
 * hold the XML declaration, comments, processing instructions and space. */
static bool has_doctype(const uint8_t *d, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n' ||
            (i == 0 && n >= 3 && d[0] == 0xEF && d[1] == 0xBB &&
             d[2] == 0xBF)) {
            i += d[i] == 0xEF ? 3 : 1;
            continue;
        }
        if (d[i] != '<' || i + 1 >= n) return false;
        const char *end = NULL;
        if (d[i + 1] == '?')
            end = "?>";
        else if (n - i >= 4 && memcmp(d + i, "<!--", 4) == 0)
            end = "-->";
        else
            return n - i >= 9 && memcmp(d + i, "<!DOCTYPE", 9) == 0;
        size_t len = strlen(end), j = i + 2;
        while (j + len <= n && memcmp(d + j, end, len) != 0)
            ++j;
        i = j + len;
    }
    return false;
}

static vs_result parse_xml(collada_ctx *ctx, const uint8_t *xml, size_t size,
                           xmlParserCtxtPtr *pctx, xmlDocPtr *doc)
{
    if (size > INT_MAX)
        return set_error(ctx->error, VS_ERROR_LIMIT,
                         "%s: %zu bytes are too many for the XML parser",
                         ctx->src, size);
    if (has_doctype(xml, size))
        return set_error(ctx->error, VS_ERROR_UNSUPPORTED,
                         "%s: the document has a DOCTYPE; COLLADA documents "
                         "have none and DTDs are not supported",
                         ctx->src);
    *pctx = xmlNewParserCtxt();
    if (!*pctx)
        return set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory", ctx->src);
    /* No network, no entity substitution (XML_PARSE_NOENT stays off). */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                  XML_PARSE_NOBLANKS | XML_PARSE_NOCDATA | XML_PARSE_HUGE |
                  XML_PARSE_BIG_LINES;
    *doc = xmlCtxtReadMemory(*pctx, (const char *)xml, (int)size, NULL, NULL,
                             options);
    if (*doc) return VS_OK;
    xmlErrorPtr e = xmlCtxtGetLastError(*pctx);
    char msg[512] = "not well-formed";
    if (e && e->message) {
        snprintf(msg, sizeof msg, "%s", e->message);
        size_t len = strlen(msg);
        while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
            msg[--len] = '\0';
    }
    return set_error(ctx->error, VS_ERROR_PARSE, "%s: line %d: invalid XML: %s",
                     ctx->src, e ? e->line : 0, msg);
}

/* XML nesting beyond vs_limits.max_depth is refused before the loader's
 * (recursive) walks see the tree: libxml2 itself allows deep documents
 * under XML_PARSE_HUGE. Iterative, so the check cannot overflow the stack. */
static vs_result check_xml_depth(collada_ctx *ctx, const xmlNode *root)
{
    uint32_t limit = asset_limits(ctx->asset)->max_depth, depth = 1;
    const xmlNode *n = root;
    while (n) {
        if (n->type == XML_ELEMENT_NODE && depth > limit)
            return set_error(ctx->error, VS_ERROR_LIMIT,
                             "%s: line %d: <%s>: XML nesting deeper than the "
                             "limit of %u elements",
                             ctx->src, n->line, (const char *)n->name, limit);
        if (n->children) {
            n = n->children;
            ++depth;
            continue;
        }
        while (n && n != root && !n->next) {
            n = n->parent;
            --depth;
        }
        n = (n && n != root) ? n->next : NULL;
    }
    return VS_OK;
}

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
    if (meter) {
        char *end = NULL;
        double m = strtod(meter, &end);
        while (end && strchr(" \t\r\n", *end) && *end)
            ++end;
        if (end == meter || *end || !isfinite(m) || !(m > 0.0))
            return collada_fail(ctx, VS_ERROR_INVALID, unit, "meter",
                                "meter must be a positive number");
        ctx->asset->unit_meters = (float)m;
    }
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
        else
            return collada_fail(ctx, VS_ERROR_INVALID, up, NULL,
                                "\"%.40s\" is not X_UP, Y_UP or Z_UP", axis);
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
                                     ctx->stacks, ctx->error)))
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
    arena_init(&ctx.tmp, asset_limits(asset)->max_total_memory, alloc);
    xmlParserCtxtPtr pctx = NULL;
    xmlDocPtr doc = NULL;
    vs_result r = parse_xml(&ctx, xml, size, &pctx, &doc);
    if (r == VS_OK) {
        ctx.root = xmlDocGetRootElement(doc);
        if (!ctx.root)
            r = set_error(ctx.error, VS_ERROR_PARSE,
                          "%s: the XML document has no root element", ctx.src);
        else if ((r = check_xml_depth(&ctx, ctx.root)) == VS_OK)
            r = load_document(&ctx);
    }
    mem_free(alloc, ctx.nodes);
    mem_free(alloc, ctx.stacks);
    mem_free(alloc, ctx.subtree_end);
    mem_free(alloc, ctx.instances);
    arena_free(&ctx.tmp);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(pctx);
    return r;
}
