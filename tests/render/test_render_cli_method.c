/* SPDX-License-Identifier: MIT */
/* `vskin render --method linear|dq|both`: both is one picture twice as wide
 * whose left half is exactly the linear picture and right half exactly the
 * dq one (same camera), the two differ on a bent pose, and bad values exit
 * 2. */
#include <sys/wait.h>

#include "write/image/image_writers.h"
#include "test.h"

static int run_cli(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' render %s >/dev/null 2>'%s/render_method.err'",
             VS_TEST_TMP, VS_CLI_PATH, args, VS_TEST_TMP);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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

#define COMMON "--time 1 --size 48x40 --camera 0,1,5,0,1,0,45"

static void both_is_linear_beside_dq(void)
{
    CHECK(run_cli(COMMON " --method linear -o m_lin.png") == 0);
    CHECK(run_cli(COMMON " --method dq -o m_dq.png") == 0);
    CHECK(run_cli(COMMON " --method both -o m_both.png") == 0);
    uint32_t w[3] = {0}, h[3] = {0};
    uint8_t *lin = read_png("m_lin.png", &w[0], &h[0]);
    uint8_t *dq = read_png("m_dq.png", &w[1], &h[1]);
    uint8_t *both = read_png("m_both.png", &w[2], &h[2]);
    CHECK(w[0] == 48 && h[0] == 40 && w[1] == 48 && h[1] == 40);
    CHECK(w[2] == 96 && h[2] == 40);
    if (lin && dq && both && w[2] == 96 && h[2] == 40) {
        size_t left = 0, right = 0, between = 0;
        for (uint32_t y = 0; y < 40; ++y) {
            const uint8_t *row = both + (size_t)y * 96 * 4;
            left += memcmp(row, lin + (size_t)y * 48 * 4, 48 * 4) != 0;
            right += memcmp(row + 48 * 4, dq + (size_t)y * 48 * 4, 48 * 4) != 0;
            between += memcmp(lin + (size_t)y * 48 * 4, dq + (size_t)y * 48 * 4,
                              48 * 4) != 0;
        }
        CHECK_MSG(left == 0 && right == 0, "%zu left, %zu right rows differ",
                  left, right);
        CHECK_MSG(between > 0, "linear and dq pictures are the same");
    }
    free(lin);
    free(dq);
    free(both);
}

static void bad_method_is_refused(void)
{
    CHECK(run_cli("--method dual -o x.png") == 2);
    CHECK(run_cli("--method -o x.png") == 2);
}

int main(void)
{
    /* Skipped only where EGL cannot be opened; any other failure of the
     * probe fails the test. */
    if (run_cli("--size 8x8 -o probe_method.png") != 0) {
        unsigned char err[2048];
        size_t n = test_slurp_tmp("render_method.err", err, sizeof err - 1);
        err[n] = '\0';
        if (strstr((char *)err, "EGL:")) {
            printf("skipped: %s", (char *)err);
            return 77;
        }
        fprintf(stderr, "vskin render failed: %s", (char *)err);
        return 1;
    }
    RUN(both_is_linear_beside_dq);
    RUN(bad_method_is_refused);
    return test_summary();
}
