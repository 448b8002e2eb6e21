/* SPDX-License-Identifier: MIT */
/* One primitive of one mesh instance uploaded to the GPU (gpu_mesh.h). */
#include "render/gpu_mesh.h"

#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "render/gl_program.h"
#include "render/mesh_topology.h"
#include "render/shaders.h"
#include "skin/morph.h"

enum {
    BUF_POSITION,
    BUF_NORMAL,
    BUF_JOINTS,
    BUF_WEIGHTS,
    BUF_INDICES,
    BUF_EDGES,
    BUF_TEXCOORD,
    BUF_COLOR
};

/* The vertex nearest the centroid of the positions: one point that stands
 * for the primitive when BLEND primitives are sorted by depth. */
static int64_t center_vertex(const vs_primitive *prim)
{
    if (prim->vertex_count == 0) return -1;
    double c[3] = {0, 0, 0};
    for (uint32_t v = 0; v < prim->vertex_count; ++v)
        for (int k = 0; k < 3; ++k) c[k] += prim->positions[v * 3 + k];
    for (int k = 0; k < 3; ++k) c[k] /= prim->vertex_count;
    int64_t best = 0;
    double best_d = -1.0;
    for (uint32_t v = 0; v < prim->vertex_count; ++v) {
        double d = 0.0;
        for (int k = 0; k < 3; ++k) {
            double e = prim->positions[v * 3 + k] - c[k];
            d += e * e;
        }
        if (best_d < 0.0 || d < best_d) {
            best_d = d;
            best = v;
        }
    }
    return best;
}

static void upload_array(GLuint buffer, size_t bytes, const void *data,
                         GLenum usage)
{
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, data, usage);
}

/* JOINTS_n as uvec4 (glVertexAttribIPointer keeps them integers; a float
 * attribute would round large indices) and WEIGHTS_n as vec4, set s at
 * offset 4s within each vertex's influence_count values. */
static void setup_influences(const vs_primitive *prim, const GLuint *buffers)
{
    GLsizei n = (GLsizei)prim->influence_count;
    for (uint32_t set = 0; set * 4 < prim->influence_count; ++set) {
        glBindBuffer(GL_ARRAY_BUFFER, buffers[BUF_JOINTS]);
        glEnableVertexAttribArray(ATTR_JOINTS0 + set * 2);
        glVertexAttribIPointer(
            ATTR_JOINTS0 + set * 2, 4, GL_UNSIGNED_SHORT,
            n * (GLsizei)sizeof(uint16_t),
            (const void *)(uintptr_t)(set * 4 * sizeof(uint16_t)));
        glBindBuffer(GL_ARRAY_BUFFER, buffers[BUF_WEIGHTS]);
        glEnableVertexAttribArray(ATTR_WEIGHTS0 + set * 2);
        glVertexAttribPointer(
            ATTR_WEIGHTS0 + set * 2, 4, GL_FLOAT, GL_FALSE,
            n * (GLsizei)sizeof(float),
            (const void *)(uintptr_t)(set * 4 * sizeof(float)));
    }
}

vs_result gpu_primitive_upload(const vs_asset *asset, const vs_allocator *alloc,
                               uint32_t node, uint32_t primitive,
                               gpu_primitive *out, vs_error *error)
{
    *out =
        (gpu_primitive){.node = node, .primitive = primitive, .alloc = alloc};
    const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
    const vs_primitive *prim = &mesh->primitives[primitive];
    out->prim = prim;
    char where[256];
    snprintf(where, sizeof where, "%s: meshes[%d].primitives[%u]",
             asset->source_name, asset->nodes[node].mesh, primitive);
    if (prim->influence_count > GPU_MAX_INFLUENCES)
        return set_error(error, VS_ERROR_UNSUPPORTED,
                         "%s: %u influences per vertex; the GPU path takes at "
                         "most %d (JOINTS_0/1, WEIGHTS_0/1)",
                         where, prim->influence_count, GPU_MAX_INFLUENCES);
    mesh_topology topo;
    vs_result r = mesh_topology_build(prim, where, alloc, &topo, error);
    if (r != VS_OK) return r;
    size_t v3 = (size_t)prim->vertex_count * 3;
    out->normals = mem_alloc(alloc, (v3 + 1) * sizeof(float));
    if (prim->target_count > 0)
        out->scratch = mem_alloc(alloc, (v3 * 2 + 1) * sizeof(float));
    if (!out->normals || (prim->target_count > 0 && !out->scratch)) {
        mesh_topology_free(&topo, alloc);
        gpu_primitive_free(out);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %u vertices", where,
                         prim->vertex_count);
    }
    if (prim->normals)
        memcpy(out->normals, prim->normals, v3 * sizeof(float));
    else
        mesh_topology_normals(&topo, prim->positions, prim->vertex_count,
                              out->normals);

    out->center_vertex = center_vertex(prim);
    glGenVertexArrays(1, &out->vao);
    glGenBuffers(GPU_BUFFER_COUNT, out->buffers);
    glBindVertexArray(out->vao);
    GLenum usage = prim->target_count ? GL_DYNAMIC_DRAW : GL_STATIC_DRAW;
    upload_array(out->buffers[BUF_POSITION], v3 * sizeof(float),
                 prim->positions, usage);
    glEnableVertexAttribArray(ATTR_POSITION);
    glVertexAttribPointer(ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    upload_array(out->buffers[BUF_NORMAL], v3 * sizeof(float), out->normals,
                 usage);
    glEnableVertexAttribArray(ATTR_NORMAL);
    glVertexAttribPointer(ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    if (prim->influence_count > 0) {
        size_t vi = (size_t)prim->vertex_count * prim->influence_count;
        upload_array(out->buffers[BUF_JOINTS], vi * sizeof(uint16_t),
                     prim->joints, GL_STATIC_DRAW);
        upload_array(out->buffers[BUF_WEIGHTS], vi * sizeof(float),
                     prim->weights, GL_STATIC_DRAW);
        setup_influences(prim, out->buffers);
    }
    if (prim->base_color_texcoords) {
        upload_array(out->buffers[BUF_TEXCOORD],
                     (size_t)prim->vertex_count * 2 * sizeof(float),
                     prim->base_color_texcoords, GL_STATIC_DRAW);
        glEnableVertexAttribArray(ATTR_TEXCOORD);
        glVertexAttribPointer(ATTR_TEXCOORD, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    }
    if (prim->colors) {
        upload_array(out->buffers[BUF_COLOR],
                     (size_t)prim->vertex_count * 4 * sizeof(float),
                     prim->colors, GL_STATIC_DRAW);
        glEnableVertexAttribArray(ATTR_COLOR);
        glVertexAttribPointer(ATTR_COLOR, 4, GL_FLOAT, GL_FALSE, 0, NULL);
    }
    /* The element buffer binding is VAO state; the edges are bound in its
     * place for the outline pass. */
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, out->buffers[BUF_EDGES]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 (GLsizeiptr)(topo.edge_index_count * sizeof(uint32_t)),
                 topo.edges, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, out->buffers[BUF_INDICES]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER,
                 (GLsizeiptr)(topo.index_count * sizeof(uint32_t)),
                 topo.indices, GL_STATIC_DRAW);
    glBindVertexArray(0);
    out->mode = topo.mode == VS_MODE_POINTS  ? GL_POINTS
                : topo.mode == VS_MODE_LINES ? GL_LINES
                                             : GL_TRIANGLES;
    out->index_count = topo.index_count;
    out->edge_index_count = topo.edge_index_count;
    mesh_topology_free(&topo, alloc);
    r = gl_check("uploading the mesh", error);
    if (r != VS_OK) gpu_primitive_free(out);
    return r;
}

vs_result gpu_primitive_update_morphs(gpu_primitive *gp, const vs_pose *pose,
                                      vs_error *error)
{
    const vs_primitive *prim = gp->prim;
    if (prim->target_count == 0) return VS_OK;
    uint32_t count = 0;
    const float *weights = vs_pose_morph_weights(pose, gp->node, &count);
    bool active = vs_priv_morph_active(prim, weights, count);
    if (!active && !gp->morphed) return VS_OK;
    size_t v3 = (size_t)prim->vertex_count * 3;
    const float *positions = prim->positions, *normals = gp->normals;
    if (active) {
        float *mp = gp->scratch, *mn = gp->scratch + v3;
        /* Generated normals have no deltas: they stay as they are. */
        vs_priv_morph_apply(prim, weights, count, mp, prim->normals ? mn : NULL,
                            NULL);
        positions = mp;
        if (prim->normals) normals = mn;
    }
    glBindBuffer(GL_ARRAY_BUFFER, gp->buffers[BUF_POSITION]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(v3 * sizeof(float)),
                    positions);
    glBindBuffer(GL_ARRAY_BUFFER, gp->buffers[BUF_NORMAL]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(v3 * sizeof(float)),
                    normals);
    gp->morphed = active;
    return gl_check("uploading morphed vertices", error);
}

void gpu_primitive_bind(const gpu_primitive *gp)
{
    glBindVertexArray(gp->vao);
    uint32_t sets = gp->prim->influence_count / 4;
    if (sets == 0) {
        glVertexAttribI4ui(ATTR_JOINTS0, 0, 0, 0, 0);
        glVertexAttrib4f(ATTR_WEIGHTS0, 1.0f, 0.0f, 0.0f, 0.0f);
    }
    if (sets < 2) {
        glVertexAttribI4ui(ATTR_JOINTS1, 0, 0, 0, 0);
        glVertexAttrib4f(ATTR_WEIGHTS1, 0.0f, 0.0f, 0.0f, 0.0f);
    }
    if (!gp->prim->base_color_texcoords)
        glVertexAttrib4f(ATTR_TEXCOORD, 0.0f, 0.0f, 0.0f, 1.0f);
    if (!gp->prim->colors)
        glVertexAttrib4f(ATTR_COLOR, 1.0f, 1.0f, 1.0f, 1.0f);
}

void gpu_primitive_draw(const gpu_primitive *gp, bool edges)
{
    if (!edges) {
        glDrawElements(gp->mode, (GLsizei)gp->index_count, GL_UNSIGNED_INT,
                       NULL);
        return;
    }
    if (gp->edge_index_count == 0) return;
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gp->buffers[BUF_EDGES]);
    glDrawElements(GL_LINES, (GLsizei)gp->edge_index_count, GL_UNSIGNED_INT,
                   NULL);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gp->buffers[BUF_INDICES]);
}

void gpu_primitive_free(gpu_primitive *gp)
{
    if (gp->vao) glDeleteVertexArrays(1, &gp->vao);
    if (gp->buffers[0]) glDeleteBuffers(GPU_BUFFER_COUNT, gp->buffers);
    mem_free(gp->alloc, gp->normals);
    mem_free(gp->alloc, gp->scratch);
    *gp = (gpu_primitive){0};
}
