/* SPDX-License-Identifier: MIT */
/* Filling vs_error: one place so every message has the same shape,
 * "file: object.path: what is wrong". */
#ifndef VS_BASE_ERROR_H
#define VS_BASE_ERROR_H

#include "vskin/vskin.h"

#if defined(__GNUC__)
#define VS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VS_PRINTF(a, b)
#endif

/* Sets error (when not NULL) and returns code, so callers can write
 * `return set_error(err, VS_ERROR_INVALID, "%s: x: bad", file);`. */
vs_result set_error(vs_error *error, vs_result code, const char *fmt, ...)
    VS_PRINTF(3, 4);

/* Clears error to VS_OK / "". */
void clear_error(vs_error *error);

#endif
