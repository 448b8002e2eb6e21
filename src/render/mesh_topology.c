/* SPDX-License-Identifier: MIT */
/* A primitive's triangles, lines, points and outline edges as index lists
 * for drawing (mesh_topology.h). */
#include "render/mesh_topology.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"

static uint32_t source_index(const vs_primitive *prim, uint32_t i)
{
    return prim->index_count ? prim->indices[i] : i;
}

/* Triangles (or lines) in the basic mode, strips/fans/loops expanded. */
static uint32_t expanded_count(vs_primitive_mode mode, uint32_t n)
{
    switch (mode) {
    case VS_MODE_POINTS:
        return n;
    case VS_MODE_LINES:
        return n / 2 * 2;
    case VS_MODE_LINE_LOOP:
        return n >= 2 ? n * 2 : 0;
    case VS_MODE_LINE_STRIP:
        return n >= 2 ? (n - 1) * 2 : 0;
    case VS_MODE_TRIANGLES:
        return n / 3 * 3;
    case VS_MODE_TRIANGLE_STRIP:
    case VS_MODE_TRIANGLE_FAN:
        return n >= 3 ? (n - 2) * 3 : 0;
    }
    return 0;
}

static void expand(const vs_primitive *prim, uint32_t n, uint32_t *out)
{
    uint32_t k = 0;
    switch (prim->mode) {
    case VS_MODE_POINTS:
    case VS_MODE_LINES:
    case VS_MODE_TRIANGLES:
        for (uint32_t i = 0; i < expanded_count(prim->mode, n); ++i)
            out[k++] = source_index(prim, i);
        break;
    case VS_MODE_LINE_LOOP:
    case VS_MODE_LINE_STRIP: {
        uint32_t segments = prim->mode == VS_MODE_LINE_LOOP ? n : n - 1;
        for (uint32_t i = 0; i < segments; ++i) {
            out[k++] = source_index(prim, i);
            out[k++] = source_index(prim, (i + 1) % n);
        }
        break;
    }
    case VS_MODE_TRIANGLE_STRIP:
        /* glTF 2.0 §3.7.2.1: odd triangles swap their first two vertices to
         * keep the winding. */
        for (uint32_t i = 0; i + 2 < n; ++i) {
            uint32_t a = source_index(prim, i), b = source_index(prim, i + 1);
            out[k++] = i % 2 ? b : a;
            out[k++] = i % 2 ? a : b;
            out[k++] = source_index(prim, i + 2);
        }
        break;
    case VS_MODE_TRIANGLE_FAN:
        for (uint32_t i = 1; i + 1 < n; ++i) {
            out[k++] = source_index(prim, 0);
            out[k++] = source_index(prim, i);
            out[k++] = source_index(prim, i + 1);
        }
        break;
    }
}

static vs_primitive_mode basic_mode(vs_primitive_mode mode)
{
    if (mode == VS_MODE_POINTS) return VS_MODE_POINTS;
    if (mode <= VS_MODE_LINE_STRIP) return VS_MODE_LINES;
    return VS_MODE_TRIANGLES;
}

vs_result mesh_topology_build(const vs_primitive *prim, const char *where,
                              mesh_topology *out, vs_error *error)
{
    *out = (mesh_topology){0};
    uint32_t n = prim->index_count ? prim->index_count : prim->vertex_count;
    for (uint32_t i = 0; prim->index_count && i < n; ++i)
        if (prim->indices[i] >= prim->vertex_count)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: indices[%u] = %u is not below the vertex "
                             "count %u",
                             where, i, prim->indices[i], prim->vertex_count);
    out->mode = basic_mode(prim->mode);
    out->index_count = expanded_count(prim->mode, n);
    /* A triangle has 3 edges (6 indices) for its 3 indices; lines are their
     * own edges. Sizes fit: n <= UINT32_MAX, so 2n fits in size_t. */
    size_t edge_count = out->mode == VS_MODE_TRIANGLES
                            ? (size_t)out->index_count * 2
                        : out->mode == VS_MODE_LINES ? out->index_count
                                                     : 0;
    if (edge_count > UINT32_MAX)
        return set_error(error, VS_ERROR_LIMIT, "%s: too many edges to draw",
                         where);
    out->indices = malloc(((size_t)out->index_count + 1) * sizeof(uint32_t));
    out->edges = malloc((edge_count + 1) * sizeof(uint32_t));
    if (!out->indices || !out->edges) {
        mesh_topology_free(out);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %u indices", where, n);
    }
    expand(prim, n, out->indices);
    out->edge_index_count = (uint32_t)edge_count;
    if (out->mode == VS_MODE_TRIANGLES) {
        for (uint32_t t = 0; t < out->index_count / 3; ++t)
            for (uint32_t e = 0; e < 3; ++e) {
                out->edges[t * 6 + e * 2] = out->indices[t * 3 + e];
                out->edges[t * 6 + e * 2 + 1] =
                    out->indices[t * 3 + (e + 1) % 3];
            }
    } else if (out->mode == VS_MODE_LINES) {
        for (uint32_t i = 0; i < out->index_count; ++i)
            out->edges[i] = out->indices[i];
    }
    return VS_OK;
}

void mesh_topology_free(mesh_topology *topo)
{
    free(topo->indices);
    free(topo->edges);
    *topo = (mesh_topology){0};
}

void mesh_topology_normals(const mesh_topology *topo, const float *positions,
                           uint32_t vertex_count, float *normals)
{
    for (size_t i = 0; i < (size_t)vertex_count * 3; ++i)
        normals[i] = 0.0f;
    if (topo->mode == VS_MODE_TRIANGLES)
        for (uint32_t t = 0; t + 2 < topo->index_count; t += 3) {
            const uint32_t *tri = topo->indices + t;
            const float *a = positions + (size_t)tri[0] * 3;
            const float *b = positions + (size_t)tri[1] * 3;
            const float *c = positions + (size_t)tri[2] * 3;
            float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            float v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            /* The cross product's length is twice the area: area weighting. */
            float n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                          u[0] * v[1] - u[1] * v[0]};
            for (int k = 0; k < 3; ++k)
                for (int j = 0; j < 3; ++j)
                    normals[(size_t)tri[k] * 3 + j] += n[j];
        }
    for (uint32_t i = 0; i < vertex_count; ++i) {
        float *n = normals + (size_t)i * 3;
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 0.0f && isfinite(len)) {
            n[0] /= len, n[1] /= len, n[2] /= len;
        } else {
            n[0] = n[1] = 0.0f, n[2] = 1.0f;
        }
    }
}
