/* SPDX-License-Identifier: MIT */
/* vs_write_pose poses and writes one mesh instance at a time: its OBJ, PLY
 * and JSON are the bytes of the scene posed all at once
 * (vs_posed_scene_create + vs_write_posed_scene), a file that instances a
 * big mesh many times is written in the memory of one instance (and under a
 * vs_limits.max_total_memory that all instances at once would pass), and a
 * failure part way leaves the old file and no temporary one. */
#include "counting_allocator.h"
#include "test.h"
#include "vskin/vskin_tools.h"
#include "write/instanced_gltf.h"
#include "write/tools_api_support.h"

#define DIR_ VS_TEST_TMP "/pose_stream"
#define OLD "old contents\n"
#define DATA VS_TEST_DATA

/* Two meshes over one buffer: a quad with normals (indexed triangles);
 * the quad again beside a line strip without normals. Seven nodes use
 * them, moved, nested, named oddly or not at all. */
static const char instances_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,"
    "\"scenes\":[{\"nodes\":[0,1,2,3,5]}],"
    "\"nodes\":["
    "{\"name\":\"a\",\"mesh\":0},"
    "{\"name\":\"b\\u0001\\\\\",\"mesh\":1,\"translation\":[2,0,0]},"
    "{\"mesh\":0,\"rotation\":[0,0,0.7071068,0.7071068]},"
    "{\"name\":\"parent\",\"mesh\":1,\"scale\":[2,3,4],\"children\":[4]},"
    "{\"name\":\"child\",\"mesh\":0,\"translation\":[0.1,0.2,0.3]},"
    "{\"name\":\"last\",\"mesh\":1,\"translation\":[-1,-2,-3]}],"
    "\"meshes\":["
    "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},"
    "\"indices\":2}]},"
    "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},"
    "\"indices\":2},{\"attributes\":{\"POSITION\":0},\"mode\":3}]}],"
    "\"buffers\":[{\"byteLength\":108,\"uri\":\"data:application/"
    "octet-stream;base64,"
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAACAPwAAgD8AAAA/AAAAAAAA"
    "AAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAAAAAAAAAAAAIA/AAABAAIAAgABAAMA"
    "\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},"
    "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":12}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\","
    "\"min\":[0,0,0],\"max\":[1,1,0.5]},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
    "{\"bufferView\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}"
    "]}";

/* Writes the pose both ways in every format and compares the files. */
static void check_same_files(const vs_pose *pose, const char *what)
{
    static const char *const ext[] = {"obj", "ply", "json"};
    for (int k = 0; k < 3; ++k) {
        vs_posed_scene_options o = {.clip = 0, .time = 0.25f, .joints = k == 2};
        char streamed[512], whole[512], name[64];
        snprintf(name, sizeof name, "streamed.%s", ext[k]);
        scratch_path(streamed, sizeof streamed, DIR_, name);
        snprintf(name, sizeof name, "whole.%s", ext[k]);
        scratch_path(whole, sizeof whole, DIR_, name);
        vs_error e;
        CHECK_MSG(vs_write_pose(pose, streamed, &o, &e) == VS_OK, "%s: %s",
                  what, e.message);
        vs_posed_scene *scene = NULL;
        CHECK_MSG(vs_posed_scene_create(pose, &o, &scene, &e) == VS_OK,
                  "%s: %s", what, e.message);
        CHECK(scene && vs_write_posed_scene(scene, whole, VS_POSED_FORMAT_AUTO,
                                            &e) == VS_OK);
        CHECK_MSG(same_bytes(streamed, whole), "%s: %s differ", what, ext[k]);
        /* The joints alone, as the CLI writes them beside an OBJ. */
        if (k == 2 && scene) {
            scene->objects = NULL;
            scene->object_count = 0;
            CHECK(vs_write_posed_scene(scene, whole, VS_POSED_FORMAT_AUTO,
                                       &e) == VS_OK);
            o.joints_only = true;
            CHECK(vs_write_pose(pose, streamed, &o, &e) == VS_OK);
            CHECK_MSG(same_bytes(streamed, whole), "%s: joints differ", what);
        }
        vs_posed_scene_free(scene);
    }
}

static void posed_at(vs_asset *asset, const char *what)
{
    vs_pose *pose = NULL;
    vs_error e;
    CHECK_MSG(vs_pose_create(asset, &pose, &e) == VS_OK, "%s: %s", what,
              e.message);
    if (!pose) return;
    if (asset->clip_count)
        CHECK(vs_pose_sample(pose, 0, 0.25f, VS_TIME_CLAMP, &e) == VS_OK);
    vs_pose_update_world(pose);
    check_same_files(pose, what);
    vs_pose_free(pose);
}

static void streamed_files_are_the_scene_files(void)
{
    vs_asset *asset = NULL;
    vs_error e;
    vs_result r = vs_asset_load_memory(instances_gltf, strlen(instances_gltf),
                                       "instances.gltf", NULL, &asset, &e);
    CHECK_MSG(r == VS_OK, "%s", e.message);
    if (r == VS_OK) {
        CHECK(asset->instance_count == 6);
        posed_at(asset, "instances.gltf");
        vs_asset_free(asset);
    }
    static const char *const files[] = {
        DATA "/gltf2/CesiumMan.gltf",
        DATA "/gltf2/two_skinned_primitives.gltf",
        DATA "/render/morph_skinned.gltf",
        DATA "/collada/strips_fans.dae",
        DATA "/collada/instance_node.dae",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        asset = NULL;
        r = vs_asset_load_file(files[i], NULL, &asset, &e);
        CHECK_MSG(r == VS_OK, "%s", e.message);
        if (r != VS_OK) continue;
        posed_at(asset, files[i]);
        vs_asset_free(asset);
    }
}

enum { INSTANCES = 64, VERTICES = 10000 };

/* The instanced asset loaded through *c (its limit: about a third of what
 * posing INSTANCES x VERTICES at once takes), posed at rest. */
static vs_pose *instanced_pose(counting *c, uint32_t instances,
                               uint32_t vertices, vs_asset **out_asset)
{
    *out_asset = NULL;
    char *json = instanced_gltf(instances, vertices);
    if (!json) return NULL;
    vs_load_options options = {.allocator = counting_allocator(c)};
    options.limits.max_total_memory = 8u << 20;
    vs_error e;
    vs_result r = vs_asset_load_memory(json, strlen(json), "instanced.gltf",
                                       &options, out_asset, &e);
    free(json);
    CHECK_MSG(r == VS_OK, "%s", e.message);
    vs_pose *pose = NULL;
    if (r == VS_OK) CHECK(vs_pose_create(*out_asset, &pose, &e) == VS_OK);
    if (pose) vs_pose_update_world(pose);
    return pose;
}

static void many_instances_are_written_in_one_instance_of_memory(void)
{
    counting c;
    vs_asset *asset;
    vs_pose *pose = instanced_pose(&c, INSTANCES, VERTICES, &asset);
    if (!pose) {
        vs_asset_free(asset);
        return;
    }
    /* Posing all at once asks for more than the limit. */
    vs_posed_scene *scene = NULL;
    vs_error e;
    CHECK(vs_posed_scene_create(pose, NULL, &scene, &e) == VS_ERROR_LIMIT);
    const size_t one = (size_t)VERTICES * 3 * sizeof(float);
    static const char *const names[] = {"many.obj", "many.ply", "many.json"};
    for (int k = 0; k < 3; ++k) {
        char path[512];
        scratch_path(path, sizeof path, DIR_, names[k]);
        size_t before = atomic_load(&c.live_bytes);
        counting_reset_peak(&c);
        vs_result r = vs_write_pose(pose, path, NULL, &e);
        CHECK_MSG(r == VS_OK, "%s: %s", names[k], e.message);
        size_t peak = atomic_load(&c.peak_bytes) - before;
        /* One instance's positions and bookkeeping; all of them would be
         * INSTANCES times as much. */
        CHECK_MSG(peak < 2 * one,
                  "%s: %zu bytes at the peak for %zu per "
                  "instance",
                  names[k], peak, one);
        CHECK(atomic_load(&c.live_bytes) == before);
    }
    vs_pose_free(pose);
    vs_asset_free(asset);
    CHECK(counting_live(&c) == 0 && c.foreign == 0);
}

/* Refusing an allocation half way through the instances fails the write
 * and leaves the file that was there, and no temporary file. */
static void a_failure_part_way_keeps_the_old_file(void)
{
    counting c;
    vs_asset *asset;
    vs_pose *pose = instanced_pose(&c, 16, 1000, &asset);
    if (!pose) {
        vs_asset_free(asset);
        return;
    }
    static const char *const names[] = {"kept.obj", "kept.ply", "kept.json"};
    for (int k = 0; k < 3; ++k) {
        char path[512];
        scratch_path(path, sizeof path, DIR_, names[k]);
        vs_error e;
        size_t calls = atomic_load(&c.calls);
        CHECK(vs_write_pose(pose, path, NULL, &e) == VS_OK);
        size_t per_write = atomic_load(&c.calls) - calls;
        CHECK(per_write > 16);
        CHECK(write_text(path, OLD));
        c.fail_at = atomic_load(&c.calls) + per_write / 2;
        CHECK(vs_write_pose(pose, path, NULL, &e) == VS_ERROR_OUT_OF_MEMORY);
        c.fail_at = 0;
        CHECK_MSG(file_is(path, OLD), "%s was changed", names[k]);
        CHECK(leftover_temps(DIR_) == 0);
    }
    vs_error e;
    char obj[512];
    scratch_path(obj, sizeof obj, DIR_, "kept.obj");
    vs_posed_scene_options joints_only = {.joints_only = true};
    CHECK(vs_write_pose(pose, obj, &joints_only, &e) == VS_ERROR_ARGUMENT);
    CHECK(file_is(obj, OLD));
    vs_pose_free(pose);
    vs_asset_free(asset);
    CHECK(counting_live(&c) == 0 && c.foreign == 0);
}

int main(void)
{
    scratch_reset(DIR_);
    RUN(streamed_files_are_the_scene_files);
    RUN(many_instances_are_written_in_one_instance_of_memory);
    RUN(a_failure_part_way_keeps_the_old_file);
    return test_summary();
}
