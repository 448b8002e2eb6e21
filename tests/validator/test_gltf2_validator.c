/* SPDX-License-Identifier: MIT */
/* Khronos' glTF-Validator on what the writer produces: every test asset
 * (glTF 1.0, glTF 2.0 and whatever COLLADA the loader reads), converted to
 * .gltf + .bin, .glb and embedded .gltf, the project's COLLADA lines file,
 * a source the writer has to clean up, and textured sources (every material
 * field, images the writer leaves out, glTF 1.0 and COLLADA diffuse
 * textures, colours outside [0, 1]) must validate without errors.
 * tests/validator/validate.mjs runs the npm package gltf-validator, which
 * scripts/install-node-deps.sh installs into the repository's node_modules;
 * without node or the package the test is skipped (exit 77). A file with a
 * known error must make the script fail, so a broken harness cannot pass. */
#include <sys/wait.h>

#include "write/gltf2/gltf2_roundtrip.h"
#include "load/gltf2/gltf2_synthetic.h"
#include "write/gltf2/gltf2_textured.h"
#include "write/gltf2/gltf2_writer.h"

/* VS_TEST_DATA is <root>/tests/data. */
#define REPO_ROOT VS_TEST_DATA "/../.."
#define SCRIPT REPO_ROOT "/tests/validator/validate.mjs"
#define PACKAGE REPO_ROOT "/node_modules/gltf-validator/package.json"
#define MAX_FILES 64
#define MAX_OUTPUTS (MAX_FILES * 3 + 11)

/* Runs the validator script on files; returns its exit status. */
static int validate(char *const *files, size_t count)
{
    size_t size = 64 + strlen(SCRIPT);
    for (size_t i = 0; i < count; ++i)
        size += strlen(files[i]) + 3;
    char *cmd = malloc(size);
    if (!cmd) abort();
    size_t len = (size_t)snprintf(cmd, size, "node '%s'", SCRIPT);
    for (size_t i = 0; i < count; ++i)
        len += (size_t)snprintf(cmd + len, size - len, " '%s'", files[i]);
    snprintf(cmd + len, size - len, " 2>&1");
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p) return -1;
    char line[2048];
    while (fgets(line, sizeof line, p))
        fputs(line, stdout);
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Converts src into the three output kinds; appends their paths. */
static size_t convert(const char *src_path, int index, char **outputs, size_t n)
{
    vs_error err;
    vs_asset *src = NULL;
    if (vs_asset_load_file(src_path, NULL, &src, &err) != VS_OK) {
        size_t len = strlen(src_path);
        bool collada = len > 4 && strcasecmp(src_path + len - 4, ".dae") == 0;
        /* COLLADA loading is the loader's own test; glTF must load. */
        CHECK_MSG(collada, "%s", err.message);
        printf("skipped %s: %s\n", src_path, err.message);
        return n;
    }
    static const char *kinds[] = {".gltf", ".glb", "_embedded.gltf"};
    for (int k = 0; k < 3; ++k) {
        char path[512];
        snprintf(path, sizeof path, "%s/validator_%d%s", VS_TEST_TMP, index,
                 kinds[k]);
        gltf2_write_options opts = {.embed = k == 2};
        vs_result r = gltf2_write_file(src, path, &opts, NULL, &err);
        CHECK_MSG(r == VS_OK, "%s: %s", path, err.message);
        if (r == VS_OK) {
            printf("%s <- %s\n", path, src_path);
            outputs[n++] = strdup(path);
        }
    }
    vs_asset_free(src);
    return n;
}

/* The source the writer must clean up (normals, joints, weights,
 * rotations, axes; tests/load/gltf2/gltf2_synthetic.h). */
static size_t convert_synthetic(char **outputs, size_t n)
{
    synthetic s;
    bool made = synthetic_make(&s);
    CHECK_MSG(made, "%s did not load as expected", SYNTHETIC_SOURCE);
    const char *path = VS_TEST_TMP "/validator_synthetic.gltf";
    vs_error err;
    if (made) {
        vs_result r = gltf2_write_file(&s.asset, path, NULL, NULL, &err);
        CHECK_MSG(r == VS_OK, "%s: %s", path, err.message);
        if (r == VS_OK) outputs[n++] = strdup(path);
    }
    vs_asset_free(s.loaded);
    return n;
}

/* The textured sources of gltf2_textured.h, as .gltf + .bin and .glb. */
static size_t convert_textured(char **outputs, size_t n)
{
    vs_asset *src[] = {textured_load(textured_doc, "textured.gltf"),
                       textured_load(unwritable_images_doc, "unwritable.gltf"),
                       textured_collada(), textured_colours_outside(),
                       textured_load(gltf1_textured_doc, "textured1.gltf")};
    static const char *names[] = {"textured", "unwritable", "textured_dae",
                                  "colours", "textured_1"};
    for (int s = 0; s < 5; ++s) {
        CHECK_MSG(src[s], "%s did not load", names[s]);
        for (int k = 0; src[s] && k < 2; ++k) {
            char path[512];
            snprintf(path, sizeof path, "%s/validator_%s%s", VS_TEST_TMP,
                     names[s], k ? ".glb" : ".gltf");
            vs_error err;
            vs_result r = gltf2_write_file(src[s], path, NULL, NULL, &err);
            CHECK_MSG(r == VS_OK, "%s: %s", path, err.message);
            if (r != VS_OK) continue;
            outputs[n++] = strdup(path);
            /* What is validated holds images: each source keeps one. */
            vs_asset *out = NULL;
            r = vs_asset_load_file(path, NULL, &out, &err);
            CHECK_MSG(r == VS_OK && out->image_count >= 1,
                      "%s: no image written", path);
            vs_asset_free(out);
        }
        vs_asset_free(src[s]);
    }
    return n;
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
    /* The harness must see errors: an unresolved default scene. */
    char bad[512];
    snprintf(bad, sizeof bad, "%s/validator_bad.gltf", VS_TEST_TMP);
    FILE *f = fopen(bad, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("{\"asset\": {\"version\": \"2.0\"}, \"scene\": 5}\n", f);
        fclose(f);
    }
    char *bad_list[] = {bad};
    CHECK_MSG(validate(bad_list, 1) == 1,
              "the validator script passed a file with an error");

    char *sources[MAX_FILES];
    size_t n = rt_sources(sources, MAX_FILES);
    /* Line primitives, skinned and beside triangles. */
    if (n < MAX_FILES) sources[n++] = strdup(VS_TEST_DATA "/collada/lines.dae");
    char *outputs[MAX_OUTPUTS];
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
        count = convert(sources[i], (int)i, outputs, count);
        free(sources[i]);
    }
    count = convert_synthetic(outputs, count);
    count = convert_textured(outputs, count);
    CHECK(count >= 6);
    int status = validate(outputs, count);
    CHECK_MSG(status == 0, "glTF-Validator reported errors (exit %d)", status);
    for (size_t i = 0; i < count; ++i)
        free(outputs[i]);
    return test_summary();
}
