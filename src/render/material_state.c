/* SPDX-License-Identifier: MIT */
/* The shaded view's per-primitive material state and the depth that orders
 * BLEND primitives back to front (render_internal.h). */
#include <math.h>
#include <string.h>

#include "render/render_internal.h"
#include "render/shaders.h"

static const vs_material *material_of(const vs_asset *a,
                                      const gpu_primitive *gp)
{
    int32_t m = gp->prim->material;
    return m >= 0 && (uint32_t)m < a->material_count ? &a->materials[m] : NULL;
}

bool material_blends(const vs_asset *asset, const gpu_primitive *gp)
{
    const vs_material *m = material_of(asset, gp);
    return m && m->alpha_mode == VS_ALPHA_BLEND;
}

/* KHR_texture_transform: translation * rotation * scale with the
 * extension's own GLSL matrices (its rotation has columns (cos, sin) and
 * (-sin, cos)), column-major for glUniformMatrix3fv. */
static void uv_matrix(const vs_texture_ref *t, float out[9])
{
    float c = cosf(t->rotation), s = sinf(t->rotation);
    float sx = t->scale[0], sy = t->scale[1];
    const float m[9] = {c * sx,       s * sx,       0.0f, /* column 0 */
                        -s * sy,      c * sy,       0.0f, /* column 1 */
                        t->offset[0], t->offset[1], 1.0f};
    memcpy(out, m, sizeof m);
}

/* glTF sampler enums are GL's; zero takes glTF's usual defaults. */
static void apply_sampler(const vs_sampler *s)
{
    GLint mag = s->mag_filter ? (GLint)s->mag_filter : GL_LINEAR;
    GLint min = s->min_filter ? (GLint)s->min_filter : GL_LINEAR_MIPMAP_LINEAR;
    GLint ws = s->wrap_s ? (GLint)s->wrap_s : GL_REPEAT;
    GLint wt = s->wrap_t ? (GLint)s->wrap_t : GL_REPEAT;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, ws);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wt);
}

void material_reset(const skin_program *sp)
{
    static const float identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    glUniform1i(sp->u_has_tex, 0);
    glUniform1i(sp->u_alpha_mode, VS_ALPHA_OPAQUE);
    glUniform1f(sp->u_alpha_cutoff, 0.5f);
    glUniformMatrix3fv(sp->u_uv_transform, 1, GL_FALSE, identity);
    glDisable(GL_CULL_FACE);
}

void material_apply(vs_renderer *r, const skin_program *sp,
                    const gpu_primitive *gp)
{
    static const float fallback[4] = {0.8f, 0.8f, 0.8f, 1.0f};
    const vs_material *m = material_of(r->asset, gp);
    material_reset(sp);
    glUniform4fv(sp->u_color, 1, m ? m->base_color : fallback);
    if (!m) return;
    glUniform1i(sp->u_alpha_mode, (GLint)m->alpha_mode);
    glUniform1f(sp->u_alpha_cutoff, m->alpha_cutoff);
    /* glTF 2.0 §3.9.5: back faces of a single-sided material are not
     * drawn; front faces wind counter-clockwise. A primitive without a
     * material keeps both faces, as the other views do. */
    if (!m->double_sided) {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glFrontFace(GL_CCW);
    }
    const vs_texture_ref *t = &m->base_color_texture;
    if (t->image < 0) return;
    if (!gp->prim->base_color_texcoords) {
        texture_cache_warn_texcoords(&r->textures,
                                     (uint32_t)gp->prim->material);
        return;
    }
    GLuint tex = texture_cache_get(&r->textures, (uint32_t)t->image);
    if (!tex) return;
    glActiveTexture(GL_TEXTURE0 + BASE_COLOR_UNIT);
    glBindTexture(GL_TEXTURE_2D, tex);
    apply_sampler(&t->sampler);
    glActiveTexture(GL_TEXTURE0);
    float uv[9];
    uv_matrix(t, uv);
    glUniformMatrix3fv(sp->u_uv_transform, 1, GL_FALSE, uv);
    glUniform1i(sp->u_has_tex, 1);
}

float primitive_depth(vs_renderer *r, const vs_pose *pose,
                      const gpu_primitive *gp, const float vp[16])
{
    if (gp->center_vertex < 0) return INFINITY;
    const vs_primitive *prim = gp->prim;
    const vs_node *n = &r->asset->nodes[gp->node];
    const float *p = prim->positions + gp->center_vertex * 3;
    float m[16] = {0};
    bool skinned = false;
    if (n->skin >= 0 && prim->influence_count > 0 &&
        vs_pose_joint_matrices(pose, (uint32_t)n->skin, -1, r->joint_scratch,
                               NULL) == VS_OK) {
        uint32_t joints = r->asset->skins[n->skin].joint_count;
        const uint16_t *j =
            prim->joints + gp->center_vertex * prim->influence_count;
        const float *w =
            prim->weights + gp->center_vertex * prim->influence_count;
        float sum = 0.0f;
        for (uint32_t i = 0; i < prim->influence_count; ++i) {
            if (w[i] == 0.0f || j[i] >= joints) continue;
            for (int k = 0; k < 16; ++k)
                m[k] += w[i] * r->joint_scratch[(size_t)j[i] * 16 + k];
            sum += w[i];
        }
        skinned = sum > 0.0f;
        if (skinned)
            for (int k = 0; k < 16; ++k)
                m[k] /= sum;
    }
    if (!skinned) memcpy(m, vs_pose_world(pose, gp->node), sizeof m);
    float world[4], clip[4];
    for (int i = 0; i < 4; ++i)
        world[i] = m[i] * p[0] + m[4 + i] * p[1] + m[8 + i] * p[2] + m[12 + i];
    for (int i = 0; i < 4; ++i)
        clip[i] = vp[i] * world[0] + vp[4 + i] * world[1] +
                  vp[8 + i] * world[2] + vp[12 + i] * world[3];
    float d = clip[3] != 0.0f ? clip[2] / clip[3] : INFINITY;
    return isfinite(d) ? d : INFINITY;
}
