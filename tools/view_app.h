/* SPDX-License-Identifier: MIT */
/* The viewer's state and what each input does to it: playback, views,
 * camera moves, drawing a frame into the window and screenshots. It knows
 * nothing of GLFW: cmd_view.c turns window events and --script steps into
 * these calls. */
#ifndef VS_TOOLS_VIEW_APP_H
#define VS_TOOLS_VIEW_APP_H

#include <stdbool.h>
#include <stddef.h>

#include "view_keys.h"
#include "view_overlay.h"
#include "vskin/vskin_render.h"

typedef struct view_app {
    const vs_asset *asset;
    const char *name;  /* the file, as the title shows it */
    const char *input; /* FILE; NULL: the embedded SimpleSkin */
    vs_renderer *renderer;
    vs_pose *pose;
    int32_t clip; /* -1: the rest pose */
    float time;   /* seconds, within the clip's range */
    float speed;  /* playback rate, 1/64 .. 64 */
    bool playing;
    bool skeleton;
    /* The help panel drawn over the view (H), and the status line along
     * the window's top (S): the window shows them, and so do screenshots
     * taken while they are on. */
    bool show_help;
    bool status_line;
    bool moved; /* the camera was orbited, panned or zoomed */
    uint32_t skin_flags;
    vs_render_view view;
    vs_skin_method method;
    /* Linear blend skinning on the left half, DQS on the right, as
     * `vskin render --method both`; the right half is drawn into fbo and
     * copied into the window. */
    bool both;
    /* A bar along the bottom: the time within the clip; a click or drag
     * in it scrubs. Off by default, so that the window shows what
     * `vskin render` draws. */
    bool timeline;
    unsigned fbo, color_rb, depth_rb;
    int fbo_width, fbo_height;
    vs_camera camera;
    int width, height; /* framebuffer pixels */
    double frame_ms;   /* posing + drawing the model, GPU finished */
    view_overlay overlay;
    uint8_t *text_rgba; /* the panel being drawn, text_capacity bytes */
    size_t text_capacity;
    bool quit;
} view_app;

/* Frames the clip as `vskin render` does (vs_camera_frame_clip over 30
 * times), so an unmoved view shows what render draws. False with the
 * error printed. */
bool view_app_frame(view_app *app);
void view_app_act(view_app *app, view_action action);
/* The clock moved on by `seconds`: playback follows at app->speed and
 * wraps around the clip. */
void view_app_advance(view_app *app, float seconds);
/* Sets the time (wrapped into the clip) and pauses. */
void view_app_scrub(view_app *app, float time);
/* A drag of dx, dy pixels with button 0 (orbit; with shift: scrub),
 * 1 or 2 (pan). */
void view_app_drag(view_app *app, int button, bool shift, float dx, float dy);
/* A left press at framebuffer pixel x, y (top-left origin): true when it
 * hit the timeline bar, which then scrubs to that place. */
bool view_app_press(view_app *app, float x, float y);
/* Wheel steps; positive zooms in. */
void view_app_wheel(view_app *app, float steps);
/* The framebuffer was resized; an unmoved camera is framed again for the
 * new aspect. */
void view_app_resize(view_app *app, int width, int height);
/* Poses and draws into the current context's framebuffer, then the status
 * line and the help panel over it when they are on. False with the error
 * printed. */
bool view_app_draw(view_app *app);
/* Draws the status line along the window's top and the help panel below
 * it, those that are on, over the frame drawn (view_app_draw calls it
 * last, so with both off the window shows what `vskin render` draws). */
void view_app_draw_text(view_app *app);
/* Frees the side-by-side framebuffer and the overlay (the window's context
 * current). */
void view_app_release(view_app *app);
/* Writes the drawn framebuffer (before it is swapped) to a PNG; refuses
 * (false, printed) to write over the input or a file its load read. */
bool view_app_screenshot(const view_app *app, const char *path);
/* The status line: file, clip, time / duration, playing or paused, speed,
 * view, skinning method, frame time. */
void view_app_status(const view_app *app, char *buf, size_t size);
/* The window title: "vskin view: " and the status line; while the help is
 * shown, the help's rows instead. */
void view_app_title(const view_app *app, char *buf, size_t size);

#endif
