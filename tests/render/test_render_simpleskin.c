/* SPDX-License-Identifier: MIT */
/* Pictures of the embedded SimpleSkin (the glTF tutorial's two-joint strip).
 * At t = 0.5 s the animation's second key, rotation (0, 0, 0.383, 0.924),
 * turns joint 1 by 45 degrees about z. The checks project the CPU-posed
 * vertices with the same camera the renderer uses and look at the pixels:
 * the upper half is bent, a point inside the bent part is foreground, the
 * place it left is background, and the lower half did not move. Renders are
 * also compared with small reference PNGs (tests/data/render; set
 * VS_UPDATE_REFERENCES=1 to rewrite them after a deliberate change). */
#include "write/image/image_writers.h"
#include "render_support.h"

#define W 160
#define H 160

static vs_asset *asset;
static vs_renderer *renderer;
static vs_pose *pose;
static vs_camera camera;

static void project(const float p[3], float *px, float *py)
{
    float m[16];
    vs_camera_view_projection(&camera, (float)W / (float)H, m);
    float c[4];
    for (int r = 0; r < 4; ++r)
        c[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    *px = (c[0] / c[3] * 0.5f + 0.5f) * (float)W;
    *py = (0.5f - c[1] / c[3] * 0.5f) * (float)H; /* image rows go down */
}

static const uint8_t *pixel(const uint8_t *rgba, float x, float y)
{
    int ix = (int)x, iy = (int)y;
    if (ix < 0) ix = 0;
    if (iy < 0) iy = 0;
    if (ix >= W) ix = W - 1;
    if (iy >= H) iy = H - 1;
    return rgba + ((size_t)iy * W + (size_t)ix) * 4;
}

/* The white clear colour, give or take the few units a GL implementation
 * may round differently on another CPU. */
static int is_background(const uint8_t *p)
{
    return p[0] >= 250 && p[1] >= 250 && p[2] >= 250;
}

static int render(float t, vs_render_view view, vs_upload_path path,
                  bool skeleton, uint8_t *rgba)
{
    if (!pose_at(pose, 0, t)) return 0;
    vs_error e = {0};
    vs_render_desc desc = {.width = W,
                           .height = H,
                           .view = view,
                           .camera = &camera,
                           .upload = path,
                           .skeleton = skeleton};
    vs_result r = vs_render_pose(renderer, pose, &desc, rgba, &e);
    CHECK_MSG(r == VS_OK, "vs_render_pose: %s", e.message);
    return r == VS_OK;
}

/* Centroid of triangle (a, b, c) of the posed primitive. */
static void centroid(const float *pos, int a, int b, int c, float out[3])
{
    for (int k = 0; k < 3; ++k)
        out[k] = (pos[a * 3 + k] + pos[b * 3 + k] + pos[c * 3 + k]) / 3.0f;
}

static void test_bent_at_45_degrees(void)
{
    uint8_t *img = malloc(W * H * 4);
    vs_posed_primitive rest = {0}, bent = {0};
    vs_error e = {0};
    CHECK(pose_at(pose, 0, 0.0f));
    CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &rest, &e) == VS_OK);
    CHECK(render(0.5f, VS_VIEW_OUTLINE, VS_UPLOAD_AUTO, false, img));
    CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &bent, &e) == VS_OK);
    if (!rest.positions || !bent.positions || rest.vertex_count != 10) {
        CHECK(!"SimpleSkin has 10 vertices");
        free(img);
        return;
    }
    /* Vertices 8, 9 (y = 2, weight 1 on joint 1) swing left about (0, 1):
     * (-0.5, 2) -> (-1.06, 1.35) and (0.5, 2) -> (-0.35, 2.06). */
    for (int v = 8; v < 10; ++v) {
        float rx, ry, bx, by;
        project(rest.positions + v * 3, &rx, &ry);
        project(bent.positions + v * 3, &bx, &by);
        CHECK_MSG(bx < rx - 10.0f, "vertex %d: x %g -> %g", v, rx, bx);
        if (v == 8) CHECK_MSG(by > ry + 10.0f, "vertex 8: y %g -> %g", ry, by);
    }
    /* Vertices 0, 1 (y = 0) are bound to joint 0 only and stay. */
    for (int v = 0; v < 2; ++v) {
        float rx, ry, bx, by;
        project(rest.positions + v * 3, &rx, &ry);
        project(bent.positions + v * 3, &bx, &by);
        CHECK_NEAR(bx, rx, 1e-3);
        CHECK_NEAR(by, ry, 1e-3);
    }
    /* The top triangle (6, 7, 9): its posed centroid is drawn, its rest
     * centroid is now empty, and the bottom triangle is drawn in place. */
    float c[3], x, y;
    centroid(bent.positions, 6, 7, 9, c);
    project(c, &x, &y);
    CHECK_MSG(!is_background(pixel(img, x, y)), "bent top at %g,%g", x, y);
    centroid(rest.positions, 6, 7, 9, c);
    project(c, &x, &y);
    CHECK_MSG(is_background(pixel(img, x, y)), "old top at %g,%g", x, y);
    centroid(bent.positions, 0, 1, 3, c);
    project(c, &x, &y);
    CHECK_MSG(!is_background(pixel(img, x, y)), "bottom at %g,%g", x, y);
    vs_posed_primitive_free(&rest);
    vs_posed_primitive_free(&bent);
    free(img);
}

/* Per-channel differences above 24 are allowed on at most 1% of the pixels
 * (line rasterization may differ by a pixel between Mesa versions). */
static void compare_reference(const char *name, const uint8_t *img)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/render/%s", VS_TEST_DATA, name);
    vs_error e = {0};
    const char *update = getenv("VS_UPDATE_REFERENCES");
    if (update && strcmp(update, "1") == 0)
        CHECK(png_write_rgba(path, W, H, img, NULL, &e) == VS_OK);
    uint32_t w = 0, h = 0;
    uint8_t *ref = NULL;
    CHECK_MSG(png_read_rgba(path, NULL, &w, &h, &ref, &e) == VS_OK, "%s",
              e.message);
    if (!ref) return;
    CHECK(w == W && h == H);
    size_t bad = 0;
    for (size_t i = 0; w == W && h == H && i < (size_t)W * H; ++i)
        for (int k = 0; k < 4; ++k)
            if (abs((int)img[i * 4 + k] - (int)ref[i * 4 + k]) > 24) {
                ++bad;
                break;
            }
    CHECK_MSG(bad <= (size_t)W * H / 100, "%s: %zu pixels differ", name, bad);
    free(ref);
}

static void test_matches_reference_pictures(void)
{
    uint8_t *img = malloc(W * H * 4);
    CHECK(render(0.0f, VS_VIEW_OUTLINE, VS_UPLOAD_AUTO, false, img));
    compare_reference("simpleskin_outline_t0.png", img);
    CHECK(render(0.5f, VS_VIEW_OUTLINE, VS_UPLOAD_AUTO, false, img));
    compare_reference("simpleskin_outline_t05.png", img);
    CHECK(render(1.0f, VS_VIEW_SHADED, VS_UPLOAD_AUTO, true, img));
    compare_reference("simpleskin_shaded_skeleton_t1.png", img);
    free(img);
}

static void test_texture_and_uniform_paths_agree(void)
{
    uint8_t *a = malloc(W * H * 4), *b = malloc(W * H * 4);
    for (int v = VS_VIEW_SHADED; v <= VS_VIEW_NORMALS; ++v) {
        CHECK(render(1.25f, (vs_render_view)v, VS_UPLOAD_UNIFORMS, true, a));
        CHECK(render(1.25f, (vs_render_view)v, VS_UPLOAD_TEXTURE, true, b));
        CHECK_MSG(memcmp(a, b, W * H * 4) == 0, "view %d differs", v);
    }
    CHECK(vs_renderer_resolve_upload(renderer, VS_UPLOAD_AUTO) ==
          VS_UPLOAD_UNIFORMS);
    free(a);
    free(b);
}

static void test_views_differ_and_show_the_mesh(void)
{
    uint8_t *img[5];
    for (int v = 0; v < 5; ++v) {
        img[v] = malloc(W * H * 4);
        CHECK(render(0.5f, (vs_render_view)v, VS_UPLOAD_AUTO, false, img[v]));
    }
    for (int v = 0; v < 5; ++v)
        for (int u = v + 1; u < 5; ++u)
            CHECK_MSG(memcmp(img[v], img[u], W * H * 4) != 0, "views %d, %d", v,
                      u);
    /* Weights view: the bottom row (joint 0 only) and the top row (joint 1
     * only) have different colours. */
    float lo[3] = {0.0f, 0.1f, 0.0f}, hi[3] = {0.0f, 0.0f, 0.0f}, x, y;
    vs_posed_primitive bent = {0};
    CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &bent, NULL) == VS_OK);
    if (bent.positions) {
        centroid(bent.positions, 6, 7, 9, hi);
        project(lo, &x, &y);
        const uint8_t *p0 = pixel(img[VS_VIEW_JOINTS], x, y);
        project(hi, &x, &y);
        const uint8_t *p1 = pixel(img[VS_VIEW_JOINTS], x, y);
        CHECK(memcmp(p0, p1, 3) != 0);
    }
    vs_posed_primitive_free(&bent);
    for (int v = 0; v < 5; ++v)
        free(img[v]);
}

static void test_skeleton_overlay_marks_joints(void)
{
    uint8_t *img = malloc(W * H * 4);
    CHECK(render(0.5f, VS_VIEW_OUTLINE, VS_UPLOAD_AUTO, true, img));
    for (uint32_t j = 0; j < asset->skins[0].joint_count; ++j) {
        const float *world = vs_pose_world(pose, asset->skins[0].joints[j]);
        float x, y;
        project(world + 12, &x, &y);
        const uint8_t *p = pixel(img, x, y);
        /* The joint point colour (1, 0.8, 0.1), within a few units. */
        CHECK_MSG(p[0] >= 250 && abs((int)p[1] - 204) <= 3 && p[2] < 40,
                  "joint %u at %g,%g: "
                  "%u %u %u",
                  j, x, y, p[0], p[1], p[2]);
    }
    free(img);
}

static void test_bad_arguments(void)
{
    uint8_t px[4];
    vs_error e = {0};
    CHECK(vs_render_pose(NULL, pose, NULL, px, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_render_pose(renderer, pose, &(vs_render_desc){.view = 99}, px,
                         &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_render_pose(renderer, pose,
                         &(vs_render_desc){.width = 100000, .height = 1}, px,
                         &e) == VS_ERROR_LIMIT);
    float out[30];
    CHECK(vs_renderer_capture_skinned_positions(renderer, pose, 5, 0,
                                                VS_UPLOAD_AUTO, 0, out, NULL,
                                                &e) == VS_ERROR_NOT_FOUND);
}

int main(void)
{
    asset = load_default_asset();
    if (!asset) return 1;
    renderer = open_renderer_or_skip(asset);
    CHECK(renderer != NULL);
    vs_error e = {0};
    CHECK(vs_pose_create(asset, &pose, &e) == VS_OK);
    CHECK(vs_camera_frame_clip(asset, 0, 30, (float)W / H, false, &camera,
                               &e) == VS_OK);
    if (renderer && pose) {
        RUN(test_bent_at_45_degrees);
        RUN(test_matches_reference_pictures);
        RUN(test_texture_and_uniform_paths_agree);
        RUN(test_views_differ_and_show_the_mesh);
        RUN(test_skeleton_overlay_marks_joints);
        RUN(test_bad_arguments);
    }
    vs_pose_free(pose);
    vs_renderer_destroy(renderer);
    vs_asset_free(asset);
    return test_summary();
}
