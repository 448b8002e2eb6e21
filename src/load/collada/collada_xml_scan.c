/* SPDX-License-Identifier: MIT */
/* One linear pass over the decoded (UTF-8) XML text before libxml2 sees it:
 * refuses a DOCTYPE, refuses an element with more attributes than any
 * COLLADA element has, and estimates what libxml2's tree will take. */
#include <string.h>

#include "load/collada/collada_loader.h"

/* Bytes libxml2 allocates per tree object, rounded up from its structures
 * (xmlNode, xmlAttr plus its text child) and allocator overhead, so the
 * estimate errs on the high side. */
enum {
    ELEMENT_COST = 192,
    ATTRIBUTE_COST = 320,
    TEXT_NODE_COST = 192,
};

/* Offset of the first pat (short, fixed) at or after i, or n. Linear:
 * memchr finds candidates and each comparison is at most strlen(pat). */
static size_t find(const uint8_t *d, size_t i, size_t n, const char *pat)
{
    size_t len = strlen(pat);
    while (i + len <= n) {
        const uint8_t *p = memchr(d + i, pat[0], n - i);
        if (!p) break;
        i = (size_t)(p - d);
        if (i + len <= n && memcmp(p, pat, len) == 0) return i;
        ++i;
    }
    return n;
}

static uint32_t lines_in(const uint8_t *d, size_t from, size_t to)
{
    uint32_t lines = 0;
    for (const uint8_t *p = d + from, *end = d + to;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL; ++p)
        ++lines;
    return lines;
}

/* Skips a construct that ends with `end`, counting it as one text-like
 * node of its own size (comments, processing instructions and CDATA become
 * nodes too). Returns the offset after it. */
static size_t skip_to(const uint8_t *d, size_t i, size_t n, const char *end,
                      uint32_t *line, collada_xml_census *c)
{
    size_t j = find(d, i, n, end);
    size_t after = j < n ? j + strlen(end) : n;
    *line += lines_in(d, i, after);
    c->text_nodes++;
    c->text_bytes += after - i;
    return after;
}

/* A start tag from d[i] == '<': every attribute has one '=' outside the
 * quoted values, so counting those bounds the attribute count from above
 * without parsing names. */
static vs_result start_tag(collada_ctx *ctx, const uint8_t *d, size_t *at,
                           size_t n, uint32_t *line, collada_xml_census *c)
{
    size_t i = *at + 1, name = i;
    while (i < n && !strchr(" \t\r\n/>", d[i]))
        ++i;
    size_t name_len = i - name;
    uint32_t attrs = 0, tag_line = *line;
    while (i < n && d[i] != '>') {
        if (d[i] == '"' || d[i] == '\'') {
            const uint8_t *q = memchr(d + i + 1, d[i], n - i - 1);
            size_t close = q ? (size_t)(q - d) : n;
            *line += lines_in(d, i, close);
            c->attribute_bytes += close - i;
            i = close + 1;
            continue;
        }
        if (d[i] == '=' && ++attrs > COLLADA_MAX_ATTRIBUTES)
            return set_error(ctx->error, VS_ERROR_LIMIT,
                             "%s: line %u: <%.*s>: more than %u attributes; "
                             "no COLLADA element has that many",
                             ctx->src, tag_line,
                             (int)(name_len < 64 ? name_len : 64),
                             (const char *)d + name, COLLADA_MAX_ATTRIBUTES);
        if (d[i] == '\n') ++*line;
        ++i;
    }
    c->elements++;
    c->attributes += attrs;
    *at = i < n ? i + 1 : n;
    return VS_OK;
}

vs_result collada_xml_scan(collada_ctx *ctx, const uint8_t *d, size_t n,
                           collada_xml_census *c)
{
    memset(c, 0, sizeof *c);
    uint32_t line = 1;
    size_t i = 0;
    while (i < n) {
        if (d[i] != '<') {
            const uint8_t *lt = memchr(d + i, '<', n - i);
            size_t j = lt ? (size_t)(lt - d) : n;
            line += lines_in(d, i, j);
            c->text_nodes++;
            c->text_bytes += j - i;
            i = j;
        } else if (n - i >= 4 && memcmp(d + i, "<!--", 4) == 0) {
            i = skip_to(d, i, n, "-->", &line, c);
        } else if (n - i >= 9 && memcmp(d + i, "<![CDATA[", 9) == 0) {
            i = skip_to(d, i, n, "]]>", &line, c);
        } else if (n - i >= 2 && d[i + 1] == '?') {
            i = skip_to(d, i, n, "?>", &line, c);
        } else if (n - i >= 9 && memcmp(d + i, "<!DOCTYPE", 9) == 0) {
            return set_error(ctx->error, VS_ERROR_UNSUPPORTED,
                             COLLADA_DTD_REFUSED, ctx->src, (long)line);
        } else if (n - i >= 2 && (d[i + 1] == '/' || d[i + 1] == '!')) {
            /* An end tag, or markup that is only legal inside a DTD (which
             * libxml2 then reports as not well-formed). */
            size_t j = find(d, i, n, ">");
            line += lines_in(d, i, j);
            i = j < n ? j + 1 : n;
        } else {
            vs_result r = start_tag(ctx, d, &i, n, &line, c);
            if (r != VS_OK) return r;
        }
    }
    return VS_OK;
}

uint64_t collada_xml_tree_cost(const collada_xml_census *c)
{
    /* Text nodes grow by doubling while libxml2 appends the chunks it
     * reads, so their content may take twice its size. */
    return c->elements * ELEMENT_COST + c->attributes * ATTRIBUTE_COST +
           c->attribute_bytes + c->text_nodes * TEXT_NODE_COST +
           2 * c->text_bytes;
}
