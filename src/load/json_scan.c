/* SPDX-License-Identifier: MIT */
/* The tree bound and the strict syntax check of JSON text (json_scan.h). */
#include "load/json_scan.h"

#include <cjson/cJSON.h>
#include <string.h>

/* What one heap block costs beyond its size: the C library's header and
 * rounding to 16 bytes (glibc, musl and the BSDs stay within it). */
#define BLOCK_OVERHEAD 32u

json_tree_bound json_tree_bound_of(const char *text, size_t size)
{
    /* Every cJSON item is the root, or follows a '[', '{' or ','; every
     * string cJSON keeps (a member name or a string value) is one token
     * whose copy is at most its raw length plus a NUL. */
    json_tree_bound b = {1, 0, 0};
    uint64_t string_bytes = 0;
    for (size_t i = 0; i < size; ++i) {
        const char ch = text[i];
        if (ch == '[' || ch == '{' || ch == ',') {
            ++b.values;
        } else if (ch == '"') {
            size_t start = ++i;
            while (i < size && text[i] != '"')
                i += text[i] == '\\' ? 2 : 1;
            if (i > size) i = size;
            ++b.strings;
            string_bytes += (uint64_t)(i - start) + 1;
        }
    }
    b.bytes = b.values * (sizeof(cJSON) + BLOCK_OVERHEAD) +
              b.strings * BLOCK_OVERHEAD + string_bytes;
    return b;
}

typedef struct scan {
    const char *s;
    size_t n, i;
} scan;

static void skip_space(scan *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' ||
                           p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        ++p->i;
}

static bool digits(scan *p)
{
    size_t start = p->i;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        ++p->i;
    return p->i > start;
}

static bool number(scan *p)
{
    if (p->i < p->n && p->s[p->i] == '-') ++p->i;
    if (p->i < p->n && p->s[p->i] == '0')
        ++p->i;
    else if (!digits(p))
        return false;
    if (p->i < p->n && p->s[p->i] == '.') {
        ++p->i;
        if (!digits(p)) return false;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        ++p->i;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-')) ++p->i;
        if (!digits(p)) return false;
    }
    return true;
}

/* Four hex digits after "\u"; -1 when they are not. */
static long hex4(scan *p)
{
    if (p->n - p->i < 4) return -1;
    long v = 0;
    for (int k = 0; k < 4; ++k) {
        char c = p->s[p->i + (size_t)k];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    p->i += 4;
    return v;
}

/* A string from its opening quote; cJSON refuses the same escapes and
 * unpaired UTF-16 surrogates, and NUL is refused to stay on the safe side. */
static bool string(scan *p)
{
    ++p->i;
    while (p->i < p->n) {
        unsigned char c = (unsigned char)p->s[p->i++];
        if (c == '"') return true;
        if (c < 0x20) return false;
        if (c != '\\') continue;
        if (p->i >= p->n) return false;
        c = (unsigned char)p->s[p->i++];
        if (c != 'u') {
            if (!strchr("\"\\/bfnrt", c) || c == 0) return false;
            continue;
        }
        long u = hex4(p);
        if (u <= 0 || (u >= 0xDC00 && u <= 0xDFFF)) return false;
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (p->n - p->i < 2 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                return false;
            p->i += 2;
            long lo = hex4(p);
            if (lo < 0xDC00 || lo > 0xDFFF) return false;
        }
    }
    return false;
}

static bool literal(scan *p, const char *word)
{
    size_t len = strlen(word);
    if (p->n - p->i < len || memcmp(p->s + p->i, word, len) != 0) return false;
    p->i += len;
    return true;
}

/* A scalar value (not an array or object). */
static bool scalar(scan *p)
{
    if (p->i >= p->n) return false;
    switch (p->s[p->i]) {
    case '"':
        return string(p);
    case 't':
        return literal(p, "true");
    case 'f':
        return literal(p, "false");
    case 'n':
        return literal(p, "null");
    default:
        return number(p);
    }
}

bool json_well_formed(const char *text, size_t size, size_t *error_at)
{
    /* The open containers, '[' or '{': no recursion, cJSON's depth. */
    char open[CJSON_NESTING_LIMIT];
    size_t depth = 0;
    scan p = {text, size, 0};
    bool ok = false;
    skip_space(&p);
    for (;;) {
        /* A value is expected here. */
        skip_space(&p);
        if (p.i < p.n && (p.s[p.i] == '[' || p.s[p.i] == '{')) {
            if (depth >= CJSON_NESTING_LIMIT) break;
            open[depth++] = p.s[p.i++];
            skip_space(&p);
            if (p.i < p.n && p.s[p.i] == (open[depth - 1] == '[' ? ']' : '}')) {
                ++p.i;
                --depth;
            } else if (open[depth - 1] == '{') {
                if (p.i >= p.n || p.s[p.i] != '"' || !string(&p)) break;
                skip_space(&p);
                if (p.i >= p.n || p.s[p.i++] != ':') break;
                continue;
            } else {
                continue;
            }
        } else if (!scalar(&p)) {
            break;
        }
        /* After a value: close containers or go on to the next member. */
        bool next = false;
        while (depth > 0) {
            skip_space(&p);
            if (p.i >= p.n) break;
            char c = p.s[p.i++];
            if (c == (open[depth - 1] == '[' ? ']' : '}')) {
                --depth;
                continue;
            }
            if (c != ',') break;
            if (open[depth - 1] == '{') {
                skip_space(&p);
                if (p.i >= p.n || p.s[p.i] != '"' || !string(&p)) break;
                skip_space(&p);
                if (p.i >= p.n || p.s[p.i++] != ':') break;
            }
            next = true;
            break;
        }
        if (next) continue;
        ok = depth == 0;
        break;
    }
    if (!ok && error_at) *error_at = p.i;
    return ok;
}
