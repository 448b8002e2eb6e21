/* SPDX-License-Identifier: MIT */
/* `--method linear|dq` (dual-quaternion skinning) for pose, render and
 * bench: one spelling and one error message for every command. */
#ifndef VS_TOOLS_CLI_METHOD_H
#define VS_TOOLS_CLI_METHOD_H

#include <stdbool.h>

#include "vskin/vskin.h"

/* "linear" -> VS_SKIN_LINEAR, "dq" or "dual-quaternion" ->
 * VS_SKIN_DUAL_QUATERNION; false for anything else (value may be NULL). */
bool cli_parse_method(const char *value, vs_skin_method *out);
/* "linear" or "dq". */
const char *cli_method_name(vs_skin_method method);

#endif
