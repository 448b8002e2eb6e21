/* SPDX-License-Identifier: MIT */
/* `vskin render` end to end: PNG and GIF files are well formed and the same
 * command writes the same bytes twice; usage errors exit 2; an image the
 * renderer cannot decode is a warning on stderr (not with --quiet), and
 * the picture is still written. */
#include <sys/wait.h>

#include "write/image/image_writers.h"
#include "test.h"

static int run_cli(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' render %s 2>'%s/render_cli.err'",
             VS_TEST_TMP, VS_CLI_PATH, args, VS_TEST_TMP);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int contains(const unsigned char *buf, size_t n, const char *s)
{
    size_t m = strlen(s);
    for (size_t i = 0; i + m <= n; ++i)
        if (memcmp(buf + i, s, m) == 0) return 1;
    return 0;
}

static unsigned char a[1 << 20], b[1 << 20];

static void test_png_is_deterministic(void)
{
    CHECK(run_cli(
              "--view outline --skeleton --time 0.5 --size 64x48 -o r1.png") ==
          0);
    CHECK(run_cli(
              "--view outline --skeleton --time 0.5 --size 64x48 -o r2.png") ==
          0);
    size_t n1 = test_slurp_tmp("r1.png", a, sizeof a), n2 = test_slurp_tmp("r2.png", b, sizeof b);
    CHECK(n1 > 8 && n1 == n2 && memcmp(a, b, n1) == 0);
    CHECK(memcmp(a, "\x89PNG\r\n\x1a\n", 8) == 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/r1.png", VS_TEST_TMP);
    uint32_t w = 0, h = 0;
    uint8_t *px = NULL;
    CHECK(png_read_rgba(path, NULL, &w, &h, &px, NULL) == VS_OK);
    CHECK(w == 64 && h == 48);
    /* Not a blank picture: some pixels are not the white background. */
    size_t ink = 0;
    for (size_t i = 0; px && i < (size_t)w * h; ++i)
        ink += px[i * 4] != 255 || px[i * 4 + 1] != 255 || px[i * 4 + 2] != 255;
    CHECK_MSG(ink > 100, "%zu non-background pixels", ink);
    free(px);
}

static void test_gif_loops_and_is_deterministic(void)
{
    CHECK(run_cli("--frames 6 --size 40x40 --view joints -o r1.gif") == 0);
    CHECK(run_cli("--frames 6 --size 40x40 --view joints -o r2.gif") == 0);
    size_t n1 = test_slurp_tmp("r1.gif", a, sizeof a), n2 = test_slurp_tmp("r2.gif", b, sizeof b);
    CHECK(n1 > 6 && n1 == n2 && memcmp(a, b, n1) == 0);
    CHECK(memcmp(a, "GIF89a", 6) == 0);
    CHECK(contains(a, n1, "NETSCAPE2.0"));
    /* 6 frames: 6 image descriptors after graphic control extensions
     * (0x21 0xF9 0x04 ... 0x00 0x2C). */
    int frames = 0;
    for (size_t i = 0; i + 8 < n1; ++i)
        frames += a[i] == 0x21 && a[i + 1] == 0xF9 && a[i + 2] == 4 &&
                  a[i + 7] == 0 && a[i + 8] == 0x2C;
    CHECK_MSG(frames == 6, "%d frames", frames);
    CHECK(a[n1 - 1] == 0x3B); /* the trailer */
}

static void test_camera_upload_and_ortho_options(void)
{
    CHECK(
        run_cli(
            "--camera 0,1,6,0,1,0,40 --upload texture --size 32x32 -o c.png") ==
        0);
    CHECK(run_cli("--ortho --view normals --size 32x32 -o o.png") == 0);
    CHECK(run_cli("--fps 4 --from 0 --to 1 --size 16x16 -o f.gif") == 0);
}

static void test_usage_errors(void)
{
    CHECK(run_cli("--help >/dev/null") == 0);
    CHECK(run_cli("--view bogus -o x.png") == 2);
    CHECK(run_cli("--size 0x10 -o x.png") == 2);
    CHECK(run_cli("--camera 1,2,3 -o x.png") == 2);
    CHECK(run_cli("--size 10x10") == 2);
    CHECK(run_cli("--frames 2 --fps 3 -o x.gif") == 2);
    CHECK(run_cli("--anim nope -o x.png") == 1);
    CHECK(run_cli("-o") == 2);
}

static void test_unreadable_image_is_a_warning(void)
{
    unsigned char err[4096];
    CHECK(run_cli("'" VS_TEST_DATA "/render/textured_quad/broken_image.gltf' "
                  "--size 16x16 -o bi.png") == 0);
    size_t n = test_slurp_tmp("render_cli.err", err, sizeof err - 1);
    err[n] = '\0';
    CHECK_MSG(strstr((char *)err, "warning: images[0]") &&
                  strstr((char *)err, "bad PNG"),
              "%s", (char *)err);
    CHECK(test_slurp_tmp("bi.png", a, sizeof a) > 0);
    CHECK(run_cli("'" VS_TEST_DATA "/render/textured_quad/broken_image.gltf' "
                  "--quiet --size 16x16 -o bi.png") == 0);
    CHECK(test_slurp_tmp("render_cli.err", err, sizeof err - 1) == 0);
}

int main(void)
{
    if (run_cli("--size 8x8 -o probe.png") != 0) {
        unsigned char err[2048];
        size_t n = test_slurp_tmp("render_cli.err", err, sizeof err - 1);
        err[n] = '\0';
        if (strstr((char *)err, "EGL:")) {
            printf("skipped: %s", (char *)err);
            return 77;
        }
    }
    RUN(test_png_is_deterministic);
    RUN(test_gif_loops_and_is_deterministic);
    RUN(test_camera_upload_and_ortho_options);
    RUN(test_usage_errors);
    RUN(test_unreadable_image_is_a_warning);
    return test_summary();
}
