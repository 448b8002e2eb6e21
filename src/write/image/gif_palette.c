/* SPDX-License-Identifier: MIT */
/* Median cut and Floyd-Steinberg dithering for the GIF writer
 * (gif_palette.h). */
#include "write/image/gif_palette.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"

vs_result gif_palette_init(gif_palette *p, const vs_allocator *alloc,
                           vs_error *error)
{
    *p = (gif_palette){0};
    p->cells = mem_calloc(alloc, GIF_HIST_CELLS, sizeof *p->cells);
    p->lookup = mem_calloc(alloc, GIF_LOOKUP_CELLS, sizeof *p->lookup);
    if (!p->cells || !p->lookup) {
        gif_palette_free(p, alloc);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "gif: out of memory for the palette");
    }
    return VS_OK;
}

void gif_palette_free(gif_palette *p, const vs_allocator *alloc)
{
    mem_free(alloc, p->cells);
    mem_free(alloc, p->lookup);
    *p = (gif_palette){0};
}

void gif_palette_count(gif_palette *p, const uint8_t *px, uint32_t n,
                       uint32_t stride)
{
    for (uint32_t i = 0; i < n; ++i, px += stride) {
        gif_cell *c = &p->cells[((px[0] >> 3) << 10) | ((px[1] >> 3) << 5) |
                                (px[2] >> 3)];
        c->count += 1;
        for (int k = 0; k < 3; ++k)
            c->sum[k] += px[k];
    }
}

/* Cells in a box sort by the mean of one channel; three comparators
 * rather than a shared variable, so that writers on several threads do
 * not meet. Ties fall back to the other channels: the order, and so the
 * palette, depends on the colours alone. */
static double mean(const gif_cell *c, int k)
{
    return (double)c->sum[k] / (double)c->count;
}
static int compare_on(const gif_cell *a, const gif_cell *b, int k)
{
    for (int i = 0; i < 3; ++i) {
        int ch = (k + i) % 3;
        double x = mean(a, ch), y = mean(b, ch);
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}
static int by_r(const void *a, const void *b)
{
    return compare_on(a, b, 0);
}
static int by_g(const void *a, const void *b)
{
    return compare_on(a, b, 1);
}
static int by_b(const void *a, const void *b)
{
    return compare_on(a, b, 2);
}

typedef struct box {
    uint32_t start, end; /* cells [start, end) */
    double spread;       /* count-weighted squared spread of the cells */
    int axis;            /* the channel with the most of it */
} box;

static void box_stats(const gif_cell *cells, box *b, uint64_t total[4])
{
    double m[3] = {0, 0, 0}, var[3] = {0, 0, 0};
    uint64_t n = 0;
    for (uint32_t i = b->start; i < b->end; ++i) {
        n += cells[i].count;
        for (int k = 0; k < 3; ++k)
            m[k] += (double)cells[i].sum[k];
    }
    for (int k = 0; k < 3; ++k)
        m[k] /= (double)n;
    for (uint32_t i = b->start; i < b->end; ++i)
        for (int k = 0; k < 3; ++k) {
            double d = mean(&cells[i], k) - m[k];
            var[k] += (double)cells[i].count * d * d;
        }
    b->axis = var[1] >= var[0] && var[1] >= var[2] ? 1
              : var[2] > var[0]                    ? 2
                                                   : 0;
    b->spread = var[0] + var[1] + var[2];
    if (total) {
        total[3] = n;
        for (int k = 0; k < 3; ++k)
            total[k] = 0;
        for (uint32_t i = b->start; i < b->end; ++i)
            for (int k = 0; k < 3; ++k)
                total[k] += cells[i].sum[k];
    }
}

vs_result gif_palette_build(gif_palette *p, const vs_allocator *alloc,
                            vs_error *error)
{
    /* The occupied cells, packed at the front. */
    uint32_t n = 0;
    for (uint32_t i = 0; i < GIF_HIST_CELLS; ++i)
        if (p->cells[i].count) p->cells[n++] = p->cells[i];
    if (n == 0) {
        memset(p->colors, 0, sizeof p->colors);
        p->color_count = 1;
        return VS_OK;
    }
    box *boxes = mem_alloc(alloc, 256 * sizeof *boxes);
    if (!boxes)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "gif: out of memory for the palette");
    uint32_t count = 1;
    boxes[0] = (box){0, n, 0.0, 0};
    box_stats(p->cells, &boxes[0], NULL);
    /* Split the box with the largest spread at the median pixel of its
     * widest channel, until 256 boxes or none can be split. */
    while (count < 256) {
        int best = -1;
        for (uint32_t i = 0; i < count; ++i)
            if (boxes[i].end - boxes[i].start > 1 && boxes[i].spread > 0.0 &&
                (best < 0 || boxes[i].spread > boxes[best].spread))
                best = (int)i;
        if (best < 0) break;
        box *b = &boxes[best];
        int (*cmp)(const void *, const void *) = b->axis == 0   ? by_r
                                                 : b->axis == 1 ? by_g
                                                                : by_b;
        qsort(p->cells + b->start, b->end - b->start, sizeof *p->cells, cmp);
        uint64_t total = 0, half = 0;
        for (uint32_t i = b->start; i < b->end; ++i)
            total += p->cells[i].count;
        uint32_t cut = b->start + 1;
        for (uint32_t i = b->start; i < b->end - 1; ++i) {
            half += p->cells[i].count;
            cut = i + 1;
            if (half * 2 >= total) break;
        }
        boxes[count] = (box){cut, b->end, 0.0, 0};
        b->end = cut;
        box_stats(p->cells, b, NULL);
        box_stats(p->cells, &boxes[count], NULL);
        ++count;
    }
    for (uint32_t i = 0; i < count; ++i) {
        uint64_t t[4];
        box_stats(p->cells, &boxes[i], t);
        for (int k = 0; k < 3; ++k)
            p->colors[i][k] = (uint8_t)((t[k] + t[3] / 2) / t[3]);
    }
    p->color_count = count;
    mem_free(alloc, boxes);
    return VS_OK;
}

/* The palette colour nearest to the centre of a 6-bit cell, found once
 * per cell. */
static uint8_t nearest(gif_palette *p, int r, int g, int b)
{
    uint32_t key = ((uint32_t)(r >> 2) << 12) | ((uint32_t)(g >> 2) << 6) |
                   (uint32_t)(b >> 2);
    if (p->lookup[key]) return (uint8_t)(p->lookup[key] - 1);
    int cr = (r & ~3) + 2, cg = (g & ~3) + 2, cb = (b & ~3) + 2;
    uint32_t best = 0;
    long best_d = -1;
    for (uint32_t i = 0; i < p->color_count; ++i) {
        long dr = cr - p->colors[i][0], dg = cg - p->colors[i][1],
             db = cb - p->colors[i][2];
        long d = dr * dr + dg * dg + db * db;
        if (best_d < 0 || d < best_d) {
            best_d = d;
            best = i;
        }
    }
    p->lookup[key] = (uint16_t)(best + 1);
    return (uint8_t)best;
}

static int clamp255(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* e / 16 rounded to nearest, halves away from zero, for either sign. */
static int div16(int32_t e)
{
    return e >= 0 ? (e + 8) / 16 : -((-e + 8) / 16);
}

void gif_palette_dither_row(gif_palette *p, const uint8_t *rgb, uint32_t width,
                            int32_t *err, uint8_t *out)
{
    /* err: this row's carried error, then the next row's, each (width + 2)
     * * 3 values offset by one pixel so x - 1 and x + 1 need no test;
     * values are 16 x the colour error (Floyd-Steinberg's 7, 3, 5, 1 of
     * 16). */
    size_t row = ((size_t)width + 2) * 3;
    int32_t *cur = err, *next = err + row;
    memset(next, 0, row * sizeof *next);
    for (uint32_t x = 0; x < width; ++x) {
        int v[3];
        for (int k = 0; k < 3; ++k)
            v[k] = clamp255(rgb[x * 3 + k] + div16(cur[(x + 1) * 3 + k]));
        uint8_t i = nearest(p, v[0], v[1], v[2]);
        out[x] = i;
        for (int k = 0; k < 3; ++k) {
            int e = v[k] - p->colors[i][k];
            cur[(x + 2) * 3 + k] += e * 7;
            next[x * 3 + k] += e * 3;
            next[(x + 1) * 3 + k] += e * 5;
            next[(x + 2) * 3 + k] += e * 1;
        }
    }
    memcpy(cur, next, row * sizeof *cur);
}
