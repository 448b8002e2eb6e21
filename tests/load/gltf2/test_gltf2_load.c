/* SPDX-License-Identifier: MIT */
/* The glTF 2.0 loader end to end, on one small skinned, morphed, animated
 * "character" built here (so every expected value is known), loaded four
 * ways: .gltf with an embedded data: URI, .gltf file with an external buffer
 * in a folder with spaces (percent-encoded URI), the same JSON from memory
 * with base_dir, and .glb (padded JSON and BIN chunks). Each load must give
 * the same asset:
 *  - nodes: matrix or TRS, children, parents, order; two scenes, the
 *    default one deciding the mesh instances;
 *  - a primitive with POSITION, NORMAL, TANGENT (w kept), TEXCOORD_0, three
 *    JOINTS_n/WEIGHTS_n sets (12 influences; u8/u16 joints, float/u8n/u16n
 *    weights), u16 indices, and two morph targets (POSITION/NORMAL/TANGENT
 *    deltas), mesh and node default weights; a LINES primitive with u8
 *    indices;
 *  - skins with IBMs and skeleton, and without IBMs (identity);
 *  - two clips found by name or index, LINEAR/STEP/CUBICSPLINE samplers on
 *    translation/rotation (i16 normalized too)/scale/weights whose inputs do
 *    not start at 0, and a pose sampled from them.
 * KHR_mesh_quantization data and the error cases are in
 * test_gltf2_quantized.c and test_gltf2_load_errors.c. */
#include <sys/stat.h>

#include "load/gltf2/gltf2_fixture.h"
#include "test.h"
#include "vskin/vskin.h"

#define DIR VS_TEST_TMP "/gltf2 load"

static const float positions[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};

/* Builds the character; *json_rest receives the root members after
 * accessors (malloc'd). */
static void build(fx_gltf *g, char **json_rest)
{
    memset(g, 0, sizeof *g);
    const float n[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float t[] = {1, 0, 0, -1, 1, 0, 0, -1, 1, 0, 0, -1, 1, 0, 0, -1};
    const float uv[] = {0, 0, 1, 0, 1, 1, 0, 1};
    const float w0[] = {0.5f, 0.25f, 0, 0, 1, 0, 0, 0,
                        0.5f, 0.5f,  0, 0, 0, 0, 0, 0};
    const float dpos0[] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const float dpos1[] = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0};
    const float dn[] = {0, 0.5f, 0, 0, 0.5f, 0, 0, 0.5f, 0, 0, 0.5f, 0};
    const float dt[] = {0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0};
    const float ibm[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                         1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
                         2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1};
    const float times2[] = {1, 2}, times3[] = {1, 1.5f, 2}, idle_t[] = {0.5f, 3};
    const float tr[] = {0, 1, 0, 0, 3, 0};
    const float rot[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0};
    /* CUBICSPLINE: (in-tangent, value, out-tangent) per key. */
    const float sc[] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0};
    const float mw[] = {0, 1, 1, 0};
    const float idle_v[] = {5, 0, 0, 6, 0, 0};
    /* 0..3: POSITION NORMAL TANGENT TEXCOORD_0 */
    fx_floats(g, positions, 4, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_floats(g, n, 4, 3, "VEC3", "");
    fx_floats(g, t, 4, 4, "VEC4", "");
    fx_floats(g, uv, 4, 2, "VEC2", "");
    /* 4: JOINTS_0 u8; 5: JOINTS_1 u16; 6: JOINTS_2 u16 with a byteStride */
    fx_view_begin(g);
    for (int v = 0; v < 4; ++v)
        for (int k = 0; k < 4; ++k) fx_u8(&g->bin, (v + k) % 3);
    fx_accessor(g, fx_view_end(g, 0), 5121, 4, "VEC4", "");
    fx_view_begin(g);
    for (int v = 0; v < 4; ++v)
        for (int k = 0; k < 4; ++k) fx_u16(&g->bin, (v * 4 + k) % 3);
    fx_accessor(g, fx_view_end(g, 0), 5123, 4, "VEC4", "");
    fx_view_begin(g);
    for (int v = 0; v < 4; ++v) {
        for (int k = 0; k < 4; ++k) fx_u16(&g->bin, 2);
        fx_u32(&g->bin, 0xFFFFFFFF); /* not ours */
    }
    fx_accessor(g, fx_view_end(g, 12), 5123, 4, "VEC4", "");
    /* 7: WEIGHTS_0 float; 8: WEIGHTS_1 u8n; 9: WEIGHTS_2 u16n */
    fx_floats(g, w0, 4, 4, "VEC4", "");
    fx_view_begin(g);
    for (int i = 0; i < 16; ++i) fx_u8(&g->bin, i % 4 == 0 ? 51 : 0);
    fx_accessor(g, fx_view_end(g, 0), 5121, 4, "VEC4", ",\"normalized\":true");
    fx_view_begin(g);
    for (int i = 0; i < 16; ++i) fx_u16(&g->bin, i % 4 == 1 ? 65535 : 0);
    fx_accessor(g, fx_view_end(g, 0), 5123, 4, "VEC4", ",\"normalized\":true");
    /* 10: indices u16; 11..15: morph deltas; 16: IBMs */
    fx_view_begin(g);
    const uint16_t idx[] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; ++i) fx_u16(&g->bin, idx[i]);
    fx_accessor(g, fx_view_end(g, 0), 5123, 6, "SCALAR", "");
    fx_floats(g, dpos0, 4, 3, "VEC3", ",\"min\":[0,0,1],\"max\":[0,0,1]");
    fx_floats(g, dn, 4, 3, "VEC3", "");
    fx_floats(g, dt, 4, 3, "VEC3", "");
    fx_floats(g, dpos1, 4, 3, "VEC3", ",\"min\":[1,0,0],\"max\":[1,0,0]");
    fx_floats(g, dpos1, 4, 3, "VEC3", ",\"min\":[1,0,0],\"max\":[1,0,0]");
    fx_floats(g, ibm, 3, 16, "MAT4", "");
    /* 17..26: animation inputs and outputs */
    fx_floats(g, times2, 2, 1, "SCALAR", ",\"min\":[1],\"max\":[2]");
    fx_floats(g, times3, 3, 1, "SCALAR", ",\"min\":[1],\"max\":[2]");
    fx_floats(g, tr, 2, 3, "VEC3", "");
    fx_floats(g, rot, 3, 4, "VEC4", "");
    fx_floats(g, sc, 6, 3, "VEC3", "");
    fx_floats(g, mw, 4, 1, "SCALAR", "");
    fx_view_begin(g);
    const int16_t qr[] = {0, 0, 0, 32767, 0, 32767, 0, 0};
    for (int i = 0; i < 8; ++i) fx_u16(&g->bin, (uint16_t)qr[i]);
    fx_accessor(g, fx_view_end(g, 0), 5122, 2, "VEC4", ",\"normalized\":true");
    fx_floats(g, idle_t, 2, 1, "SCALAR", ",\"min\":[0.5],\"max\":[3]");
    fx_floats(g, idle_v, 2, 3, "VEC3", "");
    /* 26: u8 LINES indices, last so the buffer ends unaligned (GLB pad). */
    fx_view_begin(g);
    fx_u8(&g->bin, 1);
    fx_u8(&g->bin, 3);
    fx_accessor(g, fx_view_end(g, 0), 5121, 2, "SCALAR", "");

    *json_rest = fx_format(
        "\"scene\":1,"
        "\"scenes\":[{\"name\":\"all\",\"nodes\":[0,3,4]},"
        "{\"name\":\"char\",\"nodes\":[0,3]}],"
        "\"nodes\":["
        "{\"name\":\"root\",\"children\":[1],\"matrix\":[1,0,0,0,0,1,0,0,0,"
        "0,1,0,1,2,3,1]},"
        "{\"name\":\"hip\",\"children\":[2],\"translation\":[0,1,0]},"
        "{\"name\":\"knee\",\"rotation\":[0,0,0.6,0.8],\"scale\":[2,2,2]},"
        "{\"name\":\"body\",\"mesh\":0,\"skin\":0,\"weights\":[0.75,0]},"
        "{\"name\":\"prop\",\"mesh\":1,\"skin\":1}],"
        "\"meshes\":[{\"name\":\"bodymesh\",\"weights\":[0.25,0.5],"
        "\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,"
        "\"TANGENT\":2,\"TEXCOORD_0\":3,\"JOINTS_0\":4,\"JOINTS_1\":5,"
        "\"JOINTS_2\":6,\"WEIGHTS_0\":7,\"WEIGHTS_1\":8,\"WEIGHTS_2\":9},"
        "\"indices\":10,\"mode\":4,\"targets\":[{\"POSITION\":11,\"NORMAL\":12,"
        "\"TANGENT\":13},{\"POSITION\":14}]},"
        "{\"attributes\":{\"POSITION\":0},\"indices\":26,\"mode\":1,"
        "\"targets\":[{\"POSITION\":15},{}]}]},"
        "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":4,"
        "\"WEIGHTS_0\":7}}]}],"
        "\"skins\":[{\"name\":\"rig\",\"joints\":[1,2,0],"
        "\"inverseBindMatrices\":16,\"skeleton\":0},{\"joints\":[2,1,0]}],"
        "\"animations\":[{\"name\":\"walk\",\"samplers\":["
        "{\"input\":17,\"output\":19},"
        "{\"input\":18,\"output\":20,\"interpolation\":\"STEP\"},"
        "{\"input\":17,\"output\":21,\"interpolation\":\"CUBICSPLINE\"},"
        "{\"input\":17,\"output\":22,\"interpolation\":\"LINEAR\"}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":"
        "\"translation\"}},{\"sampler\":1,\"target\":{\"node\":2,\"path\":"
        "\"rotation\"}},{\"sampler\":2,\"target\":{\"node\":2,\"path\":"
        "\"scale\"}},{\"sampler\":3,\"target\":{\"node\":3,\"path\":"
        "\"weights\"}}]},"
        "{\"name\":\"idle\",\"samplers\":[{\"input\":24,\"output\":25},"
        "{\"input\":17,\"output\":23}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":4,\"path\":"
        "\"translation\"}},{\"sampler\":1,\"target\":{\"node\":1,\"path\":"
        "\"rotation\"}}]}]");
}

static void check_nodes(const vs_asset *a)
{
    CHECK(a->format == VS_FORMAT_GLTF2 && a->node_count == 5);
    if (a->node_count != 5) return;
    const vs_node *nd = a->nodes;
    CHECK(strcmp(nd[0].name, "root") == 0 && strcmp(nd[4].name, "prop") == 0);
    CHECK(nd[0].parent == -1 && nd[1].parent == 0 && nd[2].parent == 1 &&
          nd[3].parent == -1 && nd[4].parent == -1);
    CHECK(nd[0].child_count == 1 && nd[0].children[0] == 1);
    CHECK(nd[0].has_matrix && nd[0].matrix[12] == 1 && nd[0].matrix[14] == 3);
    CHECK(nd[0].rest_trs.translation[1] == 2.0f); /* decomposed */
    CHECK(!nd[1].has_matrix && nd[1].rest_trs.translation[1] == 1.0f);
    CHECK(nd[2].rest_trs.rotation[3] == 0.8f && nd[2].rest_trs.scale[0] == 2);
    CHECK(nd[3].mesh == 0 && nd[3].skin == 0 && nd[4].skin == 1);
    /* Parents before children in node_order. */
    int at[5];
    for (int i = 0; i < 5; ++i) at[a->node_order[i]] = i;
    CHECK(at[0] < at[1] && at[1] < at[2]);
    float w[16];
    vs_asset_rest_world(a, 2, w); /* T(1,2,3) * T(0,1,0) * R * S */
    CHECK_NEAR(w[13], 3.0, 1e-6);
    CHECK_NEAR(w[0], 2.0 * (1 - 2 * 0.36), 1e-6);
    CHECK(a->scene_count == 2 && a->default_scene == 1);
    CHECK(strcmp(a->scenes[1].name, "char") == 0 && a->scenes[0].node_count == 3);
    /* Only the default scene's mesh nodes are instances. */
    CHECK(a->instance_count == 1 && a->instances[0] == 3);
}

static void check_meshes(const vs_asset *a)
{
    CHECK(a->mesh_count == 2);
    if (a->mesh_count != 2) return;
    const vs_mesh *m = &a->meshes[0];
    CHECK(strcmp(m->name, "bodymesh") == 0 && m->primitive_count == 2);
    const vs_primitive *p = &m->primitives[0];
    CHECK(p->vertex_count == 4 && p->mode == VS_MODE_TRIANGLES);
    CHECK(memcmp(p->positions, positions, sizeof positions) == 0);
    CHECK(p->normals && p->normals[11] == 1.0f);
    CHECK(p->tangents && p->tangents[0] == 1.0f && p->tangents[3] == -1.0f &&
          p->tangents[15] == -1.0f);
    CHECK(p->texcoords && p->texcoords[5] == 1.0f);
    CHECK(p->influence_count == 12);
    for (int v = 0; v < 4 && p->joints; ++v)
        for (int k = 0; k < 4; ++k) {
            CHECK(p->joints[v * 12 + k] == (v + k) % 3);
            CHECK(p->joints[v * 12 + 4 + k] == (v * 4 + k) % 3);
            CHECK(p->joints[v * 12 + 8 + k] == 2);
        }
    CHECK(p->weights && p->weights[0] == 0.5f && p->weights[1] == 0.25f &&
          p->weights[12] == 1.0f);
    CHECK(p->weights && p->weights[4] == 0.2f && p->weights[9] == 1.0f &&
          p->weights[8] == 0.0f);
    CHECK(p->index_count == 6 && p->indices[5] == 3 && p->material == -1);
    CHECK(p->target_count == 2 && p->targets[0].positions[2] == 1.0f &&
          p->targets[0].normals[1] == 0.5f && p->targets[0].tangents[1] == 1 &&
          p->targets[1].positions[0] == 1.0f && !p->targets[1].normals &&
          !p->targets[1].tangents);
    const vs_primitive *l = &m->primitives[1];
    CHECK(l->mode == VS_MODE_LINES && l->index_count == 2 &&
          l->indices[1] == 3 && l->influence_count == 0 && !l->normals);
    CHECK(m->weight_count == 2 && m->weights[1] == 0.5f);
    CHECK(a->nodes[3].weight_count == 2 && a->nodes[3].weights[0] == 0.75f);
}

static void check_skins(const vs_asset *a)
{
    CHECK(a->skin_count == 2);
    if (a->skin_count != 2) return;
    const vs_skin *s = &a->skins[0];
    CHECK(strcmp(s->name, "rig") == 0 && s->joint_count == 3 &&
          s->joints[0] == 1 && s->joints[2] == 0 && s->skeleton == 0);
    CHECK(s->inverse_bind_matrices[16 + 13] == -1.0f &&
          s->inverse_bind_matrices[32] == 2.0f);
    CHECK(s->bind_shape_matrix[0] == 1 && s->bind_shape_matrix[12] == 0);
    const vs_skin *t = &a->skins[1];
    CHECK(t->joint_count == 3 && t->skeleton == -1);
    for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 16; ++k)
            CHECK(t->inverse_bind_matrices[16 * j + k] == (k % 5 == 0));
}

static void check_clips(const vs_asset *a)
{
    CHECK(a->clip_count == 2);
    if (a->clip_count != 2) return;
    CHECK(vs_asset_find_clip(a, "walk") == 0 && vs_asset_find_clip(a, "idle") == 1);
    CHECK(vs_asset_find_clip(a, "1") == 1 && vs_asset_find_clip(a, "2") == -1 &&
          vs_asset_find_clip(a, "run") == -1);
    const vs_clip *c = &a->clips[0];
    CHECK(c->start == 1.0f && c->end == 2.0f); /* inputs start at 1 */
    CHECK(c->channel_count == 4 && c->sampler_count == 4);
    CHECK(c->channels[1].path == VS_PATH_ROTATION && c->channels[1].node == 2);
    CHECK(c->channels[3].path == VS_PATH_WEIGHTS && c->channels[3].sampler == 3);
    const vs_anim_sampler *s = c->samplers;
    CHECK(s[0].interpolation == VS_INTERP_LINEAR && s[0].components == 3 &&
          s[0].key_count == 2 && s[0].values[4] == 3.0f);
    CHECK(s[1].interpolation == VS_INTERP_STEP && s[1].key_count == 3 &&
          s[1].components == 4);
    CHECK(s[2].interpolation == VS_INTERP_CUBICSPLINE && s[2].key_count == 2 &&
          s[2].components == 3 && s[2].values[3 * 4] == 3.0f);
    CHECK(s[3].components == 2 && s[3].values[1] == 1.0f);
    const vs_clip *idle = &a->clips[1];
    CHECK(idle->start == 0.5f && idle->end == 3.0f);
    CHECK(idle->samplers[1].values[3] == 1.0f && idle->samplers[1].values[5] == 1.0f);
}

static void check_pose(const vs_asset *a)
{
    vs_pose *pose = NULL;
    vs_error err;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    if (!pose) return;
    CHECK(vs_pose_sample(pose, 0, 1.5f, VS_TIME_CLAMP, &err) == VS_OK);
    float m[16];
    vs_pose_get_local(pose, 1, m);
    CHECK_NEAR(m[13], 2.0, 1e-6); /* LINEAR halfway from 1 to 3 */
    uint32_t n;
    const float *w = vs_pose_morph_weights(pose, 3, &n);
    CHECK(n == 2 && w);
    if (w) CHECK_NEAR(w[0], 0.5, 1e-6);
    vs_pose_update_world(pose);
    vs_posed_primitive out = {0};
    CHECK(vs_pose_mesh_primitive(pose, 3, 0, NULL, &out, &err) == VS_OK);
    CHECK(out.vertex_count == 4 && out.tangents);
    if (out.tangents) CHECK(out.tangents[3] == -1.0f); /* w kept */
    vs_posed_primitive_free(&out);
    vs_pose_free(pose);
}

static void check_asset(const vs_asset *a)
{
    check_nodes(a);
    check_meshes(a);
    check_skins(a);
    check_clips(a);
    check_pose(a);
}

static void embedded_data_uri(void)
{
    fx_gltf g;
    char *rest;
    build(&g, &rest);
    char *json = fx_gltf_embedded(&g, rest);
    vs_asset *a = NULL;
    vs_error err;
    vs_result r = vs_asset_load_memory(json, strlen(json), "char.gltf", NULL,
                                       &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (a) check_asset(a);
    vs_asset_free(a);
    free(json);
    free(rest);
}

static void external_buffer_file_and_memory(void)
{
    fx_gltf g;
    char *rest;
    build(&g, &rest);
    mkdir(DIR, 0777);
    mkdir(DIR "/bin files", 0777);
    FILE *f = fopen(DIR "/bin files/char data.bin", "wb");
    CHECK(f != NULL);
    if (!f) return;
    fwrite(g.bin.data, 1, g.bin.size, f);
    fclose(f);
    char *json = fx_gltf_json(&g, "\"uri\":\"bin%20files/char%20data.bin\"",
                              rest);
    f = fopen(DIR "/char.gltf", "wb");
    CHECK(f != NULL);
    if (f) {
        fputs(json, f);
        fclose(f);
    }
    vs_asset *a = NULL;
    vs_error err;
    vs_result r = vs_asset_load_file(DIR "/char.gltf", NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (a) {
        CHECK(strcmp(a->source_name, DIR "/char.gltf") == 0);
        check_asset(a);
    }
    vs_asset_free(a);
    /* From memory the folder comes from the options. */
    vs_load_options opt = {.base_dir = DIR};
    r = vs_asset_load_memory(json, strlen(json), "mem.gltf", &opt, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (a) check_asset(a);
    vs_asset_free(a);
    r = vs_asset_load_memory(json, strlen(json), "mem.gltf", NULL, &a, &err);
    CHECK(r != VS_OK && a == NULL);
    CHECK(fx_message_is(err.message, "mem.gltf", "buffers[0].uri: external "
                                                 "file"));
    free(json);
    free(rest);
}

static void glb_with_padded_chunks(void)
{
    fx_gltf g;
    char *rest;
    build(&g, &rest);
    CHECK(g.bin.size % 4 != 0); /* the BIN chunk needs its padding */
    char *json = fx_gltf_json(&g, "", rest);
    size_t size;
    uint8_t *glb = fx_glb(json, &g.bin, &size);
    vs_asset *a = NULL;
    vs_error err;
    vs_result r = vs_asset_load_memory(glb, size, "char.glb", NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (a) check_asset(a);
    vs_asset_free(a);
    /* The same bytes from a file. */
    FILE *f = fopen(VS_TEST_TMP "/char.glb", "wb");
    if (f) {
        fwrite(glb, 1, size, f);
        fclose(f);
    }
    r = vs_asset_load_file(VS_TEST_TMP "/char.glb", NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    vs_asset_free(a);
    free(glb);
    free(json);
    free(rest);
}

int main(void)
{
    RUN(embedded_data_uri);
    RUN(external_buffer_file_and_memory);
    RUN(glb_with_padded_chunks);
    return test_summary();
}
