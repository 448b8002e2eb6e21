/* SPDX-License-Identifier: MIT */
/* Typed JSON member access with path-aware errors, so the glTF 2.0 loader
 * reads "take the optional index `mesh` below node_count" in one line. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/error.h"
#include "load/gltf2/gltf2_internal.h"

void path_fmt(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, GLTF2_PATH, fmt, ap);
    va_end(ap);
}

static const cJSON *member(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static bool is_integer(const cJSON *v)
{
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
           floor(v->valuedouble) == v->valuedouble;
}

vs_result json_array(gltf2_ctx *c, const cJSON *obj, const char *key,
                     const char *path, const cJSON **out, uint32_t *count)
{
    const cJSON *v = member(obj, key);
    *out = NULL;
    *count = 0;
    if (!v) return VS_OK;
    if (!cJSON_IsArray(v))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s%s%s: must be an array", c->src, path,
                         *path ? "." : "", key);
    int n = cJSON_GetArraySize(v);
    *out = v;
    *count = n > 0 ? (uint32_t)n : 0;
    return VS_OK;
}

vs_result json_object(gltf2_ctx *c, const cJSON *obj, const char *key,
                      const char *path, const cJSON **out)
{
    const cJSON *v = member(obj, key);
    *out = NULL;
    if (!v) return VS_OK;
    if (!cJSON_IsObject(v))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s%s%s: must be an object", c->src, path,
                         *path ? "." : "", key);
    *out = v;
    return VS_OK;
}

vs_result json_element_object(gltf2_ctx *c, const cJSON *item,
                              const char *path)
{
    if (!cJSON_IsObject(item))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: must be an object", c->src, path);
    return VS_OK;
}

vs_result json_index_value(gltf2_ctx *c, const cJSON *item, const char *path,
                           uint32_t count, uint32_t *out)
{
    if (!is_integer(item) || item->valuedouble < 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: must be a non-negative integer index",
                         c->src, path);
    if (item->valuedouble >= (double)count)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: index %.0f is out of range (%u objects)",
                         c->src, path, item->valuedouble, count);
    *out = (uint32_t)item->valuedouble;
    return VS_OK;
}

vs_result json_index(gltf2_ctx *c, const cJSON *obj, const char *key,
                     const char *path, uint32_t count, bool required,
                     int32_t *out)
{
    const cJSON *v = member(obj, key);
    char full[GLTF2_PATH];
    path_fmt(full, "%s%s%s", path, *path ? "." : "", key);
    *out = -1;
    if (!v) {
        if (!required) return VS_OK;
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: required index is missing", c->src, full);
    }
    uint32_t idx;
    vs_result r = json_index_value(c, v, full, count, &idx);
    if (r == VS_OK) *out = (int32_t)idx;
    return r;
}

vs_result json_uint(gltf2_ctx *c, const cJSON *obj, const char *key,
                    const char *path, bool required, uint64_t def,
                    uint64_t *out)
{
    const cJSON *v = member(obj, key);
    *out = def;
    if (!v) {
        if (!required) return VS_OK;
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s%s%s: required property is missing", c->src,
                         path, *path ? "." : "", key);
    }
    /* 2^53: above that a JSON number no longer holds every integer. */
    if (!is_integer(v) || v->valuedouble < 0 || v->valuedouble > 9007199254740992.0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s%s%s: must be a non-negative integer",
                         c->src, path, *path ? "." : "", key);
    *out = (uint64_t)v->valuedouble;
    return VS_OK;
}

vs_result json_floats(gltf2_ctx *c, const cJSON *obj, const char *key,
                      const char *path, float *out, uint32_t n, bool *present)
{
    const cJSON *v = member(obj, key);
    if (present) *present = v != NULL;
    if (!v) return VS_OK;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != (int)n)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s%s%s: must be an array of %u numbers", c->src,
                         path, *path ? "." : "", key, n);
    uint32_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s%s%s[%u]: must be a finite number",
                             c->src, path, *path ? "." : "", key, i);
        out[i++] = (float)e->valuedouble;
    }
    return VS_OK;
}

vs_result json_string(gltf2_ctx *c, const cJSON *obj, const char *key,
                      const char *path, const char *def, const char **out)
{
    const cJSON *v = member(obj, key);
    *out = def;
    if (!v) return VS_OK;
    if (!cJSON_IsString(v))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s%s%s: must be a string", c->src, path,
                         *path ? "." : "", key);
    *out = v->valuestring;
    return VS_OK;
}

vs_result json_name(gltf2_ctx *c, const cJSON *obj, const char *path,
                    const char **out)
{
    const char *s;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(obj, "name");
    /* A name only labels: one that is no string is left out. */
    if (name && !cJSON_IsString(name)) {
        char where[GLTF2_PATH];
        path_fmt(where, "%s.name", path);
        *out = "";
        return asset_warn(c->asset, c->error, where, "the name is left out",
                          "is not a string");
    }
    vs_result r = json_string(c, obj, "name", path, "", &s);
    if (r != VS_OK) return r;
    *out = *s ? vs_priv_asset_strdup(c->asset, s) : "";
    if (!*out)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: %s.name: exceeds the memory limit", c->src,
                         path);
    return VS_OK;
}
