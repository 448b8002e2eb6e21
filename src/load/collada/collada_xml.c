/* SPDX-License-Identifier: MIT */
/* XML access for the COLLADA loader: element and attribute lookups that do
 * not copy, element text, number lists, the id index and error messages
 * that name the element and its line. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "load/collada/collada_loader.h"

bool collada_is(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE &&
           strcmp((const char *)n->name, name) == 0;
}

const xmlNode *collada_next(const xmlNode *n, const char *name)
{
    for (n = n ? n->next : NULL; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE &&
            (!name || strcmp((const char *)n->name, name) == 0))
            return n;
    return NULL;
}

const xmlNode *collada_child(const xmlNode *n, const char *name)
{
    if (!n) return NULL;
    for (const xmlNode *c = n->children; c; c = c->next)
        if (collada_is(c, name)) return c;
    return NULL;
}

const char *collada_attr(const xmlNode *n, const char *name)
{
    if (!n || n->type != XML_ELEMENT_NODE) return NULL;
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        if (strcmp((const char *)a->name, name) != 0) continue;
        /* Without a DTD (refused by the loader) a value is one text node. */
        const xmlNode *t = a->children;
        return t && t->content ? (const char *)t->content : "";
    }
    return NULL;
}

const xmlNode *collada_item(const xmlNode *root, const xmlNode *item,
                            const char *library, const char *name)
{
    const xmlNode *lib = item ? item->parent : collada_child(root, library);
    const xmlNode *c =
        item ? collada_next(item, name) : collada_child(lib, name);
    while (!c && lib) {
        lib = collada_next(lib, library);
        c = collada_child(lib, name);
    }
    return c;
}

const xmlNode *collada_walk(const xmlNode *n, const xmlNode *root)
{
    for (const xmlNode *c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) return c;
    while (n && n != root) {
        for (const xmlNode *s = n->next; s; s = s->next)
            if (s->type == XML_ELEMENT_NODE) return s;
        n = n->parent;
    }
    return NULL;
}

/* "line N: <element attr="value">" (attr NULL: its id when it has one). */
static void element_name(const xmlNode *element, const char *attr, char *out,
                         size_t size)
{
    const char *shown = attr ? attr : "id";
    const char *value = collada_attr(element, shown);
    long line = xmlGetLineNo(element);
    if (value)
        snprintf(out, size, "line %ld: <%s %s=\"%.120s\">", line,
                 (const char *)element->name, shown, value);
    else
        snprintf(out, size, "line %ld: <%s>", line,
                 (const char *)element->name);
}

vs_result collada_fail(collada_ctx *ctx, vs_result code, const xmlNode *element,
                       const char *attr, const char *fmt, ...)
{
    char what[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!element) return set_error(ctx->error, code, "%s: %s", ctx->src, what);
    char where[256];
    element_name(element, attr, where, sizeof where);
    return set_error(ctx->error, code, "%s: %s: %s", ctx->src, where, what);
}

vs_result collada_warn(collada_ctx *ctx, const xmlNode *element,
                       const char *attr, const char *action, const char *fmt,
                       ...)
{
    char what[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char where[256] = "";
    if (element) element_name(element, attr, where, sizeof where);
    return asset_warn(ctx->asset, ctx->error, where, action, "%s", what);
}

vs_result collada_demote(collada_ctx *ctx, const xmlNode *element,
                         const char *attr, const char *action)
{
    const char *why = asset_refusal_text(ctx->asset, ctx->error);
    /* The refusal named the same element first: the warning's object
     * names it once. */
    char where[256] = "";
    if (element) element_name(element, attr, where, sizeof where);
    size_t w = strlen(where);
    if (w && strncmp(why, where, w) == 0 && strncmp(why + w, ": ", 2) == 0)
        why += w + 2;
    char copy[VS_ERROR_MESSAGE_SIZE];
    snprintf(copy, sizeof copy, "%s", why);
    return collada_warn(ctx, element, attr, action, "%s", copy);
}

void *collada_tmp(collada_ctx *ctx, size_t count, size_t size,
                  const char *where)
{
    void *p = arena_alloc(&ctx->tmp, count, size);
    if (!p) {
        if (arena_over_limit(&ctx->tmp, count, size))
            set_error(ctx->error, VS_ERROR_LIMIT,
                      "%s: %s: %zu x %zu bytes exceed the memory limit",
                      ctx->src, where, count, size);
        else
            set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: %s: out of memory", ctx->src, where);
    }
    return p;
}

bool collada_strdup(collada_ctx *ctx, const char *s, const char **out)
{
    *out = NULL;
    if (!s) return true;
    if ((*out = vs_priv_asset_strdup(ctx->asset, s))) return true;
    set_error(ctx->error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
              ctx->src);
    return false;
}

vs_result collada_text(collada_ctx *ctx, const xmlNode *n, const char **out)
{
    size_t total = 0, parts = 0;
    const char *single = "";
    for (const xmlNode *c = n->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
            if (!c->content) continue;
            single = (const char *)c->content;
            total += strlen(single);
            ++parts;
        } else if (c->type == XML_ELEMENT_NODE) {
            return collada_fail(ctx, VS_ERROR_INVALID, n, NULL,
                                "unexpected element <%s> inside the text",
                                (const char *)c->name);
        } else if (c->type == XML_ENTITY_REF_NODE) {
            return collada_fail(ctx, VS_ERROR_UNSUPPORTED, n, NULL,
                                "entity references are not supported");
        }
    }
    if (parts <= 1) {
        *out = single;
        return VS_OK;
    }
    /* Text split by comments or CDATA sections: join the pieces. */
    char *buf = collada_tmp(ctx, total + 1, 1, "element text");
    if (!buf) return COLLADA_ERR(ctx);
    size_t at = 0;
    for (const xmlNode *c = n->children; c; c = c->next)
        if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) &&
            c->content) {
            size_t len = strlen((const char *)c->content);
            memcpy(buf + at, c->content, len);
            at += len;
        }
    buf[at] = '\0';
    *out = buf;
    return VS_OK;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Number of whitespace-separated tokens: bounds what a list may allocate by
 * the text actually present, whatever a count attribute claims. */
static uint64_t count_tokens(const char *s)
{
    uint64_t n = 0;
    bool in = false;
    for (; *s; ++s) {
        bool sp = is_space(*s);
        if (!sp && !in) ++n;
        in = !sp;
    }
    return n;
}

/* The element's text and room for one value per token in it. */
static vs_result token_list(collada_ctx *ctx, const xmlNode *n, size_t size,
                            const char **text, uint32_t *tokens, void **out)
{
    vs_result r = collada_text(ctx, n, text);
    if (r != VS_OK) return r;
    uint64_t count = count_tokens(*text);
    if (count > UINT32_MAX)
        return collada_fail(ctx, VS_ERROR_LIMIT, n, NULL, "too many values");
    *tokens = (uint32_t)count;
    *out = collada_tmp(ctx, count ? count : 1, size, "numbers");
    return *out ? VS_OK : COLLADA_ERR(ctx);
}

/* After strtof stopped at end: the rest of a Microsoft C runtime
 * "1.#INF00" / "-1.#IND00" / "1.#QNAN0" token, which exporters built with it
 * write for infinities and NaNs; NULL when end starts none. */
static const char *msvc_special(const char *end)
{
    static const char *const tags[] = {"#INF", "#IND", "#QNAN", "#SNAN"};
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; ++i) {
        size_t len = strlen(tags[i]);
        if (strncmp(end, tags[i], len) != 0) continue;
        end += len;
        while (*end >= '0' && *end <= '9')
            ++end;
        return end;
    }
    return NULL;
}

/* The numbers of n's text; non-finite ones refuse the element, or, with
 * zeroed, become 0 and are counted there. */
static vs_result read_floats(collada_ctx *ctx, const xmlNode *n, float **out,
                             uint32_t *count, uint32_t *zeroed)
{
    const char *s;
    uint32_t tokens;
    float *v;
    vs_result r = token_list(ctx, n, sizeof *v, &s, &tokens, (void **)&v);
    if (r != VS_OK) return r;
    uint32_t k = 0;
    while (k < tokens) {
        while (is_space(*s))
            ++s;
        char *end = NULL;
        errno = 0;
        float f = strtof(s, &end);
        const char *special = end != s ? msvc_special(end) : NULL;
        if (special) {
            f = strncmp(end, "#INF", 4) == 0 ? HUGE_VALF : NAN;
            end = (char *)special;
        }
        /* "1,5": strtof of the C locale stops at the comma. The comma may
         * be a decimal separator or a list separator, so no reading of it
         * is safe. */
        if (end != s && *end == ',' && end[1] >= '0' && end[1] <= '9')
            return collada_fail(ctx, VS_ERROR_INVALID, n, NULL,
                                "value %u (\"%.20s\"): numbers with decimal "
                                "commas (exported under a comma locale?) "
                                "cannot be read",
                                k, s);
        if (end == s || (*end && !is_space(*end)))
            return collada_fail(ctx, VS_ERROR_INVALID, n, NULL,
                                "value %u (\"%.20s\") is not a number", k, s);
        if (!isfinite(f) && !zeroed)
            return collada_fail(ctx, VS_ERROR_INVALID, n, NULL,
                                "value %u (\"%.20s\") is not finite", k, s);
        if (!isfinite(f)) {
            f = 0.0f;
            ++*zeroed;
        }
        v[k++] = f;
        s = end;
    }
    *out = v;
    *count = k;
    return VS_OK;
}

vs_result collada_floats(collada_ctx *ctx, const xmlNode *n, float **out,
                         uint32_t *count)
{
    return read_floats(ctx, n, out, count, NULL);
}

vs_result collada_floats_zeroing(collada_ctx *ctx, const xmlNode *n,
                                 float **out, uint32_t *count, uint32_t *zeroed)
{
    *zeroed = 0;
    return read_floats(ctx, n, out, count, zeroed);
}

vs_result collada_ints(collada_ctx *ctx, const xmlNode *n, int64_t min,
                       int64_t **out, uint32_t *count)
{
    const char *s;
    uint32_t tokens;
    int64_t *v;
    vs_result r = token_list(ctx, n, sizeof *v, &s, &tokens, (void **)&v);
    if (r != VS_OK) return r;
    for (uint32_t k = 0; k < tokens; ++k) {
        while (is_space(*s))
            ++s;
        const char *start = s;
        bool neg = *s == '-';
        if (*s == '-' || *s == '+') ++s;
        int64_t x = 0;
        bool digits = false;
        while (*s >= '0' && *s <= '9') {
            if (x <= (int64_t)UINT32_MAX) x = x * 10 + (*s - '0');
            digits = true;
            ++s;
        }
        if (!digits || (*s && !is_space(*s)))
            return collada_fail(ctx, VS_ERROR_INVALID, n, NULL,
                                "value %u (\"%.20s\") is not an integer", k,
                                start);
        if (neg) x = -x;
        if (x < min || x > (int64_t)UINT32_MAX)
            return collada_fail(ctx, VS_ERROR_INVALID, n, NULL,
                                "value %u (\"%.20s\") is out of range", k,
                                start);
        v[k] = x;
    }
    *out = v;
    *count = tokens;
    return VS_OK;
}

vs_result collada_floats_n(collada_ctx *ctx, const xmlNode *e, uint32_t n,
                           float *out)
{
    float *v;
    uint32_t count;
    vs_result r = collada_floats(ctx, e, &v, &count);
    if (r != VS_OK) return r;
    if (count != n)
        return collada_fail(ctx, VS_ERROR_INVALID, e, NULL,
                            "expected %u numbers, found %u", n, count);
    memcpy(out, v, n * sizeof *out);
    return VS_OK;
}

vs_result collada_uint_attr(collada_ctx *ctx, const xmlNode *n,
                            const char *name, uint32_t def, uint32_t *out)
{
    const char *v = collada_attr(n, name);
    *out = def;
    if (!v) return VS_OK;
    char *end = NULL;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    while (end && is_space(*end))
        ++end;
    if (end == v || *end || errno || x > UINT32_MAX || strchr(v, '-'))
        return collada_fail(ctx, VS_ERROR_INVALID, n, name,
                            "%s is not an unsigned 32-bit integer", name);
    *out = (uint32_t)x;
    return VS_OK;
}

/* ------------------------------------------------------------- id index */

static int cmp_id(const void *a, const void *b)
{
    const collada_id *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    if (c) return c;
    /* Equal ids keep document order so the first one wins. */
    return x->order < y->order ? -1 : x->order > y->order;
}

vs_result collada_index_ids(collada_ctx *ctx)
{
    uint32_t n = 0;
    for (const xmlNode *e = collada_walk(ctx->root, ctx->root); e;
         e = collada_walk(e, ctx->root))
        if (collada_attr(e, "id") && n < UINT32_MAX) ++n;
    ctx->ids = collada_tmp(ctx, n ? n : 1, sizeof *ctx->ids, "id index");
    if (!ctx->ids) return COLLADA_ERR(ctx);
    uint32_t k = 0;
    for (const xmlNode *e = collada_walk(ctx->root, ctx->root); e && k < n;
         e = collada_walk(e, ctx->root)) {
        const char *id = collada_attr(e, "id");
        if (id) {
            ctx->ids[k] = (collada_id){id, e, k};
            ++k;
        }
    }
    qsort(ctx->ids, k, sizeof *ctx->ids, cmp_id);
    ctx->id_count = k;
    return VS_OK;
}

/* strcmp of a and the first len bytes of b. */
static int cmp_n(const char *a, const char *b, size_t len)
{
    int c = strncmp(a, b, len);
    if (c) return c;
    return a[len] != '\0';
}

static const xmlNode *find_id(const collada_ctx *ctx, const char *id,
                              size_t len)
{
    uint32_t lo = 0, hi = ctx->id_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cmp_n(ctx->ids[mid].id, id, len) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < ctx->id_count && cmp_n(ctx->ids[lo].id, id, len) == 0)
        return ctx->ids[lo].element;
    return NULL;
}

const xmlNode *collada_lookup(const collada_ctx *ctx, const char *ref)
{
    if (!ref) return NULL;
    while (is_space(*ref))
        ++ref;
    if (*ref == '#') ++ref;
    size_t len = strlen(ref);
    while (len && is_space(ref[len - 1]))
        --len;
    return len ? find_id(ctx, ref, len) : NULL;
}

const xmlNode *collada_find(const collada_ctx *ctx, const char *id, size_t len)
{
    return find_id(ctx, id, len);
}

vs_result collada_resolve(collada_ctx *ctx, const xmlNode *at, const char *attr,
                          const char *ref, const char *kind,
                          const xmlNode **out)
{
    *out = NULL;
    if (!ref || !*ref)
        return collada_fail(ctx, VS_ERROR_INVALID, at, attr,
                            "missing reference to a <%s>",
                            kind ? kind : "element");
    while (is_space(*ref))
        ++ref;
    bool hash = *ref == '#';
    const xmlNode *e = collada_lookup(ctx, ref);
    /* ColladaMax 0.x writes source="X" for "#X". Read that way only when
     * the document has an element with id X, so a reference to another
     * file still refuses (vskin reads no file but the one given). */
    if (!hash && !e)
        return collada_fail(ctx, VS_ERROR_UNSUPPORTED, at, attr,
                            "\"%.120s\": only references inside the document "
                            "(\"#id\") are supported",
                            ref);
    if (!e)
        return collada_fail(ctx, VS_ERROR_INVALID, at, attr,
                            "\"%.120s\" does not exist", ref);
    if (kind && !collada_is(e, kind))
        return collada_fail(ctx, VS_ERROR_INVALID, at, attr,
                            "\"%.120s\" is a <%s>, not a <%s>", ref,
                            (const char *)e->name, kind);
    vs_result r;
    if (!hash && (r = collada_warn(ctx, at, attr, "read as \"#id\"",
                                   "\"%.120s\" lacks the \"#\" of a "
                                   "reference inside the document",
                                   ref)) != VS_OK)
        return r;
    *out = e;
    return VS_OK;
}
