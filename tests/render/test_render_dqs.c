/* SPDX-License-Identifier: MIT */
/* Dual-quaternion skinning on the GPU: the vertex shader's DQS (read back
 * with transform feedback) equals the CPU reference vs_pose_mesh_primitive
 * with .method = VS_SKIN_DUAL_QUATERNION, for SimpleSkin and every glTF 2.0
 * asset of the shared corpus, through both joint upload paths and with raw
 * weights; pictures: a bent SimpleSkin looks different under DQS and
 * linear blending, its unbent first frame looks the same; and the twisted
 * cylinder keeps its middle radius on the GPU under DQS only. */
#include "gpu_cpu_compare.h"

static gpu_cpu_stats stats;

static void check_asset(vs_asset *a, const char *name, int *compared)
{
    vs_renderer *r = open_renderer_or_skip(a);
    vs_pose *pose = NULL;
    vs_error e = {0};
    CHECK(r != NULL);
    CHECK(vs_pose_create(a, &pose, &e) == VS_OK);
    for (int32_t c = -1; r && pose && c < (int32_t)a->clip_count; ++c) {
        const vs_clip *clip = c >= 0 ? &a->clips[c] : NULL;
        for (int s = 0; s < (clip ? 2 : 1); ++s) {
            float t = clip ? clip->start +
                                 (clip->end - clip->start) * 0.37f * (float)s
                           : 0.0f;
            if (!pose_at(pose, c, t)) continue;
            int before = stats.compared;
            compare_gpu_cpu(r, pose, name, t, VS_UPLOAD_UNIFORMS, 0,
                            VS_SKIN_DUAL_QUATERNION, &stats);
            compare_gpu_cpu(r, pose, name, t, VS_UPLOAD_TEXTURE, 0,
                            VS_SKIN_DUAL_QUATERNION, &stats);
            compare_gpu_cpu(r, pose, name, t, VS_UPLOAD_AUTO,
                            VS_SKIN_RAW_WEIGHTS, VS_SKIN_DUAL_QUATERNION,
                            &stats);
            *compared += stats.compared - before;
        }
    }
    vs_pose_free(pose);
    vs_renderer_destroy(r);
}

static void gpu_dqs_matches_cpu_simpleskin(void)
{
    vs_asset *a = load_default_asset();
    CHECK(a != NULL);
    int compared = 0;
    if (a) check_asset(a, "SimpleSkin", &compared);
    CHECK(compared > 0);
    vs_asset_free(a);
}

static void check_file(const char *path, void *compared)
{
    vs_asset *a = NULL;
    vs_error e = {0};
    CHECK_MSG(vs_asset_load_file(path, NULL, &a, &e) == VS_OK, "%s: %s", path,
              e.message);
    if (a) check_asset(a, path, compared);
    vs_asset_free(a);
}

/* Every glTF 2.0 file of the shared corpus (when it is there). */
static void gpu_dqs_matches_cpu_corpus(void)
{
    int compared = 0;
    int files = for_each_corpus_file("gltf2", check_file, &compared);
    if (files < 0) {
        printf("(no %s/gltf2: corpus part skipped)\n", VS_SHARED_ASSETS);
        return;
    }
    printf("%d files, %d primitive comparisons\n", files, compared);
    CHECK(files > 0 && compared > 0);
}

/* Pixels that differ between two pictures. */
static size_t differing_pixels(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t count = 0;
    for (size_t i = 0; i < n; ++i)
        count += memcmp(a + i * 4, b + i * 4, 4) != 0;
    return count;
}

static void pictures_differ_only_when_bent(void)
{
    vs_asset *a = load_default_asset();
    vs_renderer *r = a ? open_renderer_or_skip(a) : NULL;
    vs_pose *pose = NULL;
    vs_error e = {0};
    CHECK(r && vs_pose_create(a, &pose, &e) == VS_OK);
    enum { W = 128, H = 128 };
    static uint8_t lin[W * H * 4], dq[W * H * 4];
    /* One camera for all four pictures, framing the bent linear pose. */
    const vs_camera cam = {.eye = {0, 1, 5}, .target = {0, 1, 0}, .fov_y = 45};
    for (int bent = 0; r && pose && bent < 2; ++bent) {
        CHECK(pose_at(pose, 0, bent ? 1.0f : 0.0f));
        vs_render_desc d = {.width = W, .height = H, .camera = &cam};
        CHECK(vs_render_pose(r, pose, &d, lin, &e) == VS_OK);
        d.method = VS_SKIN_DUAL_QUATERNION;
        CHECK_MSG(vs_render_pose(r, pose, &d, dq, &e) == VS_OK, "%s",
                  e.message);
        size_t diff = differing_pixels(lin, dq, (size_t)W * H);
        printf("%s: %zu of %d pixels differ between linear and DQS\n",
               bent ? "bent (t = 1)" : "unbent (t = 0)", diff, W * H);
        if (bent)
            CHECK(diff > 50);
        else
            CHECK(diff == 0);
    }
    vs_render_desc bad = {.method = (vs_skin_method)9};
    if (r && pose)
        CHECK(vs_render_pose(r, pose, &bad, lin, &e) == VS_ERROR_ARGUMENT);
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(a);
}

/* tests/data/render/twist_cylinder.gltf (radius 0.5 along y, 17 rings of 24,
 * middle ring at y = 2 with weights 1/2, 1/2) twisted 180 degrees at t = 2:
 * on the GPU, the middle ring keeps its radius under DQS and collapses
 * under linear blending, in the read-back positions and in the picture (the
 * silhouette's width on the middle row against the projected radius). */
static double middle_ring_radius(const float *p, int max)
{
    double best = max ? 0.0 : INFINITY;
    for (int s = 0; s < 24; ++s) {
        const float *q = p + (8 * 24 + s) * 3;
        double r = hypot(q[0], q[2]);
        best = max ? fmax(best, r) : fmin(best, r);
    }
    return best;
}

static int row_width(const uint8_t *rgba, int w, int row)
{
    int first = -1, last = -1;
    for (int x = 0; x < w; ++x) {
        const uint8_t *px = rgba + ((size_t)row * w + x) * 4;
        /* The background is grey (51); the lit cylinder is brighter. */
        if (px[0] > 80) {
            if (first < 0) first = x;
            last = x;
        }
    }
    return first < 0 ? 0 : last - first + 1;
}

static void twisted_cylinder_on_gpu(void)
{
    vs_asset *a = NULL;
    vs_error e = {0};
    CHECK_MSG(vs_asset_load_file(VS_TEST_DATA "/render/twist_cylinder.gltf",
                                 NULL, &a, &e) == VS_OK,
              "%s", e.message);
    vs_renderer *r = a ? open_renderer_or_skip(a) : NULL;
    vs_pose *pose = NULL;
    CHECK(r && vs_pose_create(a, &pose, &e) == VS_OK);
    if (!r || !pose || !pose_at(pose, 0, 2.0f)) {
        vs_pose_free(pose);
        vs_renderer_destroy(r);
        vs_asset_free(a);
        return;
    }
    static float lin[408 * 3], dq[408 * 3];
    CHECK(vs_renderer_capture_skinned_method(r, pose, 0, 0, VS_UPLOAD_AUTO, 0,
                                             VS_SKIN_LINEAR, lin, NULL,
                                             &e) == VS_OK);
    CHECK(vs_renderer_capture_skinned_method(r, pose, 0, 0, VS_UPLOAD_AUTO, 0,
                                             VS_SKIN_DUAL_QUATERNION, dq, NULL,
                                             &e) == VS_OK);
    /* Dual quaternions refuse the normals flag, as the CPU job does. */
    CHECK(vs_renderer_capture_skinned_method(
              r, pose, 0, 0, VS_UPLOAD_AUTO, VS_SKIN_NORMALS_BY_MATRIX,
              VS_SKIN_DUAL_QUATERNION, dq, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(strstr(e.message, "VS_SKIN_NORMALS_BY_MATRIX") != NULL);
    double lin_max = middle_ring_radius(lin, 1);
    double dq_min = middle_ring_radius(dq, 0),
           dq_max = middle_ring_radius(dq, 1);
    printf("GPU middle ring radius / original: linear <= %.4f, DQS "
           "%.4f..%.4f\n",
           lin_max / 0.5, dq_min / 0.5, dq_max / 0.5);
    CHECK(lin_max < 0.1 * 0.5);
    CHECK(dq_min >= 0.98 * 0.5 && dq_max <= 1.02 * 0.5);

    /* Side view, orthographic: 5 world units over H pixels, the middle ring
     * (y = 2) on the middle of the picture. */
    enum { W = 100, H = 100 };
    static uint8_t lin_px[W * H * 4], dq_px[W * H * 4];
    const vs_camera cam = {.eye = {0, 2, 10},
                           .target = {0, 2, 0},
                           .orthographic = true,
                           .ortho_height = 5};
    vs_render_desc d = {.width = W, .height = H, .camera = &cam};
    CHECK(vs_render_pose(r, pose, &d, lin_px, &e) == VS_OK);
    d.method = VS_SKIN_DUAL_QUATERNION;
    d.skin_flags = VS_SKIN_NORMALS_BY_MATRIX;
    CHECK(vs_render_pose(r, pose, &d, dq_px, &e) == VS_ERROR_ARGUMENT);
    d.skin_flags = 0;
    CHECK(vs_render_pose(r, pose, &d, dq_px, &e) == VS_OK);
    double expected = 2.0 * dq_max * H / 5.0; /* projected CPU-side width */
    int lin_w = row_width(lin_px, W, H / 2), dq_w = row_width(dq_px, W, H / 2);
    printf("middle row silhouette: linear %d px, DQS %d px, DQS radius "
           "projected %.1f px\n",
           lin_w, dq_w, expected);
    CHECK(fabs(dq_w - expected) <= 2.0);
    CHECK(lin_w <= 0.1 * expected + 1.0);
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(a);
}

int main(void)
{
    RUN(gpu_dqs_matches_cpu_simpleskin);
    RUN(gpu_dqs_matches_cpu_corpus);
    RUN(pictures_differ_only_when_bent);
    RUN(twisted_cylinder_on_gpu);
    printf("largest GPU - CPU difference: positions %.3g of the model size, "
           "normals %.3g\n",
           stats.worst_position, stats.worst_normal);
    return test_summary();
}
