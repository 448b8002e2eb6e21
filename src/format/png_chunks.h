/* SPDX-License-Identifier: MIT */
/* The chunk walk every PNG goes through before libpng reads it. */
#ifndef VS_FORMAT_PNG_CHUNKS_H
#define VS_FORMAT_PNG_CHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* Whether data starts with the 8-byte PNG signature. */
bool png_has_signature(const uint8_t *data, size_t size);

/* VS_OK when every whole chunk of the PNG in data (signature included, not
 * checked here) lies inside the data, up to IEND. libpng allocates a
 * chunk's declared length before it reads the chunk, and its simplified
 * API has no way to cap that, so a file of a few bytes declaring a 2 GB
 * text chunk would cost 2 GB: this walk bounds what libpng allocates for
 * chunks by the file's own size. Data that ends between chunks (no IEND),
 * or inside a chunk's length and type, passes: libpng reads the former and
 * stops at the latter before allocating. Else VS_ERROR_PARSE, the message
 * naming the chunk (its index and type) without a prefix. */
vs_result png_chunks_fit(const uint8_t *data, size_t size, vs_error *error);

#endif
