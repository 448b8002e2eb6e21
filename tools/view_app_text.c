/* SPDX-License-Identifier: MIT */
/* The viewer's text (view_app.h): the status line, the window title and
 * the help panel, all made from the same status and help rows. */
#include <stdio.h>
#include <stdlib.h>

#include "cli_common.h"
#include "view_app.h"
#include "view_text.h"

/* The help panel's distance from the window's edges and the status line. */
#define OVERLAY_INSET 8
/* More lines than the help has: the panel shows at most these. */
#define HELP_LINES 48

static const char *const view_names[] = {"shaded", "outline", "weights",
                                         "joints", "normals"};

/* Text twice the font's size where the panel fits the window so, else at
 * the font's size: legible on a large window, whole on a small one. */
static int text_scale(const view_app *app, const char *const *lines,
                      size_t count, int top)
{
    int w, h;
    view_text_panel_size(lines, count, 2, &w, &h);
    return w <= app->width - 2 * OVERLAY_INSET &&
                   h <= app->height - top - OVERLAY_INSET
               ? 2
               : 1;
}

/* Rasterises `lines` into a panel width x height (cut to the window) and
 * blends it at x, y. */
static bool draw_text_panel(view_app *app, const char *const *lines,
                            size_t count, int scale, int x, int y, int width,
                            int height)
{
    if (width > app->width - x) width = app->width - x;
    if (height > app->height - y) height = app->height - y;
    if (width <= 0 || height <= 0) return true;
    size_t bytes = (size_t)width * (size_t)height * 4;
    if (bytes > app->text_capacity) {
        uint8_t *grown = realloc(app->text_rgba, bytes);
        if (!grown) return false;
        app->text_rgba = grown;
        app->text_capacity = bytes;
    }
    view_text_draw_panel(lines, count, scale, app->text_rgba, width, height);
    return view_overlay_draw(&app->overlay, app->text_rgba, width, height, x, y,
                             app->height);
}

void view_app_draw_text(view_app *app)
{
    int top = 0;
    if (app->status_line) {
        char status[512];
        view_app_status(app, status, sizeof status);
        const char *line = status;
        int scale = text_scale(app, &line, 1, 0);
        int w, h;
        view_text_panel_size(&line, 1, scale, &w, &h);
        draw_text_panel(app, &line, 1, scale, 0, 0, app->width, h);
        top = h;
    }
    if (!app->show_help) return;
    char text[HELP_LINES][128];
    const char *lines[HELP_LINES];
    size_t count = 0;
    while (count < HELP_LINES &&
           view_keys_help_line(count, text[count], sizeof text[count])) {
        lines[count] = text[count];
        ++count;
    }
    int scale = text_scale(app, lines, count, top + OVERLAY_INSET);
    int w, h;
    view_text_panel_size(lines, count, scale, &w, &h);
    draw_text_panel(app, lines, count, scale, OVERLAY_INSET,
                    top + OVERLAY_INSET, w, h);
}

void view_app_status(const view_app *app, char *buf, size_t size)
{
    float start = 0.0f, end = 0.0f;
    if (app->clip >= 0) {
        start = app->asset->clips[app->clip].start;
        end = app->asset->clips[app->clip].end;
    }
    const char *clip =
        app->clip >= 0 ? app->asset->clips[app->clip].name : "rest pose";
    snprintf(buf, size,
             "%s | %s %.2f/%.2f s %s x%g | %s%s | %s | %.2f ms | H: help",
             app->name, clip[0] ? CLI_TEXT(clip) : "(unnamed clip)",
             (double)(app->time - start), (double)(end - start),
             app->playing ? "playing" : "paused", (double)app->speed,
             view_names[app->view], app->skeleton ? " + skeleton" : "",
             app->both ? "linear | dual quaternion"
             : app->method == VS_SKIN_DUAL_QUATERNION ? "dual quaternion"
                                                      : "linear",
             app->frame_ms);
}

void view_app_title(const view_app *app, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "vskin view: ");
    if (!app->show_help) {
        if (n < size) view_app_status(app, buf + n, size - n);
        return;
    }
    view_help_row row;
    for (size_t i = 0; n < size && view_keys_help_row(i, &row); ++i)
        n += (size_t)snprintf(buf + n, size - n, "%s%s %s", i ? "; " : "",
                              row.what, row.does);
}
