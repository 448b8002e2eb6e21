/* SPDX-License-Identifier: MIT */
/* A GIF keeps a textured character's colours: the animation gets one
 * palette from all its frames and each frame is dithered onto it, so every
 * decoded GIF frame stays close to the PNG of the same frame. The frames
 * are a character-like picture (a skin-toned body shaded top to bottom,
 * blue and green stripes, on the renderer's dark grey) moving across
 * three frames, shaded across and down so that they hold more than 256
 * colours. The fixed 6x7x6 cube the writer used before misses both
 * bounds on the same pictures, which the test shows by mapping them onto
 * that cube itself. */
#include <gif_lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"
#include "vskin/vskin_tools.h"

#define W 96
#define H 96
#define FRAMES 3
#define DIR_ VS_TEST_TMP "/gif_palette"

/* Mean error bound, in 0..255 units per channel, and the bound on a 4x4
 * block's mean colour (what the eye sees of dithering). */
#define MEAN_BOUND 2.0
#define BLOCK_BOUND 4.0

static void frame(int f, uint8_t *rgba)
{
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            uint8_t *p = rgba + ((size_t)y * W + x) * 4;
            int cx = 48 + 6 * f, dx = x - cx;
            float shade = 0.45f + 0.35f * (1.0f - (float)y / H) +
                          0.2f * (float)(dx + 20) / 40.0f;
            float r = 51, g = 51, b = 51;
            if (dx * dx < 20 * 20 && y > 8 && y < 90) {
                r = 224 * shade, g = 172 * shade, b = 140 * shade;
                int band = (x + 2 * y + 4 * f) % 24;
                if (band < 4) r = 60 * shade, g = 150 * shade, b = 220 * shade;
                if (band >= 12 && band < 15)
                    r = 80 * shade, g = 140 * shade, b = 40 * shade;
            }
            p[0] = (uint8_t)lroundf(r);
            p[1] = (uint8_t)lroundf(g);
            p[2] = (uint8_t)lroundf(b);
            p[3] = 255;
        }
}

/* The old fixed palette: 6 levels of red, 7 of green, 6 of blue, the
 * nearest level per channel. */
static uint8_t cube(uint8_t v, int levels)
{
    int i = (v * (levels - 1) + 127) / 255;
    return (uint8_t)((i * 255 + (levels - 1) / 2) / (levels - 1));
}

/* Mean absolute channel error, and the largest error of a 4x4 block's
 * mean colour. */
static void errors(const uint8_t *want, const uint8_t *got, double *mean,
                   double *block)
{
    double sum = 0.0;
    for (size_t i = 0; i < (size_t)W * H; ++i)
        for (int k = 0; k < 3; ++k)
            sum += fabs((double)want[i * 4 + k] - got[i * 4 + k]);
    *mean = sum / ((double)W * H * 3);
    *block = 0.0;
    for (int by = 0; by < H; by += 4)
        for (int bx = 0; bx < W; bx += 4)
            for (int k = 0; k < 3; ++k) {
                double d = 0.0;
                for (int y = by; y < by + 4; ++y)
                    for (int x = bx; x < bx + 4; ++x) {
                        size_t i = ((size_t)y * W + x) * 4 + k;
                        d += (double)want[i] - got[i];
                    }
                d = fabs(d / 16.0);
                if (d > *block) *block = d;
            }
}

static void test_frames_keep_their_colours(void)
{
    mkdir(DIR_, 0755);
    static uint8_t rgba[FRAMES][W * H * 4];
    vs_error e = {0};
    vs_gif_writer *gif = NULL;
    CHECK(vs_gif_writer_open(DIR_ "/anim.gif", W, H, 10, NULL, &gif, &e) ==
          VS_OK);
    for (int f = 0; f < FRAMES; ++f) {
        frame(f, rgba[f]);
        char png[256];
        snprintf(png, sizeof png, DIR_ "/frame%d.png", f);
        CHECK(vs_write_png(rgba[f], W, H, png, NULL, &e) == VS_OK);
        CHECK(vs_gif_writer_add(gif, rgba[f], &e) == VS_OK);
    }
    CHECK(vs_gif_writer_close(gif, &e) == VS_OK);

    int code = 0;
    GifFileType *in = DGifOpenFileName(DIR_ "/anim.gif", &code);
    CHECK(in && DGifSlurp(in) == GIF_OK);
    if (!in) return;
    CHECK(in->ImageCount == FRAMES && in->SColorMap);
    static uint8_t got[W * H * 4], old[W * H * 4];
    for (int f = 0; f < FRAMES && in->ImageCount == FRAMES; ++f) {
        char png[256];
        snprintf(png, sizeof png, DIR_ "/frame%d.png", f);
        uint8_t *want = NULL;
        uint32_t pw = 0, ph = 0;
        CHECK(vs_read_png(png, NULL, &pw, &ph, &want, &e) == VS_OK);
        if (!want) continue;
        const SavedImage *img = &in->SavedImages[f];
        const ColorMapObject *map = in->SColorMap;
        for (size_t i = 0; i < (size_t)W * H; ++i) {
            const GifColorType *c = &map->Colors[img->RasterBits[i]];
            got[i * 4 + 0] = c->Red;
            got[i * 4 + 1] = c->Green;
            got[i * 4 + 2] = c->Blue;
            old[i * 4 + 0] = cube(want[i * 4 + 0], 6);
            old[i * 4 + 1] = cube(want[i * 4 + 1], 7);
            old[i * 4 + 2] = cube(want[i * 4 + 2], 6);
        }
        double mean, block, old_mean, old_block;
        errors(want, got, &mean, &block);
        errors(want, old, &old_mean, &old_block);
        printf("frame %d: mean %.2f block %.2f; fixed cube mean %.2f block "
               "%.2f\n",
               f, mean, block, old_mean, old_block);
        CHECK(mean < MEAN_BOUND && block < BLOCK_BOUND);
        /* The old palette fails both bounds. */
        CHECK(old_mean > MEAN_BOUND && old_block > BLOCK_BOUND);
        free(want);
    }
    DGifCloseFile(in, &code);
}

/* Two writers given the same frames write the same bytes. */
static void test_same_frames_same_bytes(void)
{
    static uint8_t rgba[W * H * 4];
    frame(1, rgba);
    const char *paths[2] = {DIR_ "/a.gif", DIR_ "/b.gif"};
    for (int i = 0; i < 2; ++i) {
        vs_gif_writer *gif = NULL;
        vs_error e = {0};
        CHECK(vs_gif_writer_open(paths[i], W, H, 10, NULL, &gif, &e) == VS_OK);
        CHECK(vs_gif_writer_add(gif, rgba, &e) == VS_OK);
        CHECK(vs_gif_writer_add(gif, rgba, &e) == VS_OK);
        CHECK(vs_gif_writer_close(gif, &e) == VS_OK);
    }
    FILE *a = fopen(paths[0], "rb"), *b = fopen(paths[1], "rb");
    CHECK(a && b);
    int ca = 0, cb = 0;
    while (a && b && (ca = fgetc(a)) == (cb = fgetc(b)) && ca != EOF) {
    }
    CHECK(ca == EOF && cb == EOF);
    if (a) fclose(a);
    if (b) fclose(b);
}

int main(void)
{
    RUN(test_frames_keep_their_colours);
    RUN(test_same_frames_same_bytes);
    return test_summary();
}
