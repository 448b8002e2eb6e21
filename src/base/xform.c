/* SPDX-License-Identifier: MIT */
/* 4x4 transform helpers on column-major float[16], built on cglm (xform.h). */
#include "base/xform.h"

#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#include "base/affine.h"

static void to_mat4(const float m[16], mat4 out) { memcpy(out, m, sizeof(float) * 16); }
static void from_mat4(mat4 m, float out[16]) { memcpy(out, m, sizeof(float) * 16); }

void xform_identity(float out[16])
{
    memset(out, 0, sizeof(float) * 16);
    out[0] = out[5] = out[10] = out[15] = 1.0f;
}

void xform_copy(const float src[16], float dst[16])
{
    memmove(dst, src, sizeof(float) * 16);
}

bool xform_is_identity(const float m[16], float tolerance)
{
    for (int i = 0; i < 16; ++i) {
        float want = (i % 5 == 0) ? 1.0f : 0.0f;
        if (!(fabsf(m[i] - want) <= tolerance)) return false;
    }
    return true;
}

void xform_trs_identity(vs_trs *out)
{
    memset(out, 0, sizeof *out);
    out->rotation[3] = 1.0f;
    out->scale[0] = out->scale[1] = out->scale[2] = 1.0f;
}

void xform_from_trs(const vs_trs *trs, float out[16])
{
    affine_from_trs(trs, out);
}

void xform_decompose(const float m[16], vs_trs *out)
{
    mat4 a, r;
    vec4 t;
    vec3 s;
    to_mat4(m, a);
    glm_decompose(a, t, r, s);
    if (glm_mat4_det(a) < 0.0f) {
        /* Mirror: fold the reflection into the x scale so R stays a rotation. */
        s[0] = -s[0];
        glm_vec4_negate(r[0]);
    }
    versor q;
    glm_mat4_quat(r, q);
    glm_quat_normalize(q);
    memcpy(out->translation, t, sizeof(float) * 3);
    memcpy(out->rotation, q, sizeof(float) * 4);
    memcpy(out->scale, s, sizeof(float) * 3);
}

void xform_mul(const float a[16], const float b[16], float out[16])
{
    mat4 ma, mb, mo;
    to_mat4(a, ma);
    to_mat4(b, mb);
    glm_mat4_mul(ma, mb, mo);
    from_mat4(mo, out);
}

bool xform_invert(const float m[16], float out[16])
{
    /* Invert in double: joint chains multiply errors, and near-singular IBMs
     * are common in exported files. */
    double inv[16], a[16];
    for (int i = 0; i < 16; ++i) a[i] = m[i];
    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] +
             a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] -
             a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] +
             a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] -
              a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] -
             a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] +
             a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] -
             a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] +
              a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] +
             a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] -
             a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] +
              a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] -
              a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] -
             a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] +
             a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] -
              a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] +
              a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5];
    double det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    if (det == 0.0 || !isfinite(det)) {
        xform_identity(out);
        return false;
    }
    for (int i = 0; i < 16; ++i) out[i] = (float)(inv[i] / det);
    return true;
}

void xform_transform_point(const float m[16], const float p[3], float out[3])
{
    float x = p[0], y = p[1], z = p[2];
    out[0] = m[0] * x + m[4] * y + m[8] * z + m[12];
    out[1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    out[2] = m[2] * x + m[6] * y + m[10] * z + m[14];
}

void xform_transform_vector(const float m[16], const float v[3], float out[3])
{
    float x = v[0], y = v[1], z = v[2];
    out[0] = m[0] * x + m[4] * y + m[8] * z;
    out[1] = m[1] * x + m[5] * y + m[9] * z;
    out[2] = m[2] * x + m[6] * y + m[10] * z;
}
