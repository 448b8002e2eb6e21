/* SPDX-License-Identifier: MIT */
/* Reads a COLLADA file into a libxml2 tree under the load's limits: the
 * text is decoded to UTF-8 with libxml2's own encoding handlers first, so
 * the checks of collada_xml_scan.c and the DTD refusal hold whatever the
 * file's encoding, and the tree is only built when it fits the budget. */
#include <libxml/parser.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

/* What the SAX hooks saw; reached through the parser context's _private. */
typedef struct read_state {
    char encoding[64]; /* the decoder libxml2 chose, "" for UTF-8 */
    bool started;      /* the prolog was read (pass one) */
    bool dtd;          /* a DOCTYPE or an entity declaration (pass two) */
    long dtd_line;
} read_state;

static read_state *state_of(void *user)
{
    return ((xmlParserCtxtPtr)user)->_private;
}

/* Pass one stops right after the XML declaration: by then libxml2 has
 * picked the decoder from the byte order mark, the first bytes or the
 * encoding="..." declaration, EBCDIC included. */
static void on_start_document(void *user)
{
    xmlParserCtxtPtr p = user;
    read_state *s = state_of(user);
    s->started = true;
    const xmlCharEncodingHandler *h =
        p->input && p->input->buf ? p->input->buf->encoder : NULL;
    if (h && h->name) snprintf(s->encoding, sizeof s->encoding, "%s", h->name);
    xmlStopParser(p);
}

static void refuse_dtd(void *user)
{
    xmlParserCtxtPtr p = user;
    read_state *s = state_of(user);
    s->dtd = true;
    s->dtd_line = p->input ? p->input->line : 0;
    xmlStopParser(p);
}

/* Pass two: a DOCTYPE (the internal subset is parsed after this call) or an
 * entity declaration stops the parser before any declaration is read, so
 * no entity can ever be declared, let alone expanded. */
static void on_internal_subset(void *user, const xmlChar *name,
                               const xmlChar *external_id,
                               const xmlChar *system_id)
{
    (void)name, (void)external_id, (void)system_id;
    refuse_dtd(user);
}

static void on_entity_decl(void *user, const xmlChar *name, int type,
                           const xmlChar *public_id, const xmlChar *system_id,
                           xmlChar *content)
{
    (void)name, (void)type, (void)public_id, (void)system_id, (void)content;
    refuse_dtd(user);
}

static vs_result xml_error(collada_ctx *ctx, xmlParserCtxtPtr p)
{
    const xmlError *e = xmlCtxtGetLastError(p);
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

/* DECODE_STEP: input bytes decoded per step; the output is grown, and
 * checked against the budget, before each step, never inside libxml2.
 * UTF8_PER_BYTE: the most UTF-8 one input byte can become. PASS_ONE_BYTES:
 * the prefix that holds any sensible XML declaration. */
enum { DECODE_STEP = 1 << 20, UTF8_PER_BYTE = 3, PASS_ONE_BYTES = 1 << 16 };

static vs_result over_budget(collada_ctx *ctx, size_t size, const char *what,
                             uint64_t cost, uint64_t budget)
{
    return set_error(ctx->error, VS_ERROR_LIMIT,
                     "%s: out of the memory budget: the %zu-byte file and "
                     "%s (about %llu bytes) exceed "
                     "vs_limits.max_total_memory (%llu bytes)",
                     ctx->src, size, what, (unsigned long long)cost,
                     (unsigned long long)budget);
}

/* Where libxml2 starts decoding with the document's encoding. When the
 * first bytes are ASCII-compatible (UTF-8 with or without its byte order
 * mark), libxml2 reads the XML declaration as they are and switches right
 * after the closing quote of encoding="..."; otherwise (UTF-16 and UCS-4
 * by their first bytes, EBCDIC) the whole text is in that encoding. */
static size_t decode_from(const uint8_t *xml, size_t size)
{
    xmlCharEncoding first =
        xmlDetectCharEncoding(xml, size < 4 ? (int)size : 4);
    if (first != XML_CHAR_ENCODING_UTF8 && first != XML_CHAR_ENCODING_NONE)
        return 0;
    size_t i = size >= 3 && memcmp(xml, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    size_t end = i;
    while (end < size && xml[end] != '>' && xml[end] < 0x80)
        ++end;
    /* The declaration is well-formed: libxml2 has just read it. */
    for (size_t k = i; k + 8 < end; ++k) {
        if (memcmp(xml + k, "encoding", 8) != 0) continue;
        k += 8;
        while (k < end && xml[k] != '"' && xml[k] != '\'')
            ++k;
        const uint8_t *close =
            k < end ? memchr(xml + k + 1, xml[k], end - k - 1) : NULL;
        return close ? (size_t)(close - xml) + 1 : 0;
    }
    return 0;
}

/* The whole text in UTF-8 through libxml2's handler for `encoding` (the
 * conversion the parser itself makes), the bytes before decode_from kept
 * as they are. *out is libxml2-allocated. */
static vs_result decode(collada_ctx *ctx, const char *encoding,
                        const uint8_t *xml, size_t size, uint64_t budget,
                        xmlBufferPtr *out)
{
    xmlCharEncodingHandlerPtr h = xmlFindCharEncodingHandler(encoding);
    if (!h)
        return set_error(ctx->error, VS_ERROR_PARSE,
                         "%s: the encoding %s is not available", ctx->src,
                         encoding);
    vs_result r = VS_OK;
    if (!(*out = xmlBufferCreate()))
        r = set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: out of memory decoding %s", ctx->src, encoding);
    size_t at = decode_from(xml, size);
    if (r == VS_OK && xmlBufferAdd(*out, xml, (int)at) != 0)
        r = set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: out of memory decoding %s", ctx->src, encoding);
    while (r == VS_OK && at < size) {
        xmlBufferPtr o = *out;
        size_t len = size - at < DECODE_STEP ? size - at : DECODE_STEP;
        size_t need = (size_t)o->use + UTF8_PER_BYTE * len + 1;
        if (need > o->size) {
            size_t grow =
                need > 2 * (size_t)o->size ? need : 2 * (size_t)o->size;
            if (grow > INT_MAX)
                r = set_error(ctx->error, VS_ERROR_LIMIT,
                              "%s: the text decoded from %s is too large "
                              "for the XML parser",
                              ctx->src, encoding);
            else if (size + grow > budget)
                r = over_budget(ctx, size, "its text in UTF-8", grow, budget);
            else if (!xmlBufferResize(o, (unsigned)grow))
                r = set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                              "%s: out of memory decoding %s", ctx->src,
                              encoding);
            if (r != VS_OK) break;
        }
        xmlBufferPtr in = xmlBufferCreateStatic((void *)(xml + at), len);
        if (!in) {
            r = set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                          "%s: out of memory decoding %s", ctx->src, encoding);
            break;
        }
        xmlCharEncInFunc(h, o, in);
        size_t used = len - in->use;
        xmlBufferFree(in);
        if (used == 0)
            r = set_error(ctx->error, VS_ERROR_PARSE,
                          "%s: invalid XML: the bytes at offset %zu are not "
                          "valid %s",
                          ctx->src, at, encoding);
        at += used;
    }
    xmlCharEncCloseFunc(h);
    return r;
}

/* XML nesting beyond vs_limits.max_depth is refused before the loader's
 * (recursive) walks see the tree: libxml2 itself allows deep documents
 * under XML_PARSE_HUGE. Only element children are entered, so the walk
 * visits each element once and never leaves the document's own tree. */
static vs_result check_depth(collada_ctx *ctx, const xmlNode *root)
{
    uint32_t limit = asset_limits(ctx->asset)->max_depth, depth = 1;
    const xmlNode *n = root;
    while (n) {
        if (depth > limit)
            return set_error(ctx->error, VS_ERROR_LIMIT,
                             "%s: line %d: <%s>: XML nesting deeper than the "
                             "limit of %u elements",
                             ctx->src, n->line, (const char *)n->name, limit);
        const xmlNode *c = n->children;
        while (c && c->type != XML_ELEMENT_NODE)
            c = c->next;
        if (c) {
            n = c;
            ++depth;
            continue;
        }
        for (;;) {
            if (n == root) return VS_OK;
            const xmlNode *s = n->next;
            while (s && s->type != XML_ELEMENT_NODE)
                s = s->next;
            if (s) {
                n = s;
                break;
            }
            n = n->parent;
            --depth;
        }
    }
    return VS_OK;
}

vs_result collada_xml_read(collada_ctx *ctx, const uint8_t *xml, size_t size,
                           xmlParserCtxtPtr *pctx, xmlDocPtr *doc)
{
    if (size > INT_MAX)
        return set_error(ctx->error, VS_ERROR_LIMIT,
                         "%s: %zu bytes are too many for the XML parser",
                         ctx->src, size);
    if (!(*pctx = xmlNewParserCtxt()))
        return set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory", ctx->src);
    xmlParserCtxtPtr p = *pctx;
    read_state st;
    memset(&st, 0, sizeof st);
    p->_private = &st;
    /* No network and no entity substitution (XML_PARSE_NOENT stays off).
     * XML_PARSE_HUGE lifts libxml2's size limit on one text node, which
     * large float arrays exceed; it also lifts the entity amplification
     * guard, which has nothing to guard here: a document with a DOCTYPE is
     * refused before its declarations are read, so only the five
     * predefined entities exist, and they expand to one character. */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                  XML_PARSE_NOBLANKS | XML_PARSE_NOCDATA | XML_PARSE_HUGE |
                  XML_PARSE_BIG_LINES;
    xmlSAXHandlerPtr sax = p->sax;
    startDocumentSAXFunc start_document = sax->startDocument;
    sax->startDocument = on_start_document;
    /* The XML declaration is all pass one reads: a prefix will do, and
     * libxml2 does not copy the whole file for it. */
    int head = size < PASS_ONE_BYTES ? (int)size : PASS_ONE_BYTES;
    xmlCtxtReadMemory(p, (const char *)xml, head, NULL, NULL, options);
    sax->startDocument = start_document;
    if (!st.started) return xml_error(ctx, p);

    const uint8_t *text = xml;
    size_t text_size = size;
    xmlBufferPtr decoded = NULL;
    vs_result r = VS_OK;
    if (st.encoding[0]) {
        r = decode(ctx, st.encoding, xml, size,
                   asset_limits(ctx->asset)->max_total_memory, &decoded);
        if (r != VS_OK) {
            if (decoded) xmlBufferFree(decoded);
            return r;
        }
        text = xmlBufferContent(decoded);
        text_size = (size_t)xmlBufferLength(decoded);
        /* The text is UTF-8 now; its declaration still names the old
         * encoding. */
        options |= XML_PARSE_IGNORE_ENC;
    }
    collada_xml_census census;
    uint64_t budget = asset_limits(ctx->asset)->max_total_memory;
    if ((r = collada_xml_scan(ctx, text, text_size, &census)) == VS_OK) {
        /* libxml2 copies the text it parses. */
        uint64_t cost = collada_xml_tree_cost(&census) + text_size +
                        (decoded ? text_size : 0);
        /* Charged to the load's budget, which already holds the file's
         * bytes: the tree and the temporaries after it share what is left. */
        if (!budget_charge(asset_budget(ctx->asset), cost))
            r = over_budget(ctx, size, "its XML tree", cost, budget);
        else
            ctx->xml_charged = cost;
    }
    if (r == VS_OK && text_size > INT_MAX)
        r = set_error(ctx->error, VS_ERROR_LIMIT,
                      "%s: %zu bytes of UTF-8 are too many for the XML "
                      "parser",
                      ctx->src, text_size);
    if (r == VS_OK) {
        sax->internalSubset = on_internal_subset;
        sax->entityDecl = on_entity_decl;
        *doc = xmlCtxtReadMemory(p, (const char *)text, (int)text_size, NULL,
                                 NULL, options);
        if (st.dtd)
            r = set_error(ctx->error, VS_ERROR_UNSUPPORTED, COLLADA_DTD_REFUSED,
                          ctx->src, st.dtd_line);
        else if (!*doc)
            r = xml_error(ctx, p);
    }
    if (decoded) xmlBufferFree(decoded);
    if (r != VS_OK) return r;
    const xmlNode *root = xmlDocGetRootElement(*doc);
    if (!root)
        return set_error(ctx->error, VS_ERROR_PARSE,
                         "%s: the XML document has no root element", ctx->src);
    return check_depth(ctx, root);
}
