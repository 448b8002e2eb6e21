/* GPU skinning (read back with transform feedback) equals the CPU reference
 * vs_pose_mesh_primitive for every mesh instance of every glTF 2.0 asset of
 * the shared corpus, at several times of every clip, through both joint
 * upload paths, with normalized and with raw weights. Tolerance: 1e-5 of the
 * model size for positions. */
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

static void compare_pose(vs_renderer *r, const vs_pose *pose, const char *name,
                         float t, vs_upload_path path, uint32_t flags,
                         int *compared)
{
    const vs_asset *a = vs_pose_asset(pose);
    float tol = 1e-5f * model_size(pose);
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        const vs_mesh *mesh = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_error e = {0};
            vs_posed_primitive cpu = {0};
            vs_pose_mesh_options opts = {.skin_flags = flags};
            CHECK_MSG(vs_pose_mesh_primitive(pose, node, p, &opts, &cpu, &e) ==
                          VS_OK,
                      "%s: %s", name, e.message);
            uint32_t n = cpu.vertex_count;
            float *gpu = malloc(((size_t)n * 6 + 1) * sizeof(float));
            vs_result res = vs_renderer_capture_skinned_positions(
                r, pose, node, p, path, flags, gpu, gpu + (size_t)n * 3, &e);
            CHECK_MSG(res == VS_OK, "%s: capture: %s", name, e.message);
            double worst = 0.0, worst_n = 0.0;
            for (size_t k = 0;
                 res == VS_OK && cpu.positions && k < (size_t)n * 3; ++k)
                worst = fmax(worst, fabs(gpu[k] - cpu.positions[k]));
            for (size_t k = 0; res == VS_OK && cpu.normals && k < (size_t)n * 3;
                 ++k)
                worst_n = fmax(worst_n, fabs(gpu[n * 3 + k] - cpu.normals[k]));
            CHECK_MSG(worst <= tol,
                      "%s node %u prim %u t=%g path %d: position "
                      "off by %g (tolerance %g)",
                      name, node, p, (double)t, (int)path, worst, (double)tol);
            CHECK_MSG(worst_n <= 1e-4,
                      "%s node %u prim %u t=%g: normal off by %g", name, node,
                      p, (double)t, worst_n);
            *compared += n > 0;
            free(gpu);
            vs_posed_primitive_free(&cpu);
        }
    }
}

static void check_asset(const char *path, int *compared)
{
    vs_asset *a = NULL;
    vs_error e = {0};
    CHECK_MSG(vs_asset_load_file(path, NULL, &a, &e) == VS_OK, "%s: %s", path,
              e.message);
    if (!a) return;
    vs_renderer *r = open_renderer_or_skip(a);
    vs_pose *pose = NULL;
    CHECK(r != NULL);
    CHECK(vs_pose_create(a, &pose, &e) == VS_OK);
    for (int32_t c = -1; r && pose && c < (int32_t)a->clip_count; ++c) {
        const vs_clip *clip = c >= 0 ? &a->clips[c] : NULL;
        for (int s = 0; s < (clip ? 3 : 1); ++s) {
            float t = clip ? clip->start +
                                 (clip->end - clip->start) * 0.37f * (float)s
                           : 0.0f;
            if (!pose_at(pose, c, t)) continue;
            compare_pose(r, pose, path, t, VS_UPLOAD_UNIFORMS, 0, compared);
            compare_pose(r, pose, path, t, VS_UPLOAD_TEXTURE, 0, compared);
            /* CesiumMan's weights do not sum to 1: raw weights differ. */
            compare_pose(r, pose, path, t, VS_UPLOAD_AUTO, VS_SKIN_RAW_WEIGHTS,
                         compared);
        }
    }
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(a);
}

static void check_file(const char *path, void *compared)
{
    check_asset(path, compared);
}

static void check_format_folder(const char *format, int *files, int *compared)
{
    int n = for_each_corpus_file(format, check_file, compared);
    CHECK(n >= 0);
    *files += n > 0 ? n : 0;
}

static void test_every_gltf2_asset(void)
{
    int files = 0, compared = 0;
    check_format_folder("gltf2", &files, &compared);
    printf("%d files, %d primitive comparisons\n", files, compared);
    CHECK(files >= 8);
    CHECK(compared > 0);
}

/* glTF 1.0 skins carry a bind shape matrix, which the GPU path takes through
 * the same joint matrices. */
static void test_every_gltf1_asset(void)
{
    int files = 0, compared = 0;
    check_format_folder("gltf1", &files, &compared);
    printf("%d files, %d primitive comparisons\n", files, compared);
    CHECK(files >= 2);
    CHECK(compared > 0);
}

int main(void)
{
    require_shared_assets();
    RUN(test_every_gltf2_asset);
    RUN(test_every_gltf1_asset);
    return test_summary();
}
