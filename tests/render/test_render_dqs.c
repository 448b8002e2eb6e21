/* Dual-quaternion skinning on the GPU: the vertex shader's DQS (read back
 * with transform feedback) equals the CPU reference vs_pose_mesh_primitive
 * with .method = VS_SKIN_DUAL_QUATERNION, for SimpleSkin and every glTF 2.0
 * asset of the shared corpus, through both joint upload paths and with raw
 * weights; and pictures: a bent SimpleSkin looks different under DQS and
 * linear blending, its unbent first frame looks the same. */
#include "render_support.h"

static float model_size(const vs_pose *pose)
{
    float lo[3], hi[3];
    if (!vs_pose_bounds(pose, NULL, lo, hi)) return 1.0f;
    float d = sqrtf((hi[0] - lo[0]) * (hi[0] - lo[0]) +
                    (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                    (hi[2] - lo[2]) * (hi[2] - lo[2]));
    return d > 0.0f ? d : 1.0f;
}

static double worst_position = 0.0, worst_normal = 0.0;

static void compare_pose(vs_renderer *r, const vs_pose *pose, const char *name,
                         vs_upload_path path, uint32_t flags, int *compared)
{
    const vs_asset *a = vs_pose_asset(pose);
    float size = model_size(pose);
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        const vs_mesh *mesh = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_error e = {0};
            vs_posed_primitive cpu = {0};
            vs_pose_mesh_options opts = {.skin_flags = flags,
                                         .method = VS_SKIN_DUAL_QUATERNION};
            CHECK_MSG(vs_pose_mesh_primitive(pose, node, p, &opts, &cpu, &e) ==
                          VS_OK,
                      "%s: %s", name, e.message);
            uint32_t n = cpu.vertex_count;
            float *gpu = malloc(((size_t)n * 6 + 1) * sizeof(float));
            vs_result res = vs_renderer_capture_skinned_method(
                r, pose, node, p, path, flags, VS_SKIN_DUAL_QUATERNION, gpu,
                gpu + (size_t)n * 3, &e);
            CHECK_MSG(res == VS_OK, "%s: capture: %s", name, e.message);
            double worst = 0.0, worst_n = 0.0;
            for (size_t k = 0;
                 res == VS_OK && cpu.positions && k < (size_t)n * 3; ++k)
                worst = fmax(worst, fabs(gpu[k] - cpu.positions[k]));
            for (size_t k = 0; res == VS_OK && cpu.normals && k < (size_t)n * 3;
                 ++k)
                worst_n = fmax(worst_n, fabs(gpu[n * 3 + k] - cpu.normals[k]));
            worst_position = fmax(worst_position, worst / size);
            worst_normal = fmax(worst_normal, worst_n);
            CHECK_MSG(worst <= 1e-5 * size,
                      "%s node %u prim %u path %d: position off by %g (model "
                      "size %g)",
                      name, node, p, (int)path, worst, (double)size);
            CHECK_MSG(worst_n <= 1e-4, "%s node %u prim %u: normal off by %g",
                      name, node, p, worst_n);
            *compared += n > 0;
            free(gpu);
            vs_posed_primitive_free(&cpu);
        }
    }
}

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
            compare_pose(r, pose, name, VS_UPLOAD_UNIFORMS, 0, compared);
            compare_pose(r, pose, name, VS_UPLOAD_TEXTURE, 0, compared);
            compare_pose(r, pose, name, VS_UPLOAD_AUTO, VS_SKIN_RAW_WEIGHTS,
                         compared);
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
           worst_position, worst_normal);
    return test_summary();
}
