/* SPDX-License-Identifier: MIT */
/* PNG output through libpng (image_writers.h). */
#include <png.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "format/png_chunks.h"
#include "format/read_file.h"
#include "write/image/image_writers.h"
#include "write/write_file.h"

vs_result png_write_rgba(const char *path, uint32_t width, uint32_t height,
                         const uint8_t *rgba, const vs_allocator *alloc,
                         vs_error *error)
{
    if (!path || !rgba || width == 0 || height == 0)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "png: a path, pixels and a non-zero size are needed");
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    out_file out;
    vs_result r = out_file_open(&out, path, alloc, error);
    if (r != VS_OK) return r;
    /* libpng's simplified API writes no time chunk, so the bytes depend on
     * the pixels only. */
    if (!png_image_write_to_stdio(&image, out.f, 0, rgba, (png_int_32)width * 4,
                                  NULL)) {
        out_file_discard(&out);
        return set_error(error, VS_ERROR_IO, "%s: cannot write the PNG: %s",
                         path, image.message);
    }
    return out_file_commit(&out, error);
}

vs_result png_read_rgba(const char *path, const vs_allocator *alloc,
                        uint32_t *width, uint32_t *height, uint8_t **out_rgba,
                        vs_error *error)
{
    *out_rgba = NULL;
    /* The whole file first, so its chunks are walked before libpng reads
     * it (png_chunks.h); a picture of the largest size taken, 16384 x
     * 16384 RGBA8, is 1 GiB before compression. */
    const load_io io = {alloc, NULL, NULL};
    file_bytes file;
    vs_result r = load_io_read(&io, path, (uint64_t)1 << 30, &file, error);
    if (r != VS_OK) return r;
    vs_error walk;
    if (png_chunks_fit(file.data, file.size, &walk) != VS_OK) {
        file_bytes_release(&io, &file);
        return set_error(error, VS_ERROR_PARSE, "%s: bad PNG: %s", path,
                         walk.message);
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    uint8_t *buf = NULL;
    if (!png_image_begin_read_from_memory(&image, file.data, file.size)) {
        r = set_error(error, VS_ERROR_IO, "%s: cannot read the PNG: %s", path,
                      image.message);
        file_bytes_release(&io, &file);
        return r;
    }
    image.format = PNG_FORMAT_RGBA;
    if (image.width > 16384 || image.height > 16384) {
        png_image_free(&image);
        r = set_error(error, VS_ERROR_LIMIT, "%s: %ux%u is too large", path,
                      image.width, image.height);
    } else if (!(buf = mem_alloc(alloc, PNG_IMAGE_SIZE(image)))) {
        png_image_free(&image);
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                      path);
    } else if (!png_image_finish_read(&image, NULL, buf, 0, NULL)) {
        mem_free(alloc, buf);
        buf = NULL;
        r = set_error(error, VS_ERROR_PARSE, "%s: bad PNG: %s", path,
                      image.message);
    } else {
        *width = image.width;
        *height = image.height;
        *out_rgba = buf;
    }
    file_bytes_release(&io, &file);
    return r;
}
