/* SPDX-License-Identifier: MIT */
/* The glTF 2.0 writer. The main proof is the round trip: every test asset
 * (glTF 1.0, glTF 2.0 and, when the loader reads them, COLLADA) is written
 * as .gltf + .bin, as .glb and as .gltf with an embedded buffer, loaded
 * back, and every mesh instance is posed at several times of every clip in
 * both; the converted positions must equal the (axis-corrected) source
 * positions to 1e-4 of the model's size. Then the details glTF 2.0 asks
 * for: the bind shape matrix folded into the IBMs, JOINTS as bytes, min/max
 * on POSITION and animation inputs, no matrix on animated nodes, the axis
 * correction, and errors naming the file. */
#include <cjson/cJSON.h>

#include "write/gltf2/gltf2_roundtrip.h"
#include "write/gltf2/gltf2_writer.h"

#define GLTF1_SKIN VS_TEST_DATA "/gltf1/SimpleSkin.gltf"
#define GLTF2_SKIN VS_TEST_DATA "/gltf2/SimpleSkin.gltf"
#define MAX_FILES 64

static vs_asset *load(const char *path, vs_error *err)
{
    vs_asset *asset = NULL;
    if (vs_asset_load_file(path, NULL, &asset, err) != VS_OK) return NULL;
    return asset;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[size] = 0;
    fclose(f);
    return buf;
}

static cJSON *load_json(const char *path)
{
    char *text = slurp(path);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK_MSG(root != NULL, "%s: not JSON", path);
    return root;
}

/* Writes src to path, loads it back and compares poses; returns the
 * loaded result (caller frees) or NULL. */
static vs_asset *round_trip(const vs_asset *src, const char *path,
                            const gltf2_write_options *opts,
                            const float correction[16])
{
    vs_error err;
    gltf2_write_report rep;
    vs_result r = gltf2_write_file(src, path, opts, &rep, &err);
    CHECK_MSG(r == VS_OK, "%s: %s", path, err.message);
    if (r != VS_OK) return NULL;
    vs_asset *out = load(path, &err);
    CHECK_MSG(out != NULL, "%s: %s", path, err.message);
    if (!out) return NULL;
    CHECK(out->format == VS_FORMAT_GLTF2);
    CHECK_MSG(out->instance_count == src->instance_count,
              "%s: %u instances, source %u", path, out->instance_count,
              src->instance_count);
    for (uint32_t i = 0; i < out->instance_count && i < src->instance_count;
         ++i)
        CHECK(out->instances[i] == src->instances[i]);
    CHECK(out->node_count == src->node_count);
    CHECK(out->skin_count == src->skin_count);
    rt_result cmp = rt_compare(src, out, correction);
    double tol = 1e-4 * (cmp.extent > 1e-6 ? cmp.extent : 1.0);
    CHECK_MSG(cmp.ok && cmp.worst <= tol,
              "%s: posed positions differ by %g (tolerance %g, %u poses)", path,
              cmp.worst, tol, cmp.poses);
    CHECK_MSG(cmp.poses > 0, "%s: nothing was posed", path);
    return out;
}

/* One source through all three output kinds. */
static void round_trip_all_kinds(const char *src_path, int index)
{
    vs_error err;
    vs_asset *src = load(src_path, &err);
    bool collada = strlen(src_path) > 4 &&
                   strcasecmp(src_path + strlen(src_path) - 4, ".dae") == 0;
    if (!src && collada) {
        /* The COLLADA loader is tested on its own; only what it loads can
         * be round-tripped here. */
        printf("  skipped %s: %s\n", src_path, err.message);
        return;
    }
    CHECK_MSG(src != NULL, "%s: %s", src_path, err.message);
    if (!src) return;
    float correction[16];
    gltf2_axis_correction(src, correction);
    static const char *kinds[] = {".gltf", ".glb", "_embedded.gltf"};
    for (int k = 0; k < 3; ++k) {
        char path[512];
        snprintf(path, sizeof path, "%s/writer_rt_%d%s", VS_TEST_TMP, index,
                 kinds[k]);
        gltf2_write_options opts = {.embed = k == 2};
        vs_asset *out = round_trip(src, path, &opts, correction);
        vs_asset_free(out);
    }
    printf("  round trip %s\n", src_path);
    vs_asset_free(src);
}

static void test_round_trip_every_asset(void)
{
    char *files[MAX_FILES];
    size_t n = rt_sources(files, MAX_FILES);
    CHECK(n >= 4);
    if (test_path_exists(VS_SHARED_ASSETS)) CHECK(n >= 13);
    for (size_t i = 0; i < n; ++i) {
        round_trip_all_kinds(files[i], (int)i);
        free(files[i]);
    }
}

/* The round trip must be able to fail: SimpleSkin's converted file posed at
 * other times than the source differs by much more than the tolerance. */
static void test_comparison_detects_motion(void)
{
    vs_error err;
    vs_asset *src = load(GLTF1_SKIN, &err);
    CHECK_MSG(src != NULL, "%s", err.message);
    if (!src) return;
    float id[16];
    xform_identity(id);
    rt_result same = rt_compare(src, src, id);
    CHECK(same.ok && same.worst == 0.0);
    CHECK_MSG(same.moved > 0.5, "the clip did not move the mesh (%g)",
              same.moved);
    /* A correction that is not the identity must show as a difference. */
    float shifted[16];
    xform_identity(shifted);
    shifted[12] = 0.01f;
    rt_result off = rt_compare(src, src, shifted);
    CHECK_NEAR(off.worst, 0.01, 1e-6);
    vs_asset_free(src);
}

static cJSON *item(cJSON *root, const char *key, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(root, key), i);
}

static int num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(obj, key);
    return cJSON_IsNumber(v) ? v->valueint : -1;
}

/* glTF 1.0 SimpleSkin: BSM = T(-0.5, 0, 0) and IBM_0 = I, so the file's
 * IBM_0 must be T(-0.5, 0, 0) and the loaded skin's BSM the identity. */
static void test_bind_shape_matrix_folded(void)
{
    vs_error err;
    vs_asset *src = load(GLTF1_SKIN, &err);
    if (!src) {
        CHECK_MSG(0, "%s", err.message);
        return;
    }
    const char *path = VS_TEST_TMP "/writer_bsm.gltf";
    CHECK(gltf2_write_file(src, path, NULL, NULL, &err) == VS_OK);
    vs_asset *out = load(path, &err);
    CHECK_MSG(out != NULL, "%s", err.message);
    if (out && out->skin_count == 1) {
        const vs_skin *s = &out->skins[0];
        CHECK(xform_is_identity(s->bind_shape_matrix, 0.0f));
        CHECK(s->inverse_bind_matrices != NULL);
        if (s->inverse_bind_matrices) {
            CHECK_NEAR(s->inverse_bind_matrices[12], -0.5, 1e-7);
            CHECK_NEAR(s->inverse_bind_matrices[16 + 12], -0.5, 1e-7);
            CHECK_NEAR(s->inverse_bind_matrices[16 + 13], -1.0, 1e-7);
        }
        CHECK(s->skeleton == src->skins[0].skeleton);
    }
    cJSON *root = load_json(path);
    cJSON *prim = item(item(root, "meshes", 0), "primitives", 0);
    cJSON *attrs = cJSON_GetObjectItem(prim, "attributes");
    cJSON *acc = cJSON_GetObjectItem(root, "accessors");
    /* 2 joints: JOINTS_0 as UNSIGNED_BYTE; WEIGHTS_0 FLOAT. */
    CHECK(num(cJSON_GetArrayItem(acc, num(attrs, "JOINTS_0")),
              "componentType") == 5121);
    CHECK(num(cJSON_GetArrayItem(acc, num(attrs, "WEIGHTS_0")),
              "componentType") == 5126);
    cJSON *pos = cJSON_GetArrayItem(acc, num(attrs, "POSITION"));
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(pos, "max")) == 3);
    CHECK_NEAR(
        cJSON_GetArrayItem(cJSON_GetObjectItem(pos, "max"), 1)->valuedouble,
        2.0, 0);
    cJSON *smp = item(item(root, "animations", 0), "samplers", 0);
    cJSON *input = cJSON_GetArrayItem(acc, num(smp, "input"));
    CHECK_NEAR(
        cJSON_GetArrayItem(cJSON_GetObjectItem(input, "max"), 0)->valuedouble,
        5.5, 0);
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(
                     cJSON_GetObjectItem(root, "asset"), "version")),
                 "2.0") == 0);
    /* The glTF 1.0 scene lists only the mesh node; the joints' root is
     * added so the skin's joints are in the scene. */
    CHECK(cJSON_GetArraySize(
              cJSON_GetObjectItem(item(root, "scenes", 0), "nodes")) == 2);
    /* Every view starts on a 4-byte boundary. */
    cJSON *view;
    cJSON_ArrayForEach(view, cJSON_GetObjectItem(root, "bufferViews")) CHECK(
        num(view, "byteOffset") % 4 == 0 || num(view, "byteOffset") == -1);
    cJSON_Delete(root);
    vs_asset_free(out);
    vs_asset_free(src);
}

/* An animated node never carries `matrix` (glTF 2.0 §3.5.3). */
static void test_no_matrix_on_animated_nodes(void)
{
    if (!test_path_exists(VS_SHARED_ASSETS)) return;
    vs_error err;
    const char *src_path = VS_TEST_DATA "/gltf2/CesiumMan.gltf";
    vs_asset *src = load(src_path, &err);
    CHECK_MSG(src != NULL, "%s", err.message);
    if (!src) return;
    const char *path = VS_TEST_TMP "/writer_matrix.gltf";
    CHECK(gltf2_write_file(src, path, NULL, NULL, &err) == VS_OK);
    cJSON *root = load_json(path);
    cJSON *nodes = cJSON_GetObjectItem(root, "nodes");
    int animated = 0, matrices = 0;
    cJSON *ch;
    cJSON_ArrayForEach(
        ch, cJSON_GetObjectItem(item(root, "animations", 0), "channels"))
    {
        cJSON *target = cJSON_GetObjectItem(ch, "target");
        cJSON *node = cJSON_GetArrayItem(nodes, num(target, "node"));
        animated++;
        CHECK(cJSON_GetObjectItem(node, "matrix") == NULL);
    }
    cJSON *node;
    cJSON_ArrayForEach(node, nodes) matrices +=
        cJSON_GetObjectItem(node, "matrix") != NULL;
    CHECK(animated == 57);
    /* CesiumMan's un-animated root keeps its matrix. */
    CHECK(matrices >= 1);
    cJSON_Delete(root);
    vs_asset_free(src);
}

/* A Z-up, centimetre source: the output is Y-up metres (checked against
 * the correction matrix by the round trip), --keep-axes leaves it alone. */
static void test_axis_correction(void)
{
    vs_error err;
    vs_asset *src = load(GLTF2_SKIN, &err);
    CHECK_MSG(src != NULL, "%s", err.message);
    if (!src) return;
    /* A shallow copy that claims COLLADA's Z_UP and centimetres. */
    vs_asset zup = *src;
    zup.up_axis = VS_UP_Z;
    zup.unit_meters = 0.01f;
    float c[16];
    CHECK(gltf2_axis_correction(&zup, c));
    float up[3] = {0, 0, 100}, y[3];
    xform_transform_point(c, up, y);
    CHECK_NEAR(y[0], 0, 1e-6);
    CHECK_NEAR(y[1], 1, 1e-6);
    CHECK_NEAR(y[2], 0, 1e-6);
    vs_asset *out = round_trip(&zup, VS_TEST_TMP "/writer_zup.glb", NULL, c);
    vs_asset_free(out);

    vs_asset xup = *src;
    xup.up_axis = VS_UP_X;
    xup.unit_meters = 1.0f;
    CHECK(gltf2_axis_correction(&xup, c));
    float xv[3] = {1, 0, 0};
    xform_transform_point(c, xv, y);
    CHECK_NEAR(y[1], 1, 1e-6);
    out = round_trip(&xup, VS_TEST_TMP "/writer_xup.gltf", NULL, c);
    vs_asset_free(out);

    gltf2_write_options keep = {.keep_axes = true};
    float id[16];
    xform_identity(id);
    out = round_trip(&zup, VS_TEST_TMP "/writer_keep.gltf", &keep, id);
    vs_asset_free(out);
    CHECK(!gltf2_axis_correction(src, c));
    vs_asset_free(src);
}

static void test_errors_name_the_file(void)
{
    vs_error err;
    vs_asset *src = load(GLTF2_SKIN, &err);
    if (!src) {
        CHECK_MSG(0, "%s", err.message);
        return;
    }
    const char *bad = VS_TEST_TMP "/no/such/dir/out.gltf";
    vs_result r = gltf2_write_file(src, bad, NULL, NULL, &err);
    CHECK(r == VS_ERROR_IO);
    CHECK_MSG(strstr(err.message, "no/such/dir/out") != NULL, "%s",
              err.message);
    gltf2_write_options embed = {.embed = true};
    r = gltf2_write_file(src, VS_TEST_TMP "/x.glb", &embed, NULL, &err);
    CHECK(r == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "x.glb") != NULL);
    CHECK(!test_path_exists(VS_TEST_TMP "/x.glb"));
    char *bin = gltf2_bin_path("a/b.c/model.gltf", NULL);
    CHECK(bin && strcmp(bin, "a/b.c/model.bin") == 0);
    free(bin);
    vs_asset_free(src);
}

int main(void)
{
    RUN(test_comparison_detects_motion);
    RUN(test_round_trip_every_asset);
    RUN(test_bind_shape_matrix_folded);
    RUN(test_axis_correction);
    RUN(test_errors_name_the_file);
    RUN(test_no_matrix_on_animated_nodes);
    return test_summary();
}
