/* SPDX-License-Identifier: MIT */
/* COLLADA load warnings named the way COLLADA errors name elements. */
#include <libxml/tree.h>
#include <stdarg.h>
#include <stdio.h>

#include "asset/warnings.h"
#include "load/collada/collada_loader.h"

vs_result collada_warn(collada_ctx *ctx, const xmlNode *element,
                       const char *attr, const char *action, const char *fmt,
                       ...)
{
    char what[640], object[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *shown = attr ? attr : "id";
    const char *value = collada_attr(element, shown);
    long line = xmlGetLineNo(element);
    if (value)
        snprintf(object, sizeof object, "line %ld: <%s %s=\"%.120s\">", line,
                 (const char *)element->name, shown, value);
    else
        snprintf(object, sizeof object, "line %ld: <%s>", line,
                 (const char *)element->name);
    return asset_warn(ctx->asset, ctx->error, object, action, "%s", what);
}
