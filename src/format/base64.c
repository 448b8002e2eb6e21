/* SPDX-License-Identifier: MIT */
/* Strict base64 (RFC 4648 §4) for glTF data: URIs. Strict because a lenient
 * decoder would silently turn a corrupted buffer into wrong vertex data. */
#include "base/alloc.h"
#include "format/gltf_common.h"

/* 0..63 for the alphabet, -1 for anything else ('=' included). */
static int sextet(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

vs_result base64_decode(const vs_allocator *alloc, const char *in, size_t len,
                        uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    /* Padding is optional, but when present it completes the last quantum:
     * at most two '=' and only at the very end of a multiple-of-4 text. */
    size_t pad = 0;
    while (pad < 2 && len > pad && in[len - 1 - pad] == '=') ++pad;
    if (pad && len % 4 != 0) return VS_ERROR_PARSE;
    size_t n = len - pad; /* significant characters */
    if (n % 4 == 1) return VS_ERROR_PARSE; /* 6 bits cannot make a byte */
    size_t size = n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0);
    uint8_t *buf = mem_alloc(alloc, size);
    if (!buf) return VS_ERROR_OUT_OF_MEMORY;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; ++i) {
        int v = sextet((unsigned char)in[i]);
        if (v < 0) {
            mem_free(alloc, buf);
            return VS_ERROR_PARSE;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1u;
        }
    }
    *out = buf;
    *out_len = o;
    return VS_OK;
}
