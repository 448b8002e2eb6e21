/* SPDX-License-Identifier: MIT */
/* vs_asset_image_bytes: an image's undecoded bytes on demand, read after the
 * load with the load's URI rules (format/uri.c), so that loading never pays
 * for pictures that only a renderer wants. */
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "format/gltf_common.h"

vs_result vs_asset_image_bytes(const vs_asset *asset, uint32_t image,
                               const vs_file_reader *reader,
                               const uint8_t **out_data, size_t *out_size,
                               vs_error *error)
{
    if (!asset || !out_data || !out_size || image >= asset->image_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_asset_image_bytes: an asset, an image index "
                         "below its image_count and outputs are required");
    *out_data = NULL;
    *out_size = 0;
    if (!file_reader_valid(reader))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_asset_image_bytes: reader: release is set but "
                         "read is NULL");
    const vs_image *img = &asset->images[image];
    if (!img->uri) {
        *out_data = img->data;
        *out_size = img->size;
        return VS_OK;
    }
    const asset_internal *in = asset->internal_;
    char path[64];
    snprintf(path, sizeof path, "images[%u].uri", image);
    /* The reader's bytes are copied out at once, so that what the caller
     * frees always comes from one allocator whatever read them. */
    load_io io = {.alloc = &in->alloc,
                  .reader = reader && reader->read ? reader : NULL};
    gltf_bytes bytes;
    vs_result r = gltf_load_uri_io(&io, asset->source_name, in->base_dir,
                                   img->uri, path, in->limits.max_buffer_size,
                                   in->allow_external_paths, &bytes, error);
    if (r != VS_OK) return r;
    if (!bytes.from_reader) {
        *out_data = bytes.data;
        *out_size = bytes.size;
        return VS_OK;
    }
    uint8_t *copy = mem_alloc(&in->alloc, bytes.size ? bytes.size : 1);
    if (copy && bytes.size) memcpy(copy, bytes.data, bytes.size);
    size_t size = bytes.size;
    file_bytes_release(&io, &bytes);
    if (!copy)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: %s: out of memory for %zu bytes",
                         asset->source_name, path, size);
    *out_data = copy;
    *out_size = size;
    return VS_OK;
}

void vs_asset_image_bytes_free(const vs_asset *asset, uint32_t image,
                               const uint8_t *data, size_t size)
{
    (void)size;
    if (!asset || !data || image >= asset->image_count ||
        !asset->images[image].uri)
        return;
    mem_free(asset_allocator(asset), (void *)data);
}
