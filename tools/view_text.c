/* SPDX-License-Identifier: MIT */
/* The CPU text rasteriser of the viewer's overlay (view_text.h). */
#include "view_text.h"

#include <string.h>

#include "view_font8x8.h"

const uint8_t view_text_background[4] = {16, 18, 24, 200};
const uint8_t view_text_foreground[4] = {240, 240, 240, 255};

bool view_text_glyph_pixel(unsigned char c, int x, int y)
{
    if (c < VIEW_FONT_FIRST || c > VIEW_FONT_LAST) c = '?';
    if (x < 0 || y < 0 || x >= VIEW_TEXT_GLYPH || y >= VIEW_TEXT_GLYPH)
        return false;
    /* font8x8's order: the least significant bit is the leftmost pixel. */
    return (view_font8x8[c - VIEW_FONT_FIRST][y] >> x) & 1;
}

/* A UTF-8 continuation byte belongs to the character before it. */
static bool continues(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

size_t view_text_length(const char *line)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)line; *p; ++p)
        n += !continues(*p);
    return n;
}

void view_text_panel_size(const char *const *lines, size_t count, int scale,
                          int *width, int *height)
{
    size_t widest = 0;
    for (size_t i = 0; i < count; ++i) {
        size_t n = view_text_length(lines[i]);
        if (n > widest) widest = n;
    }
    *width = (int)(widest * VIEW_TEXT_GLYPH + 2 * VIEW_TEXT_MARGIN) * scale;
    *height = (int)(count * (VIEW_TEXT_GLYPH + VIEW_TEXT_LEADING) +
                    2 * VIEW_TEXT_MARGIN - VIEW_TEXT_LEADING * (count > 0)) *
              scale;
}

/* One glyph with its top-left corner at x, y; cut off at the edges. */
static void draw_glyph(unsigned char c, int scale, int x, int y, uint8_t *rgba,
                       int width, int height)
{
    for (int gy = 0; gy < VIEW_TEXT_GLYPH * scale; ++gy) {
        int py = y + gy;
        if (py < 0 || py >= height) continue;
        for (int gx = 0; gx < VIEW_TEXT_GLYPH * scale; ++gx) {
            int px = x + gx;
            if (px < 0 || px >= width) continue;
            if (view_text_glyph_pixel(c, gx / scale, gy / scale))
                memcpy(rgba + ((size_t)py * (size_t)width + (size_t)px) * 4,
                       view_text_foreground, 4);
        }
    }
}

void view_text_draw_panel(const char *const *lines, size_t count, int scale,
                          uint8_t *rgba, int width, int height)
{
    if (scale < 1 || width <= 0 || height <= 0) return;
    for (size_t i = 0; i < (size_t)width * (size_t)height; ++i)
        memcpy(rgba + i * 4, view_text_background, 4);
    int step = VIEW_TEXT_GLYPH * scale;
    for (size_t l = 0; l < count; ++l) {
        int y = (VIEW_TEXT_MARGIN +
                 (int)l * (VIEW_TEXT_GLYPH + VIEW_TEXT_LEADING)) *
                scale;
        if (y >= height) break;
        int x = VIEW_TEXT_MARGIN * scale;
        for (const unsigned char *p = (const unsigned char *)lines[l];
             *p && x < width; ++p) {
            if (continues(*p)) continue;
            draw_glyph(*p, scale, x, y, rgba, width, height);
            x += step;
        }
    }
}
