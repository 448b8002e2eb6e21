/* SPDX-License-Identifier: MIT */
/* COLLADA 1.4.1 transformation elements (spec chapter 5, "Transform
 * elements") as column-major matrices, and a node's stack as their product in
 * document order. */
#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#include "base/xform.h"
#include "load/collada/collada_internal.h"

static const float deg_to_rad = 0.017453292519943295f;

/* <matrix>: "a 4x4 matrix ... in row-major order" (spec, <matrix>). */
static void matrix_element(const float v[16], float out[16])
{
    for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 4; ++col)
            out[col * 4 + row] = v[row * 4 + col];
}

/* <rotate>: axis then angle in degrees; a right-handed rotation about the
 * normalized axis. A zero axis rotates about nothing: identity. */
static void rotate_element(const float v[4], float out[16])
{
    vec3 axis = {v[0], v[1], v[2]};
    float len = glm_vec3_norm(axis);
    xform_identity(out);
    if (!(len > 0.0f) || !isfinite(len)) return;
    glm_vec3_scale(axis, 1.0f / len, axis);
    mat4 m;
    glm_rotate_make(m, v[3] * deg_to_rad, axis);
    memcpy(out, m, sizeof(float) * 16);
}

/* <lookat>: eye, interest, up. The spec describes it as positioning and
 * aiming an object (typically a camera) at eye, looking at interest, so the
 * node's local -Z points at interest and +Y is up as far as possible: the
 * inverse of the gluLookAt view matrix, i.e. columns (right, up', -forward,
 * eye). Degenerate input (eye == interest, up parallel to the view) keeps the
 * translation and no rotation. */
static void lookat_element(const float v[9], float out[16])
{
    vec3 eye = {v[0], v[1], v[2]}, interest = {v[3], v[4], v[5]},
         up = {v[6], v[7], v[8]};
    vec3 f, r, u;
    xform_identity(out);
    out[12] = eye[0];
    out[13] = eye[1];
    out[14] = eye[2];
    glm_vec3_sub(interest, eye, f);
    glm_vec3_cross(f, up, r);
    float fl = glm_vec3_norm(f), rl = glm_vec3_norm(r);
    if (!(fl > 0.0f) || !(rl > 1e-6f * fl * glm_vec3_norm(up))) return;
    glm_vec3_scale(f, 1.0f / fl, f);
    glm_vec3_scale(r, 1.0f / rl, r);
    glm_vec3_cross(r, f, u);
    for (int i = 0; i < 3; ++i) {
        out[0 + i] = r[i];
        out[4 + i] = u[i];
        out[8 + i] = -f[i];
    }
}

/* <skew>: angle in degrees, rotation axis a, translation axis b, "as in the
 * RenderMan specification" (RiSkew): points move parallel to b, and points on
 * a are mapped onto a rotated by angle towards b. With u the unit part of a
 * perpendicular to b and phi the angle between a and u:
 *     p' = p + (tan(phi + angle) - tan(phi)) * (u . p) * b
 * For perpendicular unit axes this is the familiar I + tan(angle) * b a^T
 * (OpenCOLLADA's and FCollada's form). Parallel or zero axes: identity.
 * Returns false when there is no shear (*k = 0); else the unit axes and the
 * shear factor k. */
static bool skew_shear(const float v[7], vec3 b, vec3 u, double *k)
{
    vec3 a = {v[1], v[2], v[3]};
    glm_vec3_copy((vec3){v[4], v[5], v[6]}, b);
    *k = 0.0;
    float bl = glm_vec3_norm(b);
    if (!(bl > 0.0f)) return false;
    glm_vec3_scale(b, 1.0f / bl, b);
    float along = glm_vec3_dot(a, b);
    glm_vec3_scale(b, along, u);
    glm_vec3_sub(a, u, u);
    float ul = glm_vec3_norm(u);
    if (!(ul > 1e-6f * glm_vec3_norm(a))) return false;
    glm_vec3_scale(u, 1.0f / ul, u);
    double phi = atan2((double)along, (double)ul);
    *k = tan(phi + (double)v[0] * (3.14159265358979323846 / 180.0)) - tan(phi);
    return true;
}

bool collada_skew_degenerate(const float v[7], double *shear)
{
    vec3 b, u;
    skew_shear(v, b, u, shear);
    /* I + k b u^T (u perpendicular to b) has determinant 1 but singular
     * values near |k| and 1/|k|: its condition number is about k^2, so from
     * |k| = 1/sqrt(FLT_EPSILON) on its float inverse keeps no correct digit
     * (inverse bind matrices, world inverses). NaN fails the test too. */
    return !(fabs(*shear) < COLLADA_SKEW_MAX_SHEAR);
}

static void skew_element(const float v[7], float out[16])
{
    vec3 b, u;
    double k;
    xform_identity(out);
    if (!skew_shear(v, b, u, &k) || !(fabs(k) < COLLADA_SKEW_MAX_SHEAR)) return;
    for (int col = 0; col < 3; ++col)
        for (int row = 0; row < 3; ++row)
            out[col * 4 + row] += (float)(k * b[row] * u[col]);
}

void collada_xform_matrix(const collada_xform *xform, float out[16])
{
    const float *v = xform->values;
    switch (xform->kind) {
    case COLLADA_XF_MATRIX:
        matrix_element(v, out);
        return;
    case COLLADA_XF_TRANSLATE:
        xform_identity(out);
        out[12] = v[0];
        out[13] = v[1];
        out[14] = v[2];
        return;
    case COLLADA_XF_ROTATE:
        rotate_element(v, out);
        return;
    case COLLADA_XF_SCALE:
        xform_identity(out);
        out[0] = v[0];
        out[5] = v[1];
        out[10] = v[2];
        return;
    case COLLADA_XF_LOOKAT:
        lookat_element(v, out);
        return;
    case COLLADA_XF_SKEW:
        skew_element(v, out);
        return;
    }
    xform_identity(out);
}

void collada_stack_matrix(const collada_xform *xforms, uint32_t count,
                          float out[16])
{
    float m[16];
    xform_identity(out);
    /* Spec, <node>: the transforms are "post-multiplied in the order in which
     * they are specified", so with column vectors M = X1 * X2 * ... * Xn. */
    for (uint32_t i = 0; i < count; ++i) {
        collada_xform_matrix(&xforms[i], m);
        xform_mul(out, m, out);
    }
}
