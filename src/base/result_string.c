/* SPDX-License-Identifier: MIT */
/* vs_result_string: the name of each vs_result, for messages. Apart from
 * error.c because it is API, which only the runtime library defines, while
 * error.c is one of the helpers every library carries a copy of. */
#include "vskin/vskin.h"

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
