/* SPDX-License-Identifier: MIT */
/* Picture files for `vskin render`: PNG (libpng) for one frame and animated,
 * looping GIF (giflib) for a clip. Input is RGBA8, top row first. Output is
 * deterministic: the same pixels give the same bytes. */
#ifndef VS_WRITE_IMAGE_IMAGE_WRITERS_H
#define VS_WRITE_IMAGE_IMAGE_WRITERS_H

#include <stdint.h>

#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* alloc (NULL: malloc) gives what vskin allocates itself: the temporary
 * file's name, the pixels read. libpng's own state comes from libpng's
 * allocator (the simplified API takes no hooks). */
vs_result png_write_rgba(const char *path, uint32_t width, uint32_t height,
                         const uint8_t *rgba, const vs_allocator *alloc,
                         vs_error *error);
/* Reads an 8-bit RGBA (or RGB, expanded) PNG; *out_rgba comes from alloc.
 * For tests and reference-image comparisons. */
vs_result png_read_rgba(const char *path, const vs_allocator *alloc,
                        uint32_t *width, uint32_t *height, uint8_t **out_rgba,
                        vs_error *error);

/* The public vs_gif_writer (vskin_tools.h) under its short name. */
typedef struct vs_gif_writer gif_writer;

/* delay_cs: frame time in hundredths of a second (GIF's unit). The file loops
 * forever (NETSCAPE2.0 extension). One global palette of up to 256 colours
 * is made from every frame (median cut, gif_palette.h) and each frame is
 * Floyd-Steinberg dithered onto it, so the same frames give the same
 * bytes. Frames are spooled (RGB) to an anonymous temporary file until
 * gif_writer_close, which encodes them into a temporary file beside path
 * and renames it over path. */
/* The writer and what vskin allocates for it come from alloc (NULL:
 * malloc); giflib's own state from giflib's allocator (it takes no hooks). */
vs_result gif_writer_open(const char *path, uint32_t width, uint32_t height,
                          uint32_t delay_cs, const vs_allocator *alloc,
                          gif_writer **out, vs_error *error);
/* After a failure the writer only takes close (which then fails) or
 * discard. */
vs_result gif_writer_add(gif_writer *w, const uint8_t *rgba, vs_error *error);
/* Finishes the file and renames it into place; frees w even on failure. */
vs_result gif_writer_close(gif_writer *w, vs_error *error);
/* Frees w and removes its temporary file; path is left as it was. */
void gif_writer_discard(gif_writer *w);

#endif
