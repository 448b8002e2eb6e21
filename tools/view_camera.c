/* SPDX-License-Identifier: MIT */
/* Orbit, pan and zoom of the viewer's camera (view_camera.h). */
#include "view_camera.h"

#include <math.h>

#define PI_F 3.14159265f
/* Closest the view direction comes to the up axis, in radians: at the pole
 * the look-at basis has no right vector. */
#define POLE_MARGIN 0.02f

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static bool normalize3(float v[3])
{
    float len = sqrtf(dot3(v, v));
    if (!(len > 0.0f) || !isfinite(len)) return false;
    for (int k = 0; k < 3; ++k)
        v[k] /= len;
    return true;
}

static void up_of(const vs_camera *cam, float up[3])
{
    for (int k = 0; k < 3; ++k)
        up[k] = cam->up[k];
    if (!normalize3(up)) {
        up[0] = up[2] = 0.0f;
        up[1] = 1.0f;
    }
}

/* Rodrigues' rotation of v about the unit axis by angle radians. */
static void rotate(float v[3], const float axis[3], float angle)
{
    float c = cosf(angle), s = sinf(angle), k[3], out[3];
    cross3(axis, v, k);
    float d = dot3(axis, v);
    for (int i = 0; i < 3; ++i)
        out[i] = v[i] * c + k[i] * s + axis[i] * d * (1.0f - c);
    for (int i = 0; i < 3; ++i)
        v[i] = out[i];
}

void view_camera_orbit(vs_camera *cam, float yaw_deg, float pitch_deg)
{
    float up[3], off[3], right[3];
    up_of(cam, up);
    for (int k = 0; k < 3; ++k)
        off[k] = cam->eye[k] - cam->target[k];
    float dist = sqrtf(dot3(off, off));
    if (!(dist > 0.0f)) return;
    rotate(off, up, -yaw_deg * PI_F / 180.0f);
    /* The angle between the offset and up stays within the margins. */
    float angle = acosf(fmaxf(-1.0f, fminf(1.0f, dot3(off, up) / dist)));
    float pitch = pitch_deg * PI_F / 180.0f;
    float lo = POLE_MARGIN - angle, hi = PI_F - POLE_MARGIN - angle;
    pitch = fmaxf(lo, fminf(hi, pitch));
    cross3(up, off, right);
    if (normalize3(right)) rotate(off, right, pitch);
    for (int k = 0; k < 3; ++k)
        cam->eye[k] = cam->target[k] + off[k];
}

void view_camera_pan(vs_camera *cam, float dx, float dy, float height)
{
    float up[3], fwd[3], right[3], cam_up[3];
    up_of(cam, up);
    for (int k = 0; k < 3; ++k)
        fwd[k] = cam->target[k] - cam->eye[k];
    float dist = sqrtf(dot3(fwd, fwd));
    if (!normalize3(fwd) || !(height > 0.0f)) return;
    cross3(fwd, up, right);
    if (!normalize3(right)) return;
    cross3(right, fwd, cam_up);
    float world_h = cam->orthographic
                        ? cam->ortho_height
                        : 2.0f * dist * tanf(cam->fov_y * PI_F / 360.0f);
    float per_pixel = world_h / height;
    float eye[3], target[3];
    for (int k = 0; k < 3; ++k) {
        float move = (-dx * right[k] + dy * cam_up[k]) * per_pixel;
        eye[k] = cam->eye[k] + move;
        target[k] = cam->target[k] + move;
        /* A move past float's range would leave no camera to come back
         * from (F frames again, but the view would be empty meanwhile). */
        if (!isfinite(eye[k]) || !isfinite(target[k])) return;
    }
    for (int k = 0; k < 3; ++k) {
        cam->eye[k] = eye[k];
        cam->target[k] = target[k];
    }
}

void view_camera_zoom(vs_camera *cam, float factor)
{
    if (!(factor > 0.0f) || !isfinite(factor)) return;
    float off[3];
    for (int k = 0; k < 3; ++k)
        off[k] = cam->eye[k] - cam->target[k];
    float dist = sqrtf(dot3(off, off));
    float next = dist * factor;
    if (!(next > 1e-4f) || !(next < 1e7f)) return;
    for (int k = 0; k < 3; ++k)
        cam->eye[k] = cam->target[k] + off[k] * factor;
    if (cam->orthographic) cam->ortho_height *= factor;
    /* The framed clip planes keep their distances to the target; zero
     * planes stay derived by the renderer. */
    if (cam->far_plane > 0.0f) {
        cam->far_plane += next - dist;
        cam->near_plane = fmaxf(cam->near_plane + next - dist, next * 0.01f);
    }
}
