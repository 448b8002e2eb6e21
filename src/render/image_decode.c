/* SPDX-License-Identifier: MIT */
/* PNG and JPEG decoding to RGBA8 (image_decode.h). */
#include "render/image_decode.h"

/* libjpeg's header uses FILE without declaring it itself. */
#include <stdio.h>

#include <jpeglib.h>
#include <png.h>
#include <setjmp.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "format/png_chunks.h"

static vs_result check_size(uint64_t w, uint64_t h, uint64_t max_pixels,
                            uint32_t max_side, vs_error *error)
{
    if (w == 0 || h == 0)
        return set_error(error, VS_ERROR_PARSE, "the picture is empty");
    if (w > max_side || h > max_side || w * h > max_pixels)
        return set_error(error, VS_ERROR_LIMIT,
                         "%llux%llu pixels exceed the texture limit (%u per "
                         "side, %llu in all)",
                         (unsigned long long)w, (unsigned long long)h, max_side,
                         (unsigned long long)max_pixels);
    return VS_OK;
}

static vs_result decode_png(const uint8_t *data, size_t size,
                            const vs_allocator *alloc, uint64_t max_pixels,
                            uint32_t max_side, uint32_t *width,
                            uint32_t *height, uint8_t **out, vs_error *error)
{
    vs_error walk;
    if (png_chunks_fit(data, size, &walk) != VS_OK)
        return set_error(error, VS_ERROR_PARSE, "bad PNG: %s", walk.message);
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size))
        return set_error(error, VS_ERROR_PARSE, "bad PNG: %s", image.message);
    image.format = PNG_FORMAT_RGBA;
    vs_result r =
        check_size(image.width, image.height, max_pixels, max_side, error);
    uint8_t *buf = r == VS_OK ? mem_alloc(alloc, PNG_IMAGE_SIZE(image)) : NULL;
    if (r == VS_OK && !buf)
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY,
                      "out of memory for %ux%u pixels", image.width,
                      image.height);
    if (r != VS_OK) {
        png_image_free(&image);
        return r;
    }
    if (!png_image_finish_read(&image, NULL, buf, 0, NULL)) {
        mem_free(alloc, buf);
        return set_error(error, VS_ERROR_PARSE, "bad PNG: %s", image.message);
    }
    *width = image.width;
    *height = image.height;
    *out = buf;
    return VS_OK;
}

/* libjpeg reports errors by calling error_exit, which must not return:
 * it jumps back to decode_jpeg with the library's message. */
typedef struct jpeg_failure {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} jpeg_failure;

static void jpeg_exit(j_common_ptr cinfo)
{
    jpeg_failure *f = (jpeg_failure *)cinfo->err;
    f->mgr.format_message(cinfo, f->message);
    longjmp(f->jump, 1);
}

/* Warnings (a corrupt but readable stream) are not printed: the picture is
 * used as far as it decodes. */
static void jpeg_quiet(j_common_ptr cinfo, int level)
{
    (void)cinfo;
    (void)level;
}

static vs_result decode_jpeg(const uint8_t *data, size_t size,
                             const vs_allocator *alloc, uint64_t max_pixels,
                             uint32_t max_side, uint32_t *width,
                             uint32_t *height, uint8_t **out, vs_error *error)
{
    struct jpeg_decompress_struct cinfo;
    jpeg_failure failure;
    /* Everything longjmp may come back to is volatile or unchanged since
     * setjmp (C11 7.13.2.1). */
    uint8_t *volatile rgba = NULL;
    uint8_t *volatile row = NULL;
    cinfo.err = jpeg_std_error(&failure.mgr);
    failure.mgr.error_exit = jpeg_exit;
    failure.mgr.emit_message = jpeg_quiet;
    failure.message[0] = '\0';
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&cinfo);
        mem_free(alloc, rgba);
        mem_free(alloc, row);
        return set_error(error, VS_ERROR_PARSE, "bad JPEG: %s",
                         failure.message);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_RGB;
    vs_result r = check_size(cinfo.image_width, cinfo.image_height, max_pixels,
                             max_side, error);
    if (r != VS_OK) {
        jpeg_destroy_decompress(&cinfo);
        return r;
    }
    jpeg_start_decompress(&cinfo);
    uint32_t w = cinfo.output_width, h = cinfo.output_height;
    rgba = mem_calloc(alloc, (size_t)w * h, 4);
    row = mem_alloc(alloc, (size_t)w * 3);
    if (!rgba || !row || cinfo.output_components != 3) {
        jpeg_destroy_decompress(&cinfo);
        mem_free(alloc, rgba);
        mem_free(alloc, row);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "out of memory for %ux%u pixels", w, h);
    }
    while (cinfo.output_scanline < h) {
        uint32_t y = cinfo.output_scanline;
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) break;
        uint8_t *dst = rgba + (size_t)y * w * 4;
        for (uint32_t x = 0; x < w; ++x) {
            dst[x * 4 + 0] = row[x * 3 + 0];
            dst[x * 4 + 1] = row[x * 3 + 1];
            dst[x * 4 + 2] = row[x * 3 + 2];
            dst[x * 4 + 3] = 255;
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    mem_free(alloc, row);
    *width = w;
    *height = h;
    *out = rgba;
    return VS_OK;
}

vs_result image_decode_rgba(const uint8_t *data, size_t size,
                            const vs_allocator *alloc, uint64_t max_pixels,
                            uint32_t max_side, uint32_t *width,
                            uint32_t *height, uint8_t **out_rgba,
                            vs_error *error)
{
    *out_rgba = NULL;
    *width = *height = 0;
    if (png_has_signature(data, size))
        return decode_png(data, size, alloc, max_pixels, max_side, width,
                          height, out_rgba, error);
    if (data && size >= 3 && data[0] == 0xff && data[1] == 0xd8 &&
        data[2] == 0xff)
        return decode_jpeg(data, size, alloc, max_pixels, max_side, width,
                           height, out_rgba, error);
    return set_error(error, VS_ERROR_UNSUPPORTED,
                     "neither PNG nor JPEG (%zu bytes)", size);
}
