/* SPDX-License-Identifier: MIT */
/* The embedded default asset: SimpleSkin from KhronosGroup/glTF-Sample-Models
 * (public domain, CC0, so a program that links vskin owes no attribution),
 * so the demo and tests need no download. */
#include "vskin/vskin.h"

extern const unsigned char vs_simple_skin_gltf[];
extern const size_t vs_simple_skin_gltf_size;

const void *vs_default_asset_data(size_t *size)
{
    if (size) *size = vs_simple_skin_gltf_size;
    return vs_simple_skin_gltf;
}
