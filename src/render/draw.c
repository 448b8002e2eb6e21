/* SPDX-License-Identifier: MIT */
/* vs_render_pose: one picture of a pose into an offscreen FBO, read back as
 * RGBA8 top row first. The view modes share one skinning program; only the
 * fragment mode and colours change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "render/gl_program.h"
#include "render/render_internal.h"
#include "render/shaders.h"

#define DEFAULT_SIZE 512u
static const float outline_edge[4] = {0.08f, 0.08f, 0.12f, 1.0f};

/* One place for the defaults of a vs_render_desc. */
static vs_render_desc resolve_desc(const vs_render_desc *in)
{
    vs_render_desc d = in ? *in : (vs_render_desc){0};
    if (d.width == 0) d.width = DEFAULT_SIZE;
    if (d.height == 0) d.height = DEFAULT_SIZE;
    if (!d.has_background) {
        /* White behind the outline view, as the tutorial's pictures; a dark
         * grey behind lit and debug colours so light parts stand out. */
        float grey = d.view == VS_VIEW_OUTLINE ? 1.0f : 0.2f;
        d.background[0] = d.background[1] = d.background[2] = grey;
        d.background[3] = 1.0f;
    }
    return d;
}

vs_result renderer_framebuffer(vs_renderer *r, uint32_t w, uint32_t h,
                               vs_error *error)
{
    if (r->fbo && r->fb_width == w && r->fb_height == h) {
        glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
        return VS_OK;
    }
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
    if (w > (uint32_t)max_size || h > (uint32_t)max_size)
        return set_error(error, VS_ERROR_LIMIT,
                         "render: %ux%u exceeds GL_MAX_RENDERBUFFER_SIZE %d", w,
                         h, max_size);
    if (!r->fbo) {
        glGenFramebuffers(1, &r->fbo);
        glGenRenderbuffers(1, &r->color_rb);
        glGenRenderbuffers(1, &r->depth_rb);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, r->color_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)w, (GLsizei)h);
    glBindRenderbuffer(GL_RENDERBUFFER, r->depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, (GLsizei)w,
                          (GLsizei)h);
    glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, r->color_rb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                              GL_RENDERBUFFER, r->depth_rb);
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return set_error(error, VS_ERROR_RENDER,
                         "GL: the %ux%u framebuffer is incomplete (0x%04x)", w,
                         h, (unsigned)status);
    r->fb_width = w;
    r->fb_height = h;
    return gl_check("creating the framebuffer", error);
}

static void base_color(const vs_asset *a, const vs_primitive *prim,
                       float out[4])
{
    static const float fallback[4] = {0.8f, 0.8f, 0.8f, 1.0f};
    const float *c =
        prim->material >= 0 && (uint32_t)prim->material < a->material_count
            ? a->materials[prim->material].base_color
            : fallback;
    memcpy(out, c, 4 * sizeof(float));
}

/* Light from the camera's side, above and to the left of the view. */
static void light_direction(const vs_camera *cam, float out[3])
{
    float f[3], len = 0.0f;
    for (int k = 0; k < 3; ++k) {
        f[k] = cam->eye[k] - cam->target[k];
        len += f[k] * f[k];
    }
    len = sqrtf(len);
    float up[3] = {cam->up[0], cam->up[1], cam->up[2]};
    if (up[0] == 0.0f && up[1] == 0.0f && up[2] == 0.0f) up[1] = 1.0f;
    float sum = 0.0f;
    for (int k = 0; k < 3; ++k) {
        out[k] = (len > 0.0f ? f[k] / len : (k == 2)) + 0.6f * up[k];
        sum += out[k] * out[k];
    }
    sum = sqrtf(sum);
    for (int k = 0; k < 3; ++k)
        out[k] = sum > 0.0f ? out[k] / sum : (k == 2);
}

/* One primitive: its morphs and joints, then its draw (or, for the
 * outline, the fill and its edges). */
static vs_result draw_one(vs_renderer *r, const vs_pose *pose,
                          const vs_render_desc *d, vs_upload_path path,
                          skin_program *sp, gpu_primitive *gp,
                          vs_error *error)
{
    vs_result res = gpu_primitive_update_morphs(gp, pose, error);
    if (res == VS_OK)
        res = renderer_upload_joints(r, sp, path, d->method, pose, gp->node,
                                     error);
    if (res != VS_OK) return res;
    gpu_primitive_bind(gp);
    if (d->view == VS_VIEW_SHADED) {
        material_apply(r, sp, gp);
        gpu_primitive_draw(gp, false);
        return VS_OK;
    }
    float color[4];
    base_color(r->asset, gp->prim, color);
    color[3] = 1.0f;
    if (d->view == VS_VIEW_OUTLINE) {
        /* Flat fill pushed back a little so the edges drawn at the same
         * depth win the depth test (the tutorial's outline pictures). */
        for (int k = 0; k < 3; ++k)
            color[k] = 0.55f + 0.4f * color[k];
        glUniform4fv(sp->u_color, 1, color);
        glEnable(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(1.0f, 1.0f);
        gpu_primitive_draw(gp, false);
        glDisable(GL_POLYGON_OFFSET_FILL);
        glUniform4fv(sp->u_color, 1, outline_edge);
        gpu_primitive_draw(gp, true);
    } else {
        glUniform4fv(sp->u_color, 1, color);
        gpu_primitive_draw(gp, false);
    }
    return VS_OK;
}

/* Farthest first; ties keep the asset's order, so the picture does not
 * depend on qsort's. Depths are finite or +inf, never NaN. */
static int by_depth(const void *a, const void *b)
{
    const blend_key *x = a, *y = b;
    if (x->depth > y->depth) return -1;
    if (x->depth < y->depth) return 1;
    return x->prim < y->prim ? -1 : x->prim > y->prim;
}

/* The shaded view's order: opaque and MASK primitives as the asset lists
 * them, then BLEND ones back to front (glTF 2.0 §3.9.4 leaves the order
 * to the renderer; per-primitive sorting is the usual compromise).
 * Returns how many come first. */
static uint32_t shaded_order(vs_renderer *r, const vs_pose *pose,
                             const float vp[16])
{
    uint32_t n = 0, blend = 0;
    for (uint32_t i = 0; i < r->prim_count; ++i) {
        if (!material_blends(r->asset, &r->prims[i]))
            r->order[n++] = i;
        else
            r->blend_keys[blend++] = (blend_key){
                primitive_depth(r, pose, &r->prims[i], vp), i};
    }
    qsort(r->blend_keys, blend, sizeof *r->blend_keys, by_depth);
    for (uint32_t k = 0; k < blend; ++k)
        r->order[n + k] = r->blend_keys[k].prim;
    return n;
}

static vs_result draw_meshes(vs_renderer *r, const vs_pose *pose,
                             const vs_render_desc *d, vs_upload_path path,
                             skin_program *sp, const float vp[16],
                             const float light[3], vs_error *error)
{
    glUseProgram(sp->program);
    glUniformMatrix4fv(sp->u_view_proj, 1, GL_FALSE, vp);
    glUniform1i(sp->u_raw_weights, (d->skin_flags & VS_SKIN_RAW_WEIGHTS) != 0);
    glUniform1i(sp->u_normals_by_matrix,
                (d->skin_flags & VS_SKIN_NORMALS_BY_MATRIX) != 0);
    glUniform3fv(sp->u_light_dir, 1, light);
    glUniform1i(sp->u_debug, d->view == VS_VIEW_JOINTS);
    int mode = d->view == VS_VIEW_SHADED    ? MODE_SHADED
               : d->view == VS_VIEW_OUTLINE ? MODE_FLAT
               : d->view == VS_VIEW_NORMALS ? MODE_NORMALS
                                            : MODE_DEBUG;
    glUniform1i(sp->u_mode, mode);
    material_reset(sp);
    uint32_t first = r->prim_count;
    if (d->view == VS_VIEW_SHADED) first = shaded_order(r, pose, vp);
    vs_result res = VS_OK;
    for (uint32_t k = 0; k < r->prim_count && res == VS_OK; ++k) {
        uint32_t i = d->view == VS_VIEW_SHADED ? r->order[k] : k;
        if (k == first) {
            /* Blended surfaces test depth against the opaque ones but do
             * not hide each other. */
            glEnable(GL_BLEND);
            glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE,
                                GL_ONE_MINUS_SRC_ALPHA);
            glDepthMask(GL_FALSE);
        }
        res = draw_one(r, pose, d, path, sp, &r->prims[i], error);
    }
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    material_reset(sp);
    glBindVertexArray(0);
    if (res != VS_OK) return res;
    return gl_check("drawing", error);
}

static void read_back(uint32_t w, uint32_t h, uint8_t *rgba)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    /* GL's first row is the bottom one; images start at the top. */
    size_t row = (size_t)w * 4;
    uint8_t tmp[1024];
    for (uint32_t y = 0; y < h / 2; ++y) {
        uint8_t *a = rgba + y * row, *b = rgba + (size_t)(h - 1 - y) * row;
        for (size_t off = 0; off < row; off += sizeof tmp) {
            size_t n = row - off < sizeof tmp ? row - off : sizeof tmp;
            memcpy(tmp, a + off, n);
            memcpy(a + off, b + off, n);
            memcpy(b + off, tmp, n);
        }
    }
}

/* Checks the arguments and fills the defaults of a desc. */
static vs_result check_args(const vs_renderer *r, const vs_pose *pose,
                            const vs_render_desc *desc, const char *fn,
                            vs_render_desc *out, vs_error *error)
{
    if (!r || !pose || vs_pose_asset(pose) != r->asset)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: renderer and pose (of the renderer's asset) "
                         "are required",
                         fn);
    *out = resolve_desc(desc);
    if ((unsigned)out->view > VS_VIEW_NORMALS ||
        (unsigned)out->upload > VS_UPLOAD_TEXTURE ||
        (unsigned)out->method > VS_SKIN_DUAL_QUATERNION)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: unknown view %d, upload path %d or skinning "
                         "method %d",
                         fn, (int)out->view, (int)out->upload,
                         (int)out->method);
    /* As the CPU job: dual quaternions refuse the normals flag. */
    if (out->method == VS_SKIN_DUAL_QUATERNION &&
        (out->skin_flags & VS_SKIN_NORMALS_BY_MATRIX))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: skin_flags: VS_SKIN_NORMALS_BY_MATRIX applies "
                         "to VS_SKIN_LINEAR only, not VS_SKIN_DUAL_QUATERNION",
                         fn);
    return VS_OK;
}

/* Draws into the framebuffer that is bound, over (0, 0, width, height). */
static vs_result draw_picture(vs_renderer *r, const vs_pose *pose,
                              const vs_render_desc *dp, vs_error *error)
{
    const vs_render_desc d = *dp;
    vs_upload_path path = renderer_resolve_upload(r, d.upload, d.method);
    skin_program *sp = NULL;
    vs_result res = renderer_program(r, path, d.method, &sp, error);
    if (res != VS_OK) return res;

    float aspect = (float)d.width / (float)d.height;
    vs_camera cam;
    if (d.camera) {
        cam = *d.camera;
    } else {
        float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
        vs_pose_mesh_options opts = {.skin_flags = d.skin_flags,
                                     .method = d.method};
        /* Fast bounds: conservative, and no vertex is skinned on the CPU.
         * Without a vertex the unit box is framed. */
        bool any = false;
        res = vs_pose_fast_bounds(pose, &opts, lo, hi, &any, error);
        if (res != VS_OK) return res;
        if (!any) {
            for (int k = 0; k < 3; ++k) {
                lo[k] = -1.0f;
                hi[k] = 1.0f;
            }
        }
        vs_camera_frame_bounds(lo, hi, r->asset->up_axis, aspect,
                               d.orthographic, &cam);
    }
    float vp[16], light[3];
    vs_camera_view_projection(&cam, aspect, vp);
    light_direction(&cam, light);

    glViewport(0, 0, (GLsizei)d.width, (GLsizei)d.height);
    glClearColor(d.background[0], d.background[1], d.background[2],
                 d.background[3]);
    glClearDepthf(1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glDisable(GL_CULL_FACE);
    res = draw_meshes(r, pose, &d, path, sp, vp, light, error);
    if (res != VS_OK) return res;
    if (d.skeleton) renderer_draw_skeleton(r, pose, vp);
    return VS_OK;
}

vs_result vs_render_pose(vs_renderer *r, const vs_pose *pose,
                         const vs_render_desc *desc, uint8_t *rgba_out,
                         vs_error *error)
{
    vs_render_desc d;
    vs_result res = check_args(r, pose, desc, "vs_render_pose", &d, error);
    if (res == VS_OK && !rgba_out)
        res = set_error(error, VS_ERROR_ARGUMENT,
                        "vs_render_pose: rgba_out is required");
    if (res == VS_OK) res = renderer_make_current(r, error);
    if (res != VS_OK) return res;
    /* In the caller's context the caller's framebuffer binding is put back
     * afterwards: the picture goes to the renderer's own. */
    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    res = renderer_framebuffer(r, d.width, d.height, error);
    if (res == VS_OK) res = draw_picture(r, pose, &d, error);
    if (res == VS_OK) {
        read_back(d.width, d.height, rgba_out);
        res = gl_check("reading the picture back", error);
    }
    if (r->external_context)
        glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)previous);
    return res;
}

vs_result vs_render_pose_to_current_framebuffer(vs_renderer *r,
                                                const vs_pose *pose,
                                                const vs_render_desc *desc,
                                                vs_error *error)
{
    vs_render_desc d;
    vs_result res = check_args(
        r, pose, desc, "vs_render_pose_to_current_framebuffer", &d, error);
    if (res == VS_OK && !r->external_context)
        res = set_error(error, VS_ERROR_ARGUMENT,
                        "vs_render_pose_to_current_framebuffer: the renderer "
                        "was not made by "
                        "vs_renderer_create_in_current_context");
    if (res == VS_OK) res = draw_picture(r, pose, &d, error);
    if (res == VS_OK) res = gl_check("drawing", error);
    return res;
}
