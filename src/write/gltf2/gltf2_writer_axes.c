/* SPDX-License-Identifier: MIT */
/* glTF 2.0 is Y-up and in metres (§3.4). COLLADA declares its axes and unit
 * in <asset> (COLLADA 1.4.1 §5-16: Y_UP has right +X, up +Y; Z_UP right +X,
 * up +Z, in -Y; X_UP right -Y, up +X). The correction C = R * s maps them to
 * Y-up metres; the writer applies it to every root node (C * T*R*S =
 * T(s*R*t) * R(q*r) * S(s*S), because C is a rotation times a uniform
 * scale), so nothing else changes: inverse bind matrices stay valid and
 * every posed world position p becomes C * p. */
#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#include "base/xform.h"
#include "write/gltf2/gltf2_writer.h"

/* q (x, y, z, w) and s of the correction; false when it is the identity. */
static bool correction(const vs_asset *asset, float q[4], float *s)
{
    const float h = 0.70710678118654752f; /* sin(45 deg) = cos(45 deg) */
    q[0] = q[1] = q[2] = 0.0f;
    q[3] = 1.0f;
    if (asset->up_axis == VS_UP_Z) {
        /* -90 deg about X: (x, y, z) -> (x, z, -y), up +Z becomes +Y. */
        q[0] = -h;
        q[3] = h;
    } else if (asset->up_axis == VS_UP_X) {
        /* +90 deg about Z: (x, y, z) -> (-y, x, z), up +X becomes +Y. */
        q[2] = h;
        q[3] = h;
    }
    float unit = asset->unit_meters;
    *s = isfinite(unit) && unit > 0.0f ? unit : 1.0f;
    return asset->up_axis != VS_UP_Y || *s != 1.0f;
}

bool gltf2_axis_correction(const vs_asset *asset, float out[16])
{
    vs_trs trs;
    xform_trs_identity(&trs);
    float s;
    bool needed = correction(asset, trs.rotation, &s);
    trs.scale[0] = trs.scale[1] = trs.scale[2] = s;
    xform_from_trs(&trs, out);
    return needed;
}

/* Sets up c->correct and its q, s, matrix from the asset. */
void gltf2w_setup_correction(gltf2w_ctx *c, bool keep_axes)
{
    c->correct =
        !keep_axes && correction(c->asset, c->correction_q, &c->correction_s);
    gltf2_axis_correction(c->asset, c->correction);
    c->report->axes_corrected = c->correct;
}

/* cglm's SIMD paths want its own 16-byte aligned types: the values are
 * copied in and out rather than passed in place. */
static void correct_vec(const gltf2w_ctx *c, float *v)
{
    versor q;
    vec3 in, out;
    memcpy(q, c->correction_q, sizeof q);
    memcpy(in, v, sizeof in);
    glm_quat_rotatev(q, in, out);
    for (int k = 0; k < 3; ++k)
        v[k] = out[k] * c->correction_s;
}

static void correct_quat(const gltf2w_ctx *c, float *r)
{
    versor q, in, out;
    memcpy(q, c->correction_q, sizeof q);
    memcpy(in, r, sizeof in);
    glm_quat_mul(q, in, out);
    memcpy(r, out, sizeof out);
}

bool gltf2w_corrects(const gltf2w_ctx *c, uint32_t node)
{
    const vs_node *n = &c->asset->nodes[node];
    /* A skinned mesh node's own transform is ignored (glTF 2.0 §3.7.3.3):
     * without children nothing would use the correction, and the validator
     * warns about such a transform (NODE_SKINNED_MESH_LOCAL_TRANSFORMS). */
    bool ignored = n->skin >= 0 && n->mesh >= 0 && n->child_count == 0;
    return c->correct && n->parent < 0 && !ignored;
}

void gltf2w_correct_trs(const gltf2w_ctx *c, vs_trs *trs)
{
    correct_vec(c, trs->translation);
    correct_quat(c, trs->rotation);
    for (int k = 0; k < 3; ++k)
        trs->scale[k] *= c->correction_s;
}

/* Each map is linear, so CUBICSPLINE tangents transform like the values. */
void gltf2w_correct_values(const gltf2w_ctx *c, vs_anim_path path,
                           float *values, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        if (path == VS_PATH_TRANSLATION)
            correct_vec(c, values + 3 * i);
        else if (path == VS_PATH_ROTATION)
            correct_quat(c, values + 4 * i);
        else if (path == VS_PATH_SCALE)
            for (int k = 0; k < 3; ++k)
                values[3 * i + k] *= c->correction_s;
    }
}
