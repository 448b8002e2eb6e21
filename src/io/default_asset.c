/* The embedded default asset: the glTF tutorial's SimpleSkin (CC-BY 4.0,
 * KhronosGroup/glTF-Tutorials), so the demo and tests need no download. */
#include "vskin/vskin.h"

extern const unsigned char vs_simple_skin_gltf[];
extern const size_t vs_simple_skin_gltf_size;

const void *vs_default_asset_data(size_t *size)
{
    if (size) *size = vs_simple_skin_gltf_size;
    return vs_simple_skin_gltf;
}
