/* SPDX-License-Identifier: MIT */
/* Reading `vskin view --script` files (view_script.h). */
#include "view_script.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "view_keys.h"

#define CMD "view"
/* A script is a short list of steps; the bound keeps a wrong file (a
 * model passed by mistake) from being read into memory whole. */
#define MAX_EVENTS 100000
#define MAX_LINE 4096

static bool number(const char *s, float *out)
{
    if (!s) return false;
    char *end;
    errno = 0;
    float v = strtof(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v)) return false;
    *out = v;
    return true;
}

static bool parse_view(const char *s, vs_render_view *out)
{
    static const char *const names[] = {"shaded", "outline", "weights",
                                        "joints", "normals"};
    for (int i = 0; s && i < 5; ++i)
        if (strcmp(s, names[i]) == 0) {
            *out = (vs_render_view)i;
            return true;
        }
    return false;
}

/* One line split into words; false with *why set when it is no event. */
static bool parse_line(char **w, int n, view_event *ev, const char **why)
{
    const char *cmd = w[0];
    *why = "unknown command (key, advance, drag, wheel, scrub, click, view, "
           "screenshot, quit)";
    if (strcmp(cmd, "key") == 0) {
        ev->kind = EV_KEY;
        ev->key = n == 2 ? view_key_by_name(w[1]) : -1;
        *why = "key takes one key name (see 'vskin view --help')";
        return ev->key >= 0;
    }
    if (strcmp(cmd, "advance") == 0 || strcmp(cmd, "wheel") == 0 ||
        strcmp(cmd, "scrub") == 0) {
        ev->kind = cmd[0] == 'a'   ? EV_ADVANCE
                   : cmd[0] == 'w' ? EV_WHEEL
                                   : EV_SCRUB;
        *why = "takes one finite number";
        if (n != 2 || !number(w[1], &ev->a)) return false;
        *why = "advance takes seconds from 0 to 3600";
        return ev->kind != EV_ADVANCE || (ev->a >= 0.0f && ev->a <= 3600.0f);
    }
    if (strcmp(cmd, "drag") == 0) {
        ev->kind = EV_DRAG;
        *why = "drag takes left|right|middle DX DY [shift]";
        if (n < 4 || n > 5) return false;
        ev->button = strcmp(w[1], "left") == 0     ? 0
                     : strcmp(w[1], "right") == 0  ? 1
                     : strcmp(w[1], "middle") == 0 ? 2
                                                   : -1;
        ev->shift = n == 5 && strcmp(w[4], "shift") == 0;
        return ev->button >= 0 && number(w[2], &ev->a) &&
               number(w[3], &ev->b) && (n == 4 || ev->shift);
    }
    if (strcmp(cmd, "click") == 0) {
        ev->kind = EV_CLICK;
        *why = "click takes X Y (pixels from the top-left corner)";
        return n == 3 && number(w[1], &ev->a) && number(w[2], &ev->b);
    }
    if (strcmp(cmd, "view") == 0) {
        ev->kind = EV_VIEW;
        *why = "view takes shaded|outline|weights|joints|normals";
        return n == 2 && parse_view(w[1], &ev->view);
    }
    if (strcmp(cmd, "screenshot") == 0) {
        ev->kind = EV_SCREENSHOT;
        *why = "screenshot takes one PATH (.png)";
        if (n != 2 || !cli_has_ext(w[1], ".png")) return false;
        ev->path = strdup(w[1]);
        *why = "out of memory";
        return ev->path != NULL;
    }
    if (strcmp(cmd, "quit") == 0) {
        ev->kind = EV_QUIT;
        *why = "quit takes nothing";
        return n == 1;
    }
    return false;
}

bool view_script_load(const char *path, view_script *out)
{
    *out = (view_script){0};
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error(CMD, "%s: cannot open the script: %s", path, strerror(errno));
        return false;
    }
    char line[MAX_LINE];
    unsigned number_ = 0;
    size_t cap = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        ++number_;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            cli_error(CMD, "%s:%u: line longer than %d bytes", path, number_,
                      MAX_LINE - 2);
            ok = false;
            break;
        }
        char *w[8];
        int n = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok && n < 8;
             tok = strtok(NULL, " \t\r\n"))
            w[n++] = tok;
        if (n == 0 || w[0][0] == '#') continue;
        if (out->count == MAX_EVENTS) {
            cli_error(CMD, "%s:%u: more than %d steps", path, number_,
                      MAX_EVENTS);
            ok = false;
            break;
        }
        if (out->count == cap) {
            size_t next = cap ? cap * 2 : 16;
            view_event *grown = realloc(out->events, next * sizeof *grown);
            if (!grown) {
                cli_error(CMD, "%s: out of memory", path);
                ok = false;
                break;
            }
            out->events = grown;
            cap = next;
        }
        view_event *ev = &out->events[out->count];
        *ev = (view_event){.line = number_};
        const char *why = "";
        if (!parse_line(w, n, ev, &why)) {
            cli_error(CMD, "%s:%u: %s: %s", path, number_, w[0], why);
            free(ev->path);
            ok = false;
            break;
        }
        ++out->count;
    }
    if (ok && ferror(f)) {
        cli_error(CMD, "%s: read error", path);
        ok = false;
    }
    fclose(f);
    if (!ok) view_script_free(out);
    return ok;
}

void view_script_free(view_script *script)
{
    for (size_t i = 0; i < script->count; ++i)
        free(script->events[i].path);
    free(script->events);
    *script = (view_script){0};
}
