/* SPDX-License-Identifier: MIT */
/* The viewer's keys: one table gives each key its action, its name in
 * --script files and its line of help, so the three never disagree. */
#ifndef VS_TOOLS_VIEW_KEYS_H
#define VS_TOOLS_VIEW_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum view_action {
    ACT_NONE = 0,
    ACT_PLAY,      /* play / pause */
    ACT_STEP_NEXT, /* one frame (1/30 s) on, paused */
    ACT_STEP_BACK,
    ACT_START, /* back to the clip's start */
    ACT_CLIP_NEXT,
    ACT_CLIP_PREV,
    ACT_FASTER, /* speed x2 */
    ACT_SLOWER, /* speed / 2 */
    ACT_VIEW_NEXT,
    ACT_VIEW_SHADED,
    ACT_VIEW_OUTLINE,
    ACT_VIEW_WEIGHTS,
    ACT_VIEW_JOINTS,
    ACT_VIEW_NORMALS,
    ACT_SKELETON,
    ACT_METHOD,   /* linear / dual-quaternion skinning */
    ACT_BOTH,     /* linear and dual-quaternion side by side */
    ACT_TIMELINE, /* the timeline bar on / off */
    ACT_STATUS,   /* the status line on / off */
    ACT_FRAME,    /* frame the clip again (undo orbit, pan, zoom) */
    ACT_HELP,
    ACT_QUIT
} view_action;

/* The action of a GLFW key code; ACT_NONE for keys without one. */
view_action view_key_action(int glfw_key);
/* The GLFW key code of a script name ("SPACE", "RIGHT", "N", "1", ...),
 * in any case; -1 when there is none. */
int view_key_by_name(const char *name);
/* One row of the help: what the user does and what it does. */
typedef struct view_help_row {
    const char *section; /* "keys" or "mouse" */
    char what[32];       /* "N, DOWN", "left drag" */
    const char *does;    /* "next clip" */
} view_help_row;

/* Row i (from 0) of the help; false past the last. The terminal help, the
 * help in the window title and the help panel drawn in the window are all
 * made from these rows. */
bool view_keys_help_row(size_t i, view_help_row *row);
/* Line i (from 0) of the help as the terminal and the window's panel show
 * it: a section's heading ("keys:") before its first row, then each row
 * as "  WHAT  DOES" in two columns. False past the last line. */
bool view_keys_help_line(size_t i, char *buf, size_t size);
/* Every line of view_keys_help_line, each ended by a newline. */
void view_keys_help(FILE *out);

#endif
