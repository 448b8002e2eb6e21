/* SPDX-License-Identifier: MIT */
/* Lines of text drawn into an RGBA picture on the CPU with the public-domain
 * 8x8 font (view_font8x8.h): a panel of light text on a semi-opaque dark
 * background, which view_overlay.h then blends over the viewer's frame.
 * Knows nothing of GL, so its pixels can be checked without a window. */
#ifndef VS_TOOLS_VIEW_TEXT_H
#define VS_TOOLS_VIEW_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A glyph's cell, before scaling. */
#define VIEW_TEXT_GLYPH 8
/* A line is one glyph and this many pixels of space (before scaling)
 * tall; the panel has this margin (before scaling) around its text. */
#define VIEW_TEXT_LEADING 2
#define VIEW_TEXT_MARGIN 4

/* The panel's colours, RGBA: the background lets the model show through
 * dimmed; the text is opaque. */
extern const uint8_t view_text_background[4];
extern const uint8_t view_text_foreground[4];

/* True when pixel x, y (0..7, y from the top) of character c's glyph is
 * set. Bytes outside printable ASCII draw as '?'. */
bool view_text_glyph_pixel(unsigned char c, int x, int y);
/* The characters a line draws: a UTF-8 sequence is one '?', so a clip
 * name in another script keeps its length. */
size_t view_text_length(const char *line);
/* The size in pixels of the panel that holds `count` lines at `scale`
 * (each font pixel a scale x scale square, scale >= 1). */
void view_text_panel_size(const char *const *lines, size_t count, int scale,
                          int *width, int *height);
/* Draws the panel into rgba (width x height pixels, 4 bytes each, the top
 * row first): the background everywhere, the glyphs' pixels in the
 * foreground. A picture smaller than view_text_panel_size cuts the text
 * off at its right and bottom edges; nothing is written outside it. */
void view_text_draw_panel(const char *const *lines, size_t count, int scale,
                          uint8_t *rgba, int width, int height);

#endif
