/* SPDX-License-Identifier: MIT */
/* Animated GIF output through giflib (image_writers.h), with one palette
 * per animation made from all its frames (gif_palette.h). */
#include <errno.h>
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "write/image/gif_palette.h"
#include "write/image/image_writers.h"
#include "write/write_file.h"

/* Frames are spooled as RGB to an anonymous temporary file while the
 * histogram counts them; close builds the palette from every frame, then
 * reads the spool back and encodes. Memory stays the histogram, the
 * nearest-colour table and a few rows, whatever the frame count; the disk
 * holds 3 bytes per pixel per frame until close. */
struct vs_gif_writer {
    GifFileType *gif;
    out_file out; /* the temporary file giflib writes into */
    FILE *spool;  /* the frames, RGB, top row first */
    const char *path;
    uint32_t width, height, delay_cs;
    uint32_t frames;
    gif_palette palette;
    uint8_t *rgb;   /* one row, 3 * width */
    GifPixelType *line;
    int32_t *err;   /* dithering error, 2 * (width + 2) * 3 */
    vs_allocator
        alloc;   /* the writer, its rows and its file name come from it */
    bool failed; /* a frame was not written whole: close writes nothing */
};

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
    if (!w)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "gif: out of memory");
    *w = (gif_writer){.path = path,
                      .width = width,
                      .height = height,
                      .delay_cs = delay_cs,
                      .alloc = alloc ? *alloc : (vs_allocator){0}};
    w->rgb = mem_alloc(alloc, (size_t)width * 3);
    w->line = mem_alloc(alloc, width);
    w->err = mem_alloc(alloc, ((size_t)width + 2) * 6 * sizeof *w->err);
    if (!w->rgb || !w->line || !w->err) {
        gif_writer_discard(w);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "gif: out of memory");
    }
    vs_result r = gif_palette_init(&w->palette, alloc, error);
    if (r != VS_OK) {
        gif_writer_discard(w);
        return r;
    }
    w->spool = tmpfile();
    if (!w->spool) {
        gif_writer_discard(w);
        return set_error(error, VS_ERROR_IO,
                         "%s: cannot make a temporary file for the frames: "
                         "%s",
                         path, strerror(errno));
    }
    r = out_file_open(&w->out, path, alloc, error);
    if (r != VS_OK) {
        gif_writer_discard(w);
        return r;
    }
    *out = w;
    return VS_OK;
}

vs_result gif_writer_add(gif_writer *w, const uint8_t *rgba, vs_error *error)
{
    if (w->failed) return earlier_failure(w, error);
    for (uint32_t y = 0; y < w->height; ++y) {
        const uint8_t *p = rgba + (size_t)y * w->width * 4;
        gif_palette_count(&w->palette, p, w->width, 4);
        for (uint32_t x = 0; x < w->width; ++x)
            memcpy(w->rgb + (size_t)x * 3, p + (size_t)x * 4, 3);
        if (fwrite(w->rgb, 3, w->width, w->spool) != w->width) {
            w->failed = true;
            return set_error(error, VS_ERROR_IO,
                             "%s: cannot keep frame %u in the temporary "
                             "file: %s",
                             w->path, w->frames, strerror(errno));
        }
    }
    ++w->frames;
    return VS_OK;
}

/* The file's header: the screen with the animation's palette, and the
 * NETSCAPE2.0 looping extension (GIF89a for it and the delays). */
static bool put_header(gif_writer *w)
{
    GifColorType colors[256];
    memset(colors, 0, sizeof colors);
    for (uint32_t i = 0; i < w->palette.color_count; ++i) {
        colors[i].Red = w->palette.colors[i][0];
        colors[i].Green = w->palette.colors[i][1];
        colors[i].Blue = w->palette.colors[i][2];
    }
    ColorMapObject *map = GifMakeMapObject(256, colors);
    EGifSetGifVersion(w->gif, true);
    bool ok = map && EGifPutScreenDesc(w->gif, (int)w->width, (int)w->height,
                                       8, 0, map) == GIF_OK;
    GifFreeMapObject(map);
    /* Sub-block 1, loop count 0 = forever. */
    static const GifByteType loop[3] = {1, 0, 0};
    return ok &&
           EGifPutExtensionLeader(w->gif, APPLICATION_EXT_FUNC_CODE) ==
               GIF_OK &&
           EGifPutExtensionBlock(w->gif, 11, "NETSCAPE2.0") == GIF_OK &&
           EGifPutExtensionBlock(w->gif, 3, loop) == GIF_OK &&
           EGifPutExtensionTrailer(w->gif) == GIF_OK;
}

/* One spooled frame, dithered onto the palette. */
static vs_result put_frame(gif_writer *w, uint32_t frame, vs_error *error)
{
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
    memset(w->err, 0, ((size_t)w->width + 2) * 6 * sizeof *w->err);
    for (uint32_t y = 0; y < w->height; ++y) {
        if (fread(w->rgb, 3, w->width, w->spool) != w->width) {
            w->failed = true;
            return set_error(error, VS_ERROR_IO,
                             "%s: cannot read frame %u back from the "
                             "temporary file",
                             w->path, frame);
        }
        gif_palette_dither_row(&w->palette, w->rgb, w->width, w->err,
                               w->line);
        if (EGifPutLine(w->gif, w->line, (int)w->width) != GIF_OK)
            return gif_fail(w, w->gif->Error, "pixels", error);
    }
    return VS_OK;
}

/* The second pass: palette, header, every frame. */
static vs_result encode(gif_writer *w, vs_error *error)
{
    vs_result r = gif_palette_build(&w->palette, &w->alloc, error);
    if (r != VS_OK) return r;
    int code = 0;
    /* Through a callback, so giflib neither opens nor closes the file. */
    w->gif = EGifOpen(w, put_bytes, &code);
    if (!w->gif) return gif_fail(w, code, "open", error);
    if (!put_header(w)) return gif_fail(w, w->gif->Error, "header", error);
    rewind(w->spool);
    for (uint32_t f = 0; f < w->frames && r == VS_OK; ++f)
        r = put_frame(w, f, error);
    return r;
}

vs_result gif_writer_close(gif_writer *w, vs_error *error)
{
    if (!w) return VS_OK;
    vs_result r = VS_OK;
    if (w->failed)
        r = earlier_failure(w, error);
    else
        r = encode(w, error);
    int code = 0;
    /* Writes the trailer and frees giflib's state, even when it fails. */
    if (w->gif && EGifCloseFile(w->gif, &code) != GIF_OK && r == VS_OK)
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
    if (w->spool) fclose(w->spool);
    const vs_allocator alloc = w->alloc; /* a copy: w is freed last */
    gif_palette_free(&w->palette, &alloc);
    mem_free(&alloc, w->rgb);
    mem_free(&alloc, w->err);
    mem_free(&alloc, w->line);
    mem_free(&alloc, w);
}
