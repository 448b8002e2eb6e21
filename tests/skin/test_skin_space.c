/* SPDX-License-Identifier: MIT */
/* VS_SPACE_SKELETON (COLLADA's object-space skinning): the skinned result
 * relative to the skin's skeleton root, so G(root) * p_skeleton must give
 * back the world-space result p_world. RiggedSimple's skeleton root (node 3)
 * sits under two transformed ancestors, so the two spaces really differ. */
#include <math.h>

#include "test.h"
#include "vskin/vskin.h"

static void transform_point(const float *m, const float *p, float *out)
{
    for (int r = 0; r < 3; ++r)
        out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

static void test_skeleton_space_is_world_relative_to_root(void)
{
    vs_asset *asset = NULL;
    vs_error e = {0};
    CHECK_MSG(vs_asset_load_file(VS_TEST_DATA "/gltf2/RiggedSimple.gltf", NULL,
                                 &asset, &e) == VS_OK,
              "%s", e.message);
    if (!asset) return;
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(asset, &pose, &e) == VS_OK);
    uint32_t node = asset->instances[0];
    int32_t skin = asset->nodes[node].skin;
    CHECK(skin >= 0);
    int32_t root = skin >= 0 ? asset->skins[skin].skeleton : -1;
    CHECK(root >= 0);
    const float times[] = {0.0f, 1.0f, 2.5f};
    for (size_t t = 0; t < 3 && root >= 0 && pose; ++t) {
        vs_pose_reset(pose);
        CHECK(vs_pose_sample(pose, 0, times[t], VS_TIME_CLAMP, &e) == VS_OK);
        vs_pose_update_world(pose);
        vs_posed_primitive world = {0}, local = {0};
        vs_pose_mesh_options opt_world = {0};
        vs_pose_mesh_options opt_local = {.space = VS_SPACE_SKELETON};
        CHECK(vs_pose_mesh_primitive(pose, node, 0, &opt_world, &world, &e) ==
              VS_OK);
        CHECK(vs_pose_mesh_primitive(pose, node, 0, &opt_local, &local, &e) ==
              VS_OK);
        const float *g_root = vs_pose_world(pose, (uint32_t)root);
        double largest_move = 0.0, worst = 0.0;
        for (uint32_t v = 0; v < world.vertex_count; ++v) {
            float back[3];
            transform_point(g_root, local.positions + 3 * v, back);
            for (int k = 0; k < 3; ++k) {
                double d = fabs(back[k] - world.positions[3 * v + k]);
                double m = fabs(local.positions[3 * v + k] -
                                world.positions[3 * v + k]);
                if (d > worst) worst = d;
                if (m > largest_move) largest_move = m;
            }
        }
        CHECK_MSG(worst < 1e-4, "t=%g: G(root)*p_skeleton is %g from p_world",
                  (double)times[t], worst);
        CHECK_MSG(largest_move > 0.1, "t=%g: the spaces do not differ",
                  (double)times[t]);
        vs_posed_primitive_free(&world);
        vs_posed_primitive_free(&local);
    }
    vs_pose_free(pose);
    vs_asset_free(asset);
}

int main(void)
{
    RUN(test_skeleton_space_is_world_relative_to_root);
    return test_summary();
}
