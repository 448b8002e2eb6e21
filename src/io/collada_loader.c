/* COLLADA loader: not written yet (issue "Legacy skinned formats"). */
#include "core/error.h"
#include "io/formats.h"

vs_result collada_load(vs_asset *asset, const uint8_t *xml, size_t size,
                       const char *base_dir, vs_error *error)
{
    (void)xml;
    (void)size;
    (void)base_dir;
    return set_error(error, VS_ERROR_UNSUPPORTED,
                     "%s: COLLADA files are not supported yet",
                     asset->source_name);
}
