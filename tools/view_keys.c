/* SPDX-License-Identifier: MIT */
/* The viewer's key table (view_keys.h); the bindings follow the usual
 * model viewers (ozz samples, three.js editor): space plays, arrows step,
 * digits pick a view. */
#include "view_keys.h"

#include <GLFW/glfw3.h>
#include <string.h>
#include <strings.h>

typedef struct key_binding {
    int key;
    const char *name;
    view_action action;
    const char *help; /* NULL: the same action as the line above */
} key_binding;

static const key_binding keys[] = {
    {GLFW_KEY_SPACE, "SPACE", ACT_PLAY, "play / pause"},
    {GLFW_KEY_RIGHT, "RIGHT", ACT_STEP_NEXT, "step one frame (1/30 s) on"},
    {GLFW_KEY_LEFT, "LEFT", ACT_STEP_BACK, "step one frame back"},
    {GLFW_KEY_HOME, "HOME", ACT_START, "back to the clip's start"},
    {GLFW_KEY_N, "N", ACT_CLIP_NEXT, "next clip"},
    {GLFW_KEY_DOWN, "DOWN", ACT_CLIP_NEXT, NULL},
    {GLFW_KEY_P, "P", ACT_CLIP_PREV, "previous clip"},
    {GLFW_KEY_UP, "UP", ACT_CLIP_PREV, NULL},
    {GLFW_KEY_EQUAL, "EQUAL", ACT_FASTER, "play twice as fast"},
    {GLFW_KEY_KP_ADD, "PLUS", ACT_FASTER, NULL},
    {GLFW_KEY_MINUS, "MINUS", ACT_SLOWER, "play half as fast"},
    {GLFW_KEY_KP_SUBTRACT, "KP_MINUS", ACT_SLOWER, NULL},
    {GLFW_KEY_V, "V", ACT_VIEW_NEXT, "next view"},
    {GLFW_KEY_1, "1", ACT_VIEW_SHADED, "shaded (textured) view"},
    {GLFW_KEY_2, "2", ACT_VIEW_OUTLINE, "outline view"},
    {GLFW_KEY_3, "3", ACT_VIEW_WEIGHTS, "weights view"},
    {GLFW_KEY_4, "4", ACT_VIEW_JOINTS, "joint indices view"},
    {GLFW_KEY_5, "5", ACT_VIEW_NORMALS, "normals view"},
    {GLFW_KEY_K, "K", ACT_SKELETON, "skeleton overlay on / off"},
    {GLFW_KEY_M, "M", ACT_METHOD, "linear / dual-quaternion skinning"},
    {GLFW_KEY_B, "B", ACT_BOTH, "linear and dual-quaternion side by side"},
    {GLFW_KEY_T, "T", ACT_TIMELINE,
     "timeline bar on / off (click or drag in it to scrub)"},
    {GLFW_KEY_S, "S", ACT_STATUS, "status line on / off"},
    {GLFW_KEY_F, "F", ACT_FRAME, "frame the clip again"},
    {GLFW_KEY_H, "H", ACT_HELP, "this help, over the view and in the title"},
    {GLFW_KEY_F1, "F1", ACT_HELP, NULL},
    {GLFW_KEY_ESCAPE, "ESCAPE", ACT_QUIT, "quit"},
    {GLFW_KEY_Q, "Q", ACT_QUIT, NULL},
};

#define KEY_COUNT (sizeof keys / sizeof keys[0])

view_action view_key_action(int glfw_key)
{
    for (size_t i = 0; i < KEY_COUNT; ++i)
        if (keys[i].key == glfw_key) return keys[i].action;
    return ACT_NONE;
}

int view_key_by_name(const char *name)
{
    for (size_t i = 0; i < KEY_COUNT; ++i)
        if (strcasecmp(keys[i].name, name) == 0) return keys[i].key;
    return -1;
}

/* The mouse has no key codes or script names; its rows follow the keys'. */
static const struct {
    const char *what, *does;
} mouse[] = {
    {"left drag", "orbit"},
    {"right / middle drag", "pan"},
    {"wheel", "zoom"},
    {"shift + left drag", "scrub the timeline"},
    {"left click in the bar", "go to that time (T shows the bar)"},
};

#define MOUSE_COUNT (sizeof mouse / sizeof mouse[0])
/* Wide enough for the longest WHAT, so the DOES column lines up. */
#define WHAT_COLUMN 21

bool view_keys_help_row(size_t i, view_help_row *row)
{
    for (size_t k = 0; k < KEY_COUNT; ++k) {
        if (!keys[k].help) continue;
        if (i-- > 0) continue;
        /* A binding without help of its own is another key for the
         * binding above it. */
        const char *also =
            k + 1 < KEY_COUNT && !keys[k + 1].help ? keys[k + 1].name : NULL;
        row->section = "keys";
        snprintf(row->what, sizeof row->what, "%s%s%s", keys[k].name,
                 also ? ", " : "", also ? also : "");
        row->does = keys[k].help;
        return true;
    }
    if (i >= MOUSE_COUNT) return false;
    row->section = "mouse";
    snprintf(row->what, sizeof row->what, "%s", mouse[i].what);
    row->does = mouse[i].does;
    return true;
}

bool view_keys_help_line(size_t i, char *buf, size_t size)
{
    view_help_row row;
    const char *section = NULL;
    for (size_t r = 0; view_keys_help_row(r, &row); ++r) {
        if (!section || strcmp(section, row.section) != 0) {
            section = row.section;
            if (i-- == 0) {
                snprintf(buf, size, "%s:", section);
                return true;
            }
        }
        if (i-- == 0) {
            snprintf(buf, size, "  %-*s %s", WHAT_COLUMN, row.what, row.does);
            return true;
        }
    }
    return false;
}

void view_keys_help(FILE *out)
{
    char line[128];
    for (size_t i = 0; view_keys_help_line(i, line, sizeof line); ++i)
        fprintf(out, "%s\n", line);
}
