/* SPDX-License-Identifier: MIT */
/* `vskin joints` on the embedded SimpleSkin: the texture format is the
 * renderer's RGBA32F row layout (row j = joint j, texel c = column c of J_j,
 * frames one after the other), its matrices equal the JSON ones, and both
 * equal the tutorial's pose computed here by hand. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>

#include "test.h"
#include "tools/cli_run.h"

#define JOINTS 2
#define FLOATS_PER_FRAME (JOINTS * 16)

/* Joint 1 of SimpleSkin sits at (0,1,0) with IBM = T(0,-1,0); at t = 0.5 its
 * rotation key is (0, 0, 0.383, 0.924) (nearly unit, normalized by the
 * sampler), so J_1 = T(0,1,0) * Rz(a) * T(0,-1,0) with a = 2 atan2(.383,.924). */
static void expected_joint1(float time_has_rotation, float out[16])
{
    double a = time_has_rotation ? 2.0 * atan2(0.383, 0.924) : 0.0;
    double c = cos(a), s = sin(a);
    float m[16] = {(float)c, (float)s, 0, 0, (float)-s, (float)c, 0, 0,
                   0,        0,        1, 0, (float)s,  (float)(1.0 - c), 0,
                   1};
    memcpy(out, m, sizeof m);
}

static float *read_floats(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    float *buf = malloc(4096 * sizeof(float));
    *count = buf ? fread(buf, sizeof(float), 4096, f) : 0;
    fclose(f);
    return buf;
}

static void test_texture_layout(void)
{
    char path[512];
    tmp_path(path, sizeof path, "joints_texture.bin");
    remove(path);
    char args[1024];
    snprintf(args, sizeof args, "joints --time 0,0.5 --format texture -o '%s'",
             path);
    cli_result r = cli_run(args);
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    size_t n = 0;
    float *f = read_floats(path, &n);
    CHECK_MSG(f && n == 2 * FLOATS_PER_FRAME, "%zu floats", n);
    if (f && n == 2 * FLOATS_PER_FRAME) {
        static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                           0, 0, 1, 0, 0, 0, 0, 1};
        float j1[16];
        for (int frame = 0; frame < 2; ++frame) {
            const float *rows = f + frame * FLOATS_PER_FRAME;
            expected_joint1(frame == 1, j1);
            for (int k = 0; k < 16; ++k) {
                CHECK_NEAR(rows[k], identity[k], 1e-6);
                CHECK_NEAR(rows[16 + k], j1[k], 1e-5);
            }
        }
    }
    free(f);
    cli_result_free(&r);
}

static void test_json_matches_texture(void)
{
    cli_result r = cli_run("joints --time 0.5");
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    cJSON *root = cJSON_Parse(r.out);
    CHECK(root != NULL);
    const cJSON *frames = cJSON_GetObjectItem(root, "frames");
    const cJSON *joints =
        cJSON_GetObjectItem(cJSON_GetArrayItem(frames, 0), "joints");
    CHECK(cJSON_GetArraySize(joints) == JOINTS);
    float j1[16];
    expected_joint1(1, j1);
    const cJSON *m = cJSON_GetObjectItem(cJSON_GetArrayItem(joints, 1), "matrix");
    CHECK(cJSON_GetArraySize(m) == 16);
    for (int k = 0; k < 16 && cJSON_GetArraySize(m) == 16; ++k)
        CHECK_NEAR(cJSON_GetArrayItem(m, k)->valuedouble, j1[k], 1e-5);
    const cJSON *p =
        cJSON_GetObjectItem(cJSON_GetArrayItem(joints, 1), "world_position");
    CHECK_NEAR(cJSON_GetArrayItem(p, 1)->valuedouble, 1.0, 1e-6);
    cJSON_Delete(root);
    cli_result_free(&r);
}

/* Relative to joint 1's own node (2): G(2)^-1 G(2) IBM_1 = T(0,-1,0). */
static void test_relative_to(void)
{
    cli_result r = cli_run("joints --time 0.5 --relative-to 2");
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    cJSON *root = cJSON_Parse(r.out);
    const cJSON *joints = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(root, "frames"), 0), "joints");
    const cJSON *m = cJSON_GetObjectItem(cJSON_GetArrayItem(joints, 1), "matrix");
    static const float want[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                   0, 0, 1, 0, 0, -1, 0, 1};
    CHECK(cJSON_GetArraySize(m) == 16);
    for (int k = 0; k < 16 && cJSON_GetArraySize(m) == 16; ++k)
        CHECK_NEAR(cJSON_GetArrayItem(m, k)->valuedouble, want[k], 1e-5);
    cJSON_Delete(root);
    cli_result_free(&r);
}

static void test_errors(void)
{
    static const char *bad[] = {
        "joints --skin 3",                /* no such skin */
        "joints --relative-to 99",        /* no such node */
        "joints --format texture",        /* raw floats need -o */
        "joints --format xml",            /* unknown format */
        "joints /nonexistent/model.gltf", /* missing file */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        cli_result r = cli_run(bad[i]);
        CHECK_MSG(r.status != 0, "'%s' exited 0", bad[i]);
        CHECK_MSG(strstr(r.err, "vskin joints") != NULL,
                  "'%s': stderr '%s'", bad[i], r.err);
        cli_result_free(&r);
    }
}

int main(void)
{
    RUN(test_texture_layout);
    RUN(test_json_matches_texture);
    RUN(test_relative_to);
    RUN(test_errors);
    return test_summary();
}
