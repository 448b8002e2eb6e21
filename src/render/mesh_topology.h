/* SPDX-License-Identifier: MIT */
/* CPU preparation of a primitive for drawing: every mode becomes an index
 * list of triangles, lines or points (glTF 2.0 §3.7.2.1 primitive modes), the
 * wireframe edges of the outline view, and vertex normals when the file has
 * none. Indices are checked against vertex_count here, once. */
#ifndef VS_RENDER_MESH_TOPOLOGY_H
#define VS_RENDER_MESH_TOPOLOGY_H

#include <stdint.h>

#include "vskin/vskin.h"

typedef struct mesh_topology {
    vs_primitive_mode mode; /* POINTS, LINES or TRIANGLES */
    uint32_t *indices;      /* malloc'd */
    uint32_t index_count;
    uint32_t *edges; /* pairs for GL_LINES, malloc'd (NULL for points) */
    uint32_t edge_index_count;
} mesh_topology;

/* `where` names the primitive in messages ("file: meshes[0].primitives[1]"). */
vs_result mesh_topology_build(const vs_primitive *prim, const char *where,
                              mesh_topology *out, vs_error *error);
void mesh_topology_free(mesh_topology *topo);

/* Area-weighted vertex normals of a triangle list (3 floats per vertex,
 * (0,0,1) for vertices on no triangle). glTF 2.0 §3.7.2.1 asks for flat
 * normals when NORMAL is absent; smooth ones look the same on flat parts and
 * need no vertex splitting. */
void mesh_topology_normals(const mesh_topology *topo, const float *positions,
                           uint32_t vertex_count, float *normals);

#endif
