/* SPDX-License-Identifier: MIT */
/* vs_pose_joint_matrices_3x4: the 4x4 joint matrices packed row-major 3x4,
 * bit for bit, on posed CesiumMan (world and skeleton-relative), and refused
 * with VS_ERROR_UNSUPPORTED when a joint matrix is projective. */
#include "test.h"

#include "base/affine.h"
#include "vskin/vskin.h"

#define CESIUM VS_TEST_DATA "/gltf2/CesiumMan.gltf"

static void packed_equals_4x4(void)
{
    vs_asset *asset = NULL;
    CHECK(vs_asset_load_file(CESIUM, NULL, &asset, NULL) == VS_OK);
    if (!asset) return;
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    uint32_t joints = asset->skins[0].joint_count;
    float *m4 = malloc(16 * sizeof(float) * joints);
    float *m3 = malloc(12 * sizeof(float) * joints);
    int differing = 0;
    for (int f = 0; f < 20; ++f) {
        CHECK(vs_pose_sample(pose, 0, 0.1f * (float)f, VS_TIME_LOOP, NULL) ==
              VS_OK);
        vs_pose_update_world(pose);
        int32_t rel = f % 2 ? asset->skins[0].skeleton : -1;
        CHECK(vs_pose_joint_matrices(pose, 0, rel, m4, NULL) == VS_OK);
        CHECK(vs_pose_joint_matrices_3x4(pose, 0, rel, m3, NULL) == VS_OK);
        for (uint32_t j = 0; j < joints; ++j)
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 4; ++c)
                    differing +=
                        m3[12 * j + 4 * r + c] != m4[16 * j + 4 * c + r];
    }
    CHECK_MSG(differing == 0, "%d packed entries differ", differing);
    vs_error err = {0};
    CHECK(vs_pose_joint_matrices_3x4(pose, 7, -1, m3, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_pose_joint_matrices_3x4(NULL, 0, -1, m3, &err) ==
          VS_ERROR_ARGUMENT);

    /* A projective rest matrix on the first joint (as COLLADA may hold). */
    vs_pose_free(pose);
    vs_node *node = (vs_node *)&asset->nodes[asset->skins[0].joints[0]];
    node->has_matrix = true;
    memset(node->matrix, 0, sizeof node->matrix);
    node->matrix[0] = node->matrix[5] = node->matrix[10] = 1.0f;
    node->matrix[11] = 0.5f; /* perspective term */
    node->matrix[15] = 1.0f;
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    vs_pose_update_world(pose);
    CHECK(vs_pose_joint_matrices(pose, 0, -1, m4, NULL) == VS_OK);
    CHECK(vs_pose_joint_matrices_3x4(pose, 0, -1, m3, &err) ==
          VS_ERROR_UNSUPPORTED);
    CHECK(strstr(err.message, "not affine") != NULL);
    free(m4);
    free(m3);
    vs_pose_free(pose);
    vs_asset_free(asset);
}

/* On posed CesiumMan (affine IBMs, no bind shape matrix: the joint
 * matrices come from the IBMs' rows, with AVX2 where the CPU has it), every
 * joint matrix is bit for bit affine_mul(G, IBM), and every 3x4 one
 * affine_rows of it. */
static void joint_matrices_are_the_affine_products(void)
{
    vs_asset *asset = NULL;
    CHECK(vs_asset_load_file(CESIUM, NULL, &asset, NULL) == VS_OK);
    if (!asset) return;
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    const vs_skin *sk = &asset->skins[0];
    float *m4 = malloc(16 * sizeof(float) * sk->joint_count);
    float *m3 = malloc(12 * sizeof(float) * sk->joint_count);
    int differing = 0;
    for (int f = 0; f < 20; ++f) {
        CHECK(vs_pose_sample(pose, 0, 0.13f * (float)f, VS_TIME_LOOP, NULL) ==
              VS_OK);
        vs_pose_update_world(pose);
        CHECK(vs_pose_joint_matrices(pose, 0, -1, m4, NULL) == VS_OK);
        CHECK(vs_pose_joint_matrices_3x4(pose, 0, -1, m3, NULL) == VS_OK);
        for (uint32_t j = 0; j < sk->joint_count; ++j) {
            float want[16], rows[12];
            affine_mul(vs_pose_world(pose, sk->joints[j]),
                       sk->inverse_bind_matrices + 16 * (size_t)j, want);
            affine_rows(want, rows);
            differing += memcmp(want, m4 + 16 * (size_t)j, sizeof want) != 0;
            differing += memcmp(rows, m3 + 12 * (size_t)j, sizeof rows) != 0;
        }
    }
    CHECK_MSG(differing == 0, "%d joint matrices differ", differing);
    free(m4);
    free(m3);
    vs_pose_free(pose);
    vs_asset_free(asset);
}

int main(void)
{
    RUN(packed_equals_4x4);
    RUN(joint_matrices_are_the_affine_products);
    return test_summary();
}
