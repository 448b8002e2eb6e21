/* SPDX-License-Identifier: MIT */
/* Khronos' glTF-Validator on what `vskin bake` writes: static bakes (.glb,
 * .gltf + .bin) and morph-target clip bakes of glTF 2.0, glTF 1.0 and
 * COLLADA sources must validate without errors. Skipped (77) without node
 * or the gltf-validator package, as tests/validator/test_gltf2_validator.c. */
#include <sys/wait.h>

#include "bake/bake.h"
#include "write/gltf2/gltf2_writer.h"
#include "test.h"

#define REPO_ROOT VS_TEST_DATA "/../.."
#define SCRIPT REPO_ROOT "/tests/validator/validate.mjs"
#define PACKAGE REPO_ROOT "/node_modules/gltf-validator/package.json"

static const char *const sources[] = {
    VS_TEST_DATA "/gltf2/CesiumMan.gltf",
    VS_TEST_DATA "/gltf2/RiggedSimple.gltf",
    VS_TEST_DATA "/gltf1/SimpleSkin.gltf",
    VS_TEST_DATA "/collada/bind_shape_non_identity.dae",
    VS_TEST_DATA "/render/morph_skinned.gltf",
};
#define SOURCE_COUNT (sizeof sources / sizeof sources[0])

static int validate(char paths[][512], size_t count)
{
    char cmd[8192];
    size_t len = (size_t)snprintf(cmd, sizeof cmd, "node '%s'", SCRIPT);
    for (size_t i = 0; i < count && len < sizeof cmd; ++i)
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " '%s'", paths[i]);
    if (len >= sizeof cmd - 8) return -1;
    snprintf(cmd + len, sizeof cmd - len, " 2>&1");
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    char line[2048];
    while (fgets(line, sizeof line, p))
        fputs(line, stdout);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void)
{
    if (system("command -v node >/dev/null 2>&1") != 0) {
        printf("skipped: node is not installed\n");
        return 77;
    }
    if (!test_path_exists(PACKAGE)) {
        printf("skipped: %s not found (run scripts/install-node-deps.sh)\n",
               PACKAGE);
        return 77;
    }
    char paths[SOURCE_COUNT * 3][512];
    size_t n = 0;
    for (size_t s = 0; s < SOURCE_COUNT; ++s) {
        vs_asset *src = NULL;
        vs_error e = {0};
        CHECK_MSG(vs_asset_load_file(sources[s], NULL, &src, &e) == VS_OK, "%s",
                  e.message);
        vs_pose *pose = NULL;
        if (!src || vs_pose_create(src, &pose, NULL) != VS_OK) {
            vs_asset_free(src);
            continue;
        }
        if (src->clip_count)
            vs_pose_sample(pose, 0,
                           (src->clips[0].start + src->clips[0].end) / 2,
                           VS_TIME_CLAMP, NULL);
        vs_pose_update_world(pose);
        vs_asset *baked = NULL;
        CHECK_MSG(bake_pose(pose, NULL, &baked, &e) == VS_OK, "%s", e.message);
        for (int k = 0; baked && k < 2; ++k) {
            snprintf(paths[n], sizeof paths[n], "%s/bake_valid_%zu%s",
                     VS_TEST_TMP, s, k ? ".gltf" : ".glb");
            CHECK_MSG(gltf2_write_file(baked, paths[n], NULL, NULL, &e) ==
                          VS_OK,
                      "%s", e.message);
            ++n;
        }
        vs_asset_free(baked);
        if (src->clip_count) {
            bake_clip_options o = {.fps = 8.0f};
            vs_asset *morph = NULL;
            CHECK_MSG(bake_clip_morph(src, 0, &o, &morph, &e) == VS_OK, "%s",
                      e.message);
            snprintf(paths[n], sizeof paths[n], "%s/bake_valid_morph_%zu.glb",
                     VS_TEST_TMP, s);
            if (morph) {
                CHECK_MSG(gltf2_write_file(morph, paths[n], NULL, NULL, &e) ==
                              VS_OK,
                          "%s", e.message);
                ++n;
            }
            vs_asset_free(morph);
        }
        vs_pose_free(pose);
        vs_asset_free(src);
    }
    CHECK(n >= 12);
    int status = validate(paths, n);
    CHECK_MSG(status == 0, "glTF-Validator reported errors (exit %d)", status);
    return test_summary();
}
