/* SPDX-License-Identifier: MIT */
/* The viewer's keys: one table gives each key its action, its name in
 * --script files and its line of help, so the three never disagree. */
#ifndef VS_TOOLS_VIEW_KEYS_H
#define VS_TOOLS_VIEW_KEYS_H

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
    ACT_FRAME,    /* frame the clip again (undo orbit, pan, zoom) */
    ACT_HELP,
    ACT_QUIT
} view_action;

/* The action of a GLFW key code; ACT_NONE for keys without one. */
view_action view_key_action(int glfw_key);
/* The GLFW key code of a script name ("SPACE", "RIGHT", "N", "1", ...),
 * in any case; -1 when there is none. */
int view_key_by_name(const char *name);
/* The keys and mouse bindings, one per line. */
void view_keys_help(FILE *out);

#endif
