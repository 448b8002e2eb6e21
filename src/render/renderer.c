/* SPDX-License-Identifier: MIT */
/* Renderer lifetime: EGL context, uploaded meshes, programs per joint upload
 * path, and the joint data each draw needs. */
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "render/gl_program.h"
#include "render/render_internal.h"
#include "render/shaders.h"
#include "skin/dqs/dual_quat.h"

static vs_result upload_meshes(vs_renderer *r, vs_error *error)
{
    const vs_asset *a = r->asset;
    size_t total = 0;
    for (uint32_t i = 0; i < a->instance_count; ++i)
        total += a->meshes[a->nodes[a->instances[i]].mesh].primitive_count;
    r->prims = mem_calloc(r->asset_alloc, total + 1, sizeof *r->prims);
    if (!r->prims)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %zu GPU primitives",
                         a->source_name, total);
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        const vs_mesh *mesh = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_result res = gpu_primitive_upload(
                a, r->asset_alloc, node, p, &r->prims[r->prim_count], error);
            if (res != VS_OK) return res;
            ++r->prim_count;
        }
    }
    return VS_OK;
}

vs_result vs_renderer_create(const vs_asset *asset, vs_renderer **out_renderer,
                             vs_error *error)
{
    return vs_renderer_create_with_options(asset, NULL, out_renderer, error);
}

/* The joint scratch and the renderer object: all that is made before EGL
 * opens, so all there is to free when it does not, and what
 * vs_renderer_destroy frees last. The object holds its own allocator, so
 * that is copied out before the object goes. */
static void free_memory(vs_renderer *r)
{
    const vs_allocator alloc = r->alloc;
    mem_free(r->asset_alloc, r->joint_scratch);
    mem_free(r->asset_alloc, r->dq_scratch);
    mem_free(&alloc, r);
}

/* A current OpenGL ES 3 context of the caller: GL answers GL_VERSION only
 * when some context is current, and the shaders are GLSL ES 3.00. */
static vs_result check_current_context(vs_error *error)
{
    const char *version = (const char *)glGetString(GL_VERSION);
    const char *prefix = "OpenGL ES ";
    if (!version)
        return set_error(error, VS_ERROR_RENDER,
                         "vs_renderer_create_in_current_context: no OpenGL "
                         "context is current on this thread");
    if (strncmp(version, prefix, strlen(prefix)) != 0 ||
        version[strlen(prefix)] < '3' || version[strlen(prefix)] > '9')
        return set_error(error, VS_ERROR_RENDER,
                         "vs_renderer_create_in_current_context: the current "
                         "context is \"%.64s\", not OpenGL ES 3.0 or later",
                         version);
    return VS_OK;
}

static vs_result create_renderer(const vs_asset *asset,
                                 const vs_renderer_options *options,
                                 bool external, vs_renderer **out_renderer,
                                 vs_error *error)
{
    if (!asset || !out_renderer)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_renderer_create: asset and out_renderer must not "
                         "be NULL");
    *out_renderer = NULL;
    const vs_allocator alloc = options ? options->allocator : (vs_allocator){0};
    vs_result res =
        mem_check_allocator(&alloc, "vs_renderer_create", "allocator", error);
    if (res != VS_OK) return res;
    if (options && options->file_reader.release && !options->file_reader.read)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_renderer_create: options->file_reader: release "
                         "is set but read is NULL");
    vs_renderer *r = mem_calloc(&alloc, 1, sizeof *r);
    if (!r)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "vs_renderer_create: out of memory");
    r->asset = asset;
    r->alloc = alloc;
    r->asset_alloc = asset_allocator(asset);
    r->max_joints = 1;
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        if (asset->skins[s].joint_count > r->max_joints)
            r->max_joints = asset->skins[s].joint_count;
    r->joint_scratch =
        mem_alloc(r->asset_alloc, (size_t)r->max_joints * 16 * sizeof(float));
    r->dq_scratch =
        mem_alloc(r->asset_alloc,
                  (size_t)r->max_joints * VS_DQ_JOINT_FLOATS * sizeof(float));
    if (!r->joint_scratch || !r->dq_scratch) {
        uint32_t joints = r->max_joints;
        free_memory(r);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %u joints", asset->source_name,
                         joints);
    }
    r->egl.display = EGL_NO_DISPLAY;
    r->egl.context = EGL_NO_CONTEXT;
    r->external_context = external;
    res = external ? check_current_context(error)
                   : egl_context_open(&r->egl, error);
    if (res != VS_OK) {
        free_memory(r);
        return res;
    }
    snprintf(r->gl_renderer, sizeof r->gl_renderer, "%s",
             (const char *)glGetString(GL_RENDERER));
    GLint vectors = 0;
    glGetIntegerv(GL_MAX_VERTEX_UNIFORM_VECTORS, &vectors);
    r->uniforms_fit = (uint64_t)r->max_joints * 4 + UNIFORM_HEADROOM_VECTORS <=
                      (uint64_t)(vectors > 0 ? vectors : 0);
    r->uniforms_fit_dq =
        (uint64_t)r->max_joints * 5 + UNIFORM_HEADROOM_VECTORS <=
        (uint64_t)(vectors > 0 ? vectors : 0);
    res = upload_meshes(r, error);
    if (res == VS_OK) res = renderer_overlay_init(r, error);
    if (res == VS_OK)
        res = texture_cache_init(&r->textures, asset, r->asset_alloc,
                                 options ? &options->file_reader : NULL,
                                 error);
    if (res == VS_OK) {
        r->order = mem_calloc(r->asset_alloc, r->prim_count + 1,
                              sizeof *r->order);
        r->blend_keys = mem_calloc(r->asset_alloc, r->prim_count + 1,
                                   sizeof *r->blend_keys);
        if (!r->order || !r->blend_keys)
            res = set_error(error, VS_ERROR_OUT_OF_MEMORY,
                            "%s: out of memory for %u GPU primitives",
                            asset->source_name, r->prim_count);
    }
    if (res != VS_OK) {
        vs_renderer_destroy(r);
        return res;
    }
    *out_renderer = r;
    return VS_OK;
}

vs_result vs_renderer_create_with_options(const vs_asset *asset,
                                          const vs_renderer_options *options,
                                          vs_renderer **out_renderer,
                                          vs_error *error)
{
    return create_renderer(asset, options, false, out_renderer, error);
}

vs_result vs_renderer_create_in_current_context(
    const vs_asset *asset, const vs_renderer_options *options,
    vs_renderer **out_renderer, vs_error *error)
{
    return create_renderer(asset, options, true, out_renderer, error);
}

vs_result renderer_make_current(const vs_renderer *r, vs_error *error)
{
    return r->external_context ? VS_OK
                               : egl_context_make_current(&r->egl, error);
}

void vs_renderer_destroy(vs_renderer *r)
{
    if (!r) return;
    /* Deleting GL names needs the context current; if it cannot be made
     * current, destroying the context frees them anyway. */
    if (r->external_context ||
        (r->egl.context != EGL_NO_CONTEXT &&
         egl_context_make_current(&r->egl, NULL) == VS_OK)) {
        for (uint32_t i = 0; i < r->prim_count; ++i)
            gpu_primitive_free(&r->prims[i]);
        for (int i = 0; i < SKIN_PROGRAM_COUNT; ++i)
            if (r->programs[i].program) glDeleteProgram(r->programs[i].program);
        joint_texture_free(&r->joint_tex);
        texture_cache_free(&r->textures, true);
        if (r->overlay_program) glDeleteProgram(r->overlay_program);
        if (r->overlay_vao) glDeleteVertexArrays(1, &r->overlay_vao);
        if (r->overlay_vbo) glDeleteBuffers(1, &r->overlay_vbo);
        if (r->fbo) glDeleteFramebuffers(1, &r->fbo);
        if (r->color_rb) glDeleteRenderbuffers(1, &r->color_rb);
        if (r->depth_rb) glDeleteRenderbuffers(1, &r->depth_rb);
    } else {
        for (uint32_t i = 0; i < r->prim_count; ++i) {
            r->prims[i].vao = 0;
            r->prims[i].buffers[0] = 0;
            gpu_primitive_free(&r->prims[i]);
        }
    }
    texture_cache_free(&r->textures, false);
    egl_context_close(&r->egl);
    mem_free(r->asset_alloc, r->order);
    mem_free(r->asset_alloc, r->blend_keys);
    mem_free(r->asset_alloc, r->prims);
    mem_free(r->asset_alloc, r->is_joint);
    mem_free(r->asset_alloc, r->overlay_scratch);
    free_memory(r);
}

const vs_warning *vs_renderer_warnings(const vs_renderer *r,
                                       uint32_t *out_count)
{
    if (out_count) *out_count = r ? r->textures.warning_count : 0;
    return r ? r->textures.warnings : NULL;
}

const char *vs_renderer_gl_renderer(const vs_renderer *r)
{
    return r ? r->gl_renderer : "";
}

vs_upload_path renderer_resolve_upload(const vs_renderer *r,
                                       vs_upload_path requested,
                                       vs_skin_method method)
{
    if (requested == VS_UPLOAD_UNIFORMS || requested == VS_UPLOAD_TEXTURE)
        return requested;
    bool fit = method == VS_SKIN_DUAL_QUATERNION ? r && r->uniforms_fit_dq
                                                 : r && r->uniforms_fit;
    return fit ? VS_UPLOAD_UNIFORMS : VS_UPLOAD_TEXTURE;
}

vs_upload_path vs_renderer_resolve_upload(const vs_renderer *r,
                                          vs_upload_path requested)
{
    return renderer_resolve_upload(r, requested, VS_SKIN_LINEAR);
}

vs_result renderer_program(vs_renderer *r, vs_upload_path path,
                           vs_skin_method method, skin_program **out,
                           vs_error *error)
{
    bool texture = path == VS_UPLOAD_TEXTURE;
    bool dq = method == VS_SKIN_DUAL_QUATERNION;
    if (!texture && !(dq ? r->uniforms_fit_dq : r->uniforms_fit))
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: %u joints do not fit the vertex uniforms of "
                         "this GPU%s; use the texture upload path",
                         r->asset->source_name, r->max_joints,
                         dq ? " as dual quaternions (5 vectors each)" : "");
    skin_program *sp = &r->programs[(texture ? 1 : 0) + (dq ? 2 : 0)];
    *out = sp;
    if (sp->program) return VS_OK;
    if (texture && !r->joint_tex.texture) {
        vs_result res =
            joint_texture_create(&r->joint_tex, r->max_joints, error);
        if (res != VS_OK) return res;
    }
    char prelude[128];
    const char *dq_define = dq ? "#define DUAL_QUATERNION 1\n" : "";
    if (texture)
        snprintf(prelude, sizeof prelude,
                 "#version 300 es\n%s#define JOINTS_IN_TEXTURE 1\n", dq_define);
    else
        snprintf(prelude, sizeof prelude,
                 "#version 300 es\n%s#define MAX_JOINTS %u\n", dq_define,
                 r->max_joints);
    const char *sources[4] = {prelude, skin_vertex_shader, skin_vertex_blend,
                              skin_vertex_main};
    sp->program =
        gl_program_build(sources, 4, skin_fragment_shader, capture_varyings,
                         CAPTURE_VARYING_COUNT, error);
    if (!sp->program) return error ? error->code : VS_ERROR_RENDER;
    GLuint p = sp->program;
    sp->u_view_proj = glGetUniformLocation(p, "u_viewProj");
    sp->u_raw_weights = glGetUniformLocation(p, "u_rawWeights");
    sp->u_normals_by_matrix = glGetUniformLocation(p, "u_normalsByMatrix");
    sp->u_debug = glGetUniformLocation(p, "u_debug");
    sp->u_mode = glGetUniformLocation(p, "u_mode");
    sp->u_color = glGetUniformLocation(p, "u_color");
    sp->u_light_dir = glGetUniformLocation(p, "u_lightDir");
    sp->u_joint_mat = glGetUniformLocation(p, "u_jointMat");
    sp->u_joint_tex = glGetUniformLocation(p, "u_jointTex");
    sp->u_joint_dq = glGetUniformLocation(p, "u_jointDq");
    sp->u_base_tex = glGetUniformLocation(p, "u_baseTex");
    sp->u_has_tex = glGetUniformLocation(p, "u_hasTex");
    sp->u_uv_transform = glGetUniformLocation(p, "u_uvTransform");
    sp->u_alpha_mode = glGetUniformLocation(p, "u_alphaMode");
    sp->u_alpha_cutoff = glGetUniformLocation(p, "u_alphaCutoff");
    glUseProgram(p);
    if (sp->u_joint_tex >= 0) glUniform1i(sp->u_joint_tex, 0);
    if (sp->u_base_tex >= 0) glUniform1i(sp->u_base_tex, BASE_COLOR_UNIT);
    material_reset(sp);
    return gl_check("building the skinning program", error);
}

vs_result renderer_upload_joints(vs_renderer *r, const skin_program *sp,
                                 vs_upload_path path, vs_skin_method method,
                                 const vs_pose *pose, uint32_t node,
                                 vs_error *error)
{
    const vs_node *n = &r->asset->nodes[node];
    uint32_t count = 1;
    if (n->skin >= 0) {
        count = r->asset->skins[n->skin].joint_count;
        if (count == 0)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: skins[%d]: skin has no joints",
                             r->asset->source_name, n->skin);
        vs_result res = vs_pose_joint_matrices(pose, (uint32_t)n->skin, -1,
                                               r->joint_scratch, error);
        if (res != VS_OK) return res;
    } else {
        memcpy(r->joint_scratch, vs_pose_world(pose, node), 16 * sizeof(float));
    }
    if (method == VS_SKIN_DUAL_QUATERNION) {
        /* The CPU job's own conversion (no error for non-finite matrices:
         * they reach the shader as NaN, as matrices would). */
        for (uint32_t j = 0; j < count; ++j)
            vs_priv_dual_quat_from_matrix(r->joint_scratch + (size_t)j * 16,
                                          r->dq_scratch +
                                              (size_t)j * VS_DQ_JOINT_FLOATS);
        if (path == VS_UPLOAD_TEXTURE)
            joint_texture_upload(&r->joint_tex, r->dq_scratch, 5, count);
        else
            glUniform4fv(sp->u_joint_dq, (GLsizei)(count * 5), r->dq_scratch);
        return VS_OK;
    }
    if (path == VS_UPLOAD_TEXTURE)
        joint_texture_upload(&r->joint_tex, r->joint_scratch, 4, count);
    else
        glUniformMatrix4fv(sp->u_joint_mat, (GLsizei)count, GL_FALSE,
                           r->joint_scratch);
    return VS_OK;
}
