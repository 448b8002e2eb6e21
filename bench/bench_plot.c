/* SPDX-License-Identifier: MIT */
/* The throughput plot: vertices/s (linear y) against vertex count (log x),
 * one line per influence count, for positions + normals through the
 * dispatched kernel on one thread (solid) and on the most threads measured
 * (thin). Drawn into RGBA pixels and written with vs_write_png;
 * labels use a built-in 3x5 pixel font (digits, k, M). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "vskin/vskin_tools.h"

#define W 800
#define H 500
#define LEFT 70
#define RIGHT 130
#define TOP 30
#define BOTTOM 50
#define SCALE 3 /* font pixel size */

typedef struct canvas {
    uint8_t *px;
} canvas;

static const uint8_t COLOURS[4][3] = {
    {31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40}};

static void dot(canvas *c, int x, int y, const uint8_t rgb[3])
{
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    uint8_t *p = c->px + ((size_t)y * W + (size_t)x) * 4;
    p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
}

static void line(canvas *c, int x0, int y0, int x1, int y1, int thick,
                 const uint8_t rgb[3])
{
    int steps = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
    for (int i = 0; i <= steps; ++i) {
        int x = x0 + (steps ? (x1 - x0) * i / steps : 0);
        int y = y0 + (steps ? (y1 - y0) * i / steps : 0);
        for (int dy = -thick / 2; dy <= thick / 2; ++dy)
            for (int dx = -thick / 2; dx <= thick / 2; ++dx)
                dot(c, x + dx, y + dy, rgb);
    }
}

/* 3x5 glyphs, rows top to bottom, 3 bits per row (MSB = left). */
static int glyph(char ch)
{
    static const struct {
        char c;
        int bits;
    } font[] = {{'0', 0x7B6F}, {'1', 0x2C97}, {'2', 0x73E7}, {'3', 0x73CF},
                {'4', 0x5BC9}, {'5', 0x79CF}, {'6', 0x79EF}, {'7', 0x7249},
                {'8', 0x7BEF}, {'9', 0x7BCF}, {'k', 0x4BAD}, {'M', 0x5FED},
                {'.', 0x0002}, {'x', 0x02AA}, {'=', 0x0E38}};
    for (size_t i = 0; i < sizeof font / sizeof font[0]; ++i)
        if (font[i].c == ch) return font[i].bits;
    return 0;
}

static void text(canvas *c, int x, int y, const char *s, const uint8_t rgb[3])
{
    for (; *s; ++s, x += 4 * SCALE) {
        int bits = glyph(*s);
        for (int row = 0; row < 5; ++row)
            for (int col = 0; col < 3; ++col)
                if (bits & (1 << (14 - row * 3 - col)))
                    for (int d = 0; d < SCALE * SCALE; ++d)
                        dot(c, x + col * SCALE + d % SCALE,
                            y + row * SCALE + d / SCALE, rgb);
    }
}

static void size_label(char *buf, size_t n, double v)
{
    if (v >= 1e6)
        snprintf(buf, n, "%gM", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, n, "%gk", v / 1e3);
    else
        snprintf(buf, n, "%g", v);
}

static bool plotted(const bench_row *w, int threads)
{
    return !strcmp(w->kind, "skin") && !strcmp(w->what, "pos+nrm") &&
           strcmp(w->impl, "reference") != 0 && w->threads == threads;
}

bool bench_plot(const bench_config *cfg, const bench_results *r,
                const char *path)
{
    int max_threads = 1;
    for (int t = 0; t < cfg->thread_count; ++t)
        if (cfg->threads[t] > max_threads) max_threads = cfg->threads[t];
    double xmin = 1e300, xmax = 0, ymax = 0;
    for (size_t i = 0; i < r->count; ++i) {
        const bench_row *w = &r->rows[i];
        if (!plotted(w, 1) && !plotted(w, max_threads)) continue;
        xmin = fmin(xmin, (double)w->vertices);
        xmax = fmax(xmax, (double)w->vertices);
        ymax = fmax(ymax, w->per_second);
    }
    if (ymax <= 0) {
        fprintf(stderr, "bench: --plot: no pos+nrm rows to plot\n");
        return false;
    }
    if (xmax <= xmin) xmax = xmin * 10;
    /* y axis: a round step in millions of vertices per second */
    double mv = ymax / 1e6, step = pow(10, floor(log10(mv)));
    if (mv / step > 5) step *= 2;
    double ytop = ceil(mv / step) * step;
    canvas c = {calloc((size_t)W * H, 4)};
    if (!c.px) return false;
    static const uint8_t white[3] = {255, 255, 255}, black[3] = {0, 0, 0},
                         grey[3] = {220, 220, 220};
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            dot(&c, x, y, white);
    int pw = W - LEFT - RIGHT, ph = H - TOP - BOTTOM;
#define PX(v)                                                                  \
    (LEFT +                                                                    \
     (int)lround((log10(v) - log10(xmin)) / (log10(xmax) - log10(xmin)) * pw))
#define PY(v) (TOP + ph - (int)lround((v) / 1e6 / ytop * ph))
    char buf[32];
    for (double y = 0; y <= ytop + 1e-9; y += step) {
        int py = PY(y * 1e6);
        line(&c, LEFT, py, LEFT + pw, py, 1, grey);
        snprintf(buf, sizeof buf, "%g", y);
        text(&c, LEFT - 8 - (int)strlen(buf) * 4 * SCALE, py - 7, buf, black);
    }
    for (int s = 0; s < cfg->size_count; ++s) {
        int px = PX((double)cfg->sizes[s]);
        line(&c, px, TOP, px, TOP + ph, 1, grey);
        size_label(buf, sizeof buf, (double)cfg->sizes[s]);
        text(&c, px - (int)strlen(buf) * 2 * SCALE, TOP + ph + 10, buf, black);
    }
    line(&c, LEFT, TOP, LEFT, TOP + ph, 2, black);
    line(&c, LEFT, TOP + ph, LEFT + pw, TOP + ph, 2, black);
    for (int i = 0; i < cfg->influence_count && i < 4; ++i) {
        uint32_t k = cfg->influences[i];
        const uint8_t *col = COLOURS[i];
        for (int pass = 0; pass < 2; ++pass) {
            int threads = pass == 0 ? 1 : max_threads;
            if (pass == 1 && max_threads == 1) break;
            int lx = -1, ly = -1;
            for (size_t j = 0; j < r->count; ++j) {
                const bench_row *w = &r->rows[j];
                if (!plotted(w, threads) || w->influences != k) continue;
                int x = PX((double)w->vertices), y = PY(w->per_second);
                if (lx >= 0) line(&c, lx, ly, x, y, pass == 0 ? 3 : 1, col);
                line(&c, x - 3, y, x + 3, y, 3, col);
                lx = x, ly = y;
            }
        }
        /* legend: swatch + influence count */
        int ly = TOP + 10 + i * 30;
        line(&c, W - RIGHT + 15, ly + 7, W - RIGHT + 45, ly + 7, 3, col);
        snprintf(buf, sizeof buf, "%u", k);
        text(&c, W - RIGHT + 55, ly, buf, black);
    }
#undef PX
#undef PY
    vs_error err;
    vs_result res = vs_write_png(c.px, W, H, path, NULL, &err);
    free(c.px);
    if (res != VS_OK) {
        fprintf(stderr, "bench: %s\n", err.message);
        return false;
    }
    return true;
}
