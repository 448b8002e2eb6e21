/* SPDX-License-Identifier: MIT */
/* Binary glTF containers. GLB 2.0 (glTF 2.0 §4.4): a 12-byte header
 * (magic, version 2, total length), then chunks of (length, type, data) whose
 * lengths are multiples of 4 (others are read and noted); the first chunk is JSON, an optional BIN chunk
 * follows, unknown chunks are skipped. KHR_binary_glTF (glTF 1.0): a 20-byte
 * header (magic, version 1, length, contentLength, contentFormat 0 = JSON),
 * the JSON content, then the binary body. */
#include <string.h>

#include "base/error.h"
#include "format/gltf_common.h"

#define CHUNK_JSON 0x4E4F534Au /* "JSON" little-endian */
#define CHUNK_BIN 0x004E4942u  /* "BIN\0" little-endian */

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static vs_result parse_v2(const uint8_t *data, size_t length, const char *src,
                          const char **json, size_t *json_size,
                          const uint8_t **bin, size_t *bin_size,
                          glb_notes *notes, vs_error *error)
{
    size_t pos = 12;
    bool have_json = false, have_bin = false;
    for (unsigned index = 0; pos < length; ++index) {
        if (length - pos < 8)
            return set_error(error, VS_ERROR_PARSE,
                             "%s: GLB chunk %u at byte %zu: truncated chunk "
                             "header",
                             src, index, pos);
        uint32_t clen = read_u32(data + pos), type = read_u32(data + pos + 4);
        pos += 8;
        if (clen > length - pos)
            return set_error(error, VS_ERROR_PARSE,
                             "%s: GLB chunk %u: length %u runs past the end "
                             "of the file (%zu bytes left)",
                             src, index, clen, length - pos);
        /* §4.4.3: chunk lengths are multiples of 4, but the length says
         * where the next chunk starts either way (three.js and assimp read
         * them so); the caller decides whether to warn. */
        if (clen % 4 != 0 && notes && notes->unaligned_chunk < 0) {
            notes->unaligned_chunk = (int)index;
            notes->unaligned_length = clen;
        }
        if (index == 0 && type != CHUNK_JSON)
            return set_error(error, VS_ERROR_PARSE,
                             "%s: GLB chunk 0: the first chunk must be JSON "
                             "(type 0x%08X)",
                             src, type);
        if (type == CHUNK_JSON) {
            if (have_json)
                return set_error(error, VS_ERROR_PARSE,
                                 "%s: GLB chunk %u: second JSON chunk", src,
                                 index);
            if (clen == 0)
                return set_error(error, VS_ERROR_PARSE,
                                 "%s: GLB chunk 0: the JSON chunk is empty",
                                 src);
            have_json = true;
            *json = (const char *)data + pos;
            *json_size = clen;
        } else if (type == CHUNK_BIN) {
            if (have_bin)
                return set_error(error, VS_ERROR_PARSE,
                                 "%s: GLB chunk %u: second BIN chunk", src,
                                 index);
            if (index != 1)
                return set_error(error, VS_ERROR_PARSE,
                                 "%s: GLB chunk %u: the BIN chunk must be the "
                                 "second chunk",
                                 src, index);
            have_bin = true;
            *bin = data + pos;
            *bin_size = clen;
        }
        pos += clen;
    }
    if (!have_json)
        return set_error(error, VS_ERROR_PARSE, "%s: GLB has no JSON chunk",
                         src);
    /* No BIN chunk: an empty one at the end, so that the caller can tell a
     * GLB (where buffer 0 without uri must be the BIN chunk, §4.4.3.3) from
     * a .gltf (bin NULL). */
    if (!have_bin) *bin = data + length;
    return VS_OK;
}

static vs_result parse_v1(const uint8_t *data, size_t length, const char *src,
                          const char **json, size_t *json_size,
                          const uint8_t **bin, size_t *bin_size,
                          vs_error *error)
{
    if (length < 20)
        return set_error(error, VS_ERROR_PARSE,
                         "%s: binary glTF 1.0 header is truncated", src);
    uint32_t content_length = read_u32(data + 12);
    uint32_t content_format = read_u32(data + 16);
    if (content_format != 0)
        return set_error(error, VS_ERROR_PARSE,
                         "%s: binary glTF contentFormat %u is not 0 (JSON)",
                         src, content_format);
    if (content_length == 0 || content_length > length - 20)
        return set_error(error, VS_ERROR_PARSE,
                         "%s: binary glTF contentLength %u does not fit in "
                         "the file (%zu bytes after the header)",
                         src, content_length, length - 20);
    *json = (const char *)data + 20;
    *json_size = content_length;
    size_t body = 20 + (size_t)content_length;
    if (body < length) {
        *bin = data + body;
        *bin_size = length - body;
    }
    return VS_OK;
}

vs_result glb_parse(const uint8_t *data, size_t size, const char *source_name,
                    const char **json, size_t *json_size, const uint8_t **bin,
                    size_t *bin_size, uint32_t *version, vs_error *error)
{
    return glb_parse_noted(data, size, source_name, json, json_size, bin,
                           bin_size, version, NULL, error);
}

vs_result glb_parse_noted(const uint8_t *data, size_t size,
                          const char *source_name, const char **json,
                          size_t *json_size, const uint8_t **bin,
                          size_t *bin_size, uint32_t *version,
                          glb_notes *notes, vs_error *error)
{
    if (notes) *notes = (glb_notes){.unaligned_chunk = -1};
    *json = NULL;
    *json_size = 0;
    *bin = NULL;
    *bin_size = 0;
    *version = 0;
    const char *src = source_name;
    if (size < 12 || memcmp(data, "glTF", 4) != 0)
        return set_error(error, VS_ERROR_PARSE,
                         "%s: not a binary glTF file (header truncated or "
                         "bad magic)",
                         src);
    uint32_t v = read_u32(data + 4), length = read_u32(data + 8);
    if (v != 1 && v != 2)
        return set_error(error, VS_ERROR_UNSUPPORTED,
                         "%s: binary glTF version %u is not supported", src,
                         v);
    /* §4.4.2: length is the whole GLB. Bytes after it are not part of the
     * container and are ignored (validator GLB_EXTRA_DATA is a warning);
     * fewer bytes mean a truncated file. */
    if (length > size || length < 12)
        return set_error(error, VS_ERROR_PARSE,
                         "%s: binary glTF header length %u does not match "
                         "the file size %zu%s",
                         src, length, size,
                         length > size ? " (truncated file)" : "");
    *version = v;
    if (v == 1)
        return parse_v1(data, length, src, json, json_size, bin, bin_size,
                        error);
    return parse_v2(data, length, src, json, json_size, bin, bin_size, notes,
                    error);
}
