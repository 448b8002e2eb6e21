/* SPDX-License-Identifier: MIT */
/* With no EGL vendor to load (GLVND finds none in an empty folder), creating
 * a renderer fails with VS_ERROR_RENDER and a message naming the packages to
 * install; nothing crashes and the CLI exits 1 with that message. Runs in its
 * own process: EGL displays are per process, so this must precede any
 * successful EGL use. */
#include <stdlib.h>
#include <sys/wait.h>

#include "render_support.h"

static void test_create_fails_cleanly(void)
{
    vs_asset *a = load_default_asset();
    CHECK(a != NULL);
    if (!a) return;
    vs_renderer *r = (vs_renderer *)&r; /* must be reset to NULL */
    vs_error e = {0};
    vs_result res = vs_renderer_create(a, &r, &e);
    CHECK(res == VS_ERROR_RENDER);
    CHECK(r == NULL);
    CHECK_MSG(strstr(e.message, "libegl-mesa0") != NULL, "message: %s",
              e.message);
    CHECK_MSG(strstr(e.message, "EGL") == e.message, "message: %s", e.message);
    vs_renderer_destroy(NULL);
    vs_asset_free(a);
}

static void test_cli_reports_it(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' render -o '%s/egl_fail.png' 2>'%s/egl_fail.txt'",
             VS_CLI_PATH, VS_TEST_TMP, VS_TEST_TMP);
    int status = system(cmd);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    char path[1024], text[2048] = "";
    snprintf(path, sizeof path, "%s/egl_fail.txt", VS_TEST_TMP);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
    }
    CHECK_MSG(strstr(text, "vskin render: EGL:") != NULL, "stderr: %s", text);
    CHECK_MSG(strstr(text, "libgl1-mesa-dri") != NULL, "stderr: %s", text);
}

int main(void)
{
    /* GLVND's vendor search path: an empty folder means no EGL driver. */
    setenv("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent-vskin-test", 1);
    unsetenv("__EGL_VENDOR_LIBRARY_FILENAMES");
    RUN(test_create_fails_cleanly);
    RUN(test_cli_reports_it);
    return test_summary();
}
