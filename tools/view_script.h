/* SPDX-License-Identifier: MIT */
/* `vskin view --script FILE`: input events and screenshots read from a
 * file, one per line, so that a run under Xvfb is repeatable. Time passes
 * only by `advance`, never by the wall clock. */
#ifndef VS_TOOLS_VIEW_SCRIPT_H
#define VS_TOOLS_VIEW_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "vskin/vskin_render.h"

typedef enum view_event_kind {
    EV_KEY,        /* key NAME: as if the key were pressed (view_keys.h) */
    EV_ADVANCE,    /* advance SECONDS: the clock moves on */
    EV_DRAG,       /* drag left|right|middle DX DY [shift] */
    EV_WHEEL,      /* wheel STEPS: positive zooms in */
    EV_SCRUB,      /* scrub T: the time T of the clip */
    EV_VIEW,       /* view shaded|outline|weights|joints|normals */
    EV_SCREENSHOT, /* screenshot PATH: the window's pixels as PNG */
    EV_CLICK,      /* click X Y: a left click at that window pixel */
    EV_QUIT        /* quit */
} view_event_kind;

typedef struct view_event {
    view_event_kind kind;
    int key;    /* EV_KEY: GLFW key code */
    int button; /* EV_DRAG: 0 left, 1 right, 2 middle */
    bool shift; /* EV_DRAG */
    float a, b; /* seconds, steps, time or DX, DY */
    vs_render_view view;
    char *path; /* EV_SCREENSHOT (malloc'd) */
    unsigned line;
} view_event;

typedef struct view_script {
    view_event *events;
    size_t count;
} view_script;

/* Reads and checks the whole file before the window opens; on an error
 * prints "vskin view: FILE:LINE: what is wrong" and returns false. Blank
 * lines and lines starting with # are skipped. */
bool view_script_load(const char *path, view_script *out);
void view_script_free(view_script *script);

#endif
