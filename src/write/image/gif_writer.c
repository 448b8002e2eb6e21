/* SPDX-License-Identifier: MIT */
/* Animated GIF output through giflib (image_writers.h). */
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "write/image/image_writers.h"
#include "write/write_file.h"

/* The fixed palette: 6 levels of red, 7 of green (the eye is most sensitive
 * to green), 6 of blue; index = (r * 7 + g) * 6 + b. */
#define LEVELS_R 6
#define LEVELS_G 7
#define LEVELS_B 6

struct vs_gif_writer {
    GifFileType *gif;
    out_file out; /* the temporary file giflib writes into */
    const char *path;
    uint32_t width, height, delay_cs;
    GifPixelType *line;
    vs_allocator
        alloc;   /* the writer, its line and its file name come from it */
    bool failed; /* a frame was not written whole: close writes nothing */
};

static int level(uint8_t v, int levels)
{
    return (v * (levels - 1) + 127) / 255;
}

static uint8_t level_value(int i, int levels)
{
    return (uint8_t)((i * 255 + (levels - 1) / 2) / (levels - 1));
}

/* giflib's output callback: the bytes go to the temporary file. */
static int put_bytes(GifFileType *gif, const GifByteType *bytes, int n)
{
    gif_writer *w = gif->UserData;
    return (int)fwrite(bytes, 1, (size_t)n, w->out.f);
}

static vs_result gif_fail(gif_writer *w, int code, const char *what,
                          vs_error *error)
{
    w->failed = true;
    const char *msg = GifErrorString(code);
    return set_error(error, VS_ERROR_IO, "%s: cannot write the GIF (%s): %s",
                     w->path, what, msg ? msg : "unknown error");
}

static vs_result earlier_failure(const gif_writer *w, vs_error *error)
{
    return set_error(error, VS_ERROR_IO,
                     "%s: not written: a frame could not be added", w->path);
}

vs_result gif_writer_open(const char *path, uint32_t width, uint32_t height,
                          uint32_t delay_cs, const vs_allocator *alloc,
                          gif_writer **out, vs_error *error)
{
    *out = NULL;
    if (!path || width == 0 || height == 0 || width > 65535 || height > 65535)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "gif: a path and a size within 1..65535 are needed");
    gif_writer *w = mem_calloc(alloc, 1, sizeof *w);
    GifPixelType *line = mem_alloc(alloc, width);
    if (!w || !line) {
        mem_free(alloc, w);
        mem_free(alloc, line);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "gif: out of memory");
    }
    *w = (gif_writer){.path = path,
                      .width = width,
                      .height = height,
                      .delay_cs = delay_cs,
                      .line = line,
                      .alloc = alloc ? *alloc : (vs_allocator){0}};
    int code = 0;
    vs_result opened = out_file_open(&w->out, path, alloc, error);
    if (opened != VS_OK) {
        mem_free(alloc, line);
        mem_free(alloc, w);
        return opened;
    }
    /* Through a callback, so giflib neither opens nor closes the file. */
    w->gif = EGifOpen(w, put_bytes, &code);
    if (!w->gif) {
        vs_result r = gif_fail(w, code, "open", error);
        gif_writer_discard(w);
        return r;
    }
    GifColorType colors[256];
    memset(colors, 0, sizeof colors);
    for (int r = 0; r < LEVELS_R; ++r)
        for (int g = 0; g < LEVELS_G; ++g)
            for (int b = 0; b < LEVELS_B; ++b) {
                GifColorType *c = &colors[(r * LEVELS_G + g) * LEVELS_B + b];
                c->Red = level_value(r, LEVELS_R);
                c->Green = level_value(g, LEVELS_G);
                c->Blue = level_value(b, LEVELS_B);
            }
    ColorMapObject *map = GifMakeMapObject(256, colors);
    /* GIF89a for the delay and the looping extension. */
    EGifSetGifVersion(w->gif, true);
    bool ok = map && EGifPutScreenDesc(w->gif, (int)width, (int)height, 8, 0,
                                       map) == GIF_OK;
    GifFreeMapObject(map);
    /* NETSCAPE2.0 application extension: sub-block 1, loop count 0 = forever.
     */
    static const GifByteType loop[3] = {1, 0, 0};
    ok = ok &&
         EGifPutExtensionLeader(w->gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(w->gif, 11, "NETSCAPE2.0") == GIF_OK &&
         EGifPutExtensionBlock(w->gif, 3, loop) == GIF_OK &&
         EGifPutExtensionTrailer(w->gif) == GIF_OK;
    if (!ok) {
        vs_result r = gif_fail(w, w->gif->Error, "header", error);
        gif_writer_discard(w);
        return r;
    }
    *out = w;
    return VS_OK;
}

vs_result gif_writer_add(gif_writer *w, const uint8_t *rgba, vs_error *error)
{
    if (w->failed) return earlier_failure(w, error);
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT,
                                .UserInputFlag = false,
                                .DelayTime = (int)w->delay_cs,
                                .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t len = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(w->gif, GRAPHICS_EXT_FUNC_CODE, (int)len, ext) !=
            GIF_OK ||
        EGifPutImageDesc(w->gif, 0, 0, (int)w->width, (int)w->height, false,
                         NULL) != GIF_OK)
        return gif_fail(w, w->gif->Error, "frame", error);
    for (uint32_t y = 0; y < w->height; ++y) {
        const uint8_t *p = rgba + (size_t)y * w->width * 4;
        for (uint32_t x = 0; x < w->width; ++x, p += 4)
            w->line[x] = (GifPixelType)((level(p[0], LEVELS_R) * LEVELS_G +
                                         level(p[1], LEVELS_G)) *
                                            LEVELS_B +
                                        level(p[2], LEVELS_B));
        if (EGifPutLine(w->gif, w->line, (int)w->width) != GIF_OK)
            return gif_fail(w, w->gif->Error, "pixels", error);
    }
    return VS_OK;
}

vs_result gif_writer_close(gif_writer *w, vs_error *error)
{
    if (!w) return VS_OK;
    vs_result r = VS_OK;
    if (w->failed) r = earlier_failure(w, error);
    int code = 0;
    /* Writes the trailer and frees giflib's state, even when it fails. */
    if (EGifCloseFile(w->gif, &code) != GIF_OK && r == VS_OK)
        r = gif_fail(w, code, "close", error);
    w->gif = NULL;
    if (r == VS_OK) r = out_file_commit(&w->out, error);
    gif_writer_discard(w);
    return r;
}

void gif_writer_discard(gif_writer *w)
{
    if (!w) return;
    int code = 0;
    if (w->gif) EGifCloseFile(w->gif, &code);
    out_file_discard(&w->out);
    const vs_allocator alloc = w->alloc; /* a copy: w is freed last */
    mem_free(&alloc, w->line);
    mem_free(&alloc, w);
}
