/* SPDX-License-Identifier: MIT */
/* Posing every mesh instance at once is held to the load's memory limit: a
 * small file can instance a big mesh many times (here an accessor without
 * a bufferView: 100,000 vertices that cost no byte of the file), and
 * vs_posed_scene_create refuses before posing when the posed vertices would
 * pass vs_limits.max_total_memory, instead of asking for gigabytes. */
#include "test.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

static char *instanced(uint32_t instances)
{
    size_t cap = 512 + (size_t)instances * 16;
    char *json = malloc(cap);
    if (!json) return NULL;
    int n = snprintf(json, cap,
                     "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,"
                     "\"scenes\":[{\"nodes\":[");
    for (uint32_t i = 0; i < instances; ++i)
        n += snprintf(json + n, cap - (size_t)n, i ? ",%u" : "%u", i);
    n += snprintf(json + n, cap - (size_t)n, "]}],\"nodes\":[");
    for (uint32_t i = 0; i < instances; ++i)
        n += snprintf(json + n, cap - (size_t)n,
                      i ? ",{\"mesh\":0}" : "{\"mesh\":0}");
    snprintf(json + n, cap - (size_t)n,
             "],\"meshes\":[{\"primitives\":[{\"attributes\":{"
             "\"POSITION\":0},\"mode\":0}]}],\"accessors\":[{"
             "\"componentType\":5126,\"count\":100000,\"type\":\"VEC3\","
             "\"min\":[0,0,0],\"max\":[0,0,0]}]}");
    return json;
}

static void posing_all_instances_is_held_to_the_limit(void)
{
    char *json = instanced(100);
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
    json = instanced(1);
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
