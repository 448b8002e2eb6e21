/* SPDX-License-Identifier: MIT */
/* Filling vs_error, so every message reads "file: object.path: what is
 * wrong". */
#include "core/error.h"

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

const char *vs_result_string(vs_result result)
{
    switch (result) {
    case VS_OK: return "ok";
    case VS_ERROR_ARGUMENT: return "invalid argument";
    case VS_ERROR_IO: return "input/output error";
    case VS_ERROR_PARSE: return "parse error";
    case VS_ERROR_INVALID: return "invalid data";
    case VS_ERROR_UNSUPPORTED: return "unsupported";
    case VS_ERROR_LIMIT: return "resource limit exceeded";
    case VS_ERROR_OUT_OF_MEMORY: return "out of memory";
    case VS_ERROR_NOT_FOUND: return "not found";
    case VS_ERROR_RENDER: return "render error";
    }
    return "unknown error";
}
