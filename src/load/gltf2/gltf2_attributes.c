/* SPDX-License-Identifier: MIT */
/* JSON-level checks of a primitive's attributes and morph targets (glTF 2.0
 * §3.7.2.1, §3.7.2.2), covering also the attributes vskin does not decode:
 * valid semantic names, resolvable accessors, equal counts, contiguous
 * TEXCOORD_n / COLOR_n / JOINTS_n / WEIGHTS_n sets, POSITION bounds, morph
 * attributes present in the base. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "load/gltf2/gltf2_internal.h"

#define FAIL(...) set_error(c->error, VS_ERROR_INVALID, __VA_ARGS__)

static const char *const indexed[] = {"TEXCOORD_", "COLOR_", "JOINTS_",
                                      "WEIGHTS_"};

/* Set number of an indexed semantic ("TEXCOORD_3" -> kind 0, set 3), or -1
 * for POSITION/NORMAL/TANGENT/custom names, -2 for invalid names. */
static long semantic_set(const char *name, int *kind)
{
    if (name[0] == '_' || !strcmp(name, "POSITION") ||
        !strcmp(name, "NORMAL") || !strcmp(name, "TANGENT"))
        return -1;
    for (int k = 0; k < 4; ++k) {
        size_t n = strlen(indexed[k]);
        if (strncmp(name, indexed[k], n) != 0) continue;
        const char *d = name + n;
        if (!*d || (d[0] == '0' && d[1]) || strspn(d, "0123456789") != strlen(d) ||
            strlen(d) > 6)
            return -2;
        *kind = k;
        return strtol(d, NULL, 10);
    }
    return -2;
}

static vs_result check_set(gltf2_ctx *c, const cJSON *attrs, const char *ap,
                           bool base)
{
    const cJSON *a;
    uint32_t count = 0;
    bool first = true;
    long max_set[4] = {-1, -1, -1, -1};
    unsigned seen[4] = {0, 0, 0, 0};
    cJSON_ArrayForEach(a, attrs)
    {
        int kind = 0;
        long set = semantic_set(a->string, &kind);
        if (set == -2)
            return FAIL("%s: %s.%s: not a valid attribute semantic", c->src,
                        ap, a->string);
        if (set >= 0) {
            if (set > max_set[kind]) max_set[kind] = set;
            ++seen[kind];
        }
        char ref[GLTF2_PATH];
        path_fmt(ref, "%s.%s", ap, a->string);
        uint32_t index;
        vs_result r = json_index_value(c, a, ref, c->accessor_count, &index);
        if (r != VS_OK) return r;
        gltf2_accessor_summary s;
        gltf2_accessor_info(c, (int32_t)index, &s);
        /* §3.7.2.1: attributes never use UNSIGNED_INT. */
        if (s.component_type == GLTF_UNSIGNED_INT)
            return FAIL("%s: %s: accessor %u: UNSIGNED_INT is not allowed for "
                        "vertex attributes",
                        c->src, ref, index);
        if (!first && s.count != count)
            return FAIL("%s: %s: accessor %u has %u elements but the other "
                        "attributes have %u",
                        c->src, ref, index, s.count, count);
        count = s.count;
        first = false;
        /* §3.7.2.1 wants min and max on POSITION; vskin computes the
         * bounds it needs from the positions, so their absence loses
         * nothing. */
        if (!strcmp(a->string, "POSITION") && !s.has_bounds &&
            (r = asset_warn(c->asset, c->error, ref,
                            "bounds computed from the positions",
                            "accessor %u has no min and max", index)) != VS_OK)
            return r;
    }
    for (int k = 0; base && k < 4; ++k) {
        if (max_set[k] < 0 || (unsigned long)max_set[k] + 1 == seen[k])
            continue;
        /* JOINTS_n/WEIGHTS_n pair up by number into each vertex's
         * influences: a gap leaves the pairing unknown. TEXCOORD_n and
         * COLOR_n sets only shade; each set that exists keeps its number
         * (as in three.js and assimp). */
        if (k >= 2)
            return FAIL("%s: %s: %sn sets must be numbered 0, 1, 2... "
                        "without gaps",
                        c->src, ap, indexed[k]);
        vs_result r = asset_warn(c->asset, c->error, ap,
                                 "the sets present are kept",
                                 "%sn sets are not numbered 0, 1, 2... "
                                 "without gaps",
                                 indexed[k]);
        if (r != VS_OK) return r;
    }
    return VS_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

vs_result gltf2_check_attributes(gltf2_ctx *c, const cJSON *prim,
                                 const cJSON *attrs, const char *path)
{
    char ap[GLTF2_PATH];
    path_fmt(ap, "%s.attributes", path);
    vs_result r = check_set(c, attrs, ap, true);
    if (r != VS_OK) return r;
    const cJSON *targets = cJSON_GetObjectItemCaseSensitive(prim, "targets");
    const cJSON *list = cJSON_IsArray(targets) ? targets : NULL;
    if (!list || !list->child) return VS_OK;
    /* The base names, sorted once: a lookup per target attribute in the
     * attributes object would cost targets x attributes. */
    size_t n = 0, k = 0;
    const cJSON *t, *a;
    cJSON_ArrayForEach(a, attrs) ++n;
    const char **names = mem_alloc(c->io.alloc, (n ? n : 1) * sizeof *names);
    if (!names)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: %s: out of memory", c->src, path);
    cJSON_ArrayForEach(a, attrs) names[k++] = a->string;
    qsort(names, n, sizeof *names, by_name);
    uint32_t i = 0;
    cJSON_ArrayForEach(t, list)
    {
        char tp[GLTF2_PATH];
        path_fmt(tp, "%s.targets[%u]", path, i++);
        if ((r = json_element_object(c, t, tp)) != VS_OK ||
            (r = check_set(c, t, tp, false)) != VS_OK)
            break;
        cJSON_ArrayForEach(a, t)
        {
            /* §3.7.2.2: a target only displaces attributes the base has. */
            if (!bsearch(&a->string, names, n, sizeof *names, by_name)) {
                r = FAIL("%s: %s.%s: the primitive has no %s attribute to "
                         "morph",
                         c->src, tp, a->string, a->string);
                break;
            }
        }
        if (r != VS_OK) break;
    }
    mem_free(c->io.alloc, names);
    return r;
}

/* Whether attribute `name` reads real data: an accessor with neither a
 * bufferView nor sparse values is all zeros by definition (§3.6.2.3), which
 * the validator does not hold against unit-length rules, nor does vskin
 * (posing leaves a zero direction zero). */
static bool has_data(const gltf2_ctx *c, const cJSON *attrs, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(attrs, name);
    gltf2_accessor_summary s;
    return gltf2_accessor_info(c, json_array_index(v), &s) && s.has_source;
}

/* Scales v (n components) to unit length; false when it has no length to
 * scale, so it names no direction and stays as it is. */
static bool normalise(float *v, int n)
{
    float len = 0.0f;
    for (int k = 0; k < n; ++k) len += v[k] * v[k];
    len = sqrtf(len);
    if (!(len > 1e-12f)) return false;
    for (int k = 0; k < n; ++k) v[k] /= len;
    return true;
}

vs_result gltf2_check_directions(gltf2_ctx *c, const cJSON *attrs,
                                 const char *ap, vs_primitive *p)
{
    /* §3.7.2.1: NORMAL is unit length, TANGENT xyz unit length with w = +-1.
     * The tolerance admits 8-bit quantized vectors (KHR_mesh_quantization).
     * Exporters (Blender, glTF-Transform, gltfpack) write longer or shorter
     * ones; they still name one direction, which three.js and assimp use
     * (their shaders normalise), so those outside the tolerance are
     * normalised, and a tangent's w becomes its sign (+1 for 0). The
     * decoded arrays are the loader's own until the load returns. */
    const float tol = 0.02f;
    float *normals = p->normals && has_data(c, attrs, "NORMAL")
                         ? (float *)p->normals
                         : NULL;
    float *tangents = p->tangents && has_data(c, attrs, "TANGENT")
                          ? (float *)p->tangents
                          : NULL;
    uint32_t bad_n = 0, bad_t = 0, first_n = 0, first_t = 0;
    for (uint32_t v = 0; v < p->vertex_count && (normals || tangents); ++v) {
        if (normals) {
            float *n = normals + 3 * (size_t)v;
            float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            if (fabsf(len - 1.0f) > tol) {
                if (!bad_n++) first_n = v;
                normalise(n, 3);
            }
        }
        if (tangents) {
            float *t = tangents + 4 * (size_t)v;
            float len = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
            if (fabsf(len - 1.0f) > tol || fabsf(fabsf(t[3]) - 1.0f) > 1e-4f) {
                if (!bad_t++) first_t = v;
                normalise(t, 3);
                t[3] = t[3] < 0.0f ? -1.0f : 1.0f;
            }
        }
    }
    char where[GLTF2_PATH];
    vs_result r = VS_OK;
    if (bad_n) {
        path_fmt(where, "%s.NORMAL", ap);
        r = asset_warn(c->asset, c->error, where, "normalised",
                       "%u of %u vectors are not unit length (first: vertex "
                       "%u)",
                       bad_n, p->vertex_count, first_n);
    }
    if (r == VS_OK && bad_t) {
        path_fmt(where, "%s.TANGENT", ap);
        r = asset_warn(c->asset, c->error, where,
                       "normalised, w set to its sign",
                       "%u of %u vectors are not unit length with w = +-1 "
                       "(first: vertex %u)",
                       bad_t, p->vertex_count, first_t);
    }
    return r;
}

vs_result gltf2_empty_targets(gltf2_ctx *c, const cJSON *prim,
                              const char *path, vs_primitive *p)
{
    const cJSON *arr;
    uint32_t n;
    vs_result r = json_array(c, prim, "targets", path, &arr, &n);
    if (r != VS_OK || n == 0) return r;
    vs_morph_target *t = vs_priv_asset_calloc(c->asset, n, sizeof *t, c->error, path);
    if (!t) return c->error ? c->error->code : VS_ERROR_LIMIT;
    p->targets = t;
    p->target_count = n;
    return VS_OK;
}
