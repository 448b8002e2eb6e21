/* SPDX-License-Identifier: MIT */
/* glTF 2.0 flaws in how vertex data is stored that leave its values known
 * (docs/formats.md, "Refused or repaired"): each file loads with a warning,
 * a strict load refuses it, and the decoded values are the file's. Non-unit
 * NORMAL/TANGENT (normalised), POSITION without min/max, TEXCOORD sets with
 * a gap (a JOINTS gap stays refused), accessors at offsets not aligned to
 * their components or a matrix accessor off a 4-byte boundary (read byte
 * by byte), and GLB chunks whose lengths are not padded to 4. */
#include "load/gltf2/gltf2_fixture.h"
#include "load/gltf2/gltf2_repair_check.h"

static const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
/* tri with its node's translation (0, 0, 1). */
static const float placed[9] = {0, 0, 1, 1, 0, 1, 0, 1, 1};

/* One rigid mesh at (0, 0, 1) whose primitive 0 has `attrs`. */
static char *rigid(const fx_gltf *g, const char *attrs)
{
    char *rest = fx_format("\"nodes\":[{\"mesh\":0,\"translation\":[0,0,1]}],"
                           "\"meshes\":[{\"primitives\":[{\"attributes\":{"
                           "%s}}]}],\"scenes\":[{\"nodes\":[0]}]",
                           attrs);
    char *json = fx_gltf_embedded(g, rest);
    free(rest);
    return json;
}

static void non_unit_directions_are_normalised(void)
{
    fx_gltf g;
    memset(&g, 0, sizeof g);
    const float n[9] = {0, 0, 2, 0, 0.5f, 0, 1, 0, 0};
    const float t[12] = {3, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, -2};
    fx_floats(&g, tri, 3, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_floats(&g, n, 3, 3, "VEC3", "");
    fx_floats(&g, t, 3, 4, "VEC4", "");
    char *json = rigid(&g, "\"POSITION\":0,\"NORMAL\":1,\"TANGENT\":2");
    vs_asset *a =
        rc_load_text(json, "meshes[0].primitives[0].attributes.NORMAL",
                     "2 of 3 vectors are not unit length (first: "
                     "vertex 0): normalised");
    free(json);
    if (!a) return;
    CHECK(rc_has_warning(a, "meshes[0].primitives[0].attributes.TANGENT",
                         "2 of 3 vectors"));
    const vs_primitive *p = &a->meshes[0].primitives[0];
    const float wn[9] = {0, 0, 1, 0, 1, 0, 1, 0, 0};
    const float wt[12] = {1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, -1};
    for (int i = 0; i < 9; ++i)
        CHECK(fabsf(p->normals[i] - wn[i]) < 1e-6f);
    for (int i = 0; i < 12; ++i)
        CHECK(fabsf(p->tangents[i] - wt[i]) < 1e-6f);
    rc_check_posed(a, 0, -1, 0, placed, 3);
    vs_pose *pose = NULL;
    vs_error err;
    vs_posed_primitive out = {0};
    if (vs_pose_create(a, &pose, &err) == VS_OK) {
        vs_pose_update_world(pose);
        CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &out, &err) == VS_OK);
        for (int i = 0; out.normals && i < 9; ++i)
            CHECK(fabsf(out.normals[i] - wn[i]) < 1e-6f);
    }
    vs_posed_primitive_free(&out);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void position_without_bounds_loads(void)
{
    fx_gltf g;
    memset(&g, 0, sizeof g);
    fx_floats(&g, tri, 3, 3, "VEC3", "");
    char *json = rigid(&g, "\"POSITION\":0");
    vs_asset *a = rc_load_text(json,
                               "meshes[0].primitives[0].attributes."
                               "POSITION",
                               "accessor 0 has no min and max");
    free(json);
    if (a) rc_check_posed(a, 0, -1, 0, placed, 3);
    vs_asset_free(a);
}

static void texcoord_gap_keeps_the_sets(void)
{
    fx_gltf g;
    memset(&g, 0, sizeof g);
    const float uv[6] = {0, 0, 1, 0, 0.25f, 1};
    fx_floats(&g, tri, 3, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_floats(&g, uv, 3, 2, "VEC2", "");
    char *json = rigid(&g, "\"POSITION\":0,\"TEXCOORD_0\":1,\"TEXCOORD_2\":1");
    vs_asset *a = rc_load_text(json, "meshes[0].primitives[0].attributes",
                               "TEXCOORD_n sets are not numbered 0, 1, 2... "
                               "without gaps: the sets present are kept");
    free(json);
    if (a) {
        const float *t = a->meshes[0].primitives[0].texcoords;
        CHECK(t && t[4] == 0.25f && t[5] == 1);
        rc_check_posed(a, 0, -1, 0, placed, 3);
    }
    vs_asset_free(a);
    /* COLOR_n sets only shade too. */
    json = rigid(&g, "\"POSITION\":0,\"TEXCOORD_0\":1,\"TEXCOORD_2\":1,"
                     "\"COLOR_1\":0");
    a = rc_load_text(json, "meshes[0].primitives[0].attributes",
                     "COLOR_n sets are not numbered");
    vs_asset_free(a);
    free(json);
}

static void joints_gap_is_refused(void)
{
    fx_gltf g;
    memset(&g, 0, sizeof g);
    const float w[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    fx_floats(&g, tri, 3, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_view_begin(&g);
    for (int i = 0; i < 12; ++i)
        fx_u8(&g.bin, 0);
    fx_accessor(&g, fx_view_end(&g, 0), 5121, 3, "VEC4", "");
    fx_floats(&g, w, 3, 4, "VEC4", "");
    char *rest = fx_format(
        "\"nodes\":[{\"mesh\":0,\"skin\":0},{}],\"skins\":[{\"joints\":[1]}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
        "\"JOINTS_0\":1,\"WEIGHTS_0\":2,\"JOINTS_2\":1,\"WEIGHTS_2\":2}}]}]");
    char *json = fx_gltf_embedded(&g, rest);
    vs_asset *a = NULL;
    vs_error err;
    CHECK(vs_asset_load_memory(json, strlen(json), "j.gltf", NULL, &a, &err) ==
          VS_ERROR_INVALID);
    CHECK(strstr(err.message, "JOINTS_n sets must be numbered") != NULL);
    free(rest);
    free(json);
}

/* POSITION 2 bytes into its view, and the inverse bind matrix too (off the
 * component size and the matrix columns' 4-byte boundary): the values read
 * are the file's, so the skinned rest pose is the mesh as stored. */
static void misaligned_accessors_read_right(void)
{
    fx_gltf g;
    memset(&g, 0, sizeof g);
    const float w[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    float ibm[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -2, 0, 1};
    fx_view_begin(&g);
    fx_u8(&g.bin, 0xAA);
    fx_u8(&g.bin, 0xBB);
    fx_f32s(&g.bin, tri, 9);
    int pv = fx_view_end(&g, 0);
    fx_accessor(&g, pv, 5126, 3, "VEC3",
                ",\"byteOffset\":2,\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_view_begin(&g);
    for (int i = 0; i < 12; ++i)
        fx_u8(&g.bin, 0);
    fx_accessor(&g, fx_view_end(&g, 0), 5121, 3, "VEC4", "");
    fx_floats(&g, w, 3, 4, "VEC4", "");
    fx_view_begin(&g);
    fx_u8(&g.bin, 0xCC);
    fx_u8(&g.bin, 0xDD);
    fx_f32s(&g.bin, ibm, 16);
    fx_accessor(&g, fx_view_end(&g, 0), 5126, 1, "MAT4", ",\"byteOffset\":2");
    char *rest = fx_format(
        "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"translation\":[1,2,0]}],"
        "\"skins\":[{\"joints\":[1],\"inverseBindMatrices\":3}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
        "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],\"scenes\":[{\"nodes\":[0,1]}]");
    char *json = fx_gltf_embedded(&g, rest);
    vs_asset *a = rc_load_text(json, "accessors[0].byteOffset",
                               "2 (+ bufferViews[0].byteOffset 0) is not a "
                               "multiple of 4: read byte by byte");
    if (a) {
        CHECK(rc_has_warning(a, "accessors[3].byteOffset", "not a multiple"));
        CHECK(a->skins[0].inverse_bind_matrices[12] == -1 &&
              a->skins[0].inverse_bind_matrices[13] == -2);
        rc_check_posed(a, 0, -1, 0, tri, 3);
    }
    vs_asset_free(a);
    free(rest);
    free(json);
}

/* A GLB whose JSON chunk is not padded: its length says where the BIN chunk
 * starts, as three.js and assimp read it. */
static void unpadded_glb_chunks_are_read(void)
{
    fx_gltf g;
    memset(&g, 0, sizeof g);
    fx_floats(&g, tri, 3, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    char *text = fx_gltf_json(&g, "",
                              "\"nodes\":[{\"mesh\":0,\"translation\":"
                              "[0,0,1]}],\"meshes\":[{\"primitives\":"
                              "[{\"attributes\":{\"POSITION\":0}}]}]");
    /* A space more where the text happens to fill whole words. */
    char *json = fx_format("%s%s", text, strlen(text) % 4 ? "" : " ");
    free(text);
    size_t jl = strlen(json);
    fx_bytes *out = calloc(1, sizeof *out);
    if (!out) abort();
    size_t total = 12 + 8 + jl + 8 + g.bin.size;
    fx_u32(out, 0x46546C67);
    fx_u32(out, 2);
    fx_u32(out, (uint32_t)total);
    fx_u32(out, (uint32_t)jl);
    fx_u32(out, 0x4E4F534A);
    for (size_t i = 0; i < jl; ++i)
        fx_u8(out, (uint8_t)json[i]);
    fx_u32(out, (uint32_t)g.bin.size);
    fx_u32(out, 0x004E4942);
    for (size_t i = 0; i < g.bin.size; ++i)
        fx_u8(out, g.bin.data[i]);
    CHECK(out->size == total);
    vs_asset *a = rc_load_repaired(out->data, out->size, "GLB chunk 0",
                                   "is not a multiple of 4: read as written");
    if (a) rc_check_posed(a, 0, -1, 0, placed, 3);
    vs_asset_free(a);
    free(out);
    free(json);
}

int main(void)
{
    RUN(non_unit_directions_are_normalised);
    RUN(position_without_bounds_loads);
    RUN(texcoord_gap_keeps_the_sets);
    RUN(joints_gap_is_refused);
    RUN(misaligned_accessors_read_right);
    RUN(unpadded_glb_chunks_are_read);
    return test_summary();
}
