/* SPDX-License-Identifier: MIT */
/* glTF 2.0 meshes (§3.7.2): primitives with their attributes decoded to the
 * plain arrays of vs_primitive, skinning sets packed 4 per JOINTS_n/WEIGHTS_n
 * (§3.7.3.1), morph targets (§3.7.2.2), COLOR_0 and the TEXCOORD_n set the
 * material's base colour texture reads (gltf2_material.c). The component
 * types allowed are the core ones plus KHR_mesh_quantization's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "load/gltf2/gltf2_internal.h"

#define CT_U8 GLTF2_CT(GLTF_UNSIGNED_BYTE)
#define CT_U16 GLTF2_CT(GLTF_UNSIGNED_SHORT)
#define CT_I8 GLTF2_CT(GLTF_BYTE)
#define CT_I16 GLTF2_CT(GLTF_SHORT)
#define CT_U32 GLTF2_CT(GLTF_UNSIGNED_INT)

#define EXPECT(type, ct, norm)                                                 \
    {.types = {type}, .ctypes = (ct), .ctypes_normalized = (norm)}
static const gltf2_expect expect_position =
    EXPECT("VEC3", GLTF2_CT_FLOAT | GLTF2_CT_INTS, 0);
static const gltf2_expect expect_normal =
    EXPECT("VEC3", GLTF2_CT_FLOAT | CT_I8 | CT_I16, CT_I8 | CT_I16);
static const gltf2_expect expect_tangent =
    EXPECT("VEC4", GLTF2_CT_FLOAT | CT_I8 | CT_I16, CT_I8 | CT_I16);
static const gltf2_expect expect_texcoord =
    EXPECT("VEC2", GLTF2_CT_FLOAT | GLTF2_CT_INTS, 0);
static const gltf2_expect expect_joints = EXPECT("VEC4", CT_U8 | CT_U16, 0);
static const gltf2_expect expect_weights =
    EXPECT("VEC4", GLTF2_CT_FLOAT | CT_U8 | CT_U16, CT_U8 | CT_U16);
static const gltf2_expect expect_indices =
    EXPECT("SCALAR", CT_U8 | CT_U16 | CT_U32, 0);
static const gltf2_expect expect_delta_position =
    EXPECT("VEC3", GLTF2_CT_FLOAT | CT_I8 | CT_I16, 0);
static const gltf2_expect expect_delta_dir =
    EXPECT("VEC3", GLTF2_CT_FLOAT | CT_I8 | CT_I16, CT_I8 | CT_I16);
/* Without KHR_mesh_quantization only the core types (§3.7.2.1) apply. */
#define CORE(type, ct, norm)                                                   \
    {.types = {type}, .ctypes = (ct), .ctypes_normalized = (norm),             \
     .quantizable = true}
static const gltf2_expect core_vec3 = CORE("VEC3", GLTF2_CT_FLOAT, 0);
static const gltf2_expect core_vec4 = CORE("VEC4", GLTF2_CT_FLOAT, 0);
static const gltf2_expect core_texcoord =
    CORE("VEC2", GLTF2_CT_FLOAT | CT_U8 | CT_U16, CT_U8 | CT_U16);
/* §3.7.2.1: COLOR_n is VEC3 or VEC4, float or normalized unsigned. */
static const gltf2_expect expect_color = {
    .types = {"VEC3", "VEC4"},
    .ctypes = GLTF2_CT_FLOAT | CT_U8 | CT_U16,
    .ctypes_normalized = CT_U8 | CT_U16};

#define PICK(c, quantized, core) ((c)->quantization ? (quantized) : (core))

#define ERR(c) ((c)->error ? (c)->error->code : VS_ERROR_LIMIT)

/* An optional vertex attribute with vertex_count elements. */
static vs_result attribute(gltf2_ctx *c, const cJSON *attrs, const char *name,
                           const char *path, gltf2_expect e, uint32_t count,
                           const float **out)
{
    int32_t index;
    vs_result r = json_index(c, attrs, name, path, c->accessor_count, false,
                             &index);
    if (r != VS_OK || index < 0) return r;
    char ref[GLTF2_PATH];
    path_fmt(ref, "%s.%s", path, name);
    e.count = count;
    float *f;
    uint32_t n;
    r = gltf2_accessor_floats(c, index, ref, &e, &f, &n, NULL);
    if (r == VS_OK) *out = f;
    return r;
}

/* Set number of a "JOINTS_n" / "WEIGHTS_n" name (gltf2_check_attributes
 * has checked the digits), or -1. */
static long set_of(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0) return -1;
    return strtol(name + n, NULL, 10);
}

/* Decodes set s (JOINTS_s ji, WEIGHTS_s wi) into its 4 slots of every
 * vertex's influences. */
static vs_result skin_set(gltf2_ctx *c, const char *path, uint32_t s,
                          int32_t ji, int32_t wi, uint32_t sets,
                          vs_primitive *p, uint16_t *joints, float **weights)
{
    char ref[GLTF2_PATH];
    uint32_t inf = 4 * sets, nv = p->vertex_count, *u, n;
    gltf2_expect ej = expect_joints, ew = expect_weights;
    ej.count = ew.count = nv;
    path_fmt(ref, "%s.JOINTS_%u", path, s);
    vs_result r = gltf2_accessor_uints(c, ji, ref, &ej, &u, &n, NULL);
    if (r != VS_OK) return r;
    for (size_t v = 0; v < nv; ++v)
        for (uint32_t k = 0; k < 4; ++k)
            joints[v * inf + s * 4 + k] = (uint16_t)u[v * 4 + k];
    mem_free(c->io.alloc, u);
    float *w;
    path_fmt(ref, "%s.WEIGHTS_%u", path, s);
    if ((r = gltf2_accessor_floats(c, wi, ref, &ew, &w, &n, NULL)) != VS_OK)
        return r;
    if (sets == 1) {
        *weights = w;
    } else {
        for (size_t v = 0; v < nv; ++v)
            memcpy(*weights + v * inf + s * 4, w + v * 4, 4 * sizeof *w);
    }
    return VS_OK;
}

/* JOINTS_n/WEIGHTS_n for n = 0, 1, ... packed into influence_count = 4 *
 * sets values per vertex (§3.7.3.1). One pass over the attributes finds
 * the sets, so many sets cost no more than their number. */
static vs_result skin_sets(gltf2_ctx *c, const cJSON *attrs, const char *path,
                           vs_primitive *p)
{
    uint32_t nj = 0, nw = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, attrs)
    {
        nj += set_of(a->string, "JOINTS_") >= 0;
        nw += set_of(a->string, "WEIGHTS_") >= 0;
    }
    /* The sets of each kind are numbered 0.. without gaps (checked by
     * gltf2_check_attributes), so equal counts mean matching pairs. */
    if (nj != nw) {
        uint32_t s = nj < nw ? nj : nw;
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: JOINTS_%u and WEIGHTS_%u must come "
                         "together",
                         c->src, path, s, s);
    }
    uint32_t sets = nj;
    if (!sets) return VS_OK;
    int32_t *ji = mem_alloc(c->io.alloc, 2 * (size_t)sets * sizeof *ji);
    if (!ji)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: %s: out of memory", c->src, path);
    int32_t *wi = ji + sets;
    cJSON_ArrayForEach(a, attrs)
    {
        long j = set_of(a->string, "JOINTS_"), w = set_of(a->string, "WEIGHTS_");
        /* Accessor indices were range-checked by gltf2_check_attributes. */
        if (j >= 0 && (uint32_t)j < sets) ji[j] = json_array_index(a);
        if (w >= 0 && (uint32_t)w < sets) wi[w] = json_array_index(a);
    }
    uint32_t inf = 4 * sets, nv = p->vertex_count;
    uint16_t *joints = vs_priv_asset_calloc(c->asset, (size_t)nv * inf,
                                    sizeof *joints, c->error, path);
    float *weights = sets == 1 ? NULL
                               : vs_priv_asset_calloc(c->asset, (size_t)nv * inf,
                                              sizeof *weights, c->error, path);
    vs_result r = joints && (sets == 1 || weights) ? VS_OK : ERR(c);
    for (uint32_t s = 0; r == VS_OK && s < sets; ++s)
        r = skin_set(c, path, s, ji[s], wi[s], sets, p, joints, &weights);
    mem_free(c->io.alloc, ji);
    if (r != VS_OK) return r;
    p->influence_count = inf;
    p->joints = joints;
    p->weights = weights;
    return VS_OK;
}

static vs_result indices(gltf2_ctx *c, const cJSON *obj, const char *path,
                         vs_primitive *p)
{
    int32_t index;
    vs_result r = json_index(c, obj, "indices", path, c->accessor_count, false,
                             &index);
    if (r != VS_OK || index < 0) return r;
    char ref[GLTF2_PATH];
    path_fmt(ref, "%s.indices", path);
    uint32_t *u, n;
    if ((r = gltf2_accessor_uints(c, index, ref, &expect_indices, &u, &n,
                                  NULL)) != VS_OK)
        return r;
    gltf2_accessor_summary info;
    gltf2_accessor_info(c, index, &info);
    /* §3.7.2.1: the largest value of the type is the primitive restart
     * value, which glTF forbids. */
    uint32_t restart = info.component_type == GLTF_UNSIGNED_BYTE    ? 0xFFu
                       : info.component_type == GLTF_UNSIGNED_SHORT ? 0xFFFFu
                                                                    : 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; ++i)
        if (u[i] >= p->vertex_count || u[i] == restart) {
            uint32_t bad = u[i];
            mem_free(c->io.alloc, u);
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: accessor %d: index %u is %u but there "
                             "are %u vertices",
                             c->src, ref, index, i, bad, p->vertex_count);
        }
    uint32_t *copy = vs_priv_asset_calloc(c->asset, n, sizeof *copy, c->error, ref);
    if (copy) memcpy(copy, u, (size_t)n * sizeof *u);
    mem_free(c->io.alloc, u);
    if (!copy) return ERR(c);
    p->indices = copy;
    p->index_count = n;
    return VS_OK;
}

static vs_result targets(gltf2_ctx *c, const cJSON *obj, const char *path,
                         vs_primitive *p)
{
    const cJSON *arr, *t;
    uint32_t n, i = 0;
    vs_result r = json_array(c, obj, "targets", path, &arr, &n);
    if (r != VS_OK || n == 0) return r;
    vs_morph_target *ts = vs_priv_asset_calloc(c->asset, n, sizeof *ts, c->error, path);
    if (!ts) return ERR(c);
    cJSON_ArrayForEach(t, arr)
    {
        char tp[GLTF2_PATH];
        path_fmt(tp, "%s.targets[%u]", path, i);
        vs_morph_target *m = &ts[i++];
        if ((r = json_element_object(c, t, tp)) != VS_OK ||
            (r = attribute(c, t, "POSITION", tp,
                           PICK(c, expect_delta_position, core_vec3),
                           p->vertex_count, &m->positions)) != VS_OK ||
            (r = attribute(c, t, "NORMAL", tp,
                           PICK(c, expect_delta_dir, core_vec3),
                           p->vertex_count, &m->normals)) != VS_OK ||
            (r = attribute(c, t, "TANGENT", tp,
                           PICK(c, expect_delta_dir, core_vec3),
                           p->vertex_count, &m->tangents)) != VS_OK)
            return r;
    }
    p->targets = ts;
    p->target_count = n;
    return VS_OK;
}

static vs_result primitive_data(gltf2_ctx *c, const cJSON *obj,
                                const cJSON *attrs, const char *path,
                                vs_primitive *p);

/* COLOR_0 as RGBA: an RGB set gets alpha 1 (§3.7.2.1). */
static vs_result color0(gltf2_ctx *c, const cJSON *attrs, const char *ap,
                        vs_primitive *p)
{
    int32_t index;
    vs_result r = json_index(c, attrs, "COLOR_0", ap, c->accessor_count,
                             false, &index);
    if (r != VS_OK || index < 0) return r;
    char ref[GLTF2_PATH];
    path_fmt(ref, "%s.COLOR_0", ap);
    gltf2_expect e = expect_color;
    e.count = p->vertex_count;
    float *f;
    uint32_t n, comps;
    if ((r = gltf2_accessor_floats(c, index, ref, &e, &f, &n, &comps)))
        return r;
    if (comps == 4) {
        p->colors = f;
        return VS_OK;
    }
    float *rgba = vs_priv_asset_calloc(c->asset, (size_t)n * 4 + 1,
                                       sizeof *rgba, c->error, ref);
    if (!rgba) return ERR(c);
    for (uint32_t v = 0; v < n; ++v) {
        memcpy(rgba + (size_t)v * 4, f + (size_t)v * 3, 3 * sizeof *f);
        rgba[(size_t)v * 4 + 3] = 1.0f;
    }
    p->colors = rgba;
    return VS_OK;
}

/* The TEXCOORD_n set the material's base colour texture reads: set 0 is
 * `texcoords`; another set is decoded here. */
static vs_result material_texcoords(gltf2_ctx *c, const cJSON *attrs,
                                    const char *ap, vs_primitive *p)
{
    if (p->material < 0) return VS_OK;
    const vs_texture_ref *t =
        &c->asset->materials[p->material].base_color_texture;
    if (t->image < 0) return VS_OK;
    if (t->texcoord == 0) {
        p->base_color_texcoords = p->texcoords;
        return VS_OK;
    }
    char name[32];
    snprintf(name, sizeof name, "TEXCOORD_%u", t->texcoord);
    return attribute(c, attrs, name, ap,
                     PICK(c, expect_texcoord, core_texcoord), p->vertex_count,
                     &p->base_color_texcoords);
}

static vs_result primitive(gltf2_ctx *c, const cJSON *obj, const char *path,
                           vs_primitive *p)
{
    const cJSON *attrs;
    char ap[GLTF2_PATH];
    uint64_t mode;
    vs_result r = json_element_object(c, obj, path);
    if (r != VS_OK ||
        (r = json_object(c, obj, "attributes", path, &attrs)) != VS_OK ||
        (r = json_uint(c, obj, "mode", path, false, 4, &mode)) != VS_OK ||
        (r = json_index(c, obj, "material", path, c->asset->material_count,
                        false, &p->material)) != VS_OK)
        return r;
    if (mode > 6)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.mode: %llu is not a primitive mode (0..6)",
                         c->src, path, (unsigned long long)mode);
    p->mode = (vs_primitive_mode)mode;
    /* A material gltf2_load_materials dropped leaves the primitive without
     * one (the default material), as a reader that cannot use it would. */
    if (p->material >= 0 && c->material_dropped &&
        c->material_dropped[p->material])
        p->material = -1;
    path_fmt(ap, "%s.attributes", path);
    if (!attrs)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: required object is missing", c->src, ap);
    if ((r = gltf2_check_attributes(c, obj, attrs, path)) != VS_OK ||
        (r = gltf2_draco_begin(c, obj, attrs, path, (uint32_t)mode)) != VS_OK)
        return r;
    r = primitive_data(c, obj, attrs, path, p);
    gltf2_draco_end(c);
    return r;
}

/* The attributes, indices and targets of a checked primitive: plain, or
 * decoded from Draco by gltf2_draco_begin. */
static vs_result primitive_data(gltf2_ctx *c, const cJSON *obj,
                                const cJSON *attrs, const char *path,
                                vs_primitive *p)
{
    char ap[GLTF2_PATH], ref[GLTF2_PATH];
    vs_result r;
    path_fmt(ap, "%s.attributes", path);
    int32_t pos;
    if ((r = json_index(c, attrs, "POSITION", ap, c->accessor_count, false,
                        &pos)) != VS_OK)
        return r;
    if (pos < 0) {
        /* §3.7.2.1 allows a primitive without POSITION; with nothing to
         * place it stays empty (0 vertices, other attributes unread). */
        float *none = vs_priv_asset_calloc(c->asset, 3, sizeof *none, c->error, ap);
        if (!none) return ERR(c);
        p->positions = none;
        return gltf2_empty_targets(c, obj, path, p);
    }
    path_fmt(ref, "%s.POSITION", ap);
    float *f;
    if ((r = gltf2_accessor_floats(c, pos, ref,
                                   PICK(c, &expect_position, &core_vec3), &f,
                                   &p->vertex_count, NULL)) != VS_OK)
        return r;
    p->positions = f;
    uint32_t nv = p->vertex_count;
    if ((r = attribute(c, attrs, "NORMAL", ap,
                       PICK(c, expect_normal, core_vec3), nv, &p->normals)) ||
        (r = attribute(c, attrs, "TANGENT", ap,
                       PICK(c, expect_tangent, core_vec4), nv,
                       &p->tangents)) ||
        (r = attribute(c, attrs, "TEXCOORD_0", ap,
                       PICK(c, expect_texcoord, core_texcoord), nv,
                       &p->texcoords)) ||
        (r = material_texcoords(c, attrs, ap, p)) ||
        (r = color0(c, attrs, ap, p)) ||
        (r = gltf2_check_directions(c, attrs, ap, p)) ||
        (r = skin_sets(c, attrs, ap, p)) != VS_OK ||
        (r = indices(c, obj, path, p)) != VS_OK)
        return r;
    return targets(c, obj, path, p);
}

static vs_result mesh(gltf2_ctx *c, const cJSON *obj, uint32_t i, vs_mesh *m)
{
    char path[GLTF2_PATH];
    path_fmt(path, "meshes[%u]", i);
    const cJSON *prims, *w;
    uint32_t n, nw;
    vs_result r = json_element_object(c, obj, path);
    if (r != VS_OK || (r = json_name(c, obj, path, &m->name)) != VS_OK ||
        (r = json_array(c, obj, "primitives", path, &prims, &n)) != VS_OK ||
        (r = json_array(c, obj, "weights", path, &w, &nw)) != VS_OK)
        return r;
    if (n == 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.primitives: at least one primitive is "
                         "required",
                         c->src, path);
    vs_primitive *ps = vs_priv_asset_calloc(c->asset, n, sizeof *ps, c->error, path);
    if (!ps) return ERR(c);
    uint32_t k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, prims)
    {
        char pp[GLTF2_PATH];
        path_fmt(pp, "%s.primitives[%u]", path, k);
        if ((r = primitive(c, e, pp, &ps[k])) != VS_OK) return r;
        /* §3.7.2.2: all primitives have the same number of targets. */
        if (ps[k].target_count != ps[0].target_count)
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s.targets: %u morph targets but "
                             "primitives[0] has %u",
                             c->src, pp, ps[k].target_count,
                             ps[0].target_count);
        ++k;
    }
    m->primitives = ps;
    m->primitive_count = n;
    if (nw) {
        if (nw != ps[0].target_count)
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s.weights: %u weights but the primitives "
                             "have %u morph targets",
                             c->src, path, nw, ps[0].target_count);
        float *weights = vs_priv_asset_calloc(c->asset, nw, sizeof *weights, c->error,
                                      path);
        if (!weights) return ERR(c);
        if ((r = json_floats(c, obj, "weights", path, weights, nw, NULL)))
            return r;
        m->weights = weights;
        m->weight_count = nw;
    }
    return VS_OK;
}

vs_result gltf2_load_meshes(gltf2_ctx *c)
{
    const cJSON *arr, *e;
    uint32_t n, i = 0;
    vs_result r = json_array(c, c->root, "meshes", "", &arr, &n);
    if (r != VS_OK || n == 0) return r;
    vs_mesh *meshes = vs_priv_asset_calloc(c->asset, n, sizeof *meshes, c->error,
                                   "meshes");
    if (!meshes) return ERR(c);
    cJSON_ArrayForEach(e, arr)
    {
        if ((r = mesh(c, e, i, &meshes[i])) != VS_OK) return r;
        ++i;
    }
    c->asset->meshes = meshes;
    c->asset->mesh_count = n;
    return VS_OK;
}
