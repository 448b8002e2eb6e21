/* SPDX-License-Identifier: MIT */
/* Transform feedback read-back of the skinning vertex shader's world-space
 * outputs (v_position, v_normal interleaved), with rasterization off: the
 * exact numbers the pictures are drawn from, to compare with the CPU path. */
#include <string.h>

#include "base/error.h"
#include "render/gl_program.h"
#include "render/render_internal.h"
#include "render/shaders.h"

static vs_result run_capture(vs_renderer *r, gpu_primitive *gp,
                             const vs_pose *pose, vs_upload_path path,
                             vs_skin_method method, uint32_t skin_flags,
                             float *positions, float *normals, vs_error *error)
{
    skin_program *sp = NULL;
    /* Even with rasterization off, drawing needs a complete framebuffer
     * (GLES 3.0 §4.4.4); the surfaceless context has none of its own. */
    vs_result res = renderer_framebuffer(r, r->fbo ? r->fb_width : 1,
                                         r->fbo ? r->fb_height : 1, error);
    if (res == VS_OK) res = renderer_program(r, path, method, &sp, error);
    if (res != VS_OK) return res;
    glUseProgram(sp->program);
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                       0, 0, 1, 0, 0, 0, 0, 1};
    glUniformMatrix4fv(sp->u_view_proj, 1, GL_FALSE, identity);
    glUniform1i(sp->u_raw_weights, (skin_flags & VS_SKIN_RAW_WEIGHTS) != 0);
    glUniform1i(sp->u_normals_by_matrix,
                (skin_flags & VS_SKIN_NORMALS_BY_MATRIX) != 0);
    res = gpu_primitive_update_morphs(gp, pose, error);
    if (res == VS_OK)
        res =
            renderer_upload_joints(r, sp, path, method, pose, gp->node, error);
    if (res != VS_OK) return res;
    uint32_t n = gp->prim->vertex_count;
    if (n == 0) return VS_OK;
    size_t bytes = (size_t)n * 6 * sizeof(float);
    GLuint tfb = 0;
    glGenBuffers(1, &tfb);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tfb);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, (GLsizeiptr)bytes, NULL,
                 GL_STREAM_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tfb);
    gpu_primitive_bind(gp);
    glEnable(GL_RASTERIZER_DISCARD);
    /* GL_POINTS records each vertex once, in vertex order. */
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, (GLsizei)n);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    const float *data = glMapBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, 0,
                                         (GLsizeiptr)bytes, GL_MAP_READ_BIT);
    if (data) {
        for (uint32_t v = 0; v < n; ++v) {
            memcpy(positions + (size_t)v * 3, data + (size_t)v * 6,
                   3 * sizeof(float));
            if (normals)
                memcpy(normals + (size_t)v * 3, data + (size_t)v * 6 + 3,
                       3 * sizeof(float));
        }
        glUnmapBuffer(GL_TRANSFORM_FEEDBACK_BUFFER);
    }
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glDeleteBuffers(1, &tfb);
    res = gl_check("transform feedback", error);
    if (res == VS_OK && !data)
        res = set_error(error, VS_ERROR_RENDER,
                        "GL: the transform feedback buffer cannot be mapped");
    return res;
}

vs_result vs_renderer_capture_skinned_positions(
    vs_renderer *r, const vs_pose *pose, uint32_t node, uint32_t primitive,
    vs_upload_path upload, uint32_t skin_flags, float *out_positions,
    float *out_normals, vs_error *error)
{
    return vs_renderer_capture_skinned_method(
        r, pose, node, primitive, upload, skin_flags, VS_SKIN_LINEAR,
        out_positions, out_normals, error);
}

vs_result vs_renderer_capture_skinned_method(
    vs_renderer *r, const vs_pose *pose, uint32_t node, uint32_t primitive,
    vs_upload_path upload, uint32_t skin_flags, vs_skin_method method,
    float *out_positions, float *out_normals, vs_error *error)
{
    if (!r || !pose || !out_positions || vs_pose_asset(pose) != r->asset)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_renderer_capture_skinned_positions: renderer, "
                         "pose (of the renderer's asset) and out_positions "
                         "are required");
    if ((unsigned)method > VS_SKIN_DUAL_QUATERNION)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_renderer_capture_skinned_method: unknown "
                         "skinning method %d",
                         (int)method);
    /* As the CPU job: dual quaternions refuse the normals flag. */
    if (method == VS_SKIN_DUAL_QUATERNION &&
        (skin_flags & VS_SKIN_NORMALS_BY_MATRIX))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_renderer_capture_skinned_method: skin_flags: "
                         "VS_SKIN_NORMALS_BY_MATRIX applies to VS_SKIN_LINEAR "
                         "only, not VS_SKIN_DUAL_QUATERNION");
    gpu_primitive *gp = NULL;
    for (uint32_t i = 0; i < r->prim_count && !gp; ++i)
        if (r->prims[i].node == node && r->prims[i].primitive == primitive)
            gp = &r->prims[i];
    if (!gp)
        return set_error(error, VS_ERROR_NOT_FOUND,
                         "%s: nodes[%u]: no mesh instance with primitive %u",
                         r->asset->source_name, node, primitive);
    vs_result res = renderer_make_current(r, error);
    if (res != VS_OK) return res;
    return run_capture(r, gp, pose, renderer_resolve_upload(r, upload, method),
                       method, skin_flags, out_positions, out_normals, error);
}
