/* placeholder: replaced by the glTF 2.0 loader */
#include "core/error.h"
#include "io/formats.h"
vs_result gltf2_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error)
{
    (void)root; (void)bin; (void)bin_size; (void)base_dir;
    return set_error(error, VS_ERROR_UNSUPPORTED, "%s: not yet", asset->source_name);
}
