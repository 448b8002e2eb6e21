/* SPDX-License-Identifier: MIT */
/* The loaders behind vs_asset_load_*: each fills an empty asset made by
 * vs_priv_asset_create and ends with vs_priv_asset_finalize. load.c detects the format. */
#ifndef VS_LOAD_LOADERS_H
#define VS_LOAD_LOADERS_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "asset/asset_internal.h"
#include "format/read_file.h"
#include "vskin/vskin.h"

/* The asset's allocator and file reader, for what a loader reads and its
 * temporaries. */
static inline load_io loader_io(const vs_asset *asset)
{
    return (load_io){asset_load_allocator(asset), asset_file_reader(asset),
                     asset_budget((vs_asset *)asset)};
}

/* root: the parsed JSON; bin/bin_size: the GLB BIN chunk (NULL/0 for
 * .gltf); base_dir: folder for relative URIs, or NULL. */
vs_result gltf2_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error);
/* bin: the KHR_binary_glTF body, or NULL. */
vs_result gltf1_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error);
vs_result collada_load(vs_asset *asset, const uint8_t *xml, size_t size,
                       const char *base_dir, vs_error *error);

#endif
