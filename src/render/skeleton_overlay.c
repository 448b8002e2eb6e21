/* SPDX-License-Identifier: MIT */
/* The skeleton overlay: a line from every joint to its parent when the parent
 * is a joint too, and a point on every joint, drawn over the mesh without a
 * depth test so bones inside the body stay visible. */
#include "base/alloc.h"
#include "base/error.h"
#include "render/gl_program.h"
#include "render/render_internal.h"
#include "render/shaders.h"
#include "render/skeleton_lines.h"

vs_result renderer_overlay_init(vs_renderer *r, vs_error *error)
{
    const vs_asset *a = r->asset;
    r->is_joint = mem_calloc(r->asset_alloc, (size_t)a->node_count + 1,
                             sizeof *r->is_joint);
    r->overlay_scratch = mem_alloc(
        r->asset_alloc,
        ((size_t)a->node_count * SKELETON_FLOATS_PER_NODE + 1) * sizeof(float));
    if (!r->is_joint || !r->overlay_scratch)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for the skeleton overlay",
                         a->source_name);
    skeleton_joint_flags(a, r->is_joint);
    const char *vs = overlay_vertex_shader;
    r->overlay_program =
        gl_program_build(&vs, 1, overlay_fragment_shader, NULL, 0, error);
    if (!r->overlay_program) return error ? error->code : VS_ERROR_RENDER;
    r->ov_view_proj = glGetUniformLocation(r->overlay_program, "u_viewProj");
    r->ov_point_size = glGetUniformLocation(r->overlay_program, "u_pointSize");
    r->ov_color = glGetUniformLocation(r->overlay_program, "u_color");
    glGenVertexArrays(1, &r->overlay_vao);
    glGenBuffers(1, &r->overlay_vbo);
    glBindVertexArray(r->overlay_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->overlay_vbo);
    glEnableVertexAttribArray(ATTR_POSITION);
    glVertexAttribPointer(ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindVertexArray(0);
    return gl_check("creating the skeleton overlay", error);
}

void renderer_draw_skeleton(vs_renderer *r, const vs_pose *pose,
                            const float view_proj[16])
{
    float *v = r->overlay_scratch;
    size_t bones = 0, points = 0;
    skeleton_lines_fill(r->asset, r->is_joint, pose, v, &bones, &points);
    if (bones == 0 && points == 0) return;
    glUseProgram(r->overlay_program);
    glUniformMatrix4fv(r->ov_view_proj, 1, GL_FALSE, view_proj);
    glBindVertexArray(r->overlay_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->overlay_vbo);
    glBufferData(GL_ARRAY_BUFFER,
                 (GLsizeiptr)((bones * 2 + points) * 3 * sizeof(float)), v,
                 GL_STREAM_DRAW);
    glDisable(GL_DEPTH_TEST);
    glUniform1f(r->ov_point_size, 7.0f);
    glUniform4f(r->ov_color, 0.9f, 0.15f, 0.1f, 1.0f);
    glDrawArrays(GL_LINES, 0, (GLsizei)(bones * 2));
    glUniform4f(r->ov_color, 1.0f, 0.8f, 0.1f, 1.0f);
    glDrawArrays(GL_POINTS, (GLint)(bones * 2), (GLsizei)points);
    glBindVertexArray(0);
    glEnable(GL_DEPTH_TEST);
}
