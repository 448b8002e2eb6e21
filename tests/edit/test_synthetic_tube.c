/* SPDX-License-Identifier: MIT */
/* vs_synthetic_tube: the counts it promises, weights that sum to 1 on joints
 * in range, a file that loads and poses (the clip bends the chain), and
 * refusals of bad sizes. */
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

static vs_asset *load_tube(const vs_synthetic_tube_desc *d)
{
    void *glb = NULL;
    size_t size = 0;
    vs_error err;
    vs_result r = vs_synthetic_tube(d, &glb, &size, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return NULL;
    vs_asset *a = NULL;
    r = vs_asset_load_memory(glb, size, "tube.glb", NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    free(glb);
    return a;
}

static void check_tube(uint32_t joints, uint32_t vertices, uint32_t k)
{
    vs_synthetic_tube_desc d = {
        .joint_count = joints, .vertex_count = vertices, .influence_count = k};
    uint32_t expect = ((vertices + 15) / 16) * 16;
    if (expect < 32) expect = 32;
    CHECK(vs_synthetic_tube_vertex_count(&d) == expect);
    vs_asset *a = load_tube(&d);
    if (!a) return;
    CHECK(a->format == VS_FORMAT_GLTF2);
    CHECK(a->mesh_count == 1 && a->skin_count == 1 && a->clip_count == 1);
    CHECK(a->node_count == joints + 1);
    CHECK(a->skins[0].joint_count == joints);
    const vs_primitive *p = &a->meshes[0].primitives[0];
    CHECK(p->vertex_count == expect);
    CHECK(p->index_count == (expect / 16 - 1) * 16 * 6);
    CHECK(p->influence_count == (k > 4 ? 8u : 4u));
    uint32_t bad_sum = 0, bad_joint = 0, live_max = 0;
    for (uint32_t v = 0; v < p->vertex_count; ++v) {
        double sum = 0;
        uint32_t live = 0;
        for (uint32_t i = 0; i < p->influence_count; ++i) {
            float w = p->weights[v * p->influence_count + i];
            sum += w;
            live += w > 0.0f;
            if (p->joints[v * p->influence_count + i] >= joints) ++bad_joint;
        }
        if (fabs(sum - 1.0) > 1e-6) ++bad_sum;
        if (live > live_max) live_max = live;
    }
    CHECK_MSG(bad_sum == 0, "%u vertices with weight sums != 1", bad_sum);
    CHECK(bad_joint == 0);
    CHECK(live_max == (k < joints ? k : joints));

    /* The clip bends the chain: the top ring moves sideways mid-clip. */
    vs_pose *pose = NULL;
    vs_error err;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    if (pose) {
        CHECK(vs_pose_sample(pose, 0, 0.5f, VS_TIME_LOOP, &err) == VS_OK);
        vs_pose_update_world(pose);
        vs_posed_primitive out = {0};
        CHECK_MSG(vs_pose_mesh_primitive(pose, 0, 0, NULL, &out, &err) == VS_OK,
                  "%s", err.message);
        if (out.positions) {
            uint32_t top = out.vertex_count - 1;
            float rest_x = p->positions[top * 3];
            CHECK(fabsf(out.positions[top * 3] - rest_x) > 0.05f);
            for (uint32_t i = 0; i < out.vertex_count * 3; ++i)
                if (!isfinite(out.positions[i])) {
                    CHECK(0);
                    break;
                }
        }
        vs_posed_primitive_free(&out);
        vs_pose_free(pose);
    }
    vs_asset_free(a);
}

static void test_sizes_and_influences(void)
{
    check_tube(1, 10, 1);
    check_tube(8, 1000, 4);
    check_tube(3, 500, 8); /* fewer joints than influences */
    check_tube(200, 4000, 8);
    check_tube(300, 2000, 2); /* unsigned short joints */
    /* The longest chain: what the generator writes, the loader reads. */
    check_tube(1001, 2000, 4);
}

static void test_refusals(void)
{
    void *glb = (void *)1;
    size_t size = 1;
    vs_error err;
    vs_synthetic_tube_desc bad[] = {
        {.joint_count = 0, .vertex_count = 10, .influence_count = 1},
        /* Deeper than the loaders' default hierarchy limit. */
        {.joint_count = 1002, .vertex_count = 10, .influence_count = 1},
        {.joint_count = 2, .vertex_count = 0, .influence_count = 1},
        {.joint_count = 2, .vertex_count = 10, .influence_count = 9},
        {.joint_count = 2,
         .vertex_count = 10,
         .influence_count = 1,
         .segments = 2},
        {.joint_count = 2,
         .vertex_count = 10,
         .influence_count = 1,
         .length = -1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        CHECK(vs_synthetic_tube(&bad[i], &glb, &size, &err) ==
              VS_ERROR_ARGUMENT);
        CHECK(glb == NULL && size == 0);
        CHECK(strstr(err.message, "synthetic tube") != NULL);
        glb = (void *)1;
    }
    vs_synthetic_tube_desc huge = {
        .joint_count = 2, .vertex_count = UINT32_MAX, .influence_count = 4};
    CHECK(vs_synthetic_tube(&huge, &glb, &size, &err) == VS_ERROR_LIMIT);
    CHECK(vs_synthetic_tube_vertex_count(&huge) == 0);
}

int main(void)
{
    RUN(test_sizes_and_influences);
    RUN(test_refusals);
    return test_summary();
}
