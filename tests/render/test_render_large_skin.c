/* SPDX-License-Identifier: MIT */
/* A skin of 1200 joints (chains, each joint turned a little) does not fit
 * the uniform array on llvmpipe (4096 vectors = 1016 joints with headroom;
 * 56 on a minimal GLES 3.0), so the automatic choice takes the joint texture;
 * its GPU skinning matches the CPU, and forcing uniforms is a clear error.
 * The file is written at run time: 1200 nodes are data, not a fixture. */
#include "render_support.h"

#define JOINTS 1200

/* 3 positions, 3 JOINTS_0 (u16x4: joints 1199/600, 1199/600, 5/1100) and
 * 3 WEIGHTS_0 (float x4), little-endian. */
static const char buffer_base64[] =
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAArwRYAgAAAACvBFgCAAAAAAUATA"
    "Q"
    "AAAAAAAAAPwAAAD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA+AABAPwAAAAAAAAAA";

static char *write_json(size_t *size)
{
    size_t cap = 200000, n = 0;
    char *s = malloc(cap);
    if (!s) return NULL;
#define PUT(...) n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__)
    PUT("{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":["
        "0,1]}],"
        "\"nodes\":[{\"mesh\":0,\"skin\":0}");
    /* Joint 0 holds 12 chains of 100 joints (the loader limits depth to
     * 1000): joint j > 0 follows j - 1 unless j is a multiple of 100. Each
     * link turns 1.5 degrees about z, so a chain's end curls 150 degrees. */
    for (int j = 0; j < JOINTS; ++j) {
        PUT(",{\"translation\":[0,0.01,0],\"rotation\":[0,0,0.0130896,0."
            "9999143]");
        if (j == 0) {
            PUT(",\"children\":[2");
            for (int c = 100; c < JOINTS; c += 100)
                PUT(",%d", c + 1);
            PUT("]");
        } else if ((j + 1) % 100 != 0) {
            PUT(",\"children\":[%d]", j + 2);
        }
        PUT("}");
    }
    PUT("],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
        "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],\"skins\":[{\"joints\":[");
    for (int j = 0; j < JOINTS; ++j)
        PUT("%s%d", j ? "," : "", j + 1);
    PUT("]}],\"buffers\":[{\"byteLength\":108,\"uri\":\"data:application/"
        "octet-stream;base64,%s\"}],\"bufferViews\":["
        "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
        "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":24},"
        "{\"buffer\":0,\"byteOffset\":60,\"byteLength\":48}],\"accessors\":["
        "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":"
        "\"VEC3\","
        "\"min\":[0,0,0],\"max\":[1,1,0]},"
        "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":"
        "\"VEC4\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":"
        "\"VEC4\"}]}",
        buffer_base64);
#undef PUT
    *size = n;
    return n < cap ? s : (free(s), NULL);
}

static void test_auto_takes_the_texture(void)
{
    size_t size = 0;
    char *json = write_json(&size);
    CHECK(json != NULL);
    vs_asset *a = NULL;
    vs_error e = {0};
    CHECK_MSG(json && vs_asset_load_memory(json, size, "large_skin.gltf", NULL,
                                           &a, &e) == VS_OK,
              "%s", e.message);
    free(json);
    if (!a) return;
    vs_renderer *r = open_renderer_or_skip(a);
    vs_pose *pose = NULL;
    CHECK(r != NULL);
    CHECK(vs_pose_create(a, &pose, &e) == VS_OK);
    if (r && pose) {
        vs_pose_update_world(pose);
        CHECK(vs_renderer_resolve_upload(r, VS_UPLOAD_AUTO) ==
              VS_UPLOAD_TEXTURE);
        vs_posed_primitive cpu = {0};
        CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &cpu, &e) == VS_OK);
        float gpu[9] = {0};
        CHECK_MSG(vs_renderer_capture_skinned_positions(
                      r, pose, 0, 0, VS_UPLOAD_AUTO, 0, gpu, NULL, &e) == VS_OK,
                  "%s", e.message);
        double moved = 0.0;
        for (int k = 0; cpu.positions && k < 9; ++k) {
            CHECK_NEAR(gpu[k], cpu.positions[k], 1e-4);
            moved = fmax(moved, fabs(cpu.positions[k] -
                                     a->meshes[0].primitives[0].positions[k]));
        }
        CHECK(moved > 0.5); /* the chain curls: joints deep in it moved far */
        vs_posed_primitive_free(&cpu);
        CHECK(vs_renderer_capture_skinned_positions(
                  r, pose, 0, 0, VS_UPLOAD_UNIFORMS, 0, gpu, NULL, &e) ==
              VS_ERROR_LIMIT);
        CHECK_MSG(strstr(e.message, "texture") != NULL, "%s", e.message);
        uint8_t px[32 * 32 * 4];
        CHECK(vs_render_pose(r, pose,
                             &(vs_render_desc){.width = 32, .height = 32}, px,
                             &e) == VS_OK);
    }
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(a);
}

int main(void)
{
    RUN(test_auto_takes_the_texture);
    return test_summary();
}
