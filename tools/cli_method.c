/* SPDX-License-Identifier: MIT */
/* `--method linear|dq`: one spelling and one error message for every
 * command. */
#include "cli_method.h"

#include <string.h>

bool cli_parse_method(const char *value, vs_skin_method *out)
{
    if (!value) return false;
    if (strcmp(value, "linear") == 0) {
        *out = VS_SKIN_LINEAR;
        return true;
    }
    if (strcmp(value, "dq") == 0 || strcmp(value, "dual-quaternion") == 0) {
        *out = VS_SKIN_DUAL_QUATERNION;
        return true;
    }
    return false;
}

const char *cli_method_name(vs_skin_method method)
{
    return method == VS_SKIN_DUAL_QUATERNION ? "dq" : "linear";
}
