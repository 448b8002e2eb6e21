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
#include <string.h>

#include "asset/asset_internal.h"
#include "load/collada/collada_loader.h"

/* Sources parsed once per geometry. */
typedef struct source_cache {
    const xmlNode *element[16];
    collada_floats_src data[16];
    uint32_t count;
} source_cache;

static vs_result cached_source(collada_ctx *ctx, source_cache *cache,
                               const xmlNode *source, uint32_t components,
                               collada_floats_src *out)
{
    for (uint32_t i = 0; i < cache->count; ++i)
        if (cache->element[i] == source &&
            cache->data[i].components == components) {
            *out = cache->data[i];
            return VS_OK;
        }
    vs_result r = collada_source_floats(ctx, source, components, out);
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

static vs_result use_input(collada_ctx *ctx, source_cache *cache,
                           const xmlNode *in, uint32_t offset, inputs *out)
{
    const char *sem = collada_attr(in, "semantic");
    const char *ref = collada_attr(in, "source");
    const xmlNode *src;
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
            (r = cached_source(ctx, cache, src, 3, &out->pos)))
            return r;
        out->has_pos = true;
        out->pos_off = offset;
    } else if (strcmp(sem, "NORMAL") == 0 && !out->has_nrm) {
        if ((r = collada_resolve(ctx, in, "source", ref, "source", &src)) ||
            (r = cached_source(ctx, cache, src, 3, &out->nrm)))
            return r;
        out->has_nrm = true;
        out->nrm_off = offset;
    } else if (strcmp(sem, "TEXCOORD") == 0) {
        /* TEXCOORD_0 is the lowest set (set 0 when the file numbers them). */
        uint32_t set;
        if ((r = collada_uint_attr(ctx, in, "set", 0, &set))) return r;
        if (out->has_tex && set >= out->tex_set) return VS_OK;
        if ((r = collada_resolve(ctx, in, "source", ref, "source", &src)) ||
            (r = cached_source(ctx, cache, src, 2, &out->tex)))
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

/* Distinct index tuples of the n element corners (3 per triangle or 2 per
 * line segment) become output vertices. */
static vs_result build_primitive(collada_ctx *ctx, const xmlNode *prim,
                                 const inputs *in, const collada_corners *c,
                                 const uint32_t *corner, size_t n,
                                 vs_primitive_mode mode, vs_primitive *out)
{
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
        if (pi >= in->pos.count || (in->has_nrm && ni >= in->nrm.count) ||
            (in->has_tex && ti >= in->tex.count))
            return collada_fail(ctx, VS_ERROR_INVALID, prim, "material",
                                "corner %u: index out of range (position %u "
                                "of %u, normal %u of %u, texcoord %u of %u)",
                                corner[k], pi, in->pos.count, ni, in->nrm.count,
                                ti, in->tex.count);
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
                (r = cached_source(ctx, &cache, src, 3, &data)))
                return r;
            g->position_count = data.count;
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
