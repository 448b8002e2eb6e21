/* glTF 1.0 loader: not written yet (issue "Legacy skinned formats"). */
#include "core/error.h"
#include "io/formats.h"

vs_result gltf1_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error)
{
    (void)root;
    (void)bin;
    (void)bin_size;
    (void)base_dir;
    return set_error(error, VS_ERROR_UNSUPPORTED,
                     "%s: glTF 1.0 files are not supported yet",
                     asset->source_name);
}
