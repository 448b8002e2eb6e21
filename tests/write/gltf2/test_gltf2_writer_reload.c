/* SPDX-License-Identifier: MIT */
/* Whatever the glTF 2.0 writer writes, vskin loads: a skin listing one node
 * twice (COLLADA allows it) gets a stand-in node and keeps its pose; a skin
 * on a node without a mesh is left out; a value that is not a finite number
 * (in the JSON or in a buffer) makes the write fail with a message and no
 * file, instead of a file the loaders refuse. */
#include <math.h>
#include <sys/stat.h>

#include "write/gltf2/gltf2_roundtrip.h"
#include "write/gltf2/gltf2_writer.h"

#define DAE VS_TEST_DATA "/collada/bind_shape_non_identity.dae"
#define SKIN VS_TEST_DATA "/gltf2/SimpleSkin.gltf"

static void a_repeated_joint_gets_a_stand_in(void)
{
    char *text = test_read_text(DAE);
    CHECK(text != NULL);
    if (!text) return;
    /* bone3 becomes a second bone2, with bone3's inverse bind matrix. */
    char *names = strstr(text, "bone0 bone1 bone2 bone3");
    CHECK(names != NULL);
    if (!names) {
        free(text);
        return;
    }
    memcpy(names + 18, "bone2", 5);
    vs_asset *source = NULL, *again = NULL;
    vs_error err;
    vs_result r = vs_asset_load_memory(text, strlen(text), "repeated.dae", NULL,
                                       &source, &err);
    free(text);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    CHECK(source->skins[0].joints[2] == source->skins[0].joints[3]);
    const char *path = VS_TEST_TMP "/writer_repeated_joint.glb";
    r = gltf2_write_file(source, path, NULL, NULL, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    r = vs_asset_load_file(path, NULL, &again, &err);
    CHECK_MSG(r == VS_OK, "vskin refuses what it wrote: %s", err.message);
    if (again) {
        CHECK(again->node_count == source->node_count + 1);
        const vs_skin *s = &again->skins[0];
        CHECK(s->joint_count == 4 && s->joints[3] == source->node_count);
        CHECK(again->nodes[s->joints[3]].parent == (int32_t)s->joints[2]);
        float c[16];
        gltf2_axis_correction(source, c);
        rt_result cmp = rt_compare(source, again, c);
        CHECK_MSG(cmp.ok && cmp.worst <= 1e-4 * cmp.extent,
                  "posed positions differ by %g (extent %g)", cmp.worst,
                  cmp.extent);
    }
    vs_asset_free(again);
    vs_asset_free(source);
    remove(path);
}

static vs_asset *load_skin(void)
{
    vs_asset *a = NULL;
    vs_error err;
    vs_result r = vs_asset_load_file(SKIN, NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    return a;
}

static void a_skin_without_a_mesh_is_left_out(void)
{
    vs_asset *a = load_skin();
    if (!a) return;
    /* The tests poke the loaded model: a joint node gets the skin. */
    vs_node *nodes = (vs_node *)a->nodes;
    uint32_t joint = a->skins[0].joints[0];
    CHECK(nodes[joint].mesh < 0);
    nodes[joint].skin = 0;
    const char *path = VS_TEST_TMP "/writer_skin_no_mesh.gltf";
    vs_gltf_write_options options = {.embed = true};
    vs_error err;
    vs_result r = vs_write_gltf(a, path, &options, NULL, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    vs_asset *again = NULL;
    r = vs_asset_load_file(path, NULL, &again, &err);
    CHECK_MSG(r == VS_OK, "vskin refuses what it wrote: %s", err.message);
    if (again) CHECK(again->nodes[joint].skin < 0);
    vs_asset_free(again);
    vs_asset_free(a);
    remove(path);
}

static void non_finite_values_are_not_written(void)
{
    const char *path = VS_TEST_TMP "/writer_non_finite.gltf";
    vs_gltf_write_options options = {.embed = true};
    vs_error err;
    struct stat st;
    remove(path);
    vs_asset *a = load_skin();
    if (!a) return;
    vs_node *nodes = (vs_node *)a->nodes;
    uint32_t joint = a->skins[0].joints[1];
    nodes[joint].rest_trs.translation[1] = INFINITY;
    vs_result r = vs_write_gltf(a, path, &options, NULL, &err);
    CHECK(r == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "not a finite number") &&
                  strstr(err.message, "/nodes/"),
              "%s", err.message);
    CHECK(stat(path, &st) != 0);
    vs_asset_free(a);

    a = load_skin();
    if (!a) return;
    float *positions = (float *)a->meshes[0].primitives[0].positions;
    positions[4] = NAN;
    r = vs_write_gltf(a, path, &options, NULL, &err);
    CHECK(r == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "not a finite number") &&
                  strstr(err.message, "VEC3"),
              "%s", err.message);
    CHECK(stat(path, &st) != 0);
    vs_asset_free(a);
}

int main(void)
{
    RUN(a_repeated_joint_gets_a_stand_in);
    RUN(a_skin_without_a_mesh_is_left_out);
    RUN(non_finite_values_are_not_written);
    return test_summary();
}
