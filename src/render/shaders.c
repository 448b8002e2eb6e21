/* SPDX-License-Identifier: MIT */
/* The GLSL ES 3.00 sources: the skinning vertex shader and its views
 * (shaders.h). */
#include "render/shaders.h"

const char *const capture_varyings[CAPTURE_VARYING_COUNT] = {"v_position",
                                                             "v_normal"};

/* Skinning as in the glTF tutorial and the WebGL2 skinning article:
 *   skinMat = sum_i a_weight[i] * jointMat[a_joint[i]]
 * with the same rules as vs_skinning_job_run: weights divided by their sum
 * unless u_rawWeights; a sum that is not a positive finite number means
 * "not skinned" (asset/weights_rule.h, here summed in float) and gives the
 * identity. Normals use sign(det) * cofactor(mat3(skinMat)), which
 * is the inverse-transpose up to a positive factor (exact for non-uniform
 * scale, no division by a small determinant), or mat3(skinMat) itself
 * under u_normalsByMatrix (VS_SKIN_NORMALS_BY_MATRIX), then normalize; a
 * zero vector stays zero like the CPU path. v_debug holds the weights/joints colours.
 * With DUAL_QUATERNION defined, blendJoints is dual-quaternion skinning with
 * scale instead (vskin.h, DQS section), giving the same kind of affine
 * matrix, so everything after it is shared. */
const char skin_vertex_shader[] =
    "precision highp float;\n"
    "precision highp int;\n"
    "#ifdef DUAL_QUATERNION\n"
    /* Per joint 5 vec4: real, dual, S columns (VS_DQ_JOINT_FLOATS). */
    "#ifdef JOINTS_IN_TEXTURE\n"
    "uniform highp sampler2D u_jointTex;\n"
    "vec4 jointVec(uint j, int k) {\n"
    "    return texelFetch(u_jointTex, ivec2(k, int(j)), 0);\n"
    "}\n"
    "#else\n"
    "uniform vec4 u_jointDq[MAX_JOINTS * 5];\n"
    "vec4 jointVec(uint j, int k) { return u_jointDq[int(j) * 5 + k]; }\n"
    "#endif\n"
    "#elif defined(JOINTS_IN_TEXTURE)\n"
    "uniform highp sampler2D u_jointTex;\n"
    /* One matrix per row, one column per texel: row j = joint j. */
    "mat4 jointMat(uint j) {\n"
    "    int r = int(j);\n"
    "    return mat4(texelFetch(u_jointTex, ivec2(0, r), 0),\n"
    "                texelFetch(u_jointTex, ivec2(1, r), 0),\n"
    "                texelFetch(u_jointTex, ivec2(2, r), 0),\n"
    "                texelFetch(u_jointTex, ivec2(3, r), 0));\n"
    "}\n"
    "#else\n"
    "uniform mat4 u_jointMat[MAX_JOINTS];\n"
    "mat4 jointMat(uint j) { return u_jointMat[int(j)]; }\n"
    "#endif\n"
    "uniform mat4 u_viewProj;\n"
    "uniform bool u_rawWeights;\n"
    "uniform bool u_normalsByMatrix;\n"
    "uniform int u_debug;\n" /* 0: blended joint colours, 1: dominant joint */
    "layout(location = 0) in vec3 a_position;\n"
    "layout(location = 1) in vec3 a_normal;\n"
    "layout(location = 2) in uvec4 a_joint0;\n"
    "layout(location = 3) in vec4 a_weight0;\n"
    "layout(location = 4) in uvec4 a_joint1;\n"
    "layout(location = 5) in vec4 a_weight1;\n"
    "layout(location = 6) in vec2 a_texcoord;\n"
    "layout(location = 7) in vec4 a_color;\n"
    "out vec3 v_position;\n"
    "out vec3 v_normal;\n"
    "out vec3 v_debug;\n"
    "out vec2 v_texcoord;\n"
    "out vec4 v_color;\n"
    /* A distinct colour per joint: golden-ratio hue steps, HSV -> RGB. */
    "vec3 jointColor(uint j) {\n"
    "    float h = fract(float(j) * 0.61803398875);\n"
    "    vec3 k = clamp(abs(fract(h + vec3(1.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0"
    " - 3.0) - 1.0, 0.0, 1.0);\n"
    "    return 0.95 * mix(vec3(1.0), k, 0.7);\n"
    "}\n";

/* The joint blend: dual quaternions or matrices (split from the rest only
 * to keep each string under C's portable 4095-character limit). */
const char skin_vertex_blend[] =
    "#ifdef DUAL_QUATERNION\n"
    /* Influences in order (set 0, then set 1) so the pivot, the first one
     * with a non-zero weight, is the CPU job's. */
    "float weightAt(int i) { return i < 4 ? a_weight0[i] : a_weight1[i - 4]; "
    "}\n"
    "uint jointAt(int i) { return i < 4 ? a_joint0[i] : a_joint1[i - 4]; }\n"
    /* DQS with scale, as dqs_reference.c: sign toward the pivot, blend,
     * normalise by |real|; S blended linearly; A = rotation * S. */
    "mat4 blendJoints(float scale) {\n"
    "    vec4 real = vec4(0.0), dual = vec4(0.0), pivot = vec4(0.0);\n"
    "    mat3 s = mat3(0.0);\n"
    "    bool havePivot = false;\n"
    "    for (int i = 0; i < 8; ++i) {\n"
    "        float w = weightAt(i);\n"
    "        if (w == 0.0) continue;\n"
    "        w *= scale;\n"
    "        uint j = jointAt(i);\n"
    "        vec4 r = jointVec(j, 0);\n"
    "        if (!havePivot) { pivot = r; havePivot = true; }\n"
    "        float sw = dot(r, pivot) < 0.0 ? -w : w;\n"
    "        real += sw * r;\n"
    "        dual += sw * jointVec(j, 1);\n"
    "        s += w * mat3(jointVec(j, 2).xyz, jointVec(j, 3).xyz,\n"
    "                      jointVec(j, 4).xyz);\n"
    "    }\n"
    "    float len = length(real);\n"
    "    if (len == 0.0) return mat4(s);\n"
    "    real /= len;\n"
    "    dual /= len;\n"
    "    vec3 q = real.xyz;\n"
    "    float qw = real.w;\n"
    "    mat3 rot = mat3(\n"
    "        1.0 - 2.0 * (q.y * q.y + q.z * q.z), 2.0 * (q.x * q.y + q.z * qw),"
    "\n"
    "        2.0 * (q.x * q.z - q.y * qw),\n"
    "        2.0 * (q.x * q.y - q.z * qw), 1.0 - 2.0 * (q.x * q.x + q.z * q.z),"
    "\n"
    "        2.0 * (q.y * q.z + q.x * qw),\n"
    "        2.0 * (q.x * q.z + q.y * qw), 2.0 * (q.y * q.z - q.x * qw),\n"
    "        1.0 - 2.0 * (q.x * q.x + q.y * q.y));\n"
    "    vec3 t = 2.0 * (qw * dual.xyz - dual.w * q + cross(q, dual.xyz));\n"
    "    mat3 a = rot * s;\n"
    "    return mat4(vec4(a[0], 0.0), vec4(a[1], 0.0), vec4(a[2], 0.0),\n"
    "                vec4(t, 1.0));\n"
    "}\n"
    "#else\n"
    "mat4 blendJoints(float scale) {\n"
    "    mat4 skin = mat4(0.0);\n"
    "    for (int i = 0; i < 4; ++i) {\n"
    /* A zero weight adds nothing, even from an unused joint slot. */
    "        if (a_weight0[i] != 0.0)\n"
    "            skin += (a_weight0[i] * scale) * jointMat(a_joint0[i]);\n"
    "        if (a_weight1[i] != 0.0)\n"
    "            skin += (a_weight1[i] * scale) * jointMat(a_joint1[i]);\n"
    "    }\n"
    "    return skin;\n"
    "}\n"
    "#endif\n";

const char skin_vertex_main[] =
    "void main() {\n"
    "    float sum = dot(a_weight0, vec4(1.0)) + dot(a_weight1, vec4(1.0));\n"
    "    float scale = 1.0;\n"
    "    mat4 skin = mat4(1.0);\n"
    "    if (u_rawWeights || (sum > 0.0 && !isinf(sum))) {\n"
    "        if (!u_rawWeights) scale = 1.0 / sum;\n"
    "        skin = blendJoints(scale);\n"
    "    }\n"
    "    vec4 world = skin * vec4(a_position, 1.0);\n"
    "    mat3 m = mat3(skin);\n"
    "    mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], "
    "m[1]));\n"
    "    if (dot(m[0], cof[0]) < 0.0) cof = -cof;\n"
    "    vec3 n = u_normalsByMatrix ? m * a_normal : cof * a_normal;\n"
    "    float len = length(n);\n"
    "    v_normal = len > 0.0 ? n / len : vec3(0.0);\n"
    "    v_position = world.xyz;\n"
    "    vec3 blended = vec3(0.0);\n"
    "    uint best = a_joint0.x;\n"
    "    float bestWeight = -1.0;\n"
    "    for (int i = 0; i < 4; ++i) {\n"
    "        blended += a_weight0[i] * jointColor(a_joint0[i]);\n"
    "        blended += a_weight1[i] * jointColor(a_joint1[i]);\n"
    "        if (a_weight0[i] > bestWeight) { bestWeight = a_weight0[i]; best "
    "= a_joint0[i]; }\n"
    "    }\n"
    "    for (int i = 0; i < 4; ++i)\n"
    "        if (a_weight1[i] > bestWeight) { bestWeight = a_weight1[i]; best "
    "= a_joint1[i]; }\n"
    "    v_debug = u_debug == 0 ? (sum > 0.0 ? blended / sum : vec3(0.5))\n"
    "                           : jointColor(best);\n"
    "    v_texcoord = a_texcoord;\n"
    "    v_color = a_color;\n"
    "    gl_Position = u_viewProj * vec4(world.xyz, 1.0);\n"
    "}\n";

/* Half-lambert ("wrap") lighting: 0.5 * dot(n, l) + 0.5, so the side away
 * from the light is dim, not black. Both faces are lit (flip on the back).
 * The shaded view's base colour is glTF 2.0's (§3.9.2): factor x texture
 * (KHR_texture_transform's matrix applied to the coordinates) x COLOR_0;
 * MASK discards below the cutoff and then is opaque, OPAQUE ignores
 * alpha, BLEND keeps it. The texture's bytes are used as the colours to
 * show, as the factor is: no sRGB decoding, as there is no linear
 * lighting to decode for. */
const char skin_fragment_shader[] =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform int u_mode;\n"
    "uniform vec4 u_color;\n"
    "uniform vec3 u_lightDir;\n"
    "uniform sampler2D u_baseTex;\n"
    "uniform bool u_hasTex;\n"
    "uniform mat3 u_uvTransform;\n"
    "uniform int u_alphaMode;\n" /* vs_alpha_mode */
    "uniform float u_alphaCutoff;\n"
    "in vec3 v_position;\n"
    "in vec3 v_normal;\n"
    "in vec3 v_debug;\n"
    "in vec2 v_texcoord;\n"
    "in vec4 v_color;\n"
    "out vec4 fragColor;\n"
    "void main() {\n"
    "    vec3 n = v_normal;\n"
    "    float len = length(n);\n"
    "    n = len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);\n"
    "    if (!gl_FrontFacing) n = -n;\n"
    "    if (u_mode == 0) {\n"
    "        vec4 base = u_color * v_color;\n"
    "        if (u_hasTex)\n"
    "            base *= texture(u_baseTex, (u_uvTransform * "
    "vec3(v_texcoord, 1.0)).xy);\n"
    "        if (u_alphaMode == 1 && base.a < u_alphaCutoff) discard;\n"
    "        if (u_alphaMode != 2) base.a = 1.0;\n"
    "        float d = 0.5 * dot(n, u_lightDir) + 0.5;\n"
    "        fragColor = vec4(base.rgb * d, base.a);\n"
    "    } else if (u_mode == 1) {\n"
    "        fragColor = u_color;\n"
    "    } else if (u_mode == 2) {\n"
    "        fragColor = vec4(v_debug, 1.0);\n"
    "    } else {\n"
    "        fragColor = vec4(n * 0.5 + 0.5, 1.0);\n"
    "    }\n"
    "}\n";

/* Skeleton overlay: world-space points, one colour per draw. */
const char overlay_vertex_shader[] =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform mat4 u_viewProj;\n"
    "uniform float u_pointSize;\n"
    "layout(location = 0) in vec3 a_position;\n"
    "void main() {\n"
    "    gl_Position = u_viewProj * vec4(a_position, 1.0);\n"
    "    gl_PointSize = u_pointSize;\n"
    "}\n";

const char overlay_fragment_shader[] = "#version 300 es\n"
                                       "precision highp float;\n"
                                       "uniform vec4 u_color;\n"
                                       "out vec4 fragColor;\n"
                                       "void main() { fragColor = u_color; }\n";
