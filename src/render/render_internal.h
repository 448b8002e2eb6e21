/* SPDX-License-Identifier: MIT */
/* The renderer object (everything lives here: no global GL or EGL state) and
 * the helpers its files share. */
#ifndef VS_RENDER_RENDER_INTERNAL_H
#define VS_RENDER_RENDER_INTERNAL_H

#include <GLES3/gl3.h>

#include "asset/asset_internal.h"
#include "render/egl_context.h"
#include "render/gpu_mesh.h"
#include "render/joint_texture.h"
#include "render/textures.h"
#include "vskin/vskin_render.h"

/* Uniform vectors kept free for everything but the joint array (view
 * projection, flags, colours) and for what drivers reserve themselves. */
#define UNIFORM_HEADROOM_VECTORS 32

/* A BLEND primitive's depth for back-to-front sorting. */
typedef struct blend_key {
    float depth;
    uint32_t prim;
} blend_key;

typedef struct skin_program {
    GLuint program; /* 0 until first used */
    GLint u_view_proj, u_raw_weights, u_debug, u_mode, u_color, u_light_dir;
    GLint u_normals_by_matrix;
    GLint u_joint_mat, u_joint_tex, u_joint_dq;
    GLint u_base_tex, u_has_tex, u_uv_transform, u_alpha_mode, u_alpha_cutoff;
} skin_program;

/* programs[] index: upload path (uniforms 0, texture 1) + 2 * DQS. */
#define SKIN_PROGRAM_COUNT 4

struct vs_renderer {
    const vs_asset *asset;
    /* vs_renderer_options.allocator: the renderer object itself. */
    vs_allocator alloc;
    /* The asset's allocator (vs_load_options.allocator): everything sized
     * by the asset (primitives, their lists and normals, joint and overlay
     * scratch), as for every other object made from an asset. */
    const vs_allocator *asset_alloc;
    egl_context egl;
    /* Made by vs_renderer_create_in_current_context: the caller's context
     * is used as it is (egl stays closed), and pictures go to the
     * framebuffer the caller has bound. */
    bool external_context;
    char gl_renderer[128];

    gpu_primitive *prims; /* every primitive of every mesh instance */
    uint32_t prim_count;
    uint32_t max_joints;  /* over all skins, at least 1 (rigid meshes) */
    bool uniforms_fit;    /* 4 * max_joints + headroom fit the vertex stage */
    bool uniforms_fit_dq; /* 5 * max_joints + headroom (DQS) */
    float *joint_scratch; /* 16 * max_joints */
    float *dq_scratch;    /* VS_DQ_JOINT_FLOATS * max_joints */
    skin_program programs[SKIN_PROGRAM_COUNT];
    joint_texture joint_tex;

    bool *is_joint; /* per node: a joint of some skin (skeleton overlay) */
    float *overlay_scratch; /* 6 floats per node */
    GLuint overlay_program, overlay_vao, overlay_vbo;
    GLint ov_view_proj, ov_point_size, ov_color;

    GLuint fbo, color_rb, depth_rb;
    uint32_t fb_width, fb_height;

    /* The images as textures, loaded when the shaded view first needs
     * them, and the warnings of those that could not be. */
    texture_cache textures;
    /* Draw order of the shaded view (BLEND primitives last, back to
     * front) and the sort keys of the BLEND ones: prim_count of each. */
    uint32_t *order;
    struct blend_key *blend_keys;
};

/* The shaded view's material state of one primitive (material_state.c):
 * base colour factor into u_color, the base colour texture on unit
 * BASE_COLOR_UNIT with its sampler and texture transform, the alpha mode
 * and face culling (back faces of single-sided materials). */
void material_apply(vs_renderer *r, const skin_program *sp,
                    const gpu_primitive *gp);
/* Whether the primitive's material blends (alphaMode BLEND). */
bool material_blends(const vs_asset *asset, const gpu_primitive *gp);
/* NDC depth of the primitive's centre vertex in the pose (skinned with
 * the pose's joint matrices), for back-to-front sorting; +inf when it has
 * none. */
float primitive_depth(vs_renderer *r, const vs_pose *pose,
                      const gpu_primitive *gp, const float view_proj[16]);
/* Neutral material uniforms for the views that do not use them. */
void material_reset(const skin_program *sp);

/* `requested` resolved for a skinning method: AUTO takes the uniform array
 * when that method's joint data fits it (4 vectors per joint for matrices,
 * 5 for dual quaternions), else the texture. */
vs_upload_path renderer_resolve_upload(const vs_renderer *r,
                                       vs_upload_path requested,
                                       vs_skin_method method);
/* The program for a resolved upload path (uniforms or texture) and skinning
 * method, built on first use. */
vs_result renderer_program(vs_renderer *r, vs_upload_path path,
                           vs_skin_method method, skin_program **out,
                           vs_error *error);
/* Joint data for one mesh instance: world-space joint matrices of its skin
 * (glTF 2.0 §3.7.3.3), or its world matrix as joint 0 when rigid; converted
 * to dual quaternions + scale/shear for DQS; uploaded to the program's
 * uniform array or to the joint texture. */
vs_result renderer_upload_joints(vs_renderer *r, const skin_program *sp,
                                 vs_upload_path path, vs_skin_method method,
                                 const vs_pose *pose, uint32_t node,
                                 vs_error *error);
/* Lines from each joint to its parent joint and a point per joint. */
void renderer_draw_skeleton(vs_renderer *r, const vs_pose *pose,
                            const float view_proj[16]);
/* Binds the offscreen framebuffer (RGBA8 + depth24 renderbuffers), made or
 * resized to w x h. */
vs_result renderer_framebuffer(vs_renderer *r, uint32_t w, uint32_t h,
                               vs_error *error);
vs_result renderer_overlay_init(vs_renderer *r, vs_error *error);
/* Makes the renderer's own context current; nothing for a renderer made in
 * the caller's context, whose context the caller keeps current. */
vs_result renderer_make_current(const vs_renderer *r, vs_error *error);

#endif
