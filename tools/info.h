/* SPDX-License-Identifier: MIT */
/* Shared by the text (cmd_info.c) and JSON (info_json.c) forms of
 * `vskin info`. */
#ifndef VS_TOOLS_INFO_H
#define VS_TOOLS_INFO_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

const char *info_format_name(vs_source_format format);
const char *info_mode_name(vs_primitive_mode mode);
const char *info_up_axis_name(vs_up_axis axis);

/* For each joint of the skin, the index (in skin->joints) of its nearest
 * ancestor that is also a joint of this skin, or -1: the skeleton as a tree
 * even when non-joint nodes sit between joints. malloc'd; NULL when out of
 * memory. */
int32_t *info_joint_parents(const vs_asset *asset, const vs_skin *skin);

/* "yes", "identity" (all given matrices are identity) or "absent". */
const char *info_ibm_state(const vs_skin *skin);

/* Prints the asset description as JSON to stdout; false when out of
 * memory. */
bool info_print_json(const vs_asset *asset);

/* `--bounds`: fast and exact bounds at every 1/fps of clip `clip_name`
 * (NULL: clip 0, or the rest pose when there is none). Returns the exit
 * status (info_bounds.c). */
int info_print_bounds(const vs_asset *asset, const char *clip_name, float fps,
                      bool json);

#endif
