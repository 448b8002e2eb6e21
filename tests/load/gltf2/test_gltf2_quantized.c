/* SPDX-License-Identifier: MIT */
/* KHR_mesh_quantization: with the extension required, positions may be
 * integers (normalized or not), normals/tangents and morph deltas normalized
 * bytes/shorts, texcoords plain integers; vskin decodes them all to floats.
 * Without it in extensionsRequired the same data is refused with a message
 * that names the extension. */
#include "load/gltf2/gltf2_fixture.h"
#include "test.h"
#include "vskin/vskin.h"

static void build(fx_gltf *g)
{
    memset(g, 0, sizeof *g);
    /* 0: POSITION u16 (not normalized), stride 8 keeps elements aligned. */
    fx_view_begin(g);
    const uint16_t pos[] = {0, 0, 0, 1000, 0, 0, 0, 1000, 0};
    for (int v = 0; v < 3; ++v) {
        for (int k = 0; k < 3; ++k) fx_u16(&g->bin, pos[v * 3 + k]);
        fx_u16(&g->bin, 0);
    }
    fx_accessor(g, fx_view_end(g, 8), 5123, 3, "VEC3",
                ",\"min\":[0,0,0],\"max\":[1000,1000,0]");
    /* 1: NORMAL i8 normalized; 2: TANGENT i8 normalized (w = -1). */
    fx_view_begin(g);
    for (int v = 0; v < 3; ++v) {
        fx_u8(&g->bin, 0);
        fx_u8(&g->bin, 0);
        fx_u8(&g->bin, 127);
        fx_u8(&g->bin, 0);
    }
    fx_accessor(g, fx_view_end(g, 4), 5120, 3, "VEC3", ",\"normalized\":true");
    fx_view_begin(g);
    for (int v = 0; v < 3; ++v) {
        fx_u8(&g->bin, 127);
        fx_u8(&g->bin, 0);
        fx_u8(&g->bin, 0);
        fx_u8(&g->bin, 0x81); /* -127 */
    }
    fx_accessor(g, fx_view_end(g, 0), 5120, 3, "VEC4", ",\"normalized\":true");
    /* 3: TEXCOORD_0 u16 not normalized. */
    fx_view_begin(g);
    for (int i = 0; i < 6; ++i) fx_u16(&g->bin, 10 * i);
    fx_accessor(g, fx_view_end(g, 0), 5123, 3, "VEC2", "");
    /* 4: JOINTS_0 u8; 5: WEIGHTS_0 u8 normalized. */
    fx_view_begin(g);
    for (int i = 0; i < 12; ++i) fx_u8(&g->bin, i % 4 == 0 ? 1 : 0);
    fx_accessor(g, fx_view_end(g, 0), 5121, 3, "VEC4", "");
    fx_view_begin(g);
    for (int i = 0; i < 12; ++i) fx_u8(&g->bin, i % 4 == 0 ? 255 : 0);
    fx_accessor(g, fx_view_end(g, 0), 5121, 3, "VEC4", ",\"normalized\":true");
    /* 6: target POSITION i16 normalized; 7: target NORMAL i8 normalized. */
    fx_view_begin(g);
    for (int v = 0; v < 3; ++v) {
        fx_u16(&g->bin, 0);
        fx_u16(&g->bin, 16384);
        fx_u16(&g->bin, (uint16_t)-32767);
        fx_u16(&g->bin, 0);
    }
    fx_accessor(g, fx_view_end(g, 8), 5122, 3, "VEC3",
                ",\"normalized\":true,\"min\":[0,0.5,-1],\"max\":[0,0.5,-1]");
    fx_view_begin(g);
    for (int v = 0; v < 3; ++v) fx_u32(&g->bin, 0x00004000u); /* (0,64,0) */
    fx_accessor(g, fx_view_end(g, 4), 5120, 3, "VEC3", ",\"normalized\":true");
    /* 8: POSITION i16 normalized; 9: POSITION i8 not normalized. */
    fx_view_begin(g);
    for (int v = 0; v < 3; ++v) {
        fx_u16(&g->bin, (uint16_t)-32767);
        fx_u16(&g->bin, 32767);
        fx_u16(&g->bin, 0);
        fx_u16(&g->bin, 0);
    }
    fx_accessor(g, fx_view_end(g, 8), 5122, 3, "VEC3",
                ",\"normalized\":true,\"min\":[-1,1,0],\"max\":[-1,1,0]");
    fx_view_begin(g);
    for (int v = 0; v < 3; ++v) fx_u32(&g->bin, 0x0003FFFEu); /* -2,-1,3 */
    fx_accessor(g, fx_view_end(g, 4), 5120, 3, "VEC3",
                ",\"min\":[-2,-1,3],\"max\":[-2,-1,3]");
}

static const char *const meshes =
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
    "\"NORMAL\":1,\"TANGENT\":2,\"TEXCOORD_0\":3,\"JOINTS_0\":4,"
    "\"WEIGHTS_0\":5},\"targets\":[{\"POSITION\":6,\"NORMAL\":7}]},"
    "{\"attributes\":{\"POSITION\":8},\"targets\":[{\"POSITION\":6}]},"
    "{\"attributes\":{\"POSITION\":9},\"targets\":[{\"POSITION\":6}]}]}],"
    "\"nodes\":[{\"mesh\":0}]";

static void quantized_attributes_decode(void)
{
    fx_gltf g;
    build(&g);
    char *rest = fx_format("\"extensionsUsed\":[\"KHR_mesh_quantization\"],"
                           "\"extensionsRequired\":[\"KHR_mesh_quantization\"],"
                           "%s",
                           meshes);
    char *json = fx_gltf_embedded(&g, rest);
    vs_asset *a = NULL;
    vs_error err;
    vs_result r = vs_asset_load_memory(json, strlen(json), "q.gltf", NULL, &a,
                                       &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (a) {
        const vs_primitive *p = a->meshes[0].primitives;
        CHECK(p[0].vertex_count == 3 && p[0].positions[3] == 1000.0f &&
              p[0].positions[7] == 1000.0f && p[0].positions[8] == 0.0f);
        CHECK(p[0].normals[2] == 1.0f && p[0].normals[0] == 0.0f);
        CHECK(p[0].tangents[0] == 1.0f && p[0].tangents[3] == -1.0f);
        CHECK(p[0].texcoords[5] == 50.0f);
        CHECK(p[0].influence_count == 4 && p[0].joints[0] == 1 &&
              p[0].weights[0] == 1.0f && p[0].weights[1] == 0.0f);
        CHECK_NEAR(p[0].targets[0].positions[1], 16384.0 / 32767.0, 1e-7);
        CHECK(p[0].targets[0].positions[2] == -1.0f);
        CHECK_NEAR(p[0].targets[0].normals[1], 64.0 / 127.0, 1e-7);
        CHECK(p[1].positions[0] == -1.0f && p[1].positions[1] == 1.0f);
        CHECK(p[2].positions[0] == -2.0f && p[2].positions[1] == -1.0f &&
              p[2].positions[2] == 3.0f);
    }
    vs_asset_free(a);
    free(json);
    free(rest);

    /* The same data with the extension only "used": refused. */
    rest = fx_format("\"extensionsUsed\":[\"KHR_mesh_quantization\"],%s",
                     meshes);
    json = fx_gltf_embedded(&g, rest);
    r = vs_asset_load_memory(json, strlen(json), "q.gltf", NULL, &a, &err);
    CHECK(r == VS_ERROR_INVALID && a == NULL);
    CHECK(fx_message_is(err.message, "q.gltf",
                        "meshes[0].primitives[0].attributes.POSITION: "
                        "accessor 0: componentType 5123 is not allowed here "
                        "(KHR_mesh_quantization is not in extensionsRequired)"));
    free(json);
    free(rest);
}

int main(void)
{
    RUN(quantized_attributes_decode);
    return test_summary();
}
