/* SPDX-License-Identifier: MIT */
/* A primitive's triangles, lines, points and outline edges as index lists
 * for drawing (mesh_topology.h). */
#include "render/mesh_topology.h"

#include <math.h>

#include "base/alloc.h"
#include "base/error.h"

static uint32_t source_index(const vs_primitive *prim, uint32_t i)
{
    return prim->index_count ? prim->indices[i] : i;
}

/* Indices in the basic mode for n source vertices, strips, fans and loops
 * expanded; 0 when n makes no whole primitive. 64 bits: a loop of n
 * vertices has 2n indices, a strip 3(n - 2), either past UINT32_MAX. */
static uint64_t expanded_count(vs_primitive_mode mode, uint64_t n)
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

/* Writes exactly `count` (from expanded_count) indices: every loop is
 * bounded by count itself, so a count of 0 writes nothing whatever n is. */
static void expand(const vs_primitive *prim, uint32_t n, uint32_t count,
                   uint32_t *out)
{
    switch (prim->mode) {
    case VS_MODE_POINTS:
    case VS_MODE_LINES:
    case VS_MODE_TRIANGLES:
        for (uint32_t i = 0; i < count; ++i)
            out[i] = source_index(prim, i);
        break;
    case VS_MODE_LINE_LOOP:
    case VS_MODE_LINE_STRIP:
        /* Segment i joins vertices i and i + 1; a loop's last one goes back
         * to vertex 0 (count / 2 == n for a loop, n - 1 for a strip). */
        for (uint32_t i = 0; i < count / 2; ++i) {
            out[2 * i] = source_index(prim, i);
            out[2 * i + 1] = source_index(prim, i + 1 < n ? i + 1 : 0);
        }
        break;
    case VS_MODE_TRIANGLE_STRIP:
        /* glTF 2.0 §3.7.2.1: odd triangles swap their first two vertices to
         * keep the winding. */
        for (uint32_t i = 0; i < count / 3; ++i) {
            uint32_t a = source_index(prim, i), b = source_index(prim, i + 1);
            out[3 * i] = i % 2 ? b : a;
            out[3 * i + 1] = i % 2 ? a : b;
            out[3 * i + 2] = source_index(prim, i + 2);
        }
        break;
    case VS_MODE_TRIANGLE_FAN:
        for (uint32_t i = 0; i < count / 3; ++i) {
            out[3 * i] = source_index(prim, 0);
            out[3 * i + 1] = source_index(prim, i + 1);
            out[3 * i + 2] = source_index(prim, i + 2);
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
                              const vs_allocator *alloc, mesh_topology *out,
                              vs_error *error)
{
    *out = (mesh_topology){0};
    if ((unsigned)prim->mode > VS_MODE_TRIANGLE_FAN)
        return set_error(error, VS_ERROR_INVALID,
                         "%s: unknown primitive mode %d", where,
                         (int)prim->mode);
    uint32_t n = prim->index_count ? prim->index_count : prim->vertex_count;
    for (uint32_t i = 0; prim->index_count && i < n; ++i)
        if (prim->indices[i] >= prim->vertex_count)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: indices[%u] = %u is not below the vertex "
                             "count %u",
                             where, i, prim->indices[i], prim->vertex_count);
    vs_primitive_mode mode = basic_mode(prim->mode);
    uint64_t count = expanded_count(prim->mode, n);
    /* A triangle has 3 edges (6 indices) for its 3 indices; lines are their
     * own edges. */
    uint64_t edge_count = mode == VS_MODE_TRIANGLES ? count * 2
                          : mode == VS_MODE_LINES   ? count
                                                    : 0;
    if (count > MESH_TOPOLOGY_MAX_INDICES ||
        edge_count > MESH_TOPOLOGY_MAX_INDICES)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: %u vertices make more indices to draw than GL "
                         "takes in one draw (%u)",
                         where, n, MESH_TOPOLOGY_MAX_INDICES);
    /* One element more than needed: never a zero-sized block. */
    out->indices = mem_alloc(alloc, ((size_t)count + 1) * sizeof(uint32_t));
    out->edges = mem_alloc(alloc, ((size_t)edge_count + 1) * sizeof(uint32_t));
    if (!out->indices || !out->edges) {
        mesh_topology_free(out, alloc);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %u indices", where, n);
    }
    out->mode = mode;
    out->index_count = (uint32_t)count;
    out->edge_index_count = (uint32_t)edge_count;
    expand(prim, n, out->index_count, out->indices);
    if (mode == VS_MODE_TRIANGLES) {
        for (uint32_t t = 0; t < out->index_count / 3; ++t)
            for (uint32_t e = 0; e < 3; ++e) {
                out->edges[t * 6 + e * 2] = out->indices[t * 3 + e];
                out->edges[t * 6 + e * 2 + 1] =
                    out->indices[t * 3 + (e + 1) % 3];
            }
    } else if (mode == VS_MODE_LINES) {
        for (uint32_t i = 0; i < out->index_count; ++i)
            out->edges[i] = out->indices[i];
    }
    return VS_OK;
}

void mesh_topology_free(mesh_topology *topo, const vs_allocator *alloc)
{
    mem_free(alloc, topo->indices);
    mem_free(alloc, topo->edges);
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
