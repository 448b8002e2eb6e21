/* SPDX-License-Identifier: MIT */
/* The viewer's camera moves: orbit around the target, pan in the view
 * plane and zoom towards the target, each on a vs_camera as
 * vs_camera_frame_clip made it. */
#ifndef VS_TOOLS_VIEW_CAMERA_H
#define VS_TOOLS_VIEW_CAMERA_H

#include "vskin/vskin_render.h"

/* Turns the eye around the target: yaw_deg about the camera's up axis,
 * pitch_deg about its right axis; the pitch stops short of the poles so
 * that the view never flips. */
void view_camera_orbit(vs_camera *cam, float yaw_deg, float pitch_deg);
/* Moves eye and target together by dx, dy pixels of a viewport
 * `height` pixels high, so the point under the cursor follows it. */
void view_camera_pan(vs_camera *cam, float dx, float dy, float height);
/* Scales the eye's distance to the target (and the orthographic height)
 * by factor, kept within a range that stays finite. */
void view_camera_zoom(vs_camera *cam, float factor);

#endif
