/* SPDX-License-Identifier: MIT */
/* The viewer's CPU text rasteriser (tools/view_text.c, compiled into this
 * test): a glyph lands pixel for pixel at twice the font's size inside the
 * panel's margin, the panel's size follows its widest line, characters
 * outside ASCII draw as one '?', and a picture smaller than the panel is
 * never written past. No window or GL is needed. */
#include <stdint.h>

#include "test.h"
#include "view_text.h"

static bool is(const uint8_t *px, const uint8_t colour[4])
{
    return memcmp(px, colour, 4) == 0;
}

/* 'H' of font8x8, row by row from the top, as it looks. */
static const char *const glyph_h[8] = {
    "XX..XX..", "XX..XX..", "XX..XX..", "XXXXXX..",
    "XX..XX..", "XX..XX..", "XX..XX..", "........",
};

static void h_at_twice_the_size(void)
{
    const char *line = "H";
    int w = 0, h = 0;
    view_text_panel_size(&line, 1, 2, &w, &h);
    CHECK(w == (VIEW_TEXT_GLYPH + 2 * VIEW_TEXT_MARGIN) * 2);
    CHECK(h == (VIEW_TEXT_GLYPH + 2 * VIEW_TEXT_MARGIN) * 2);
    uint8_t px[32 * 32 * 4];
    if (w != 32 || h != 32) return;
    view_text_draw_panel(&line, 1, 2, px, w, h);
    int wrong = 0, lit = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int gx = (x - VIEW_TEXT_MARGIN * 2) / 2;
            int gy = (y - VIEW_TEXT_MARGIN * 2) / 2;
            bool inside = x >= VIEW_TEXT_MARGIN * 2 &&
                          y >= VIEW_TEXT_MARGIN * 2 && gx < 8 && gy < 8;
            bool on = inside && glyph_h[gy][gx] == 'X';
            const uint8_t *p = px + (y * w + x) * 4;
            wrong += !is(p, on ? view_text_foreground : view_text_background);
            lit += on;
        }
    CHECK_MSG(wrong == 0, "%d pixels of the H panel are wrong", wrong);
    /* 30 font pixels, each a 2x2 square. */
    CHECK(lit == 30 * 4);
}

static void panel_size_follows_the_widest_line(void)
{
    const char *lines[] = {"ab", "abcd", ""};
    int w = 0, h = 0;
    view_text_panel_size(lines, 3, 1, &w, &h);
    CHECK(w == 4 * VIEW_TEXT_GLYPH + 2 * VIEW_TEXT_MARGIN);
    CHECK(h ==
          3 * VIEW_TEXT_GLYPH + 2 * VIEW_TEXT_LEADING + 2 * VIEW_TEXT_MARGIN);
    view_text_panel_size(lines, 0, 1, &w, &h);
    CHECK(w == 2 * VIEW_TEXT_MARGIN && h == 2 * VIEW_TEXT_MARGIN);
}

static void non_ascii_is_one_question_mark(void)
{
    /* "é" in UTF-8 is two bytes, one character. */
    CHECK(view_text_length("\xc3\xa9x") == 2);
    CHECK(view_text_length("") == 0);
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) {
            CHECK(view_text_glyph_pixel(0xc3, x, y) ==
                  view_text_glyph_pixel('?', x, y));
            CHECK(view_text_glyph_pixel(127, x, y) ==
                  view_text_glyph_pixel('?', x, y));
            CHECK(!view_text_glyph_pixel(' ', x, y));
        }
    CHECK(!view_text_glyph_pixel('H', -1, 0) &&
          !view_text_glyph_pixel('H', 8, 0));
}

static void small_picture_cuts_the_text(void)
{
    const char *lines[] = {"a long line of text", "and another one"};
    enum { W = 20, H = 16, GUARD = 64 };
    uint8_t px[W * H * 4 + GUARD];
    memset(px, 0xAB, sizeof px);
    view_text_draw_panel(lines, 2, 2, px, W, H);
    int guard = 0;
    for (int i = 0; i < GUARD; ++i)
        guard += px[W * H * 4 + i] != 0xAB;
    CHECK_MSG(guard == 0, "%d bytes past the picture written", guard);
    CHECK(is(px, view_text_background));
    /* The text starts inside the cut picture: 'a' has pixels there. */
    int lit = 0;
    for (int i = 0; i < W * H; ++i)
        lit += is(px + i * 4, view_text_foreground);
    CHECK(lit > 0);
}

int main(void)
{
    RUN(h_at_twice_the_size);
    RUN(panel_size_follows_the_widest_line);
    RUN(non_ascii_is_one_question_mark);
    RUN(small_picture_cuts_the_text);
    return test_summary();
}
