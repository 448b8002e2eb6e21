/* SPDX-License-Identifier: MIT */
/* One primitive of one mesh instance on the GPU: a VAO with the bind-space
 * attributes at the fixed locations of shaders.h, triangle/line indices and
 * the outline's edge indices. Morph targets are applied on the CPU and the
 * morphed positions (and normals) re-uploaded when the pose's weights make
 * them change (glTF 2.0 §3.7.2.2: morphing happens before skinning). */
#ifndef VS_RENDER_GPU_MESH_H
#define VS_RENDER_GPU_MESH_H

#include <GLES3/gl3.h>
#include <stdbool.h>

#include "vskin/vskin.h"

#define GPU_BUFFER_COUNT 8

typedef struct gpu_primitive {
    uint32_t node;      /* the mesh instance's node */
    uint32_t primitive; /* index in the node's mesh */
    const vs_primitive *prim;
    const vs_allocator *alloc; /* the asset's: normals and scratch */
    GLuint vao;
    /* position, normal, joints, weights, indices, edges, texcoord, colour */
    GLuint buffers[GPU_BUFFER_COUNT];
    GLenum mode;       /* GL_POINTS, GL_LINES or GL_TRIANGLES */
    uint32_t index_count;
    uint32_t edge_index_count;
    float *normals; /* the normals uploaded at rest (file's or generated) */
    float *scratch; /* 6 floats per vertex for morphing, or NULL */
    bool morphed;   /* the buffers currently hold morphed data */
    /* A bind-space vertex near the primitive's centre (its index), whose
     * skinned depth orders BLEND primitives back to front; -1: none. */
    int64_t center_vertex;
} gpu_primitive;

/* The largest influence count the shader takes: JOINTS_0/1, WEIGHTS_0/1. */
#define GPU_MAX_INFLUENCES 8

/* CPU memory comes from `alloc` (the asset's allocator), kept for
 * gpu_primitive_free. */
vs_result gpu_primitive_upload(const vs_asset *asset, const vs_allocator *alloc,
                               uint32_t node, uint32_t primitive,
                               gpu_primitive *out, vs_error *error);
/* Re-uploads morphed positions/normals for the pose's current weights (or
 * the rest data once weights return to zero). */
vs_result gpu_primitive_update_morphs(gpu_primitive *gp, const vs_pose *pose,
                                      vs_error *error);
/* Binds the VAO and sets the constant attribute values of absent sets
 * (rigid meshes: joint 0 with weight 1). Constant values are context state,
 * not VAO state (GLES 3.0 §2.8), so this runs before every draw. */
void gpu_primitive_bind(const gpu_primitive *gp);
/* Draws the triangles / lines / points, or with `edges` the outline edges
 * as GL_LINES (nothing for point primitives). Call gpu_primitive_bind first. */
void gpu_primitive_draw(const gpu_primitive *gp, bool edges);
void gpu_primitive_free(gpu_primitive *gp);

#endif
