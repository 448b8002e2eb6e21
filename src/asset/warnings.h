/* SPDX-License-Identifier: MIT */
/* How a loader reports a flaw it repairs instead of refusing the file: one
 * call that either records a warning or, for a strict load, refuses with
 * the same text, so each repair states its rule once for both modes. */
#ifndef VS_ASSET_WARNINGS_H
#define VS_ASSET_WARNINGS_H

#include <stdbool.h>

#include "base/error.h"
#include "vskin/vskin.h"

/* A flaw at `object` (a JSON path, or "line N: <element>"; "" for the
 * file) described by fmt, which vskin handled as `action` says ("normals
 * dropped", "normalised"). Not strict: records the warning "what: action"
 * and returns VS_OK. Strict (vs_load_options.strict): returns
 * VS_ERROR_INVALID with "FILE: object: what (refused by a strict load;
 * otherwise: action)". A warning that cannot be stored for lack of memory
 * fails the load like any other allocation. Past VS_MAX_WARNINGS only the
 * count grows, so a file cannot make the list unbounded. */
vs_result asset_warn(vs_asset *asset, vs_error *error, const char *object,
                     const char *action, const char *fmt, ...)
    VS_PRINTF(5, 6);

/* The text of a refusal the load has just made in `error`, past the
 * "FILE: " every load message starts with ("" when error is NULL): for a
 * repair that replaces the refusal with a warning of the same words. */
const char *asset_refusal_text(const vs_asset *asset, const vs_error *error);

/* True for a strict load: a loader that must choose between two ways to
 * go on (before it can name the flaw) asks first. */
bool asset_strict(const vs_asset *asset);

/* Fills vs_asset.warnings from what asset_warn recorded, adding the
 * warning that counts those left out. The load calls it once, last. */
vs_result asset_publish_warnings(vs_asset *asset, vs_error *error);

#endif
