/* SPDX-License-Identifier: MIT */
/* One palette for a whole animation: a histogram of every frame's colours
 * (5 bits per channel, with the exact sums of what falls in each cell),
 * median cut to at most 256 colours, and Floyd-Steinberg dithering of a
 * row onto them through a lazily filled nearest-colour table. Memory is
 * fixed whatever the frame count: the histogram and the table. */
#ifndef VS_WRITE_IMAGE_GIF_PALETTE_H
#define VS_WRITE_IMAGE_GIF_PALETTE_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

#define GIF_HIST_CELLS (32 * 32 * 32)
#define GIF_LOOKUP_CELLS (64 * 64 * 64)

typedef struct gif_cell {
    uint64_t count;
    uint64_t sum[3];
} gif_cell;

typedef struct gif_palette {
    gif_cell *cells; /* GIF_HIST_CELLS */
    uint8_t colors[256][3];
    uint32_t color_count;
    /* 6 bits per channel -> palette index + 1; 0: not looked up yet. */
    uint16_t *lookup; /* GIF_LOOKUP_CELLS */
} gif_palette;

/* Allocates the histogram and the table from alloc. */
vs_result gif_palette_init(gif_palette *p, const vs_allocator *alloc,
                           vs_error *error);
void gif_palette_free(gif_palette *p, const vs_allocator *alloc);
/* Counts n RGB(A) pixels (stride 3 or 4 bytes). */
void gif_palette_count(gif_palette *p, const uint8_t *pixels, uint32_t n,
                       uint32_t stride);
/* Median cut of what was counted into colors (at least one colour).
 * Works in place on the histogram, which is unusable afterwards. */
vs_result gif_palette_build(gif_palette *p, const vs_allocator *alloc,
                            vs_error *error);
/* Maps one row of width RGB pixels to palette indices with
 * Floyd-Steinberg error diffusion. err holds 2 * (width + 2) * 3 ints:
 * zero it before the first row of each frame, and pass the same buffer
 * row after row (it carries the error to the next row). */
void gif_palette_dither_row(gif_palette *p, const uint8_t *rgb, uint32_t width,
                            int32_t *err, uint8_t *out);

#endif
