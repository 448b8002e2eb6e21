/* SPDX-License-Identifier: MIT */
/* Posing every mesh instance at once is held to the load's memory limit: a
 * small file can instance a big mesh many times (here an accessor without
 * a bufferView: 100,000 vertices that cost no byte of the file), and
 * vs_posed_scene_create refuses before posing when the posed vertices would
 * pass vs_limits.max_total_memory, instead of asking for gigabytes. */
#include "test.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"
#include "write/instanced_gltf.h"

static void posing_all_instances_is_held_to_the_limit(void)
{
    char *json = instanced_gltf(100, 100000);
    CHECK(json != NULL);
    if (!json) return;
    vs_load_options options = {0};
    options.limits.max_total_memory = 64u << 20;
    vs_asset *asset = NULL;
    vs_error err;
    vs_result r = vs_asset_load_memory(json, strlen(json), "instanced.gltf",
                                       &options, &asset, &err);
    free(json);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(asset, &pose, &err) == VS_OK);
    vs_pose_update_world(pose);
    vs_posed_scene *scene = NULL;
    /* 100 instances x 100,000 vertices: about 400 MB posed. */
    r = vs_posed_scene_create(pose, NULL, &scene, &err);
    CHECK(r == VS_ERROR_LIMIT && scene == NULL);
    CHECK_MSG(strstr(err.message, "max_total_memory") != NULL, "%s",
              err.message);
    vs_pose_free(pose);
    vs_asset_free(asset);

    /* One instance fits. */
    json = instanced_gltf(1, 100000);
    r = vs_asset_load_memory(json, strlen(json), "instanced.gltf", &options,
                             &asset, &err);
    free(json);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    CHECK(vs_pose_create(asset, &pose, &err) == VS_OK);
    vs_pose_update_world(pose);
    r = vs_posed_scene_create(pose, NULL, &scene, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    vs_posed_scene_free(scene);
    vs_pose_free(pose);
    vs_asset_free(asset);
}

int main(void)
{
    RUN(posing_all_instances_is_held_to_the_limit);
    return test_summary();
}
