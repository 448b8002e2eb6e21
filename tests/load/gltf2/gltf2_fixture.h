/* SPDX-License-Identifier: MIT */
/* Building small glTF 2.0 inputs inside tests: a little-endian byte buffer
 * to append typed values to, its base64 data: URI, and a JSON text made with
 * printf-style formatting. Test-only helpers (the library decodes base64 but
 * never encodes it). */
#ifndef VS_TESTS_IO_GLTF2_FIXTURE_H
#define VS_TESTS_IO_GLTF2_FIXTURE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fx_bytes {
    uint8_t data[32768];
    size_t size;
} fx_bytes;

static inline void fx_u8(fx_bytes *b, uint32_t v)
{
    if (b->size < sizeof b->data) b->data[b->size++] = (uint8_t)v;
}

static inline void fx_u16(fx_bytes *b, uint32_t v)
{
    fx_u8(b, v & 0xFF);
    fx_u8(b, (v >> 8) & 0xFF);
}

static inline void fx_u32(fx_bytes *b, uint32_t v)
{
    fx_u16(b, v & 0xFFFF);
    fx_u16(b, v >> 16);
}

static inline void fx_f32(fx_bytes *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    fx_u32(b, v);
}

static inline void fx_f32s(fx_bytes *b, const float *f, size_t n)
{
    for (size_t i = 0; i < n; ++i) fx_f32(b, f[i]);
}

/* Pads with `fill` to a multiple of 4 (glTF alignment). */
static inline void fx_align4(fx_bytes *b, uint32_t fill)
{
    while (b->size % 4) fx_u8(b, fill);
}

/* "data:application/octet-stream;base64,..." (malloc'd). */
static inline char *fx_data_uri(const fx_bytes *b)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *head = "data:application/octet-stream;base64,";
    size_t n = b->size, hl = strlen(head);
    char *s = malloc(hl + (n + 2) / 3 * 4 + 1);
    if (!s) abort();
    memcpy(s, head, hl);
    char *o = s + hl;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)b->data[i] << 16;
        if (i + 1 < n) v |= (uint32_t)b->data[i + 1] << 8;
        if (i + 2 < n) v |= b->data[i + 2];
        *o++ = alphabet[(v >> 18) & 63];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? alphabet[v & 63] : '=';
    }
    *o = '\0';
    return s;
}

/* printf into a malloc'd string. */
static inline char *fx_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    if (!s) abort();
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* A glTF 2.0 document under construction: one binary buffer and the JSON
 * texts of its bufferViews and accessors, numbered in the order added. */
typedef struct fx_gltf {
    fx_bytes bin;
    char views[8192];
    char accessors[16384];
    int view_count, accessor_count;
    size_t view_start;
} fx_gltf;

static inline void fx_append(char *dst, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(dst);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst + n, cap - n, fmt, ap);
    va_end(ap);
}

/* Starts a bufferView at the current (4-aligned) end of the buffer. */
static inline void fx_view_begin(fx_gltf *g)
{
    fx_align4(&g->bin, 0);
    g->view_start = g->bin.size;
}

/* Ends the bufferView begun last; stride 0 = none. Returns its index. */
static inline int fx_view_end(fx_gltf *g, int stride)
{
    char st[32] = "";
    if (stride) snprintf(st, sizeof st, ",\"byteStride\":%d", stride);
    fx_append(g->views, sizeof g->views,
              "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu%s}",
              g->view_count ? "," : "", g->view_start,
              g->bin.size - g->view_start, st);
    return g->view_count++;
}

/* An accessor on `view` (-1: none); `extra` is more JSON members ("" or
 * starting with a comma). Returns its index. */
static inline int fx_accessor(fx_gltf *g, int view, unsigned ctype,
                              int count, const char *type, const char *extra)
{
    char v[32] = "";
    if (view >= 0) snprintf(v, sizeof v, "\"bufferView\":%d,", view);
    fx_append(g->accessors, sizeof g->accessors,
              "%s{%s\"componentType\":%u,\"count\":%d,\"type\":\"%s\"%s}",
              g->accessor_count ? "," : "", v, ctype, count, type, extra);
    return g->accessor_count++;
}

/* count elements of n floats in their own view + accessor. */
static inline int fx_floats(fx_gltf *g, const float *f, int count, int n,
                            const char *type, const char *extra)
{
    fx_view_begin(g);
    fx_f32s(&g->bin, f, (size_t)count * n);
    return fx_accessor(g, fx_view_end(g, 0), 5126, count, type, extra);
}

/* The document: `buffer` is the JSON of buffers[0] without byteLength (e.g.
 * "\"uri\":\"x.bin\"" or "" for a GLB), `rest` more root members. */
static inline char *fx_gltf_json(const fx_gltf *g, const char *buffer,
                                 const char *rest)
{
    return fx_format("{\"asset\":{\"version\":\"2.0\"},"
                     "\"buffers\":[{\"byteLength\":%zu%s%s}],"
                     "\"bufferViews\":[%s],\"accessors\":[%s]%s%s}",
                     g->bin.size, *buffer ? "," : "", buffer, g->views,
                     g->accessors, *rest ? "," : "", rest);
}

/* The document with its buffer embedded as a data: URI. */
static inline char *fx_gltf_embedded(const fx_gltf *g, const char *rest)
{
    char *uri = fx_data_uri(&g->bin);
    char *b = fx_format("\"uri\":\"%s\"", uri);
    char *json = fx_gltf_json(g, b, rest);
    free(uri);
    free(b);
    return json;
}

/* A GLB of `json` and `bin` (JSON padded with spaces, BIN with zeros, as
 * §4.4.3 says). *size receives its length; the result is malloc'd. */
static inline uint8_t *fx_glb(const char *json, const fx_bytes *bin,
                              size_t *size)
{
    size_t jl = strlen(json), jp = (jl + 3) & ~(size_t)3;
    size_t bp = bin ? (bin->size + 3) & ~(size_t)3 : 0;
    size_t total = 12 + 8 + jp + (bin ? 8 + bp : 0);
    fx_bytes *out = calloc(1, sizeof *out);
    if (!out || total > sizeof out->data) abort();
    fx_u32(out, 0x46546C67); /* "glTF" */
    fx_u32(out, 2);
    fx_u32(out, (uint32_t)total);
    fx_u32(out, (uint32_t)jp);
    fx_u32(out, 0x4E4F534A); /* "JSON" */
    for (size_t i = 0; i < jp; ++i) fx_u8(out, i < jl ? (uint8_t)json[i] : ' ');
    if (bin) {
        fx_u32(out, (uint32_t)bp);
        fx_u32(out, 0x004E4942); /* "BIN\0" */
        for (size_t i = 0; i < bp; ++i)
            fx_u8(out, i < bin->size ? bin->data[i] : 0);
    }
    uint8_t *data = malloc(total);
    if (!data) abort();
    memcpy(data, out->data, total);
    free(out);
    *size = total;
    return data;
}

/* True when `message` starts with "<prefix>: " and contains `part`. */
static inline int fx_message_is(const char *message, const char *prefix,
                                const char *part)
{
    size_t n = strlen(prefix);
    return strncmp(message, prefix, n) == 0 && message[n] == ':' &&
           message[n + 1] == ' ' && strstr(message, part) != NULL;
}

#endif
