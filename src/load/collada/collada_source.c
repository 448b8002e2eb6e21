/* SPDX-License-Identifier: MIT */
/* COLLADA <source> data read through its <technique_common><accessor>
 * (COLLADA 1.4.1 spec, "accessor"): element i starts at offset + i * stride
 * in the array, and each <param> binds the next values of that chunk, a
 * param without a name being skipped (so <param name="X"/><param/>
 * <param name="Z"/> reads values 0 and 2 of each chunk). */
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

/* Values a param covers, by its type (float4x4 is one matrix param). */
static uint32_t param_width(const char *type)
{
    if (!type) return 1;
    static const struct {
        const char *type;
        uint32_t width;
    } widths[] = {{"float2", 2},   {"float3", 3},   {"float4", 4},
                  {"float2x2", 4}, {"float3x3", 9}, {"float4x4", 16}};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; ++i)
        if (strcmp(type, widths[i].type) == 0) return widths[i].width;
    return 1;
}

typedef struct accessor {
    const xmlNode *element;
    const xmlNode *array;
    uint32_t count, offset, stride;
    uint32_t named; /* values bound by named params */
    uint32_t pos[16];
} accessor;

static vs_result read_accessor(collada_ctx *ctx, const xmlNode *source,
                               const char *array_kind, accessor *a)
{
    memset(a, 0, sizeof *a);
    if (!collada_is(source, "source"))
        return collada_fail(ctx, VS_ERROR_INVALID, source, NULL,
                            "expected a <source>");
    const xmlNode *tc = collada_child(source, "technique_common");
    a->element = collada_child(tc, "accessor");
    if (!a->element)
        return collada_fail(ctx, VS_ERROR_INVALID, source, NULL,
                            "<source> has no <technique_common><accessor>");
    vs_result r;
    if ((r = collada_uint_attr(ctx, a->element, "count", UINT32_MAX,
                               &a->count)) ||
        (r = collada_uint_attr(ctx, a->element, "offset", 0, &a->offset)) ||
        (r = collada_uint_attr(ctx, a->element, "stride", 1, &a->stride)))
        return r;
    if (!collada_attr(a->element, "count"))
        return collada_fail(ctx, VS_ERROR_INVALID, a->element, "source",
                            "count is missing");
    if (a->count > asset_limits(ctx->asset)->max_accessor_elements)
        return collada_fail(ctx, VS_ERROR_LIMIT, a->element, "source",
                            "count %u exceeds the limit of %llu elements",
                            a->count,
                            (unsigned long long)asset_limits(ctx->asset)
                                ->max_accessor_elements);
    if (a->stride == 0)
        return collada_fail(ctx, VS_ERROR_INVALID, a->element, "source",
                            "stride is 0");
    if ((r = collada_resolve(ctx, a->element, "source",
                             collada_attr(a->element, "source"), array_kind,
                             &a->array)))
        return r;
    uint32_t at = 0;
    for (const xmlNode *p = collada_child(a->element, "param"); p;
         p = collada_next(p, "param")) {
        uint32_t w = param_width(collada_attr(p, "type"));
        const char *name = collada_attr(p, "name");
        for (uint32_t k = 0; k < w; ++k, ++at)
            if (name && *name && a->named < 16) a->pos[a->named++] = at;
    }
    if (at > a->stride)
        return collada_fail(ctx, VS_ERROR_INVALID, a->element, "source",
                            "params cover %u values but stride is %u", at,
                            a->stride);
    /* Accessors whose params are all unnamed (Softimage writes
     * <param type="float4x4"/>) or absent bind the values in order. */
    if (a->named == 0)
        for (uint32_t n = at ? at : a->stride; a->named < n && a->named < 16;
             ++a->named)
            a->pos[a->named] = a->named;
    return VS_OK;
}

/* Checks that every element of the accessor lies inside an array of
 * `size` values. */
static vs_result check_range(collada_ctx *ctx, const accessor *a,
                             uint32_t needed, uint32_t size)
{
    if (a->count == 0) return VS_OK;
    uint64_t last = (uint64_t)a->offset + (uint64_t)(a->count - 1) * a->stride +
                    a->pos[needed - 1];
    if (last >= size)
        return collada_fail(ctx, VS_ERROR_INVALID, a->element, "source",
                            "count %u, stride %u, offset %u need %llu values "
                            "but the array holds %u",
                            a->count, a->stride, a->offset,
                            (unsigned long long)last + 1, size);
    return VS_OK;
}

/* The array's count attribute should agree with what it holds. The
 * accessor, not the count, says which values are read, and check_range
 * then refuses an accessor that reaches past the values there are: a
 * count that disagrees changes nothing read, so it is a warning. */
static vs_result check_array_count(collada_ctx *ctx, const xmlNode *array,
                                   uint32_t found)
{
    uint32_t declared;
    vs_result r = collada_uint_attr(ctx, array, "count", found, &declared);
    if (r != VS_OK) return r;
    if (declared != found)
        return collada_warn(ctx, array, NULL,
                            "the values are read as the accessor says",
                            "count is %u but it holds %u values", declared,
                            found);
    return VS_OK;
}

bool collada_source_has_accessor(const xmlNode *source)
{
    return collada_child(collada_child(source, "technique_common"),
                         "accessor") != NULL;
}

vs_result collada_source_read(collada_ctx *ctx, const xmlNode *source,
                              const collada_source_opts *opts,
                              collada_floats_src *out,
                              collada_source_flaws *flaws)
{
    accessor a;
    vs_result r = read_accessor(ctx, source, "float_array", &a);
    if (r != VS_OK) return r;
    uint32_t components = opts->components ? opts->components : a.named;
    uint32_t least = opts->min_components && opts->min_components < components
                         ? opts->min_components
                         : components;
    if (components == 0 || a.named < least)
        return collada_fail(ctx, VS_ERROR_INVALID, a.element, "source",
                            "%u values per element are needed but the "
                            "accessor binds %u",
                            least, a.named);
    uint32_t bound = a.named < components ? a.named : components;
    float *values = NULL;
    uint32_t size = 0;
    flaws->zeroed = 0;
    if ((r = opts->zero_nonfinite
                 ? collada_floats_zeroing(ctx, a.array, &values, &size,
                                          &flaws->zeroed)
                 : collada_floats(ctx, a.array, &values, &size)) ||
        (r = check_array_count(ctx, a.array, size)) ||
        (r = check_range(ctx, &a, bound, size)))
        return r;
    float *v = collada_tmp(ctx, (size_t)a.count * components, sizeof *v,
                           "source values");
    if (!v) return COLLADA_ERR(ctx);
    for (uint32_t i = 0; i < a.count; ++i) {
        const float *chunk = values + a.offset + (size_t)i * a.stride;
        for (uint32_t k = 0; k < components; ++k)
            v[(size_t)i * components + k] = k < bound ? chunk[a.pos[k]] : 0.0f;
    }
    out->count = a.count;
    out->components = components;
    out->values = v;
    flaws->bound = bound;
    return VS_OK;
}

vs_result collada_source_floats(collada_ctx *ctx, const xmlNode *source,
                                uint32_t components, collada_floats_src *out)
{
    collada_source_opts opts = {.components = components};
    collada_source_flaws flaws;
    return collada_source_read(ctx, source, &opts, out, &flaws);
}

/* Splits text into whitespace-separated tokens, in place in a tmp copy. */
static vs_result split_names(collada_ctx *ctx, const xmlNode *array,
                             char ***out, uint32_t *count)
{
    const char *text;
    vs_result r = collada_text(ctx, array, &text);
    if (r != VS_OK) return r;
    size_t len = strlen(text);
    char *copy = collada_tmp(ctx, len + 1, 1, "names");
    if (!copy) return COLLADA_ERR(ctx);
    memcpy(copy, text, len + 1);
    uint32_t n = 0;
    for (char *save = NULL, *tok = strtok_r(copy, " \t\r\n", &save); tok;
         tok = strtok_r(NULL, " \t\r\n", &save))
        ++n;
    char **names = collada_tmp(ctx, n ? n : 1, sizeof *names, "names");
    if (!names) return COLLADA_ERR(ctx);
    memcpy(copy, text, len + 1);
    n = 0;
    for (char *save = NULL, *tok = strtok_r(copy, " \t\r\n", &save); tok;
         tok = strtok_r(NULL, " \t\r\n", &save))
        names[n++] = tok;
    *out = names;
    *count = n;
    return VS_OK;
}

vs_result collada_source_names(collada_ctx *ctx, const xmlNode *source,
                               char ***out, uint32_t *count, bool *idref)
{
    accessor a;
    const char *ref = NULL;
    const xmlNode *tc = collada_child(source, "technique_common");
    const xmlNode *acc = collada_child(tc, "accessor");
    const xmlNode *array;
    ref = collada_attr(acc, "source");
    vs_result r =
        collada_resolve(ctx, acc ? acc : source, "source", ref, NULL, &array);
    if (r != VS_OK) return r;
    *idref = collada_is(array, "IDREF_array");
    if (!*idref && !collada_is(array, "Name_array"))
        return collada_fail(ctx, VS_ERROR_INVALID, source, NULL,
                            "joint names must be a <Name_array> or an "
                            "<IDREF_array>, not a <%s>",
                            (const char *)array->name);
    if ((r = read_accessor(ctx, source, (const char *)array->name, &a)))
        return r;
    char **tokens = NULL;
    uint32_t size = 0;
    if ((r = split_names(ctx, a.array, &tokens, &size)) ||
        (r = check_array_count(ctx, a.array, size)) ||
        (r = check_range(ctx, &a, 1, size)))
        return r;
    char **names =
        collada_tmp(ctx, a.count ? a.count : 1, sizeof *names, "joint names");
    if (!names) return COLLADA_ERR(ctx);
    for (uint32_t i = 0; i < a.count; ++i)
        names[i] = tokens[a.offset + (size_t)i * a.stride + a.pos[0]];
    *out = names;
    *count = a.count;
    return VS_OK;
}
