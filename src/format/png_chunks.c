/* SPDX-License-Identifier: MIT */
/* The PNG chunk walk (png_chunks.h). */
#include "format/png_chunks.h"

#include <string.h>

#include "base/error.h"

bool png_has_signature(const uint8_t *data, size_t size)
{
    static const uint8_t signature[8] = {0x89, 'P',  'N',  'G',
                                         '\r', '\n', 0x1a, '\n'};
    return data && size >= 8 && memcmp(data, signature, 8) == 0;
}

vs_result png_chunks_fit(const uint8_t *data, size_t size, vs_error *error)
{
    size_t at = 8; /* past the signature */
    if (size < at) return VS_OK;
    for (unsigned i = 0;; ++i) {
        /* libpng reads a chunk's length and type (8 bytes) and then
         * allocates the length: with fewer bytes left it stops first. */
        if (at > size || size - at < 8) return VS_OK;
        const uint32_t length = (uint32_t)data[at] << 24 |
                                (uint32_t)data[at + 1] << 16 |
                                (uint32_t)data[at + 2] << 8 | data[at + 3];
        char type[5];
        for (int k = 0; k < 4; ++k) {
            const uint8_t c = data[at + 4 + k];
            type[k] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
                          ? (char)c
                          : '?';
        }
        type[4] = '\0';
        /* What libpng would allocate must be there; a CRC cut short is
         * libpng's to judge, as it allocates nothing for it. */
        const size_t left = size - at - 8;
        if (length > left)
            return set_error(error, VS_ERROR_PARSE,
                             "chunk %u (%s) declares %u bytes, more than the "
                             "%zu left",
                             i, type, length, left);
        if (memcmp(data + at + 4, "IEND", 4) == 0) return VS_OK;
        /* Past this chunk's CRC, which may itself lie past the end: the
         * next round's first test stops there. */
        at += 12 + (size_t)length;
    }
}
