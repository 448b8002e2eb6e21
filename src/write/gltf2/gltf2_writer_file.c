/* SPDX-License-Identifier: MIT */
/* Putting the document on disk: .gltf + .bin, .gltf with a base64 data:
 * URI, or GLB (§4.4). Each file is written to a temporary name in the same
 * folder and renamed over the target only once complete
 * (write/write_file.h), so a failed write (disk full, ...) never leaves a
 * truncated file or clobbers an existing one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "write/gltf2/gltf2_writer.h"
#include "write/write_file.h"

#define GLB_MAGIC 0x46546C67u /* "glTF" */
#define CHUNK_JSON 0x4E4F534Au
#define CHUNK_BIN 0x004E4942u

char *gltf2_bin_path(const char *gltf_path, const vs_allocator *alloc)
{
    const char *slash = strrchr(gltf_path, '/');
    const char *base = slash ? slash + 1 : gltf_path;
    const char *dot = strrchr(base, '.');
    size_t stem =
        dot && dot != base ? (size_t)(dot - gltf_path) : strlen(gltf_path);
    char *out = mem_alloc(alloc, stem + 5);
    if (out) {
        memcpy(out, gltf_path, stem);
        memcpy(out + stem, ".bin", 5);
    }
    return out;
}

/* RFC 4648 base64 for data: URIs (§3.6.1.1). */
static char *base64_encode(const vs_allocator *alloc, const uint8_t *in,
                           size_t n)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char prefix[] = "data:application/octet-stream;base64,";
    size_t len = sizeof prefix - 1 + (n + 2) / 3 * 4;
    char *out = mem_alloc(alloc, len + 1), *o;
    if (!out) return NULL;
    memcpy(out, prefix, sizeof prefix - 1);
    o = out + sizeof prefix - 1;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n) v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n) v |= in[i + 2];
        *o++ = alphabet[v >> 18 & 63];
        *o++ = alphabet[v >> 12 & 63];
        *o++ = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? alphabet[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

/* The .bin's file name as a relative URI reference: every byte outside
 * RFC 3986's unreserved set percent-encoded (§3.6.1.1: URIs are RFC 3986). */
static char *relative_uri(const vs_allocator *alloc, const char *bin_path)
{
    const char *slash = strrchr(bin_path, '/');
    const char *name = slash ? slash + 1 : bin_path;
    char *out = mem_alloc(alloc, strlen(name) * 3 + 1), *o = out;
    if (!out) return NULL;
    for (const unsigned char *p = (const unsigned char *)name; *p; ++p) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
            (*p >= '0' && *p <= '9') || strchr("-._~", *p))
            *o++ = (char)*p;
        else
            o += sprintf(o, "%%%02X", *p);
    }
    *o = '\0';
    return out;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; ++k)
        p[k] = (uint8_t)(v >> (8 * k));
}

/* GLB: 12-byte header, JSON chunk padded with spaces, BIN chunk padded with
 * zeros, both to 4 bytes (§4.4.3). */
static vs_result write_glb(gltf2w_ctx *c, const char *json)
{
    static const uint8_t spaces[3] = {' ', ' ', ' '}, zeros[3] = {0};
    size_t jlen = strlen(json), jpad = (4 - jlen % 4) % 4;
    size_t blen = c->bin_size, bpad = (4 - blen % 4) % 4;
    uint64_t total =
        12 + 8 + (uint64_t)jlen + jpad + (blen ? 8 + (uint64_t)blen + bpad : 0);
    if (total > UINT32_MAX)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: the GLB would exceed 4 GiB", c->path);
    uint8_t header[12], jhead[8], bhead[8];
    put_u32(header, GLB_MAGIC);
    put_u32(header + 4, 2);
    put_u32(header + 8, (uint32_t)total);
    put_u32(jhead, (uint32_t)(jlen + jpad));
    put_u32(jhead + 4, CHUNK_JSON);
    put_u32(bhead, (uint32_t)(blen + bpad));
    put_u32(bhead + 4, CHUNK_BIN);
    file_part parts[] = {{header, 12},   {jhead, 8}, {json, jlen},
                         {spaces, jpad}, {bhead, 8}, {c->bin, blen},
                         {zeros, bpad}};
    out_file out;
    vs_result r = write_file_parts(&out, c->path, c->alloc, parts, blen ? 7 : 4,
                                   c->error);
    if (r == VS_OK) r = out_file_commit(&out, c->error);
    return r;
}

/* The buffers array: one buffer, its uri set for .gltf output. */
static vs_result add_buffer(gltf2w_ctx *c, bool glb, bool embed,
                            char **bin_path)
{
    *bin_path = NULL;
    if (c->bin_size == 0) return VS_OK;
    cJSON *list = cJSON_AddArrayToObject(c->root, "buffers");
    cJSON *buf = cJSON_CreateObject();
    if (!list || !buf) {
        cJSON_Delete(buf);
        return gltf2w_oom(c, "buffers");
    }
    cJSON_AddItemToArray(list, buf);
    char *uri = NULL;
    if (!glb) {
        if (embed) {
            uri = base64_encode(c->alloc, c->bin, c->bin_size);
        } else {
            *bin_path = gltf2_bin_path(c->path, c->alloc);
            uri = *bin_path ? relative_uri(c->alloc, *bin_path) : NULL;
        }
        if (!uri) return gltf2w_oom(c, "buffers");
    }
    bool ok = !uri || cJSON_AddStringToObject(buf, "uri", uri);
    mem_free(c->alloc, uri);
    if (!ok || !cJSON_AddNumberToObject(buf, "byteLength", (double)c->bin_size))
        return gltf2w_oom(c, "buffers");
    return VS_OK;
}

vs_result gltf2w_emit(gltf2w_ctx *c, bool glb, bool embed)
{
    char *bin_path = NULL;
    vs_result r = add_buffer(c, glb, embed, &bin_path);
    char *json = NULL;
    if (r == VS_OK) {
        json = glb ? cJSON_PrintUnformatted(c->root) : cJSON_Print(c->root);
        if (!json) r = gltf2w_oom(c, "JSON text");
    }
    if (r == VS_OK && glb) r = write_glb(c, json);
    if (r == VS_OK && !glb) {
        /* Both files complete before either replaces its target. */
        out_file bin = {0}, text = {0};
        file_part bin_part = {c->bin, c->bin_size};
        file_part text_parts[] = {{json, strlen(json)}, {"\n", 1}};
        if (bin_path)
            r = write_file_parts(&bin, bin_path, c->alloc, &bin_part, 1,
                                 c->error);
        if (r == VS_OK)
            r = write_file_parts(&text, c->path, c->alloc, text_parts, 2,
                                 c->error);
        /* The .bin first, then the .gltf that names it, under the
         * folder's lock (out_files_commit). */
        out_file *pair[] = {&bin, &text};
        if (r == VS_OK) r = out_files_commit(pair, 2, c->error);
        out_file_discard(&bin);
        out_file_discard(&text);
    }
    cJSON_free(json); /* cJSON_Print's, through cJSON's own hooks */
    mem_free(c->alloc, bin_path);
    return r;
}
