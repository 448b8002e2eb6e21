/* SPDX-License-Identifier: MIT */
/* The viewer's state changes, frames and screenshots (view_app.h). */
#include "view_app.h"

#include <GLES3/gl3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_common.h"
#include "cli_files.h"
#include "view_camera.h"

#define CMD "view"
#define FRAMING_SAMPLES 30
#define STEP_SECONDS (1.0f / 30.0f)
#define ORBIT_DEG_PER_PIXEL 0.4f
#define ZOOM_PER_STEP 0.9f
#define TIMELINE_PIXELS 8

static void clip_range(const view_app *app, float *start, float *end)
{
    *start = *end = 0.0f;
    if (app->clip >= 0) {
        *start = app->asset->clips[app->clip].start;
        *end = app->asset->clips[app->clip].end;
    }
}

/* Time wrapped into [start, end): playback loops as a game would. */
static float wrap_time(const view_app *app, float t)
{
    float start, end;
    clip_range(app, &start, &end);
    float span = end - start;
    if (!(span > 0.0f) || !isfinite(t)) return start;
    float r = fmodf(t - start, span);
    if (r < 0.0f) r += span;
    return start + r;
}

/* Side by side, each half is a picture of its own. */
static int panel_width(const view_app *app)
{
    return app->both ? app->width / 2 : app->width;
}

bool view_app_frame(view_app *app)
{
    float aspect = app->height > 0 && panel_width(app) > 0
                       ? (float)panel_width(app) / (float)app->height
                       : 1.0f;
    vs_error e = {0};
    vs_result r = vs_camera_frame_clip(app->asset, app->clip, FRAMING_SAMPLES,
                                       aspect, false, &app->camera, &e);
    if (r != VS_OK) {
        cli_error(CMD, "%s", e.message[0] ? e.message : vs_result_string(r));
        return false;
    }
    app->moved = false;
    return true;
}

static void switch_clip(view_app *app, int delta)
{
    uint32_t n = app->asset->clip_count;
    if (n < 2 || app->clip < 0) return;
    app->clip = (int32_t)(((int64_t)app->clip + n + delta) % n);
    float start, end;
    clip_range(app, &start, &end);
    app->time = start;
    if (!app->moved) view_app_frame(app);
    printf("clip %d: %s (%g..%g s)\n", app->clip,
           CLI_TEXT(app->asset->clips[app->clip].name), (double)start,
           (double)end);
}

void view_app_act(view_app *app, view_action action)
{
    float start, end;
    clip_range(app, &start, &end);
    switch (action) {
    case ACT_NONE:
        break;
    case ACT_PLAY:
        app->playing = !app->playing;
        break;
    case ACT_STEP_NEXT:
    case ACT_STEP_BACK:
        app->playing = false;
        app->time = wrap_time(app, app->time + (action == ACT_STEP_NEXT
                                                    ? STEP_SECONDS
                                                    : -STEP_SECONDS));
        break;
    case ACT_START:
        app->time = start;
        break;
    case ACT_CLIP_NEXT:
        switch_clip(app, 1);
        break;
    case ACT_CLIP_PREV:
        switch_clip(app, -1);
        break;
    case ACT_FASTER:
        app->speed = fminf(app->speed * 2.0f, 64.0f);
        break;
    case ACT_SLOWER:
        app->speed = fmaxf(app->speed * 0.5f, 1.0f / 64.0f);
        break;
    case ACT_VIEW_NEXT:
        app->view = (vs_render_view)((app->view + 1) % 5);
        break;
    case ACT_VIEW_SHADED:
        app->view = VS_VIEW_SHADED;
        break;
    case ACT_VIEW_OUTLINE:
        app->view = VS_VIEW_OUTLINE;
        break;
    case ACT_VIEW_WEIGHTS:
        app->view = VS_VIEW_WEIGHTS;
        break;
    case ACT_VIEW_JOINTS:
        app->view = VS_VIEW_JOINTS;
        break;
    case ACT_VIEW_NORMALS:
        app->view = VS_VIEW_NORMALS;
        break;
    case ACT_SKELETON:
        app->skeleton = !app->skeleton;
        break;
    case ACT_METHOD:
        app->method = app->method == VS_SKIN_LINEAR ? VS_SKIN_DUAL_QUATERNION
                                                    : VS_SKIN_LINEAR;
        break;
    case ACT_BOTH:
        app->both = !app->both;
        if (!app->moved) view_app_frame(app);
        break;
    case ACT_TIMELINE:
        app->timeline = !app->timeline;
        break;
    case ACT_STATUS:
        app->status_line = !app->status_line;
        break;
    case ACT_FRAME:
        view_app_frame(app);
        break;
    case ACT_HELP:
        app->show_help = !app->show_help;
        if (app->show_help) view_keys_help(stdout);
        fflush(stdout);
        break;
    case ACT_QUIT:
        app->quit = true;
        break;
    }
}

void view_app_advance(view_app *app, float seconds)
{
    if (app->playing)
        app->time = wrap_time(app, app->time + seconds * app->speed);
}

void view_app_scrub(view_app *app, float time)
{
    app->playing = false;
    app->time = wrap_time(app, time);
}

void view_app_drag(view_app *app, int button, bool shift, float dx, float dy)
{
    if (button == 0 && shift) {
        /* The window's width spans the whole clip. */
        float start, end;
        clip_range(app, &start, &end);
        if (app->width > 0)
            view_app_scrub(app,
                           app->time + dx / (float)app->width * (end - start));
        return;
    }
    if (button == 0)
        view_camera_orbit(&app->camera, dx * ORBIT_DEG_PER_PIXEL,
                          dy * ORBIT_DEG_PER_PIXEL);
    else
        view_camera_pan(&app->camera, dx, dy, (float)app->height);
    app->moved = true;
}

static bool timeline_shown(const view_app *app)
{
    return app->timeline && app->clip >= 0 && app->height > TIMELINE_PIXELS;
}

bool view_app_press(view_app *app, float x, float y)
{
    if (!timeline_shown(app) || y < (float)(app->height - TIMELINE_PIXELS) ||
        app->width <= 0)
        return false;
    float start, end;
    clip_range(app, &start, &end);
    float f = fmaxf(0.0f, fminf(1.0f, x / (float)app->width));
    view_app_scrub(app, start + f * (end - start));
    return true;
}

/* The timeline bar: scissored clears, so no program or buffer is needed
 * and nothing else of the frame is touched. */
static void draw_timeline(const view_app *app)
{
    float start, end;
    clip_range(app, &start, &end);
    float f = end > start ? (app->time - start) / (end - start) : 0.0f;
    int filled = (int)(fmaxf(0.0f, fminf(1.0f, f)) * (float)app->width + 0.5f);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, app->width, TIMELINE_PIXELS);
    glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glScissor(0, 0, filled, TIMELINE_PIXELS);
    glClearColor(0.95f, 0.6f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
}

void view_app_wheel(view_app *app, float steps)
{
    view_camera_zoom(&app->camera, powf(ZOOM_PER_STEP, steps));
    app->moved = true;
}

void view_app_resize(view_app *app, int width, int height)
{
    if (width == app->width && height == app->height) return;
    app->width = width;
    app->height = height;
    if (!app->moved) view_app_frame(app);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The side-by-side framebuffer, made or resized to w x h, bound. */
static bool bind_panel_framebuffer(view_app *app, int w, int h)
{
    if (!app->fbo) {
        glGenFramebuffers(1, &app->fbo);
        glGenRenderbuffers(1, &app->color_rb);
        glGenRenderbuffers(1, &app->depth_rb);
    }
    if (app->fbo_width != w || app->fbo_height != h) {
        glBindRenderbuffer(GL_RENDERBUFFER, app->color_rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glBindRenderbuffer(GL_RENDERBUFFER, app->depth_rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
        app->fbo_width = w;
        app->fbo_height = h;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, app->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, app->color_rb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                              GL_RENDERBUFFER, app->depth_rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        cli_error(CMD, "the %dx%d side-by-side framebuffer is incomplete", w,
                  h);
        return false;
    }
    return true;
}

void view_app_release(view_app *app)
{
    if (app->fbo) glDeleteFramebuffers(1, &app->fbo);
    if (app->color_rb) glDeleteRenderbuffers(1, &app->color_rb);
    if (app->depth_rb) glDeleteRenderbuffers(1, &app->depth_rb);
    app->fbo = app->color_rb = app->depth_rb = 0;
    app->fbo_width = app->fbo_height = 0;
    view_overlay_release(&app->overlay);
    free(app->text_rgba);
    app->text_rgba = NULL;
    app->text_capacity = 0;
}

static vs_result draw_panel(view_app *app, int width, vs_skin_method method,
                            vs_error *e)
{
    vs_render_desc desc = {
        .width = (uint32_t)width,
        .height = (uint32_t)app->height,
        .view = app->view,
        .skeleton = app->skeleton,
        .camera = &app->camera,
        .skin_flags = app->skin_flags,
        .method = method,
    };
    return vs_render_pose_to_current_framebuffer(app->renderer, app->pose,
                                                 &desc, e);
}

bool view_app_draw(view_app *app)
{
    int pw = panel_width(app), h = app->height;
    if (pw <= 0 || h <= 0) return true;
    double t0 = now_ms();
    vs_error e = {0};
    vs_pose_reset(app->pose);
    vs_result r = VS_OK;
    if (app->clip >= 0)
        r = vs_pose_sample(app->pose, (uint32_t)app->clip, app->time,
                           VS_TIME_LOOP, &e);
    if (r == VS_OK) {
        vs_pose_update_world(app->pose);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        r = draw_panel(app, pw, app->both ? VS_SKIN_LINEAR : app->method, &e);
    }
    if (r == VS_OK && app->both) {
        /* The renderer draws from the framebuffer's corner, so the right
         * half is drawn apart and copied beside the left one. */
        if (!bind_panel_framebuffer(app, pw, h)) return false;
        r = draw_panel(app, pw, VS_SKIN_DUAL_QUATERNION, &e);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, pw, h, pw, 0, 2 * pw, h, GL_COLOR_BUFFER_BIT,
                          GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    if (r != VS_OK) {
        cli_error(CMD, "%s", e.message[0] ? e.message : vs_result_string(r));
        return false;
    }
    if (timeline_shown(app)) draw_timeline(app);
    /* The frame time counts the GPU's work, not only its queueing; it
     * leaves out the overlay, which shows it. */
    glFinish();
    app->frame_ms = now_ms() - t0;
    view_app_draw_text(app);
    return true;
}

bool view_app_screenshot(const view_app *app, const char *path)
{
    if (!cli_output_spares_reads(CMD, app->input, path)) return false;
    size_t w = (size_t)app->width, h = (size_t)app->height, row = w * 4;
    uint8_t *rgba = malloc(row * h + row);
    if (!rgba) {
        cli_error(CMD, "%s: out of memory for a %zux%zu screenshot", path, w,
                  h);
        return false;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    /* GL's first row is the bottom one; PNG's is the top. */
    uint8_t *tmp = rgba + row * h;
    for (size_t y = 0; y < h / 2; ++y) {
        memcpy(tmp, rgba + y * row, row);
        memcpy(rgba + y * row, rgba + (h - 1 - y) * row, row);
        memcpy(rgba + (h - 1 - y) * row, tmp, row);
    }
    vs_error e = {0};
    vs_result r = vs_write_png(rgba, (uint32_t)w, (uint32_t)h, path, NULL, &e);
    free(rgba);
    if (r != VS_OK) {
        cli_error(CMD, "%s", e.message[0] ? e.message : vs_result_string(r));
        return false;
    }
    printf("wrote %s (%zux%zu, t = %g s)\n", path, w, h, (double)app->time);
    fflush(stdout);
    return true;
}
