/* SPDX-License-Identifier: MIT */
/* PNG (libpng) and JPEG (libjpeg-turbo) bytes to RGBA8 pixels, for the
 * textures the renderer loads lazily. Untrusted input: every failure is a
 * message, never a crash, and the picture size is checked before its pixels
 * are allocated. */
#ifndef VS_RENDER_IMAGE_DECODE_H
#define VS_RENDER_IMAGE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* Decodes PNG or JPEG (told apart by their signatures, whatever the stated
 * media type) into *out_rgba (from alloc, 4 bytes per pixel, top row
 * first). Pictures with more than max_pixels pixels, or a side above
 * max_side, are refused before decoding (VS_ERROR_LIMIT). The message names
 * what is wrong without a prefix; the caller says which image. */
vs_result image_decode_rgba(const uint8_t *data, size_t size,
                            const vs_allocator *alloc, uint64_t max_pixels,
                            uint32_t max_side, uint32_t *width,
                            uint32_t *height, uint8_t **out_rgba,
                            vs_error *error);

#endif
