/* SPDX-License-Identifier: MIT */
/**
 * @file vskin_render.h
 * @brief vskin render — GPU skinning and pictures with OpenGL ES 3.0 over
 * EGL.
 *
 * A renderer is made for one asset: it opens its own EGL display and context
 * (headless, Mesa's surfaceless platform; no window, no global state), uploads
 * the bind-pose vertex data of every mesh instance once, and then draws any
 * pose of that asset into an offscreen framebuffer:
 *
 * @code{.c}
   vs_renderer *r;
   vs_renderer_create(asset, &r, &err);
   vs_render_pose(r, pose, &(vs_render_desc){ .width = 512, .height = 512,
                  .view = VS_VIEW_OUTLINE, .skeleton = true }, rgba, &err);
   @endcode
 *
 * Skinning runs in the vertex shader exactly as the CPU path
 * (vs_skinning_job_run): skinMat = sum_i w_i * J[joint_i], weights divided by
 * their sum unless VS_SKIN_RAW_WEIGHTS, positions by skinMat and normals by
 * the inverse-transpose of its 3x3 (cofactor matrix, exact for non-uniform
 * scale). Joint matrices go to the shader as a uniform array or an RGBA32F
 * texture (docs/gpu.md). Morph targets are applied on the CPU before upload.
 *
 * A renderer belongs to one thread at a time; it makes its context current
 * on the calling thread in every call.
 */
#ifndef VSKIN_VSKIN_RENDER_H
#define VSKIN_VSKIN_RENDER_H

#include "vskin/vskin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility; what this header declares
 * is its exported interface. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/** A GPU renderer for one asset (opaque). */
typedef struct vs_renderer vs_renderer;

/** What a picture shows. */
typedef enum vs_render_view {
    /** The material's base colour, half-lambert lit (0.5 * dot(n, l) +
     * 0.5): baseColorFactor x base colour texture (its texture coordinate
     * set, sampler and KHR_texture_transform) x COLOR_0; alpha MASK
     * discards below the cutoff, BLEND primitives are drawn last, back to
     * front by their centre's depth, and back faces of single-sided
     * materials are culled (see @ref textures "Textures"). */
    VS_VIEW_SHADED = 0,
    VS_VIEW_OUTLINE,    /**< flat fill with the triangle edges drawn over it */
    VS_VIEW_WEIGHTS,    /**< sum_i w_i * colour(joint_i): smooth falloff */
    VS_VIEW_JOINTS,     /**< colour of the joint with the largest weight */
    VS_VIEW_NORMALS     /**< skinned world normal as 0.5 * n + 0.5 */
} vs_render_view;

/** How joint matrices reach the vertex shader. */
typedef enum vs_upload_path {
    VS_UPLOAD_AUTO = 0, /**< uniforms when every skin fits, else the texture */
    VS_UPLOAD_UNIFORMS, /**< uniform mat4 array (fails when it does not fit) */
    VS_UPLOAD_TEXTURE   /**< RGBA32F texture read with texelFetch */
} vs_upload_path;

/** A look-at camera, perspective or orthographic. */
typedef struct vs_camera {
    float eye[3];    /**< camera position */
    float target[3]; /**< the point it looks at */
    float up[3]; /**< zero: (0, 1, 0) */
    float fov_y; /**< vertical field of view in degrees (perspective) */
    bool orthographic;  /**< orthographic instead of perspective */
    float ortho_height; /**< visible world height (orthographic) */
    /** Clip plane distances; zero: derived from the eye-target distance.
     * @{ */
    float near_plane;
    float far_plane;
    /** @} */
} vs_camera;

/** What vs_render_pose draws and how. Zero is the default for every field. */
typedef struct vs_render_desc {
    /** Picture size in pixels; 0: 512. @{ */
    uint32_t width, height;
    /** @} */
    vs_render_view view;     /**< what the picture shows */
    bool skeleton;           /**< bones as lines, joints as points, on top */
    const vs_camera *camera; /**< NULL: frame the pose's bounds */
    bool orthographic;       /**< only for the automatic framing */
    vs_upload_path upload;   /**< how joint matrices reach the shader */
    bool has_background; /**< false: opaque white */
    float background[4]; /**< RGBA in 0..1 */
    /** vs_skin_flags, as the CPU path: the vertex shader follows
     * VS_SKIN_RAW_WEIGHTS and VS_SKIN_NORMALS_BY_MATRIX (refused, as on the
     * CPU, with VS_SKIN_DUAL_QUATERNION). */
    uint32_t skin_flags;
    /** VS_SKIN_LINEAR (zero) or VS_SKIN_DUAL_QUATERNION: the vertex shader
     * blends the joints' dual quaternions and scale/shear matrices with the
     * CPU job's rules (@ref dqs "dual-quaternion skinning"); also used for
     * the framing. */
    vs_skin_method method;
} vs_render_desc;

/** Options of vs_renderer_create_with_options. Zero is the default for
 * every field. */
typedef struct vs_renderer_options {
    /** Where the renderer object itself comes from; zero: malloc and free
     * (see @ref memory "Memory and files"). What the renderer keeps for the
     * asset (per primitive, joint and node) comes from the asset's
     * allocator (vs_load_options.allocator), as for every object made from
     * the asset. Set alloc and free together or neither (else
     * VS_ERROR_ARGUMENT); both must stay valid until vs_renderer_destroy. */
    vs_allocator allocator;
    /** How the shaded view reads external images (vs_asset_image_bytes);
     * zero: the disk, under the load's folder rules. A release without a
     * read is refused (VS_ERROR_ARGUMENT). The callbacks and `user` must
     * stay valid until vs_renderer_destroy. */
    vs_file_reader file_reader;
} vs_renderer_options;

/** Opens EGL + OpenGL ES 3.0 and uploads the asset's meshes. Fails with
 * VS_ERROR_RENDER when no EGL display or context can be made (the message
 * names the packages to install), VS_ERROR_UNSUPPORTED for primitives with
 * more than 8 influences, VS_ERROR_INVALID for an index not below the
 * primitive's vertex_count and VS_ERROR_LIMIT for a primitive whose index
 * list would pass 2^31 - 1 indices, each message naming the file, mesh and
 * primitive. The asset must outlive the renderer. */
vs_result vs_renderer_create(const vs_asset *asset, vs_renderer **out_renderer,
                             vs_error *error);
/** vs_renderer_create with options (NULL: the defaults). A refused
 * allocation fails with VS_ERROR_OUT_OF_MEMORY and frees what the call had
 * made. The GL driver's own memory is the driver's. */
vs_result vs_renderer_create_with_options(const vs_asset *asset,
                                          const vs_renderer_options *options,
                                          vs_renderer **out_renderer,
                                          vs_error *error);
/** Frees the renderer's GL objects and its EGL context; NULL is ignored.
 * For a renderer made by vs_renderer_create_in_current_context, the
 * context it was made in (or one sharing its objects) must be current. */
void vs_renderer_destroy(vs_renderer *renderer);

/* ------------------------------------------- drawing in the caller's context */

/** As vs_renderer_create_with_options, but in the OpenGL ES 3.0 (or later)
 * context current on the calling thread (a window's context from GLFW,
 * SDL or an engine) instead of an EGL context of its own: no EGL call is
 * made, and the renderer's GL objects live in that context. Fails with
 * VS_ERROR_RENDER when no context is current or it is not OpenGL ES 3
 * (GL_VERSION names it). Every later call on the renderer needs that
 * context current; vs_render_pose then draws into the renderer's own
 * framebuffer object and binds the caller's framebuffer again. A renderer
 * made by vs_renderer_create leaves its own context current after each
 * call, so a thread that uses both kinds makes its context current again
 * before using this one. */
vs_result vs_renderer_create_in_current_context(
    const vs_asset *asset, const vs_renderer_options *options,
    vs_renderer **out_renderer, vs_error *error);

/** Draws `pose` as vs_render_pose does, into the framebuffer bound in the
 * caller's context (a window's default framebuffer or the caller's FBO),
 * over the viewport (0, 0, desc->width, desc->height), which it clears to
 * the background first; nothing is read back. The same pose and desc give
 * the same pixels as vs_render_pose when the framebuffer is RGBA8 with a
 * depth buffer and no multisampling. Only for a renderer made by
 * vs_renderer_create_in_current_context (else VS_ERROR_ARGUMENT). It leaves
 * GL state changed: the viewport, clear colour and depth, the program, the
 * vertex array, textures on units 0 and 1, depth test on (GL_LEQUAL),
 * blending and face culling off; the framebuffer binding is kept. */
vs_result vs_render_pose_to_current_framebuffer(vs_renderer *renderer,
                                                const vs_pose *pose,
                                                const vs_render_desc *desc,
                                                vs_error *error);

/** The parts of the renderer's GLSL ES 3.00 sources. */
typedef enum vs_render_shader {
    /** Skinning vertex shader, first part: joint data, uniforms and
     * attributes. The vertex shader is a prelude the caller writes, then
     * the three VS_SHADER_SKIN_VERTEX_* parts in this order (glShaderSource
     * takes them as one array). The prelude is these lines, each ended by a
     * newline: `#version 300 es`; `#define DUAL_QUATERNION 1` for
     * dual-quaternion skinning; then either `#define MAX_JOINTS n` (joints
     * in a uniform array: u_jointMat, or u_jointDq with 5 vec4 per joint)
     * or `#define JOINTS_IN_TEXTURE 1` (u_jointTex, see docs/gpu.md).
     * Attribute locations are fixed by layout qualifiers: 0 position,
     * 1 normal, 2 JOINTS_0, 3 WEIGHTS_0, 4 JOINTS_1, 5 WEIGHTS_1,
     * 6 texture coordinates, 7 COLOR_0. */
    VS_SHADER_SKIN_VERTEX_DECLARATIONS = 0,
    /** Second part: blendJoints, linear or (DUAL_QUATERNION) DQS. */
    VS_SHADER_SKIN_VERTEX_BLEND,
    /** Third part: main (skinned position, normal, the views' colours). */
    VS_SHADER_SKIN_VERTEX_MAIN,
    /** The skinning fragment shader, complete (with its `#version`
     * line). */
    VS_SHADER_SKIN_FRAGMENT,
    /** The skeleton overlay's vertex and fragment shaders, complete. @{ */
    VS_SHADER_OVERLAY_VERTEX,
    VS_SHADER_OVERLAY_FRAGMENT
    /** @} */
} vs_render_shader;

/** The source of one part, a static NUL-terminated string; NULL for a
 * value outside vs_render_shader. These are the sources the renderer
 * compiles; docs/gpu.md lists their uniforms. */
const char *vs_render_shader_source(vs_render_shader part);

/**
 * @page textures Textures
 *
 * The shaded view draws each material's base colour texture. Images are
 * read (vs_asset_image_bytes), decoded (PNG through libpng, JPEG through
 * libjpeg-turbo; told apart by their bytes) and uploaded when a draw first
 * needs them, never by the load. An image that cannot be read or decoded,
 * or is larger than 8192 x 8192 pixels or GL_MAX_TEXTURE_SIZE, is a
 * warning (vs_renderer_warnings): the factor colour is drawn instead, and
 * the image is not tried again. The texture's bytes are shown as they are,
 * like the factor colour, without sRGB decoding.
 */

/** What the renderer could not honour so far, in the order it met it: one
 * warning per image that could not be read or decoded ("images[2]", with
 * the file and the reason), and one per material whose texture reads a
 * TEXCOORD_n set some primitive lacks ("materials[1]"). The renderer owns
 * the list, which stays valid until vs_renderer_destroy; later draws may
 * append to it (at most one warning per image and per material).
 * *out_count gets the count (0 for a NULL renderer, which returns NULL). */
const vs_warning *vs_renderer_warnings(const vs_renderer *renderer,
                                       uint32_t *out_count);

/** The GL_RENDERER string of the context, such as "llvmpipe (LLVM 15...)". */
const char *vs_renderer_gl_renderer(const vs_renderer *renderer);
/** The joint upload path `requested` resolves to for this asset. */
vs_upload_path vs_renderer_resolve_upload(const vs_renderer *renderer,
                                          vs_upload_path requested);

/** Draws `pose` (of the renderer's asset; call vs_pose_update_world first)
 * and writes width*height*4 bytes of RGBA8 to rgba_out, top row first.
 * Primitives too small for one point, line or triangle of their mode draw
 * nothing, and a trailing incomplete one is dropped (as glDrawArrays). */
vs_result vs_render_pose(vs_renderer *renderer, const vs_pose *pose,
                         const vs_render_desc *desc, uint8_t *rgba_out,
                         vs_error *error);

/** GPU-skinned world positions (3 floats per vertex) and normals (3 per vertex,
 * or NULL) of one primitive of a mesh instance, read back with transform
 * feedback from the same vertex shader the pictures use. Compare with
 * vs_pose_mesh_primitive. The arrays hold the primitive's vertex_count. */
vs_result vs_renderer_capture_skinned_positions(
    vs_renderer *renderer, const vs_pose *pose, uint32_t node,
    uint32_t primitive, vs_upload_path upload, uint32_t skin_flags,
    float *out_positions, float *out_normals, vs_error *error);

/* ------------------------------------ dual-quaternion skinning on the GPU */

/** As vs_renderer_capture_skinned_positions, skinned with `method`. For
 * VS_SKIN_DUAL_QUATERNION the joint data is 5 vec4 per joint (real, dual,
 * scale/shear columns: VS_DQ_JOINT_FLOATS), so VS_UPLOAD_AUTO takes the
 * texture when 5 * joints + headroom exceed the vertex uniform vectors. */
vs_result vs_renderer_capture_skinned_method(
    vs_renderer *renderer, const vs_pose *pose, uint32_t node,
    uint32_t primitive, vs_upload_path upload, uint32_t skin_flags,
    vs_skin_method method, float *out_positions, float *out_normals,
    vs_error *error);

/* ------------------------------------------------------------- cameras */

/** A camera that shows the box [min, max] whole at the given aspect
 * (width / height), from the front for the asset's up axis (Y up: eye on +Z;
 * Z up: eye on -Y; X up: eye on +Z with X up), a little from above unless the
 * box is flat along the view direction (then straight on). A box that
 * gives no finite view (empty: min > max, NaN or infinite, or so large or so
 * far from the origin that the view-projection overflows) frames the box
 * [-1, 1] instead; the aspect is clamped to [1e-6, 1e6] (1 when not
 * positive or not finite). */
void vs_camera_frame_bounds(const float min[3], const float max[3],
                            vs_up_axis up, float aspect, bool orthographic,
                            vs_camera *out);
/** Frames the union of the fast pose bounds (vs_pose_fast_bounds) over
 * `samples` times evenly spread over [clip.start, clip.end] (clip < 0: the
 * rest pose only). */
vs_result vs_camera_frame_clip(const vs_asset *asset, int32_t clip,
                               uint32_t samples, float aspect,
                               bool orthographic, vs_camera *out,
                               vs_error *error);
/** projection * view, column-major, for the given aspect (clamped as in
 * vs_camera_frame_bounds). */
void vs_camera_view_projection(const vs_camera *camera, float aspect,
                               float out[16]);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* VSKIN_VSKIN_RENDER_H */
