/* SPDX-License-Identifier: MIT */
/* GPU skinning (read back with transform feedback) equals the CPU reference
 * vs_pose_mesh_primitive for every mesh instance of every glTF 2.0 asset of
 * the shared corpus, at several times of every clip, through both joint
 * upload paths, with normalized and with raw weights, and with normals by
 * the matrix (VS_SKIN_NORMALS_BY_MATRIX). Tolerance: 1e-5 of the
 * model size for positions. */
#include "gpu_cpu_compare.h"

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
            gpu_cpu_stats st = {0};
            compare_gpu_cpu(r, pose, path, t, VS_UPLOAD_UNIFORMS, 0,
                            VS_SKIN_LINEAR, &st);
            compare_gpu_cpu(r, pose, path, t, VS_UPLOAD_TEXTURE, 0,
                            VS_SKIN_LINEAR, &st);
            /* CesiumMan's weights do not sum to 1: raw weights differ. */
            compare_gpu_cpu(r, pose, path, t, VS_UPLOAD_AUTO,
                            VS_SKIN_RAW_WEIGHTS, VS_SKIN_LINEAR, &st);
            /* Normals by the matrix itself: the shader follows the flag. */
            compare_gpu_cpu(r, pose, path, t, VS_UPLOAD_AUTO,
                            VS_SKIN_NORMALS_BY_MATRIX, VS_SKIN_LINEAR, &st);
            *compared += st.compared;
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
