/* SPDX-License-Identifier: MIT */
/* glTF 1.0 id dictionaries and JSON field helpers. Every message has the
 * shape "file: path: what is wrong", where path spells the ids the way the
 * file does: nodes["node0"].skin. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf1/gltf1_internal.h"

vs_result gltf1_fail(gltf1_ctx *c, vs_result code, const char *path,
                     const char *fmt, ...)
{
    char what[VS_ERROR_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return set_error(c->error, code, "%s: %s: %s", c->src, path, what);
}

void gltf1_path(char *out, const char *dict_key, const char *id)
{
    snprintf(out, GLTF1_PATH_SIZE, "%s[\"%.*s\"]", dict_key, GLTF1_ID_SHOWN,
             id);
}

void gltf1_pathf(char *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, GLTF1_PATH_SIZE, fmt, ap);
    va_end(ap);
}

static int id_compare(const void *a, const void *b)
{
    const gltf1_id *x = a, *y = b;
    return strcmp(x->key, y->key);
}

vs_result gltf1_dict_build(gltf1_ctx *c, const cJSON *parent, const char *key,
                           const char *parent_path, const char *kind,
                           gltf1_dict *dict)
{
    char path[GLTF1_PATH_SIZE];
    gltf1_pathf(path, "%s%s%s", parent_path, parent_path[0] ? "." : "", key);
    memset(dict, 0, sizeof *dict);
    dict->kind = kind;
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(parent, key);
    if (!obj) return VS_OK;
    /* glTF 1.0 §5: top-level glTF properties are dictionaries keyed by id;
     * an array here means a glTF 2.0 file with a 1.x version string. */
    if (!cJSON_IsObject(obj))
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "expected an object keyed by %s id (glTF 1.0)", kind);
    uint32_t n = 0;
    for (const cJSON *it = obj->child; it; it = it->next)
        ++n;
    if (n == 0) return VS_OK;
    dict->items = mem_alloc(c->io.alloc, n * sizeof *dict->items);
    dict->sorted = mem_alloc(c->io.alloc, n * sizeof *dict->sorted);
    if (!dict->items || !dict->sorted)
        return gltf1_fail(c, VS_ERROR_OUT_OF_MEMORY, path, "out of memory");
    for (const cJSON *it = obj->child; it; it = it->next) {
        if (!cJSON_IsObject(it))
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "%s \"%.*s\" is not a JSON object", kind,
                              GLTF1_ID_SHOWN, it->string);
        dict->items[dict->count] = it;
        dict->sorted[dict->count].key = it->string;
        dict->sorted[dict->count].index = dict->count;
        ++dict->count;
    }
    qsort(dict->sorted, n, sizeof *dict->sorted, id_compare);
    for (uint32_t i = 1; i < n; ++i)
        if (strcmp(dict->sorted[i - 1].key, dict->sorted[i].key) == 0)
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "%s id \"%.*s\" is used twice", kind,
                              GLTF1_ID_SHOWN, dict->sorted[i].key);
    return VS_OK;
}

void gltf1_dict_free(gltf1_ctx *c, gltf1_dict *dict)
{
    mem_free(c->io.alloc, dict->items);
    mem_free(c->io.alloc, dict->sorted);
    dict->items = NULL;
    dict->sorted = NULL;
    dict->count = 0;
}

int32_t gltf1_dict_find(const gltf1_dict *dict, const char *id)
{
    if (!id || dict->count == 0) return -1;
    gltf1_id key = {id, 0};
    const gltf1_id *hit = bsearch(&key, dict->sorted, dict->count,
                                  sizeof *dict->sorted, id_compare);
    return hit ? (int32_t)hit->index : -1;
}

const char *gltf1_id_of(const gltf1_dict *dict, uint32_t i)
{
    return i < dict->count ? dict->items[i]->string : "";
}

vs_result gltf1_resolve(gltf1_ctx *c, const gltf1_dict *dict, const cJSON *item,
                        const char *path, uint32_t *out)
{
    if (!cJSON_IsString(item))
        return gltf1_fail(
            c, VS_ERROR_INVALID, path, "expected %s %s id (a string)",
            strchr("aeiou", dict->kind[0]) ? "an" : "a", dict->kind);
    int32_t i = gltf1_dict_find(dict, item->valuestring);
    if (i < 0)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "%s \"%.*s\" does not exist", dict->kind,
                          GLTF1_ID_SHOWN, item->valuestring);
    *out = (uint32_t)i;
    return VS_OK;
}

vs_result gltf1_resolve_ids(gltf1_ctx *c, const gltf1_dict *dict,
                            const cJSON *obj, const char *key, const char *path,
                            uint32_t **out, uint32_t *count)
{
    const cJSON *arr;
    vs_result r = gltf1_get_array(c, obj, key, path, &arr);
    *out = NULL;
    *count = 0;
    if (r != VS_OK || !arr) return r;
    uint32_t n = (uint32_t)cJSON_GetArraySize(arr), k = 0;
    uint32_t *ids =
        vs_priv_asset_calloc(c->asset, n ? n : 1, sizeof *ids, c->error, path);
    if (!ids) return c->error->code;
    for (const cJSON *e = arr->child; e; e = e->next, ++k) {
        char field[GLTF1_PATH_SIZE];
        gltf1_pathf(field, "%s.%s[%u]", path, key, k);
        if ((r = gltf1_resolve(c, dict, e, field, &ids[k])) != VS_OK) return r;
    }
    *out = ids;
    *count = n;
    return VS_OK;
}

vs_result gltf1_get_uint(gltf1_ctx *c, const cJSON *obj, const char *key,
                         const char *path, uint64_t def, uint64_t max,
                         uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        *out = def;
        return VS_OK;
    }
    /* JSON integers are exact only up to 2^53; above that (and at 2^64,
     * which (double)UINT64_MAX rounds to) the cast would be undefined. */
    double limit = max > (1ull << 53) ? 9007199254740992.0 : (double)max;
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1.0;
    if (!(d >= 0.0 && d <= limit && d == floor(d))) {
        if (max > (1ull << 53))
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "%s must be a non-negative integer", key);
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "%s must be an integer from 0 to %llu", key,
                          (unsigned long long)max);
    }
    *out = (uint64_t)d;
    return VS_OK;
}

vs_result gltf1_get_floats(gltf1_ctx *c, const cJSON *obj, const char *key,
                           const char *path, uint32_t n, float *out,
                           bool *found)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *found = v != NULL;
    if (!v) return VS_OK;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != (int)n)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "%s must be an array of %u numbers", key, n);
    uint32_t i = 0;
    for (const cJSON *e = v->child; e; e = e->next, ++i) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "%s[%u] is not a finite number", key, i);
        out[i] = (float)e->valuedouble;
    }
    return VS_OK;
}

vs_result gltf1_get_string(gltf1_ctx *c, const cJSON *obj, const char *key,
                           const char *path, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v) return VS_OK;
    if (!cJSON_IsString(v))
        return gltf1_fail(c, VS_ERROR_INVALID, path, "%s must be a string",
                          key);
    *out = v->valuestring;
    return VS_OK;
}

vs_result gltf1_get_array(gltf1_ctx *c, const cJSON *obj, const char *key,
                          const char *path, const cJSON **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v) return VS_OK;
    if (!cJSON_IsArray(v))
        return gltf1_fail(c, VS_ERROR_INVALID, path, "%s must be an array",
                          key);
    *out = v;
    return VS_OK;
}

const char *gltf1_name(gltf1_ctx *c, const cJSON *obj, const char *fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "name");
    const char *s =
        vs_priv_asset_strdup(c->asset, cJSON_IsString(v) ? v->valuestring : fallback);
    if (!s)
        set_error(c->error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                  c->src);
    return s;
}
