/* SPDX-License-Identifier: MIT */
/* CPU preparation of a primitive for drawing: every mode becomes an index
 * list of triangles, lines or points (glTF 2.0 §3.7.2.1 primitive modes), the
 * wireframe edges of the outline view, and vertex normals when the file has
 * none. Indices are checked against vertex_count here, once. No GL: the
 * tests and the fuzzer run it without a context. */
#ifndef VS_RENDER_MESH_TOPOLOGY_H
#define VS_RENDER_MESH_TOPOLOGY_H

#include <stdint.h>

#include "vskin/vskin.h"

typedef struct mesh_topology {
    vs_primitive_mode mode; /* POINTS, LINES or TRIANGLES */
    uint32_t *indices;      /* from the allocator given to the build */
    uint32_t index_count;   /* a multiple of the mode's size, maybe 0 */
    uint32_t *edges;        /* pairs for GL_LINES (none for points) */
    uint32_t edge_index_count;
} mesh_topology;

/* The largest index or edge list built: GL draw counts are GLsizei (int). */
#define MESH_TOPOLOGY_MAX_INDICES 0x7fffffffu

/* Builds the lists of `prim` with memory from `alloc` (NULL: malloc).
 * Whatever the counts, it never reads or writes outside the primitive's
 * arrays or its own: a primitive with too few vertices for one primitive
 * of its mode (a LINE_LOOP of one vertex, a LINE_STRIP without positions,
 * 2 vertices of TRIANGLES) gets empty lists and draws nothing, and a
 * trailing incomplete primitive (7 vertices of TRIANGLES) is dropped, as
 * glDrawArrays does. Fails, naming `where` ("file: meshes[0].primitives[1]")
 * and what is wrong, for an index not below vertex_count (VS_ERROR_INVALID),
 * an unknown mode (VS_ERROR_INVALID), lists longer than
 * MESH_TOPOLOGY_MAX_INDICES (VS_ERROR_LIMIT) and a refused allocation
 * (VS_ERROR_OUT_OF_MEMORY); *out is then empty. */
vs_result mesh_topology_build(const vs_primitive *prim, const char *where,
                              const vs_allocator *alloc, mesh_topology *out,
                              vs_error *error);
/* Frees the lists through the allocator they were built with. */
void mesh_topology_free(mesh_topology *topo, const vs_allocator *alloc);

/* Area-weighted vertex normals of a triangle list (3 floats per vertex,
 * (0,0,1) for vertices on no triangle or on degenerate or non-finite ones
 * only). glTF 2.0 §3.7.2.1 asks for flat normals when NORMAL is absent;
 * smooth ones look the same on flat parts and need no vertex splitting.
 * topo must come from mesh_topology_build of the primitive whose
 * vertex_count and positions are given. */
void mesh_topology_normals(const mesh_topology *topo, const float *positions,
                           uint32_t vertex_count, float *normals);

#endif
