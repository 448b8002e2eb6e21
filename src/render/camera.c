/* SPDX-License-Identifier: MIT */
/* Camera framing and matrices. Framing fits the bounding sphere (perspective)
 * or the projected box (orthographic) so a character stays in view; the CLI
 * frames the union of the bounds over the whole clip once, so the camera does
 * not move between the frames of a GIF. */
#include <cglm/cglm.h>
#include <float.h>
#include <math.h>

#include "base/error.h"
#include "vskin/vskin_render.h"

#define DEFAULT_FOV_Y 35.0f
#define MARGIN 1.08f

static void axes_for(vs_up_axis up_axis, vec3 front, vec3 up)
{
    /* front points from the target to the eye. */
    glm_vec3_zero(front);
    glm_vec3_zero(up);
    if (up_axis == VS_UP_Z) {
        front[1] = -1.0f; /* Z up: the front view looks along +Y */
        up[2] = 1.0f;
    } else {
        front[2] = 1.0f;
        up[up_axis == VS_UP_X ? 0 : 1] = 1.0f;
    }
}

/* 1 for a non-positive or non-finite aspect; the rest clamped to
 * [1e-6, 1e6], wider than any picture GL can hold, which keeps the
 * products with it finite. */
static float usable_aspect(float aspect)
{
    if (!(aspect > 0.0f) || !isfinite(aspect)) return 1.0f;
    return fminf(fmaxf(aspect, 1e-6f), 1e6f);
}

/* Every number finite, near < far, the eye apart from the target, and a
 * finite view-projection (a box far from the origin or of denormal size can
 * overflow the projection's products though the camera itself is finite). */
static bool camera_usable(const vs_camera *c, float aspect)
{
    bool ok = isfinite(c->ortho_height) && isfinite(c->near_plane) &&
              isfinite(c->far_plane) && c->near_plane > 0.0f &&
              c->far_plane > c->near_plane;
    bool apart = false;
    for (int k = 0; k < 3; ++k) {
        ok = ok && isfinite(c->eye[k]) && isfinite(c->target[k]) &&
             isfinite(c->up[k]);
        apart = apart || c->eye[k] != c->target[k];
    }
    if (!ok || !apart) return false;
    float vp[16];
    vs_camera_view_projection(c, aspect, vp);
    for (int k = 0; k < 16; ++k)
        if (!isfinite(vp[k])) return false;
    return true;
}

/* Frames [lo, hi]; false when that box gives no finite camera (a box that
 * is empty (min > max), not finite, or so large that its centre, extent or
 * the eye distance overflow). */
static bool frame_box(const float min[3], const float max[3],
                      vs_up_axis up_axis, float aspect, bool orthographic,
                      vs_camera *out)
{
    vec3 lo = {min[0], min[1], min[2]}, hi = {max[0], max[1], max[2]};
    vec3 center, ext, front, up, right;
    for (int k = 0; k < 3; ++k)
        if (!isfinite(lo[k]) || !isfinite(hi[k]) || lo[k] > hi[k]) return false;
    glm_vec3_center(lo, hi, center);
    glm_vec3_sub(hi, lo, ext);
    for (int k = 0; k < 3; ++k)
        if (!isfinite(center[k]) || !isfinite(ext[k])) return false;
    float size = glm_vec3_norm(ext);
    if (!(size > 0.0f) || !isfinite(size)) size = 2.0f;
    /* Far from the origin, a tiny box would put the eye within a float's
     * rounding of the target (a NaN view): it is framed at least as large
     * as 1e-4 of its distance from the origin. */
    float far_out =
        fmaxf(fabsf(center[0]), fmaxf(fabsf(center[1]), fabsf(center[2])));
    if (size < 1e-4f * far_out) size = 1e-4f * far_out;
    axes_for(up_axis, front, up);
    glm_vec3_cross(up, front, right);
    /* A box flat along the view direction (SimpleSkin lies in z = 0) is seen
     * straight on; anything else a little from above and from the right. */
    float depth = fabsf(glm_vec3_dot(ext, front));
    if (depth > 1e-4f * size) {
        vec3 f;
        glm_vec3_scale(front, 1.0f, f);
        glm_vec3_muladds(up, 0.3f, f);
        glm_vec3_muladds(right, 0.4f, f);
        glm_vec3_normalize_to(f, front);
        glm_vec3_cross(front, right, up);
        glm_vec3_cross(up, front, right);
        glm_vec3_normalize(up);
        glm_vec3_normalize(right);
    }
    float radius = 0.5f * size;
    *out = (vs_camera){.orthographic = orthographic, .fov_y = DEFAULT_FOV_Y};
    float dist;
    if (orthographic) {
        /* The box's extent across the view: sum of |axis . edge| per axis. */
        float hw = 0.5f * (fabsf(right[0]) * ext[0] + fabsf(right[1]) * ext[1] +
                           fabsf(right[2]) * ext[2]);
        float hh = 0.5f * (fabsf(up[0]) * ext[0] + fabsf(up[1]) * ext[1] +
                           fabsf(up[2]) * ext[2]);
        out->ortho_height = 2.0f * MARGIN * fmaxf(hh, hw / aspect);
        if (!(out->ortho_height > 0.0f)) out->ortho_height = size;
        dist = 2.0f * radius;
    } else {
        float half_v = glm_rad(DEFAULT_FOV_Y) * 0.5f;
        float half_h = atanf(tanf(half_v) * aspect);
        dist = MARGIN * radius / sinf(fminf(half_v, half_h));
    }
    for (int k = 0; k < 3; ++k) {
        out->target[k] = center[k];
        out->eye[k] = center[k] + front[k] * dist;
        out->up[k] = up[k];
    }
    out->near_plane = fmaxf(dist - 1.5f * radius, dist * 0.01f);
    out->far_plane = dist + 1.5f * radius;
    return camera_usable(out, aspect);
}

void vs_camera_frame_bounds(const float min[3], const float max[3],
                            vs_up_axis up_axis, float aspect, bool orthographic,
                            vs_camera *out)
{
    aspect = usable_aspect(aspect);
    if (frame_box(min, max, up_axis, aspect, orthographic, out)) return;
    /* Bounds that make no camera (no vertex, NaN or infinite positions)
     * frame the unit box at the origin: a picture, never a NaN matrix. */
    static const float unit_lo[3] = {-1.0f, -1.0f, -1.0f},
                       unit_hi[3] = {1.0f, 1.0f, 1.0f};
    frame_box(unit_lo, unit_hi, up_axis, aspect, orthographic, out);
}

vs_result vs_camera_frame_clip(const vs_asset *asset, int32_t clip,
                               uint32_t samples, float aspect,
                               bool orthographic, vs_camera *out,
                               vs_error *error)
{
    if (!asset || !out || (clip >= 0 && (uint32_t)clip >= asset->clip_count))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_camera_frame_clip: no asset, output or clip %d",
                         clip);
    vs_pose *pose = NULL;
    vs_result r = vs_pose_create(asset, &pose, error);
    if (r != VS_OK) return r;
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX},
          hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    bool any = false;
    uint32_t n = clip < 0 || samples == 0 ? 1 : samples;
    for (uint32_t s = 0; s < n && r == VS_OK; ++s) {
        vs_pose_reset(pose);
        if (clip >= 0) {
            const vs_clip *c = &asset->clips[clip];
            float t = n > 1 ? c->start + (c->end - c->start) * (float)s /
                                             (float)(n - 1)
                            : c->start;
            r = vs_pose_sample(pose, (uint32_t)clip, t, VS_TIME_CLAMP, error);
        }
        vs_pose_update_world(pose);
        float bmin[3], bmax[3];
        /* The fast (joint-matrix) bounds: conservative, so nothing leaves the
         * frame, and no vertex is skinned per sample. */
        bool some = false;
        if (r == VS_OK)
            r = vs_pose_fast_bounds(pose, NULL, bmin, bmax, &some, error);
        if (r == VS_OK && some) {
            any = true;
            for (int k = 0; k < 3; ++k) {
                lo[k] = fminf(lo[k], bmin[k]);
                hi[k] = fmaxf(hi[k], bmax[k]);
            }
        }
    }
    vs_pose_free(pose);
    if (r != VS_OK) return r;
    if (!any)
        for (int k = 0; k < 3; ++k)
            lo[k] = -1.0f, hi[k] = 1.0f;
    vs_camera_frame_bounds(lo, hi, asset->up_axis, aspect, orthographic, out);
    return VS_OK;
}

void vs_camera_view_projection(const vs_camera *camera, float aspect,
                               float out[16])
{
    vec3 eye = {camera->eye[0], camera->eye[1], camera->eye[2]};
    vec3 target = {camera->target[0], camera->target[1], camera->target[2]};
    vec3 up = {camera->up[0], camera->up[1], camera->up[2]};
    if (glm_vec3_norm2(up) == 0.0f) up[1] = 1.0f;
    aspect = usable_aspect(aspect);
    float dist = glm_vec3_distance(eye, target);
    if (!(dist > 0.0f)) dist = 1.0f;
    float znear = camera->near_plane > 0.0f ? camera->near_plane : dist * 0.01f;
    float zfar = camera->far_plane > znear ? camera->far_plane : dist * 100.0f;
    mat4 view, proj, vp;
    glm_lookat(eye, target, up, view);
    if (camera->orthographic) {
        float h =
            camera->ortho_height > 0.0f ? camera->ortho_height * 0.5f : dist;
        glm_ortho(-h * aspect, h * aspect, -h, h, znear, zfar, proj);
    } else {
        float fov = camera->fov_y > 0.0f && camera->fov_y < 180.0f
                        ? camera->fov_y
                        : DEFAULT_FOV_Y;
        glm_perspective(glm_rad(fov), aspect, znear, zfar, proj);
    }
    glm_mat4_mul(proj, view, vp);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            out[c * 4 + r] = vp[c][r];
}
