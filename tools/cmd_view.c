/* SPDX-License-Identifier: MIT */
/* vskin view: an interactive viewer. A GLFW window with an OpenGL ES 3
 * context (through EGL), a renderer made in that context
 * (vs_renderer_create_in_current_context) and every frame drawn straight
 * into the window (vs_render_pose_to_current_framebuffer). With --script
 * the input comes from a file and time only passes by its `advance` steps,
 * so a run under Xvfb is repeatable. Built without GLFW
 * (VSKIN_CLI_WITH_VIEWER 0), the command says so and fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_method.h"
#include "commands.h"

#if VSKIN_CLI_WITH_VIEWER
#include <GLFW/glfw3.h>

#include "view_app.h"
#include "view_script.h"

#define CMD "view"

typedef struct view_options {
    cli_options common;
    uint32_t width, height;
    vs_render_view view;
    bool skeleton;
    bool paused;
    vs_skin_method method;
    const char *script;
} view_options;

/* What the window callbacks reach through glfwGetWindowUserPointer. */
typedef struct view_window {
    view_app *app;
    int button; /* held mouse button: 0 left, 1 right, 2 middle; -1 none */
    bool shift;
    bool scrubbing; /* the left button went down in the timeline bar */
    /* The help panel an interactive run opens with: the first key press
     * or click puts it away, so it never needs H to leave. */
    bool opening_help;
    double x, y;
} view_window;

/* The cursor (window coordinates) in framebuffer pixels, which differ on
 * screens that scale windows. */
static void to_pixels(GLFWwindow *window, const view_window *vw, double x,
                      double y, float *px, float *py)
{
    int ww = 0, wh = 0;
    glfwGetWindowSize(window, &ww, &wh);
    *px = (float)(ww > 0 ? x * vw->app->width / ww : x);
    *py = (float)(wh > 0 ? y * vw->app->height / wh : y);
}

static char glfw_message[256];

static void on_glfw_error(int code, const char *message)
{
    snprintf(glfw_message, sizeof glfw_message, "%s (GLFW error 0x%x)",
             message ? message : "", (unsigned)code);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin view [FILE] [options]\n"
            "  (no FILE: the embedded SimpleSkin)\n\n"
            "  --anim N|NAME        clip to play first (default: the first)\n"
            "  --time T             start at time T (seconds)\n"
            "  --raw-weights        use stored weights without normalizing\n"
            "  --view V             shaded | outline | weights | joints | "
            "normals\n"
            "  --skeleton           draw bones and joints on top\n"
            "  --method M           linear | dq (dual-quaternion skinning)\n"
            "  --size WxH           window size (default 800x600)\n"
            "  --paused             start paused\n"
            "  --script FILE        read key, mouse and screenshot steps from "
            "FILE\n"
            "                       (docs/cli.md); time passes only by its "
            "advance steps\n" CLI_LOAD_OPTIONS_HELP "\n");
    view_keys_help(out);
}

static bool parse_size(const char *s, uint32_t *w, uint32_t *h)
{
    char *end;
    unsigned long a = strtoul(s, &end, 10);
    if (end == s || *end != 'x') return false;
    const char *b_text = end + 1;
    unsigned long b = strtoul(b_text, &end, 10);
    if (end == b_text || *end) return false;
    if (a < 16 || b < 16 || a > 8192 || b > 8192) return false;
    *w = (uint32_t)a;
    *h = (uint32_t)b;
    return true;
}

static int parse(int argc, char **argv, view_options *o)
{
    static const char *const views[] = {"shaded", "outline", "weights",
                                        "joints", "normals"};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        }
        int used = cli_parse_common(CMD, argc, argv, &i, true, &o->common);
        if (used < 0) return 2;
        if (used) continue;
        if (strcmp(arg, "--skeleton") == 0) {
            o->skeleton = true;
            continue;
        }
        if (strcmp(arg, "--paused") == 0) {
            o->paused = true;
            continue;
        }
        bool takes_value =
            strcmp(arg, "--view") == 0 || strcmp(arg, "--size") == 0 ||
            strcmp(arg, "--method") == 0 || strcmp(arg, "--script") == 0;
        if (!takes_value) return cli_unknown(CMD, arg);
        if (i + 1 >= argc) {
            cli_error(CMD, "%s needs a value", arg);
            return 2;
        }
        const char *v = argv[++i];
        bool ok = true;
        if (strcmp(arg, "--view") == 0) {
            ok = false;
            for (int k = 0; k < 5; ++k)
                if (strcmp(v, views[k]) == 0) {
                    o->view = (vs_render_view)k;
                    ok = true;
                }
        } else if (strcmp(arg, "--size") == 0) {
            ok = parse_size(v, &o->width, &o->height);
        } else if (strcmp(arg, "--method") == 0) {
            ok = cli_parse_method(v, &o->method);
        } else {
            o->script = v;
        }
        if (!ok) {
            cli_error(CMD, "%s: '%s' is not valid (see 'vskin view --help')",
                      arg, v);
            return 2;
        }
    }
    if (o->common.time_count > 1) {
        cli_error(CMD, "--time takes one start time");
        return 2;
    }
    return -1;
}

static void on_key(GLFWwindow *window, int key, int scancode, int action,
                   int mods)
{
    (void)scancode;
    (void)mods;
    view_window *vw = glfwGetWindowUserPointer(window);
    view_action act = view_key_action(key);
    /* Held arrows keep stepping; the other keys act once per press. */
    bool repeats = act == ACT_STEP_NEXT || act == ACT_STEP_BACK;
    if (action == GLFW_PRESS && vw->opening_help) {
        vw->opening_help = false;
        /* H then hides the help by its own toggle. */
        if (act != ACT_HELP) vw->app->show_help = false;
    }
    if (action == GLFW_PRESS || (action == GLFW_REPEAT && repeats))
        view_app_act(vw->app, act);
}

static void on_button(GLFWwindow *window, int button, int action, int mods)
{
    view_window *vw = glfwGetWindowUserPointer(window);
    int b = button == GLFW_MOUSE_BUTTON_LEFT     ? 0
            : button == GLFW_MOUSE_BUTTON_RIGHT  ? 1
            : button == GLFW_MOUSE_BUTTON_MIDDLE ? 2
                                                 : -1;
    if (action == GLFW_PRESS && vw->opening_help) {
        vw->opening_help = false;
        vw->app->show_help = false;
    }
    if (action == GLFW_PRESS && b >= 0) {
        glfwGetCursorPos(window, &vw->x, &vw->y);
        float px, py;
        to_pixels(window, vw, vw->x, vw->y, &px, &py);
        vw->scrubbing = b == 0 && view_app_press(vw->app, px, py);
        vw->button = vw->scrubbing ? -1 : b;
        vw->shift = (mods & GLFW_MOD_SHIFT) != 0;
    } else if (action == GLFW_RELEASE) {
        if (b == vw->button) vw->button = -1;
        if (b == 0) vw->scrubbing = false;
    }
}

static void on_cursor(GLFWwindow *window, double x, double y)
{
    view_window *vw = glfwGetWindowUserPointer(window);
    if (vw->scrubbing) {
        /* Within the bar's row wherever the cursor is, so the drag keeps
         * scrubbing when it strays above the bar. */
        float px, py;
        to_pixels(window, vw, x, y, &px, &py);
        view_app_press(vw->app, px, (float)vw->app->height - 1.0f);
    }
    if (vw->button >= 0)
        view_app_drag(vw->app, vw->button, vw->shift, (float)(x - vw->x),
                      (float)(y - vw->y));
    vw->x = x;
    vw->y = y;
}

static void on_scroll(GLFWwindow *window, double dx, double dy)
{
    (void)dx;
    view_window *vw = glfwGetWindowUserPointer(window);
    view_app_wheel(vw->app, (float)dy);
}

static void on_resize(GLFWwindow *window, int width, int height)
{
    view_window *vw = glfwGetWindowUserPointer(window);
    view_app_resize(vw->app, width, height);
}

static void show(GLFWwindow *window, view_app *app)
{
    char title[512];
    view_app_title(app, title, sizeof title);
    glfwSetWindowTitle(window, title);
}

/* One script step; false ends the run with an error. */
static bool run_step(GLFWwindow *window, view_app *app, const view_event *ev)
{
    switch (ev->kind) {
    case EV_KEY:
        view_app_act(app, view_key_action(ev->key));
        break;
    case EV_ADVANCE:
        view_app_advance(app, ev->a);
        break;
    case EV_DRAG:
        view_app_drag(app, ev->button, ev->shift, ev->a, ev->b);
        break;
    case EV_WHEEL:
        view_app_wheel(app, ev->a);
        break;
    case EV_SCRUB:
        view_app_scrub(app, ev->a);
        break;
    case EV_CLICK:
        view_app_press(app, ev->a, ev->b);
        break;
    case EV_VIEW:
        app->view = ev->view;
        break;
    case EV_SCREENSHOT:
        break;
    case EV_QUIT:
        app->quit = true;
        return true;
    }
    if (!view_app_draw(app)) return false;
    if (ev->kind == EV_SCREENSHOT && !view_app_screenshot(app, ev->path))
        return false;
    show(window, app);
    glfwSwapBuffers(window);
    glfwPollEvents();
    return true;
}

static int run_script(GLFWwindow *window, view_app *app,
                      const view_script *script)
{
    for (size_t i = 0; i < script->count && !app->quit; ++i)
        if (!run_step(window, app, &script->events[i])) return 1;
    return 0;
}

static int run_interactive(GLFWwindow *window, view_app *app)
{
    double last = glfwGetTime(), titled = -1.0;
    while (!app->quit && !glfwWindowShouldClose(window)) {
        double now = glfwGetTime();
        view_app_advance(app, (float)(now - last));
        last = now;
        if (!view_app_draw(app)) return 1;
        /* The title changes a few times a second, not every frame: window
         * managers redraw the whole decoration for each change. */
        if (now - titled > 0.25) {
            show(window, app);
            titled = now;
        }
        glfwSwapBuffers(window);
        glfwPollEvents();
    }
    return 0;
}

static GLFWwindow *open_window(const view_options *o)
{
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        cli_error(CMD, "cannot open a window: %s (is DISPLAY set?)",
                  glfw_message);
        return NULL;
    }
    /* OpenGL ES 3.0 through EGL: the context the renderer's shaders are
     * written for, on X11 and Wayland alike. */
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    GLFWwindow *window = glfwCreateWindow((int)o->width, (int)o->height,
                                          "vskin view", NULL, NULL);
    if (!window) {
        cli_error(CMD, "cannot open an OpenGL ES 3 window: %s", glfw_message);
        glfwTerminate();
        return NULL;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(o->script ? 0 : 1);
    return window;
}

static int view_asset(const view_options *o, const vs_asset *asset,
                      const view_script *script)
{
    view_app app = {
        .asset = asset,
        .name = o->common.file ? o->common.file : CLI_DEFAULT_ASSET_NAME,
        .input = o->common.file,
        .speed = 1.0f,
        .playing = !o->paused,
        .skeleton = o->skeleton,
        .skin_flags = o->common.raw_weights ? VS_SKIN_RAW_WEIGHTS : 0,
        .view = o->view,
        .method = o->method,
    };
    if (!cli_select_clip(CMD, asset, &o->common, &app.clip)) return 1;
    GLFWwindow *window = open_window(o);
    if (!window) return 1;
    /* Interactive runs open with the status line and the help over the
     * view; a script starts without them, so its screenshots are the
     * pictures `vskin render` draws until its keys turn them on. */
    app.status_line = app.show_help = script == NULL;
    view_window vw = {.app = &app, .button = -1, .opening_help = !script};
    glfwSetWindowUserPointer(window, &vw);
    glfwGetFramebufferSize(window, &app.width, &app.height);
    int status = 1;
    vs_error e = {0};
    vs_result r =
        vs_renderer_create_in_current_context(asset, NULL, &app.renderer, &e);
    if (r == VS_OK) r = vs_pose_create(asset, &app.pose, &e);
    if (r != VS_OK) {
        cli_error(CMD, "%s", e.message[0] ? e.message : vs_result_string(r));
    } else if (view_app_frame(&app)) {
        view_app_scrub(&app, o->common.time_count ? o->common.times[0]
                             : app.clip >= 0      ? asset->clips[app.clip].start
                                                  : 0.0f);
        app.playing = !o->paused;
        glfwSetKeyCallback(window, on_key);
        glfwSetMouseButtonCallback(window, on_button);
        glfwSetCursorPosCallback(window, on_cursor);
        glfwSetScrollCallback(window, on_scroll);
        glfwSetFramebufferSizeCallback(window, on_resize);
        printf("%s: %s; H for help\n", app.name,
               vs_renderer_gl_renderer(app.renderer));
        /* The clip list, for N and P. */
        for (uint32_t c = 0; c < asset->clip_count; ++c)
            printf("%s clip %u: %s (%g..%g s)\n",
                   (int32_t)c == app.clip ? "*" : " ", c,
                   asset->clips[c].name[0] ? CLI_TEXT(asset->clips[c].name)
                                           : "(unnamed)",
                   (double)asset->clips[c].start, (double)asset->clips[c].end);
        fflush(stdout);
        status = script ? run_script(window, &app, script)
                        : run_interactive(window, &app);
    }
    /* What the renderer could not draw as the file says (an image it could
     * not read or decode), as `vskin render` prints it. */
    uint32_t warnings = 0;
    const vs_warning *w = vs_renderer_warnings(app.renderer, &warnings);
    for (uint32_t i = 0; i < warnings && !o->common.quiet; ++i)
        cli_error(CMD, "warning: %s: %s", w[i].object, w[i].message);
    vs_pose_free(app.pose);
    view_app_release(&app);
    /* The renderer's GL objects belong to the window's context, still
     * current here. */
    vs_renderer_destroy(app.renderer);
    glfwDestroyWindow(window);
    glfwTerminate();
    return status;
}

int cmd_view(int argc, char **argv)
{
    view_options o = {.width = 800, .height = 600};
    int status = parse(argc, argv, &o);
    if (status < 0) {
        view_script script = {0};
        vs_asset *asset = NULL;
        status = 1;
        if ((!o.script || view_script_load(o.script, &script)) &&
            cli_load(CMD, &o.common, &asset))
            status = view_asset(&o, asset, o.script ? &script : NULL);
        vs_asset_free(asset);
        view_script_free(&script);
    }
    cli_options_free(&o.common);
    return status;
}

#else

int cmd_view(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i)
        if (cli_is_help(argv[i])) {
            printf("usage: vskin view [FILE] [options]\n\n"
                   "This vskin was built without the viewer "
                   "(VSKIN_WITH_VIEWER=OFF or GLFW missing):\n"
                   "view is not available.\n");
            return 0;
        }
    cli_error("view", "this vskin was built without the viewer "
                      "(VSKIN_WITH_VIEWER=OFF or GLFW missing)");
    return 1;
}

#endif
