/* SPDX-License-Identifier: MIT */
/* GLSL ES 3.00 sources as C strings. The skinning vertex shader is built with
 * a small prelude chosen at run time:
 *   #define MAX_JOINTS n         uniform path: mat4 u_jointMat[MAX_JOINTS]
 *   #define JOINTS_IN_TEXTURE 1  texture path: u_jointTex, see docs/gpu.md
 * Attribute locations are fixed (layout qualifiers) so one VAO serves both. */
#ifndef VS_RENDER_SHADERS_H
#define VS_RENDER_SHADERS_H

enum {
    ATTR_POSITION = 0, /* vec3, bind space (morphs already applied) */
    ATTR_NORMAL = 1,   /* vec3 */
    ATTR_JOINTS0 = 2,  /* uvec4, JOINTS_0 */
    ATTR_WEIGHTS0 = 3, /* vec4, WEIGHTS_0 */
    ATTR_JOINTS1 = 4,  /* uvec4, JOINTS_1 (constant 0 when absent) */
    ATTR_WEIGHTS1 = 5, /* vec4, WEIGHTS_1 (constant 0 when absent) */
    ATTR_TEXCOORD = 6, /* vec2, the material's TEXCOORD_n (constant 0) */
    ATTR_COLOR = 7     /* vec4, COLOR_0 (constant 1 when absent) */
};

/* Texture units: the joint texture is unit 0, the base colour unit 1. */
#define BASE_COLOR_UNIT 1

/* Alpha modes of the fragment shader's u_alphaMode: vs_alpha_mode. */

/* View modes understood by the fragment shader's u_mode. */
enum {
    MODE_SHADED = 0, /* base colour (factor x texture x COLOR_0), lit */
    MODE_FLAT = 1,  /* u_color as it is (outline fill and edges) */
    MODE_DEBUG = 2, /* the vertex shader's v_debug colour */
    MODE_NORMALS = 3
};

/* Varyings captured by transform feedback, in this order. */
#define CAPTURE_VARYING_COUNT 2
extern const char *const capture_varyings[CAPTURE_VARYING_COUNT];

/* The skinning vertex shader is prelude + these three, in this order. */
extern const char skin_vertex_shader[];
extern const char skin_vertex_blend[];
extern const char skin_vertex_main[];
extern const char skin_fragment_shader[];
extern const char overlay_vertex_shader[];
extern const char overlay_fragment_shader[];

#endif
