/* SPDX-License-Identifier: MIT */
/* Filling vs_error, so every message reads "file: object.path: what is
 * wrong". */
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>

vs_result set_error(vs_error *error, vs_result code, const char *fmt, ...)
{
    if (error) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(error->message, sizeof error->message, fmt, ap);
        va_end(ap);
        error->code = code;
    }
    return code;
}

void clear_error(vs_error *error)
{
    if (error) {
        error->code = VS_OK;
        error->message[0] = '\0';
    }
}
