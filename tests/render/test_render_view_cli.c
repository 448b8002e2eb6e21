/* SPDX-License-Identifier: MIT */
/* `vskin view --script` under Xvfb: the viewer opens a real window, plays,
 * pauses, switches views, scrubs, toggles the skeleton and the skinning
 * method, shows linear and DQS side by side, orbits, frames and zooms,
 * scrubs by a click in the timeline bar, draws its help panel and status
 * line over the view, and its screenshots of an unmoved camera without
 * them are the pictures `vskin render` draws of the same pose (the same
 * shaders through vs_render_pose_to_current_framebuffer). A broken script is
 * refused with its line before any window opens, a screenshot never replaces a
 * file the model is read from, and the renderer's warnings are printed. Skipped
 * (77) when xvfb-run or xauth is missing or the CLI was built without the
 * viewer. */
#include <stdlib.h>
#include <sys/wait.h>

#include "test.h"
#include "write/image/image_writers.h"

/* Per channel: llvmpipe draws both the same, but a window system may
 * round differently on the way to the screen. */
#define TOLERANCE 2

static int shell(const char *fmt, const char *args, const char *log)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, fmt, VS_TEST_TMP, VS_CLI_PATH, args, VS_TEST_TMP,
             log);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int render(const char *args)
{
    return shell("cd '%s' && '%s' render %s >/dev/null 2>'%s/%s'", args,
                 "view_render.err");
}

/* Sanitized builds: Mesa's X11 EGL driver, unloaded at exit, leaves a few
 * allocations that LeakSanitizer can only attribute to an unknown module,
 * so the windowed runs do without the leak check (address and undefined
 * behaviour checks stay on). The script checks, which open no window, keep
 * it. */
#ifdef VS_SANITIZED
#define VIEW_ENV "ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" "
#else
#define VIEW_ENV ""
#endif

/* The viewer's own exit status, written from inside xvfb-run: xvfb-run
 * may fail after the viewer has exited (removing its temporary folder) and
 * then exits with a status of its own. */
static int view_once(const char *args)
{
    remove(VS_TEST_TMP "/view.status");
    int outer = shell("cd '%s' && " VIEW_ENV
                      "timeout 300 xvfb-run -a -s '-screen 0 640x480x24' "
                      "sh -c \"'%s' view %s; echo \\$? > view.status\" "
                      ">/dev/null 2>'%s/%s'",
                      args, "view.err");
    unsigned char status[16];
    size_t n = test_slurp_tmp("view.status", status, sizeof status - 1);
    if (n == 0) return outer;
    status[n] = '\0';
    return atoi((const char *)status);
}

/* Runs the viewer under a fresh X server; an X server that did not start
 * (another one took the display number xvfb-run -a picked) is tried again.
 * Prints the viewer's stderr when the exit status is not `expected`. */
static int view(const char *args, int expected)
{
    int rc = -1;
    unsigned char err[4096];
    for (int attempt = 0; attempt < 3; ++attempt) {
        rc = view_once(args);
        size_t n = test_slurp_tmp("view.err", err, sizeof err - 1);
        err[n] = '\0';
        if (rc == expected || !strstr((char *)err, "Xvfb failed to start"))
            break;
    }
    if (rc != expected)
        fprintf(stderr, "vskin view %s exited %d, not %d:\n%s\n", args, rc,
                expected, (char *)err);
    return rc;
}

static void write_tmp(const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", VS_TEST_TMP, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static uint8_t *read_png(const char *name, uint32_t *w, uint32_t *h)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", VS_TEST_TMP, name);
    uint8_t *px = NULL;
    vs_error e = {0};
    CHECK_MSG(png_read_rgba(path, NULL, w, h, &px, &e) == VS_OK, "%s: %s", name,
              e.message);
    return px;
}

/* How many pixels differ by more than TOLERANCE in some channel; SIZE_MAX
 * when the pictures cannot be compared. */
static size_t differing_in(const char *a_name, const char *b_name,
                           uint32_t rows)
{
    uint32_t aw = 0, ah = 0, bw = 0, bh = 0;
    uint8_t *a = read_png(a_name, &aw, &ah), *b = read_png(b_name, &bw, &bh);
    size_t count = SIZE_MAX;
    if (a && b && aw == bw && ah == bh) {
        count = 0;
        size_t end = (size_t)aw * (rows < ah ? rows : ah);
        for (size_t i = 0; i < end; ++i) {
            bool differs = false;
            for (int k = 0; k < 4; ++k)
                differs |=
                    abs((int)a[i * 4 + k] - (int)b[i * 4 + k]) > TOLERANCE;
            count += differs;
        }
    }
    free(a);
    free(b);
    return count;
}

static size_t differing(const char *a_name, const char *b_name)
{
    return differing_in(a_name, b_name, UINT32_MAX);
}

#define SAME(a, b)                                                             \
    do {                                                                       \
        size_t n_ = differing(a, b);                                           \
        CHECK_MSG(n_ == 0, "%s and %s: %zu pixels differ", a, b, n_);          \
    } while (0)
#define DIFFERENT(a, b)                                                        \
    do {                                                                       \
        size_t n_ = differing(a, b);                                           \
        CHECK_MSG(n_ > 100 && n_ != SIZE_MAX, "%s and %s: %zu pixels differ",  \
                  a, b, n_);                                                   \
    } while (0)

static const char script[] = "# SimpleSkin plays from t = 0\n"
                             "advance 0.5\n"
                             "screenshot v_play.png\n"
                             "key SPACE\n"
                             "advance 1\n"
                             "screenshot v_paused.png\n"
                             "key 2\n"
                             "screenshot v_outline.png\n"
                             "scrub 0.25\n"
                             "key K\n"
                             "screenshot v_scrub.png\n"
                             "key M\n"
                             "screenshot v_dq.png\n"
                             "drag left 100 0\n"
                             "screenshot v_orbit.png\n"
                             "key F\n"
                             "screenshot v_framed.png\n"
                             "wheel 3\n"
                             "drag right 20 10\n"
                             "screenshot v_zoom.png\n"
                             "key F\n"
                             "view normals\n"
                             "key M\n"
                             "key K\n"
                             "drag left 80 0 shift\n"
                             "screenshot v_normals.png\n"
                             "view outline\n"
                             "key B\n"
                             "screenshot v_both.png\n"
                             "key B\n"
                             "key T\n"
                             "click 80 115\n"
                             "screenshot v_bar.png\n"
                             "key T\n"
                             "screenshot v_nobar.png\n"
                             "quit\n"
                             "screenshot v_never.png\n";

static void screenshots_match_render(void)
{
    write_tmp("view.txt", script);
    remove(VS_TEST_TMP "/v_never.png");
    int rc = view("--size 160x120 --script view.txt", 0);
    CHECK(rc == 0);
    if (rc != 0) return;
    const char *size = "--size 160x120 ";
    char args[256];
    struct {
        const char *args, *out;
    } refs[] = {
        {"--time 0.5", "r_play.png"},
        {"--time 0.5 --view outline", "r_outline.png"},
        {"--time 0.25 --view outline --skeleton", "r_scrub.png"},
        {"--time 0.25 --view outline --skeleton --method dq", "r_dq.png"},
        /* Shift-drag scrubs 80 / 160 of the 5.5 s clip on from 0.25 s. */
        {"--time 3 --view normals", "r_normals.png"},
        /* Side by side: each half a 80x120 picture. */
        {"--time 3 --view outline --method both --size 80x120", "r_both.png"},
        /* A click half way along the timeline bar: 2.75 s, paused. */
        {"--time 2.75 --view outline", "r_bar.png"},
    };
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; ++i) {
        /* A later --size wins. */
        snprintf(args, sizeof args, "%s%s -o %s", size, refs[i].args,
                 refs[i].out);
        CHECK_MSG(render(args) == 0, "vskin render %s failed", args);
    }
    SAME("v_play.png", "r_play.png");
    SAME("v_paused.png", "r_play.png");
    SAME("v_outline.png", "r_outline.png");
    SAME("v_scrub.png", "r_scrub.png");
    SAME("v_dq.png", "r_dq.png");
    DIFFERENT("v_orbit.png", "r_dq.png");
    SAME("v_framed.png", "r_dq.png");
    DIFFERENT("v_zoom.png", "r_dq.png");
    SAME("v_normals.png", "r_normals.png");
    SAME("v_both.png", "r_both.png");
    SAME("v_nobar.png", "r_bar.png");
    /* The bar covers the bottom 8 rows and nothing else. */
    size_t above = differing_in("v_bar.png", "r_bar.png", 112);
    CHECK_MSG(above == 0, "%zu pixels above the timeline bar differ", above);
    DIFFERENT("v_bar.png", "r_bar.png");
    FILE *never = fopen(VS_TEST_TMP "/v_never.png", "rb");
    CHECK_MSG(never == NULL, "a step after quit ran");
    if (never) fclose(never);
}

/* H draws the help panel over the view and S the status line along the
 * top, in the window and so in its screenshots; hidden again, they leave
 * the picture `vskin render` draws. Panel pixels are the model dimmed by a
 * dark, semi-opaque background, with light text on it. */
static void help_and_status_are_drawn_in_the_window(void)
{
    write_tmp("view_help.txt", "screenshot o_plain.png\n"
                               "key H\n"
                               "screenshot o_help.png\n"
                               "key H\n"
                               "screenshot o_after.png\n"
                               "key S\n"
                               "screenshot o_status.png\n"
                               "quit\n");
    CHECK(view("--size 640x480 --paused --script view_help.txt", 0) == 0);
    SAME("o_after.png", "o_plain.png");
    uint32_t w = 0, h = 0, w2 = 0, h2 = 0, w3 = 0, h3 = 0;
    uint8_t *plain = read_png("o_plain.png", &w, &h);
    uint8_t *help = read_png("o_help.png", &w2, &h2);
    uint8_t *status = read_png("o_status.png", &w3, &h3);
    bool ok = plain && help && status && w == 640 && h == 480 && w2 == w &&
              h2 == h && w3 == w && h3 == h;
    CHECK(ok);
    if (ok) {
        /* Well inside the panel (the top-left of the window) whatever
         * its text's size: each pixel is light text or the frame dimmed. */
        size_t text = 0, dimmed = 0, model_through = 0, other = 0;
        for (uint32_t y = 32; y < 200; ++y)
            for (uint32_t x = 32; x < 400; ++x) {
                const uint8_t *p = plain + (y * w + x) * 4;
                const uint8_t *q = help + (y * w + x) * 4;
                bool light = q[0] >= 200 && q[1] >= 200 && q[2] >= 200;
                bool darker =
                    q[0] + 8 < p[0] && q[1] + 8 < p[1] && q[2] + 8 < p[2];
                text += light;
                dimmed += !light && darker;
                /* Semi-opaque: the light model shows through, darker but
                 * brighter than the panel over the dark background. */
                model_through += !light && darker && p[0] > 150 && q[0] > 40;
                other += !light && !darker;
            }
        CHECK_MSG(text > 1000 && dimmed > 20000 && model_through > 1000 &&
                      other == 0,
                  "help panel: %zu text, %zu dimmed (%zu over the model), "
                  "%zu neither",
                  text, dimmed, model_through, other);
        /* The status line: the top rows, light text on dark; the rest of
         * the frame as it was. */
        size_t top_text = 0, below = 0;
        for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < w; ++x) {
                const uint8_t *p = plain + (y * w + x) * 4;
                const uint8_t *q = status + (y * w + x) * 4;
                if (y < 8)
                    top_text += q[0] >= 200 && q[1] >= 200 && q[2] >= 200;
                else if (y >= 40)
                    below += memcmp(p, q, 4) != 0;
            }
        CHECK_MSG(top_text > 200 && below == 0,
                  "status line: %zu text pixels, %zu changed below it",
                  top_text, below);
    }
    free(plain);
    free(help);
    free(status);
}

static void bad_script_is_refused(void)
{
    write_tmp("view_bad.txt", "advance 0.5\njump 3\n");
    /* Without xvfb-run: the script is read before a window is needed. */
    CHECK(shell("cd '%s' && '%s' view %s >/dev/null 2>'%s/%s'",
                "--script view_bad.txt", "view_bad.err") == 1);
    unsigned char err[1024];
    size_t n = test_slurp_tmp("view_bad.err", err, sizeof err - 1);
    err[n] = '\0';
    CHECK_MSG(strstr((char *)err, "view_bad.txt:2: jump") != NULL, "%s",
              (char *)err);
}

/* A screenshot never replaces a file the model is made of. */
static void screenshot_spares_the_models_files(void)
{
    CHECK(shell("cd '%s' && rm -f vm.gltf vm.bin vm_buf.png && '%s' convert "
                "%s >/dev/null 2>'%s/%s'",
                "-o vm.gltf", "view_convert.err") == 0);
    CHECK(system("cd '" VS_TEST_TMP "' && mv vm.bin vm_buf.png && "
                 "sed -i 's/vm\\.bin/vm_buf.png/' vm.gltf") == 0);
    write_tmp("view_spare.txt", "screenshot vm_buf.png\n");
    unsigned char before[64], after[64];
    size_t n_before = test_slurp_tmp("vm_buf.png", before, sizeof before);
    CHECK(n_before > 0);
    CHECK(view("vm.gltf --size 64x64 --script view_spare.txt", 1) == 1);
    size_t n_after = test_slurp_tmp("vm_buf.png", after, sizeof after);
    CHECK(n_before == n_after && memcmp(before, after, n_after) == 0);
    unsigned char err[1024];
    size_t n = test_slurp_tmp("view.err", err, sizeof err - 1);
    err[n] = '\0';
    CHECK_MSG(strstr((char *)err, "refusing to write over") != NULL, "%s",
              (char *)err);
}

/* An image the renderer cannot decode is a warning after the run, as
 * `vskin render` prints it; the view still draws. */
static void unreadable_image_is_a_warning(void)
{
    write_tmp("view_image.txt", "screenshot v_image.png\n");
    remove(VS_TEST_TMP "/v_image.png");
    CHECK(view("'" VS_TEST_DATA "/render/textured_quad/broken_image.gltf' "
               "--size 32x32 --script view_image.txt",
               0) == 0);
    unsigned char err[4096];
    size_t n = test_slurp_tmp("view.err", err, sizeof err - 1);
    err[n] = '\0';
    CHECK_MSG(strstr((char *)err, "vskin view: warning: images[0]") &&
                  strstr((char *)err, "bad PNG"),
              "%s", (char *)err);
    unsigned char png[8];
    CHECK(test_slurp_tmp("v_image.png", png, sizeof png) == sizeof png);
}

/* N switches to the next clip and frames it as `render --anim` does. */
static void next_clip_matches_render_anim(void)
{
    const char *model = "'" VS_SHARED_ASSETS
                        "/gltf2/InterpolationTest/interpolation_test.gltf'";
    FILE *f = fopen(VS_SHARED_ASSETS
                    "/gltf2/InterpolationTest/interpolation_test.gltf",
                    "rb");
    if (!f) {
        printf("  (shared assets absent: clip switching not checked)\n");
        return;
    }
    fclose(f);
    write_tmp("view_clip.txt",
              "key N\nkey N\nscrub 1\nscreenshot v_clip.png\nquit\n");
    char args[1024];
    snprintf(args, sizeof args, "%s --size 96x64 --script view_clip.txt",
             model);
    CHECK(view(args, 0) == 0);
    snprintf(args, sizeof args,
             "%s --anim 2 --time 1 --size 96x64 -o r_clip.png", model);
    CHECK(render(args) == 0);
    SAME("v_clip.png", "r_clip.png");
}

int main(void)
{
    if (system("command -v xvfb-run >/dev/null 2>&1 && "
               "command -v xauth >/dev/null 2>&1") != 0) {
        printf("skipped: xvfb-run or xauth is not installed\n");
        return 77;
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' view --help | grep -q 'built without the viewer'",
             VS_CLI_PATH);
    if (system(cmd) == 0) {
        printf("skipped: vskin was built without the viewer (GLFW)\n");
        return 77;
    }
    RUN(screenshots_match_render);
    RUN(help_and_status_are_drawn_in_the_window);
    RUN(bad_script_is_refused);
    RUN(screenshot_spares_the_models_files);
    RUN(unreadable_image_is_a_warning);
    RUN(next_clip_matches_render_anim);
    return test_summary();
}
