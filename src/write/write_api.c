/* SPDX-License-Identifier: MIT */
/* The public entry points of the glTF 2.0 and picture writers
 * (vskin_tools.h): argument checks, then the writers under
 * write/gltf2 and write/image. */
#include <string.h>
#include <strings.h>

#include "base/alloc.h"
#include "base/error.h"
#include "vskin/vskin_tools.h"
#include "write/gltf2/gltf2_writer.h"
#include "write/image/image_writers.h"

vs_result vs_write_gltf(const vs_asset *asset, const char *path,
                        const vs_gltf_write_options *options,
                        vs_gltf_write_report *report, vs_error *error)
{
    clear_error(error);
    if (!asset || !path || !path[0])
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_write_gltf: an asset and a path are needed");
    size_t n = strlen(path);
    bool gltf = n >= 5 && strcasecmp(path + n - 5, ".gltf") == 0;
    if (!gltf && !gltf2_path_is_glb(path))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: unknown extension (use .gltf or .glb)", path);
    return gltf2_write_file(asset, path, options, report, error);
}

char *vs_gltf_bin_path(const char *gltf_path, const vs_allocator *allocator)
{
    if (!gltf_path || !mem_allocator_valid(allocator)) return NULL;
    return gltf2_bin_path(gltf_path, allocator);
}

vs_result vs_write_png(const uint8_t *rgba, uint32_t width, uint32_t height,
                       const char *path, const vs_allocator *allocator,
                       vs_error *error)
{
    clear_error(error);
    vs_result r =
        mem_check_allocator(allocator, "vs_write_png", "allocator", error);
    if (r != VS_OK) return r;
    return png_write_rgba(path, width, height, rgba, allocator, error);
}

vs_result vs_read_png(const char *path, const vs_allocator *allocator,
                      uint32_t *out_width, uint32_t *out_height,
                      uint8_t **out_rgba, vs_error *error)
{
    clear_error(error);
    if (out_rgba) *out_rgba = NULL;
    if (!path || !out_width || !out_height || !out_rgba)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_read_png: a path and three outputs are needed");
    vs_result r =
        mem_check_allocator(allocator, "vs_read_png", "allocator", error);
    if (r != VS_OK) return r;
    return png_read_rgba(path, allocator, out_width, out_height, out_rgba,
                         error);
}

vs_result vs_gif_writer_open(const char *path, uint32_t width, uint32_t height,
                             uint32_t delay_cs, const vs_allocator *allocator,
                             vs_gif_writer **out_writer, vs_error *error)
{
    clear_error(error);
    if (!out_writer)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_gif_writer_open: out_writer is needed");
    *out_writer = NULL;
    vs_result r = mem_check_allocator(allocator, "vs_gif_writer_open",
                                      "allocator", error);
    if (r != VS_OK) return r;
    return gif_writer_open(path, width, height, delay_cs, allocator, out_writer,
                           error);
}

vs_result vs_gif_writer_add(vs_gif_writer *writer, const uint8_t *rgba,
                            vs_error *error)
{
    clear_error(error);
    if (!writer || !rgba)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_gif_writer_add: a writer and pixels are needed");
    return gif_writer_add(writer, rgba, error);
}

vs_result vs_gif_writer_close(vs_gif_writer *writer, vs_error *error)
{
    clear_error(error);
    return gif_writer_close(writer, error);
}

void vs_gif_writer_discard(vs_gif_writer *writer)
{
    gif_writer_discard(writer);
}
