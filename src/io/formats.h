/* SPDX-License-Identifier: MIT */
/* The loaders behind vs_asset_load_*: each fills an empty asset made by
 * asset_create and ends with asset_finalize. load.c detects the format. */
#ifndef VS_IO_FORMATS_H
#define VS_IO_FORMATS_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* root: the parsed JSON; bin/bin_size: the GLB BIN chunk (NULL/0 for
 * .gltf); base_dir: folder for relative URIs, or NULL. */
vs_result gltf2_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error);
/* bin: the KHR_binary_glTF body, or NULL. */
vs_result gltf1_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error);
vs_result collada_load(vs_asset *asset, const uint8_t *xml, size_t size,
                       const char *base_dir, vs_error *error);

/* Reads a whole file, refusing files above max_size. *out is malloc'd. */
vs_result read_file(const char *path, uint64_t max_size, uint8_t **out,
                    size_t *size, vs_error *error);

#endif
