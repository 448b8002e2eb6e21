/* SPDX-License-Identifier: MIT */
/* Blends an RGBA picture (a text panel of view_text.h) over the frame the
 * viewer drew, in its OpenGL ES 3.0 context: one texture, one textured
 * quad, and every piece of GL state it changes put back, so the 3-D
 * drawing of the next frame starts as it would without it. */
#ifndef VS_TOOLS_VIEW_OVERLAY_H
#define VS_TOOLS_VIEW_OVERLAY_H

#include <stdbool.h>
#include <stdint.h>

typedef struct view_overlay {
    unsigned program, texture, vao;
    bool failed; /* the program would not build: the overlay stays off */
} view_overlay;

/* Draws rgba (width x height pixels, the top row first) with its top-left
 * corner at pixel x, y (from the top-left) of the default framebuffer,
 * which is framebuffer_height pixels tall, blended by the picture's alpha;
 * the framebuffer's own alpha is kept. Makes the program on the first call
 * (the context current); false, printed once, when the driver refuses it. */
bool view_overlay_draw(view_overlay *overlay, const uint8_t *rgba, int width,
                       int height, int x, int y, int framebuffer_height);
/* Frees the GL objects (the context current). */
void view_overlay_release(view_overlay *overlay);

#endif
