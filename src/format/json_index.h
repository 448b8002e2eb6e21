/* SPDX-License-Identifier: MIT */
/* A JSON number read as an index into an array. cJSON keeps every number
 * as a double, and converting a double outside the target type's range to
 * an integer is undefined behaviour in C, so every index a file gives goes
 * through this one check before it becomes an integer. */
#ifndef VS_FORMAT_JSON_INDEX_H
#define VS_FORMAT_JSON_INDEX_H

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>

/* v's value when v is a number holding an integer from 0 to INT32_MAX
 * (more than any cJSON array can hold); -1 for anything else: not a number,
 * negative, fractional, too large, NaN or missing (v NULL). */
static inline int32_t json_array_index(const cJSON *v)
{
    if (!cJSON_IsNumber(v)) return -1;
    double d = v->valuedouble;
    if (!(d >= 0.0 && d <= (double)INT32_MAX) || d != floor(d)) return -1;
    return (int32_t)d;
}

#endif
