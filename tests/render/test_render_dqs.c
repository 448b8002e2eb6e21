/* Dual-quaternion skinning on the GPU: the vertex shader's DQS (read back
 * with transform feedback) equals the CPU reference vs_pose_mesh_primitive
 * with .method = VS_SKIN_DUAL_QUATERNION, for SimpleSkin and every glTF 2.0
 * asset of the shared corpus, through both joint upload paths and with raw
 * weights; and pictures: a bent SimpleSkin looks different under DQS and
 * linear blending, its unbent first frame looks the same. */
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

int main(void)
{
    RUN(gpu_dqs_matches_cpu_simpleskin);
    RUN(gpu_dqs_matches_cpu_corpus);
    RUN(pictures_differ_only_when_bent);
    printf("largest GPU - CPU difference: positions %.3g of the model size, "
           "normals %.3g\n",
           stats.worst_position, stats.worst_normal);
    return test_summary();
}
