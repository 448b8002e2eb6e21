/* SPDX-License-Identifier: MIT */
/* vs_camera_frame_bounds gives a finite camera and view-projection for any
 * box, aspect and up axis: empty (min > max) and NaN or infinite bounds,
 * boxes too large for their centre or extent to be a float, and a point far
 * from the origin. No GL context. */
#include <float.h>

#include "test.h"
#include "vskin/vskin_render.h"

static int finite_camera(const vs_camera *c)
{
    int ok = isfinite(c->near_plane) && isfinite(c->far_plane) &&
             isfinite(c->ortho_height) && c->near_plane > 0.0f &&
             c->far_plane > c->near_plane;
    int apart = 0;
    for (int k = 0; k < 3; ++k) {
        ok = ok && isfinite(c->eye[k]) && isfinite(c->target[k]) &&
             isfinite(c->up[k]);
        apart = apart || c->eye[k] != c->target[k];
    }
    return ok && apart;
}

static void test_every_box_gives_a_finite_camera(void)
{
    const float inf = INFINITY, nan = NAN, big = FLT_MAX;
    const float boxes[][6] = {
        {-1, -1, -1, 1, 1, 1},             /* ordinary */
        {0, 0, 0, 0, 0, 0},                /* one point */
        {big, big, big, -big, -big, -big}, /* empty: no vertex seen */
        {nan, 0, 0, 1, 1, 1},              /* NaN */
        {-inf, -1, -1, 1, 1, inf},         /* infinite */
        {-big, -big, -big, big, big, big}, /* extent overflows */
        {big, big, big, big, big, big},    /* a point at FLT_MAX */
        {1e30f, 1e30f, 1e30f, 1e30f, 1e30f, 1e30f},
        {1e30f, 0, 0, 1e30f, 1e-30f, 0},   /* tiny, far out */
        {-3e38f, 0, 0, 3e38f, 0, 0},       /* eye distance overflows */
        {0, 0, 0, 1e-40f, 1e-40f, 1e-40f}, /* denormal extent */
    };
    const float aspects[] = {1.0f, 0.0f, -1.0f, NAN, INFINITY, 1e-30f, 1e30f};
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; ++b)
        for (size_t a = 0; a < sizeof aspects / sizeof aspects[0]; ++a)
            for (int up = VS_UP_Y; up <= VS_UP_X; ++up)
                for (int ortho = 0; ortho < 2; ++ortho) {
                    vs_camera cam;
                    vs_camera_frame_bounds(boxes[b], boxes[b] + 3,
                                           (vs_up_axis)up, aspects[a],
                                           ortho != 0, &cam);
                    CHECK_MSG(finite_camera(&cam),
                              "box %zu, aspect %g, up %d, ortho %d", b,
                              (double)aspects[a], up, ortho);
                    float vp[16];
                    vs_camera_view_projection(&cam, aspects[a], vp);
                    int finite = 1;
                    for (int k = 0; k < 16; ++k)
                        finite = finite && isfinite(vp[k]);
                    CHECK_MSG(finite, "box %zu, aspect %g, up %d, ortho %d", b,
                              (double)aspects[a], up, ortho);
                }
}

/* An ordinary box is still framed around its own centre. */
static void test_ordinary_box_is_framed_around_its_centre(void)
{
    const float lo[3] = {1, 2, 3}, hi[3] = {3, 6, 5};
    vs_camera cam;
    vs_camera_frame_bounds(lo, hi, VS_UP_Y, 1.0f, false, &cam);
    CHECK_NEAR(cam.target[0], 2.0, 1e-6);
    CHECK_NEAR(cam.target[1], 4.0, 1e-6);
    CHECK_NEAR(cam.target[2], 4.0, 1e-6);
}

int main(void)
{
    RUN(test_every_box_gives_a_finite_camera);
    RUN(test_ordinary_box_is_framed_around_its_centre);
    return test_summary();
}
