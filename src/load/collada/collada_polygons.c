/* SPDX-License-Identifier: MIT */
/* The primitive elements of a COLLADA <mesh> (COLLADA 1.4.1 spec,
 * "triangles", "polylist", "polygons", "tristrips", "trifans", "lines",
 * "linestrips") read as corners (groups of <p> indices) and split into
 * triangles (polygons and fans around their first corner, strips with
 * alternating winding) or line segments (each line, and each consecutive
 * pair of a line strip). */
#include <string.h>

#include "load/collada/collada_loader.h"

static vs_result parse_p(collada_ctx *ctx, const xmlNode *p_elem,
                         uint32_t stride, int64_t **list, uint32_t *count)
{
    vs_result r = collada_ints(ctx, p_elem, 0, list, count);
    if (r != VS_OK) return r;
    if (*count % stride)
        return collada_fail(ctx, VS_ERROR_INVALID, p_elem, NULL,
                            "%u indices are not a multiple of the %u inputs "
                            "per corner",
                            *count, stride);
    return VS_OK;
}

/* <polygons>, <tristrips>, <trifans>, <linestrips>: one <p> per polygon /
 * strip / fan, parsed one by one and then joined. */
static vs_result read_multi_p(collada_ctx *ctx, const xmlNode *prim,
                              uint32_t stride, uint32_t count,
                              collada_corners *c)
{
    uint32_t n = 0;
    for (const xmlNode *p = collada_child(prim, "p"); p;
         p = collada_next(p, "p"))
        ++n;
    const xmlNode *ph = collada_child(prim, "ph");
    if (ph)
        return collada_fail(ctx, VS_ERROR_UNSUPPORTED, ph, NULL,
                            "polygons with holes are not supported");
    if (n != count)
        return collada_fail(ctx, VS_ERROR_INVALID, prim, "count",
                            "count is %u but there are %u <p>", count, n);
    int64_t **lists = collada_tmp(ctx, n ? n : 1, sizeof *lists, "polygons");
    c->sizes = collada_tmp(ctx, n ? n : 1, sizeof *c->sizes, "polygons");
    if (!lists || !c->sizes) return COLLADA_ERR(ctx);
    c->groups = n;
    uint64_t total = 0;
    n = 0;
    for (const xmlNode *p = collada_child(prim, "p"); p;
         p = collada_next(p, "p"), ++n) {
        uint32_t k;
        vs_result r = parse_p(ctx, p, stride, &lists[n], &k);
        if (r != VS_OK) return r;
        c->sizes[n] = k / stride;
        total += k;
    }
    c->p = collada_tmp(ctx, total ? total : 1, sizeof *c->p, "indices");
    if (!c->p) return COLLADA_ERR(ctx);
    for (uint32_t g = 0; g < c->groups; ++g) {
        size_t k = (size_t)c->sizes[g] * stride;
        memcpy(c->p + c->p_count, lists[g], k * sizeof *c->p);
        c->p_count += k;
    }
    return VS_OK;
}

vs_result collada_read_corners(collada_ctx *ctx, const xmlNode *prim,
                               uint32_t stride, collada_corners *c)
{
    memset(c, 0, sizeof *c);
    uint32_t count;
    vs_result r = collada_uint_attr(ctx, prim, "count", UINT32_MAX, &count);
    if (r != VS_OK) return r;
    if (!collada_attr(prim, "count"))
        return collada_fail(ctx, VS_ERROR_INVALID, prim, NULL,
                            "count is missing");
    bool lines = collada_is(prim, "lines");
    if (!collada_is(prim, "triangles") && !collada_is(prim, "polylist") &&
        !lines) {
        c->strip = collada_is(prim, "tristrips");
        return read_multi_p(ctx, prim, stride, count, c);
    }
    const xmlNode *p = collada_child(prim, "p");
    uint32_t corner_count = 0, values = 0;
    if (p && (r = parse_p(ctx, p, stride, &c->p, &values))) return r;
    c->p_count = values;
    corner_count = values / stride;
    if (lines || collada_is(prim, "triangles")) {
        /* One <p> of fixed-size groups: count lines of 2 corners, or
         * triangles of 3. */
        uint32_t size = lines ? 2 : 3;
        if ((uint64_t)count * size != corner_count)
            return collada_fail(ctx, VS_ERROR_INVALID, prim, "count",
                                "count is %u %s but <p> holds %u corners",
                                count, lines ? "lines" : "triangles",
                                corner_count);
        c->groups = count;
        c->sizes =
            collada_tmp(ctx, count ? count : 1, sizeof *c->sizes, "corners");
        if (!c->sizes) return COLLADA_ERR(ctx);
        for (uint32_t i = 0; i < count; ++i)
            c->sizes[i] = size;
        return VS_OK;
    }
    const xmlNode *vc = collada_child(prim, "vcount");
    int64_t *sizes = NULL;
    uint32_t n = 0;
    if (vc && (r = collada_ints(ctx, vc, 0, &sizes, &n))) return r;
    if (n != count)
        return collada_fail(ctx, VS_ERROR_INVALID, vc ? vc : prim, NULL,
                            "<vcount> has %u entries but count is %u", n,
                            count);
    uint64_t sum = 0;
    c->sizes = collada_tmp(ctx, n ? n : 1, sizeof *c->sizes, "polygons");
    if (!c->sizes) return COLLADA_ERR(ctx);
    for (uint32_t i = 0; i < n; ++i) {
        sum += (uint64_t)sizes[i];
        c->sizes[i] = (uint32_t)sizes[i];
    }
    if (sum != corner_count)
        return collada_fail(ctx, VS_ERROR_INVALID, vc, NULL,
                            "<vcount> adds up to %llu corners but <p> holds "
                            "%u",
                            (unsigned long long)sum, corner_count);
    c->groups = n;
    return VS_OK;
}

/* Triangles as corner numbers: fans around each group's first corner, or
 * strips (odd triangles flipped to keep the winding). */
vs_result collada_triangulate(collada_ctx *ctx, const xmlNode *prim,
                              const collada_corners *c, uint32_t **out,
                              uint32_t *tris)
{
    uint64_t t = 0;
    for (uint32_t g = 0; g < c->groups; ++g)
        if (c->sizes[g] >= 3) t += c->sizes[g] - 2;
    if (t * 3 > UINT32_MAX)
        return collada_fail(ctx, VS_ERROR_LIMIT, prim, NULL,
                            "%llu triangles are too many",
                            (unsigned long long)t);
    uint32_t *idx = collada_tmp(ctx, t ? t * 3 : 1, sizeof *idx, "triangles");
    if (!idx) return COLLADA_ERR(ctx);
    uint32_t base = 0, k = 0;
    for (uint32_t g = 0; g < c->groups; ++g) {
        uint32_t n = c->sizes[g];
        for (uint32_t i = 2; i < n; ++i) {
            bool flip = c->strip && (i % 2) == 1;
            uint32_t a = c->strip ? base + i - 2 : base;
            uint32_t b = base + i - 1, d = base + i;
            idx[k++] = flip ? b : a;
            idx[k++] = flip ? a : b;
            idx[k++] = d;
        }
        base += n;
    }
    *out = idx;
    *tris = (uint32_t)t;
    return VS_OK;
}

/* Line segments as corner numbers: every consecutive pair of each group
 * (a <lines> group is one pair, a <linestrips> group a whole strip). */
vs_result collada_segments(collada_ctx *ctx, const xmlNode *prim,
                           const collada_corners *c, uint32_t **out,
                           uint32_t *segments)
{
    uint64_t s = 0;
    for (uint32_t g = 0; g < c->groups; ++g)
        if (c->sizes[g] >= 2) s += c->sizes[g] - 1;
    if (s * 2 > UINT32_MAX)
        return collada_fail(ctx, VS_ERROR_LIMIT, prim, NULL,
                            "%llu line segments are too many",
                            (unsigned long long)s);
    uint32_t *idx = collada_tmp(ctx, s ? s * 2 : 1, sizeof *idx, "lines");
    if (!idx) return COLLADA_ERR(ctx);
    uint32_t base = 0, k = 0;
    for (uint32_t g = 0; g < c->groups; ++g) {
        for (uint32_t i = 1; i < c->sizes[g]; ++i) {
            idx[k++] = base + i - 1;
            idx[k++] = base + i;
        }
        base += c->sizes[g];
    }
    *out = idx;
    *segments = (uint32_t)s;
    return VS_OK;
}
