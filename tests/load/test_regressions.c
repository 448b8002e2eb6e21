/* SPDX-License-Identifier: MIT */
/* Every file in tests/data/regressions/ once crashed a fuzz harness. Each
 * must now load cleanly or fail with a proper error; an accepted file is
 * also posed and skinned at a few times (the fuzz_pose path), and every file
 * goes through the validator, whose raw pass reads the JSON on its own (the
 * fuzz_validate path). Meant to be run in the ASan/UBSan build too, where a
 * regression is a sanitizer abort. */
#include <dirent.h>
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

#define REGRESSIONS VS_TEST_DATA "/regressions"

static void pose_and_skin(const vs_asset *asset)
{
    vs_pose *pose;
    vs_error error;
    CHECK(vs_pose_create(asset, &pose, &error) == VS_OK);
    for (int32_t c = -1; c < (int32_t)asset->clip_count && c < 3; ++c) {
        for (int t = 0; t < 4; ++t) {
            vs_pose_reset(pose);
            if (c >= 0) {
                const vs_clip *clip = &asset->clips[c];
                float time = clip->start + (clip->end - clip->start) * t / 2.0f;
                if (vs_pose_sample(pose, (uint32_t)c, time, VS_TIME_LOOP,
                                   &error) != VS_OK)
                    continue;
            }
            vs_pose_update_world(pose);
            for (uint32_t i = 0; i < asset->instance_count; ++i) {
                uint32_t node = asset->instances[i];
                const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
                for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
                    vs_posed_primitive posed;
                    if (vs_pose_mesh_primitive(pose, node, p, NULL, &posed,
                                               &error) == VS_OK)
                        vs_posed_primitive_free(&posed);
                }
            }
        }
    }
    vs_pose_free(pose);
}

/* A report, or an error that says why, like fuzz_validate expects. */
static void validate(const char *name, const char *path)
{
    vs_validation_report *report = NULL;
    vs_error error;
    vs_result r = vs_validate_file(path, NULL, &report, &error);
    CHECK_MSG(r == VS_OK ? report != NULL : !report && error.message[0],
              "%s: validate result %d without a report or a proper error",
              name, r);
    vs_validation_report_free(report);
}

static void test_every_regression_file(void)
{
    DIR *dir = opendir(REGRESSIONS);
    CHECK(dir != NULL);
    if (!dir) return;
    unsigned files = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        const char *name = entry->d_name;
        if (name[0] == '.' || strcmp(name, "README.md") == 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", REGRESSIONS, name);
        vs_asset *asset = NULL;
        vs_error error;
        vs_result r = vs_asset_load_file(path, NULL, &asset, &error);
        CHECK_MSG(r == VS_OK || (error.code == r && error.message[0] && !asset),
                  "%s: result %d without a proper error", name, r);
        printf("  %s: %s%s%s\n", name, vs_result_string(r),
               r == VS_OK ? "" : ": ", r == VS_OK ? "" : error.message);
        if (asset) pose_and_skin(asset);
        vs_asset_free(asset);
        validate(name, path);
        ++files;
    }
    closedir(dir);
    printf("%u regression files\n", files);
}

int main(void)
{
    RUN(test_every_regression_file);
    return test_summary();
}
