/* SPDX-License-Identifier: MIT */
/* The one message for compressed geometry that a build was configured
 * without (VSKIN_WITH_DRACO, VSKIN_WITH_MESHOPT off): the file is fine, the
 * build cannot read it, so the result is VS_ERROR_UNSUPPORTED and the
 * message names the object, the extension and the missing decoder. */
#include "base/error.h"
#include "load/gltf2/gltf2_internal.h"

vs_result gltf2_no_decoder(gltf2_ctx *c, const char *path,
                           const char *extension, const char *decoder)
{
    return set_error(c->error, VS_ERROR_UNSUPPORTED,
                     "%s: %s: %s: this build of vskin has no %s decoder",
                     c->src, path, extension, decoder);
}
