/* SPDX-License-Identifier: MIT */
/* COLLADA <geometry><mesh> to indexed primitives (COLLADA 1.4.1 spec,
 * "mesh", "input", "vertices"). Every primitive element becomes one
 * vs_primitive, in document order: the polygon elements as TRIANGLES, <lines>
 * and <linestrips> as LINES (split by collada_polygons.c). A <linestrips>
 * holds one strip per <p> but one material: its strips become the segments
 * of one LINES primitive rather than one LINE_STRIP primitive each, so a
 * file of many short strips does not turn into as many primitives. Each
 * <input> has its own index (offset) in <p>; a vertex of the output is one
 * distinct (position, normal, texcoord) index tuple, so shared corners stay
 * shared, and vs_primitive.source_vertex keeps the position index, which is
 * what skin weights refer to. */
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

/* Sources parsed once per geometry. */
typedef struct source_cache {
    const xmlNode *element[16];
    collada_floats_src data[16];
    uint32_t count;
} source_cache;

/* The vertex attributes read from <source>s, with the repairs each may
 * get: positions of a 2-D accessor (X, Y) get Z = 0, the only reading of
 * such a file (three.js and assimp read them so); texture coordinates
 * with INF or NaN values get 0 there, as they do not move the pose. */
typedef enum attr_kind { ATTR_POSITION, ATTR_NORMAL, ATTR_TEXCOORD } attr_kind;

static vs_result cached_source(collada_ctx *ctx, source_cache *cache,
                               const xmlNode *source, attr_kind kind,
                               collada_floats_src *out)
{
    uint32_t components = kind == ATTR_TEXCOORD ? 2 : 3;
    for (uint32_t i = 0; i < cache->count; ++i)
        if (cache->element[i] == source &&
            cache->data[i].components == components) {
            *out = cache->data[i];
            return VS_OK;
        }
    collada_source_opts opts = {.components = components,
                                .min_components = kind == ATTR_POSITION ? 2 : 0,
                                .zero_nonfinite = kind == ATTR_TEXCOORD};
    collada_source_flaws flaws;
    vs_result r = collada_source_read(ctx, source, &opts, out, &flaws);
    if (r == VS_OK && flaws.bound < components)
        r = collada_warn(ctx, source, NULL, "read with Z = 0",
                         "positions have %u values (X, Y) per element",
                         flaws.bound);
    if (r == VS_OK && flaws.zeroed)
        r = collada_warn(ctx, source, NULL, "read as 0",
                         "%u texture coordinate values are not finite (INF "
                         "or NaN)",
                         flaws.zeroed);
    if (r == VS_OK && cache->count < 16) {
        cache->element[cache->count] = source;
        cache->data[cache->count++] = *out;
    }
    return r;
}

/* The inputs vskin uses, with their offsets in each <p> corner. */
typedef struct inputs {
    uint32_t stride;
    uint32_t pos_off, nrm_off, tex_off;
    bool has_pos, has_nrm, has_tex;
    uint32_t tex_set;
    collada_floats_src pos, nrm, tex;
} inputs;

/* Normals and texture coordinates do not move the pose: an input whose
 * source is missing or has no accessor is dropped (three.js and assimp
 * load such meshes without the attribute). */
static vs_result optional_source(collada_ctx *ctx, const xmlNode *in,
                                 const char *what, const xmlNode **src)
{
    const char *ref = collada_attr(in, "source");
    const xmlNode *e = collada_lookup(ctx, ref);
    char action[64];
    snprintf(action, sizeof action, "%s dropped", what);
    if (!e && (!ref || !*ref))
        return collada_warn(ctx, in, "semantic", action,
                            "the source attribute is missing");
    if (!e)
        return collada_warn(ctx, in, "source", action,
                            "\"%.120s\" does not exist", ref);
    if (collada_is(e, "source") && !collada_source_has_accessor(e))
        return collada_warn(ctx, in, "source", action,
                            "<source> has no <technique_common><accessor>");
    return collada_resolve(ctx, in, "source", ref, "source", src);
}

static vs_result use_input(collada_ctx *ctx, source_cache *cache,
                           const xmlNode *in, uint32_t offset, inputs *out)
{
    const char *sem = collada_attr(in, "semantic");
    const char *ref = collada_attr(in, "source");
    const xmlNode *src = NULL;
    vs_result r;
    if (!sem)
        return collada_fail(ctx, VS_ERROR_INVALID, in, NULL,
                            "semantic is missing");
    if (strcmp(sem, "VERTEX") == 0) {
        if ((r = collada_resolve(ctx, in, "source", ref, "vertices", &src)))
            return r;
        /* <vertices> inputs share the VERTEX index (spec, "vertices"). */
        for (const xmlNode *v = collada_child(src, "input"); v;
             v = collada_next(v, "input"))
            if ((r = use_input(ctx, cache, v, offset, out))) return r;
        return VS_OK;
    }
    if (strcmp(sem, "POSITION") == 0) {
        if ((r = collada_resolve(ctx, in, "source", ref, "source", &src)) ||
            (r = cached_source(ctx, cache, src, ATTR_POSITION, &out->pos)))
            return r;
        out->has_pos = true;
        out->pos_off = offset;
    } else if (strcmp(sem, "NORMAL") == 0 && !out->has_nrm) {
        if ((r = optional_source(ctx, in, "normals", &src)) || !src ||
            (r = cached_source(ctx, cache, src, ATTR_NORMAL, &out->nrm)))
            return r;
        out->has_nrm = true;
        out->nrm_off = offset;
    } else if (strcmp(sem, "TEXCOORD") == 0) {
        /* TEXCOORD_0 is the lowest set (set 0 when the file numbers them). */
        uint32_t set;
        if ((r = collada_uint_attr(ctx, in, "set", 0, &set))) return r;
        if (out->has_tex && set >= out->tex_set) return VS_OK;
        if ((r = optional_source(ctx, in, "texture coordinates", &src)) ||
            !src ||
            (r = cached_source(ctx, cache, src, ATTR_TEXCOORD, &out->tex)))
            return r;
        out->has_tex = true;
        out->tex_off = offset;
        out->tex_set = set;
    }
    return VS_OK;
}

static vs_result read_inputs(collada_ctx *ctx, source_cache *cache,
                             const xmlNode *prim, inputs *out)
{
    memset(out, 0, sizeof *out);
    vs_result r;
    for (const xmlNode *in = collada_child(prim, "input"); in;
         in = collada_next(in, "input")) {
        uint32_t offset;
        if ((r = collada_uint_attr(ctx, in, "offset", UINT32_MAX, &offset)))
            return r;
        if (offset >= 4096)
            return collada_fail(ctx, VS_ERROR_INVALID, in, "semantic",
                                "offset is missing or above 4095");
        if (offset + 1 > out->stride) out->stride = offset + 1;
        if ((r = use_input(ctx, cache, in, offset, out))) return r;
    }
    if (!out->has_pos)
        return collada_fail(ctx, VS_ERROR_INVALID, prim, "material",
                            "no VERTEX input with a POSITION");
    return VS_OK;
}

static uint32_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull;
    h ^= (h >> 29) + b * 0xBF58476D1CE4E5B9ull;
    h ^= (h >> 31) + c * 0x94D049BB133111EBull;
    return (uint32_t)(h ^ (h >> 32));
}

/* First corner whose index at `off` is count or more, or n. */
static size_t first_outside(const collada_corners *c, uint32_t stride,
                            uint32_t off, uint32_t count, const uint32_t *corner,
                            size_t n)
{
    for (size_t k = 0; k < n; ++k)
        if (c->p[(size_t)corner[k] * stride + off] >= count) return k;
    return n;
}

/* Positions indexed out of range leave the shape unknown and refuse the
 * primitive; normal or texture coordinate indices out of range drop that
 * attribute from it. */
static vs_result check_indices(collada_ctx *ctx, const xmlNode *prim,
                               inputs *in, const collada_corners *c,
                               const uint32_t *corner, size_t n)
{
    const int64_t *p = c->p;
    size_t k = first_outside(c, in->stride, in->pos_off, in->pos.count, corner, n);
    if (k < n) {
        long long got = p[(size_t)corner[k] * in->stride + in->pos_off];
        return collada_fail(ctx, VS_ERROR_INVALID, prim, "material",
                            "corner %u: index out of range (position %lld "
                            "of %u)",
                            corner[k], got, in->pos.count);
    }
    vs_result r;
    if (in->has_nrm && (k = first_outside(c, in->stride, in->nrm_off,
                                          in->nrm.count, corner, n)) < n) {
        in->has_nrm = false;
        long long got = p[(size_t)corner[k] * in->stride + in->nrm_off];
        if ((r = collada_warn(ctx, prim, "material", "normals dropped",
                              "corner %u: normal index %lld of %u is out of "
                              "range",
                              corner[k], got, in->nrm.count)))
            return r;
    }
    if (in->has_tex && (k = first_outside(c, in->stride, in->tex_off,
                                          in->tex.count, corner, n)) < n) {
        in->has_tex = false;
        long long got = p[(size_t)corner[k] * in->stride + in->tex_off];
        if ((r = collada_warn(ctx, prim, "material",
                              "texture coordinates dropped",
                              "corner %u: texcoord index %lld of %u is out "
                              "of range",
                              corner[k], got, in->tex.count)))
            return r;
    }
    return VS_OK;
}

/* Distinct index tuples of the n element corners (3 per triangle or 2 per
 * line segment) become output vertices. */
static vs_result build_primitive(collada_ctx *ctx, const xmlNode *prim,
                                 const inputs *given, const collada_corners *c,
                                 const uint32_t *corner, size_t n,
                                 vs_primitive_mode mode, vs_primitive *out)
{
    inputs checked = *given;
    inputs *in = &checked;
    vs_result r = check_indices(ctx, prim, in, c, corner, n);
    if (r != VS_OK) return r;
    size_t cap = 16;
    while (cap < n * 2)
        cap *= 2;
    uint32_t *table = collada_tmp(ctx, cap, sizeof *table, "vertex table");
    uint32_t *rep = collada_tmp(ctx, n ? n : 1, sizeof *rep, "vertices");
    uint32_t *indices = vs_priv_asset_calloc(
        ctx->asset, n ? n : 1, sizeof *indices, ctx->error, "indices");
    if (!table || !rep || !indices) return COLLADA_ERR(ctx);
    uint32_t verts = 0;
    for (size_t k = 0; k < n; ++k) {
        const int64_t *v = c->p + (size_t)corner[k] * in->stride;
        uint32_t pi = (uint32_t)v[in->pos_off];
        uint32_t ni = in->has_nrm ? (uint32_t)v[in->nrm_off] : 0;
        uint32_t ti = in->has_tex ? (uint32_t)v[in->tex_off] : 0;
        size_t h = hash3(pi, ni, ti) & (cap - 1);
        for (;; h = (h + 1) & (cap - 1)) {
            if (table[h] == 0) {
                rep[verts] = corner[k];
                table[h] = ++verts;
                break;
            }
            const int64_t *w = c->p + (size_t)rep[table[h] - 1] * in->stride;
            if ((uint32_t)w[in->pos_off] == pi &&
                (!in->has_nrm || (uint32_t)w[in->nrm_off] == ni) &&
                (!in->has_tex || (uint32_t)w[in->tex_off] == ti))
                break;
        }
        indices[k] = table[h] - 1;
    }
    vs_asset *a = ctx->asset;
    float *pos = vs_priv_asset_calloc(a, verts ? verts : 1, 3 * sizeof *pos,
                                      ctx->error, "positions");
    uint32_t *srcv = vs_priv_asset_calloc(a, verts ? verts : 1, sizeof *srcv,
                                          ctx->error, "source vertices");
    float *nrm = in->has_nrm ? vs_priv_asset_calloc(a, verts ? verts : 1,
                                                    3 * sizeof *nrm, ctx->error,
                                                    "normals")
                             : NULL;
    float *tex = in->has_tex ? vs_priv_asset_calloc(a, verts ? verts : 1,
                                                    2 * sizeof *tex, ctx->error,
                                                    "texcoords")
                             : NULL;
    if (!pos || !srcv || (in->has_nrm && !nrm) || (in->has_tex && !tex))
        return COLLADA_ERR(ctx);
    for (uint32_t i = 0; i < verts; ++i) {
        const int64_t *v = c->p + (size_t)rep[i] * in->stride;
        uint32_t pi = (uint32_t)v[in->pos_off];
        srcv[i] = pi;
        memcpy(pos + 3 * (size_t)i, in->pos.values + 3 * (size_t)pi,
               3 * sizeof *pos);
        if (nrm)
            memcpy(nrm + 3 * (size_t)i,
                   in->nrm.values + 3 * (size_t)v[in->nrm_off],
                   3 * sizeof *nrm);
        if (tex) {
            const float *t = in->tex.values + 2 * (size_t)v[in->tex_off];
            /* COLLADA's T axis points up (OpenGL); glTF's V points down. */
            tex[2 * i] = t[0];
            tex[2 * i + 1] = 1.0f - t[1];
        }
    }
    *out = (vs_primitive){.mode = mode,
                          .vertex_count = verts,
                          .positions = pos,
                          .normals = nrm,
                          .texcoords = tex,
                          .index_count = (uint32_t)n,
                          .indices = indices,
                          .material = -1,
                          .source_vertex = srcv};
    return VS_OK;
}

static bool is_triangle_element(const xmlNode *e)
{
    return collada_is(e, "triangles") || collada_is(e, "polylist") ||
           collada_is(e, "polygons") || collada_is(e, "tristrips") ||
           collada_is(e, "trifans");
}

static bool is_line_element(const xmlNode *e)
{
    return collada_is(e, "lines") || collada_is(e, "linestrips");
}

static vs_result build_mesh(collada_ctx *ctx, const xmlNode *mesh,
                            collada_geometry *g)
{
    source_cache cache = {.count = 0};
    uint32_t n = 0;
    for (const xmlNode *e = mesh->children; e; e = e->next)
        n += is_triangle_element(e) || is_line_element(e);
    g->primitives = vs_priv_asset_calloc(
        ctx->asset, n ? n : 1, sizeof *g->primitives, ctx->error, "primitives");
    g->symbols = collada_tmp(ctx, n ? n : 1, sizeof *g->symbols, "materials");
    if (!g->primitives || !g->symbols) return COLLADA_ERR(ctx);
    const xmlNode *vertices = collada_child(mesh, "vertices");
    vs_result r;
    for (const xmlNode *e = mesh->children; e; e = e->next) {
        bool lines = is_line_element(e);
        if (!lines && !is_triangle_element(e)) continue;
        inputs in;
        collada_corners c;
        uint32_t *corners = NULL, elements = 0;
        if ((r = read_inputs(ctx, &cache, e, &in)) ||
            (r = collada_read_corners(ctx, e, in.stride, &c)) ||
            (r = lines ? collada_segments(ctx, e, &c, &corners, &elements)
                       : collada_triangulate(ctx, e, &c, &corners, &elements)))
            return r;
        g->position_count = in.pos.count;
        g->source_positions = in.pos.values;
        if (elements == 0) continue;
        if ((r = build_primitive(ctx, e, &in, &c, corners,
                                 (size_t)elements * (lines ? 2 : 3),
                                 lines ? VS_MODE_LINES : VS_MODE_TRIANGLES,
                                 &g->primitives[g->primitive_count])))
            return r;
        g->symbols[g->primitive_count++] = collada_attr(e, "material");
    }
    if (g->primitive_count == 0 && vertices) {
        /* No triangles or lines: still know the position count for
         * skins. */
        for (const xmlNode *in = collada_child(vertices, "input"); in;
             in = collada_next(in, "input")) {
            const char *sem = collada_attr(in, "semantic");
            const xmlNode *src;
            collada_floats_src data;
            if (!sem || strcmp(sem, "POSITION") != 0) continue;
            if ((r = collada_resolve(ctx, in, "source",
                                     collada_attr(in, "source"), "source",
                                     &src)) ||
                (r = cached_source(ctx, &cache, src, ATTR_POSITION, &data)))
                return r;
            g->position_count = data.count;
            g->source_positions = data.values;
        }
    }
    return VS_OK;
}

vs_result collada_geometry_get(collada_ctx *ctx, const xmlNode *geometry,
                               const xmlNode *at, const collada_geometry **out)
{
    if (geometry->_private) {
        *out = geometry->_private;
        return VS_OK;
    }
    const xmlNode *mesh = collada_child(geometry, "mesh");
    if (!mesh) {
        const xmlNode *first = collada_walk(geometry, geometry);
        return collada_fail(ctx, VS_ERROR_UNSUPPORTED, at, "url",
                            "geometry has no <mesh>%s%s%s: only meshes are "
                            "supported",
                            first ? " (it holds <" : "",
                            first ? (const char *)first->name : "",
                            first ? ">)" : "");
    }
    collada_geometry *g = collada_tmp(ctx, 1, sizeof *g, "geometry");
    if (!g) return COLLADA_ERR(ctx);
    const char *name = collada_attr(geometry, "name");
    if (!name) name = collada_attr(geometry, "id");
    vs_result r = build_mesh(ctx, mesh, g);
    if (r != VS_OK) return r;
    if (!collada_strdup(ctx, name ? name : "", &g->name))
        return COLLADA_ERR(ctx);
    ((xmlNode *)geometry)->_private = g;
    *out = g;
    return VS_OK;
}
