/* SPDX-License-Identifier: MIT */
/* Limits and load-time checks (docs/robustness.md): each configurable limit
 * turns into a VS_ERROR_LIMIT naming the object before anything is
 * allocated for it; skin data the hot loop trusts is checked at load
 * (singular / non-finite inverse bind matrices, non-finite weights); the
 * external-URI policy and its allow_external_paths switch. */
#include "load/gltf2/gltf2_fixture.h"
#include "test.h"
#include "vskin/vskin.h"

/* A skinned triangle (2 joints) with the given second IBM and a
 * 2-key translation clip; accessors: 0 POSITION, 1 JOINTS_0, 2 WEIGHTS_0,
 * 3 IBMs, 4 times, 5 translations. */
static char *skinned_triangle(const float second_ibm[16])
{
    static fx_gltf g;
    memset(&g, 0, sizeof g);
    const float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float w[] = {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0};
    float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(ibm + 16, second_ibm, 16 * sizeof(float));
    const float times[] = {0, 1}, tr[] = {0, 0, 0, 1, 0, 0};
    fx_floats(&g, pos, 3, 3, "VEC3", ",\"min\":[0,0,0],\"max\":[1,1,0]");
    fx_view_begin(&g);
    const uint8_t j[] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 12; ++i) fx_u8(&g.bin, j[i]);
    fx_accessor(&g, fx_view_end(&g, 0), 5121, 3, "VEC4", "");
    fx_floats(&g, w, 3, 4, "VEC4", "");
    fx_floats(&g, ibm, 2, 16, "MAT4", "");
    fx_floats(&g, times, 2, 1, "SCALAR", ",\"min\":[0],\"max\":[1]");
    fx_floats(&g, tr, 2, 3, "VEC3", "");
    return fx_gltf_embedded(
        &g, "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"children\":[2]},{}],"
            "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,"
            "\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],"
            "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":3}],"
            "\"animations\":[{\"samplers\":[{\"input\":4,\"output\":5}],"
            "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,"
            "\"path\":\"translation\"}}]}],\"scenes\":[{\"nodes\":[0,1]}]");
}

static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                   0, 0, 1, 0, 0, 0, 0, 1};

static vs_result load_text(const char *text, const vs_load_options *options,
                           vs_error *err)
{
    vs_asset *asset = NULL;
    vs_result r =
        vs_asset_load_memory(text, strlen(text), "t.gltf", options, &asset, err);
    CHECK((r == VS_OK) == (asset != NULL));
    vs_asset_free(asset);
    return r;
}

static void test_valid_triangle_loads(void)
{
    char *json = skinned_triangle(identity);
    vs_error err;
    CHECK_MSG(load_text(json, NULL, &err) == VS_OK, "%s", err.message);
    /* A tiny scale (mm in km) is still invertible: the test is relative. */
    float tiny[16];
    memcpy(tiny, identity, sizeof tiny);
    tiny[0] = tiny[5] = tiny[10] = 1e-6f;
    free(json);
    json = skinned_triangle(tiny);
    CHECK_MSG(load_text(json, NULL, &err) == VS_OK, "%s", err.message);
    free(json);
}

static void test_singular_ibm_is_refused(void)
{
    float flat[16];
    memcpy(flat, identity, sizeof flat);
    flat[10] = 0.0f; /* squashes z */
    char *json = skinned_triangle(flat);
    vs_error err;
    CHECK(load_text(json, NULL, &err) == VS_ERROR_INVALID);
    CHECK_MSG(fx_message_is(err.message, "t.gltf",
                            "skins[0].inverseBindMatrices[1]: the matrix is "
                            "singular"),
              "%s", err.message);
    free(json);
    /* Two equal columns: also singular, though no entry is zero. */
    float same[16];
    memcpy(same, identity, sizeof same);
    same[4] = 1.0f;
    same[5] = 0.0f; /* column 1 = column 0 */
    json = skinned_triangle(same);
    CHECK(load_text(json, NULL, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "inverseBindMatrices[1]") != NULL);
    free(json);
}

static void test_accessor_and_keyframe_limits(void)
{
    char *json = skinned_triangle(identity);
    vs_load_options options;
    memset(&options, 0, sizeof options);
    vs_error err;
    options.limits.max_accessor_elements = 2; /* POSITION has 3 */
    CHECK(load_text(json, &options, &err) == VS_ERROR_LIMIT);
    CHECK_MSG(fx_message_is(err.message, "t.gltf",
                            "accessors[0].count: 3 elements exceed the limit "
                            "of 2"),
              "%s", err.message);
    options.limits.max_accessor_elements = 3;
    CHECK_MSG(load_text(json, &options, &err) == VS_OK, "%s", err.message);
    options.limits.max_keyframes = 1; /* the clip has 2 keys */
    CHECK(load_text(json, &options, &err) == VS_ERROR_LIMIT);
    CHECK_MSG(fx_message_is(err.message, "t.gltf",
                            "animations[0].samplers[0].input: 2 keyframes "
                            "exceed the limit of 1"),
              "%s", err.message);
    free(json);
}

/* COLLADA goes through the same checks: a NaN weight and a NaN IBM. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

static vs_result load_edited_dae(const char *from, const char *to,
                                 vs_error *err)
{
    char *text = read_text(VS_TEST_DATA "/collada/bind_shape_non_identity.dae");
    CHECK(text != NULL);
    if (!text) return VS_ERROR_IO;
    char *at = strstr(text, from);
    CHECK(at != NULL && strlen(from) == strlen(to));
    if (at) memcpy(at, to, strlen(to));
    vs_asset *asset = NULL;
    vs_result r = vs_asset_load_memory(text, strlen(text), "t.dae", NULL,
                                       &asset, err);
    vs_asset_free(asset);
    free(text);
    return r;
}

static void test_collada_non_finite_skin_data(void)
{
    vs_error err;
    CHECK(load_edited_dae("count=\"64\">1 0 0 100", "count=\"64\">1 0 0 100",
                          &err) == VS_OK);
    /* A matrix row of zeros makes the first IBM singular. */
    CHECK(load_edited_dae("count=\"64\">1 0 0 100", "count=\"64\">0 0 0 100",
                          &err) == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "inverseBindMatrices[0]: the matrix is "
                                  "singular") != NULL,
              "%s", err.message);
    vs_result r = load_edited_dae("count=\"1\">1<", "count=\"1\">n<", &err);
    CHECK(r == VS_ERROR_INVALID || r == VS_ERROR_PARSE);
    r = load_edited_dae("count=\"64\">1 0 0 100", "count=\"64\">inf 0 0 9",
                        &err);
    CHECK_MSG(r == VS_ERROR_INVALID || r == VS_ERROR_PARSE, "%d %s", r,
              err.message);
}

/* XML nesting: 40 nested <extra> elements against max_depth 20 and 100. */
static void test_xml_depth_limit(void)
{
    char xml[4096] = "<COLLADA xmlns=\"http://www.collada.org/2005/11/"
                     "COLLADASchema\" version=\"1.4.1\"><asset/>";
    for (int i = 0; i < 40; ++i) strcat(xml, "<extra>");
    for (int i = 0; i < 40; ++i) strcat(xml, "</extra>");
    strcat(xml, "</COLLADA>");
    vs_load_options options;
    memset(&options, 0, sizeof options);
    options.limits.max_depth = 20;
    vs_asset *asset = NULL;
    vs_error err;
    CHECK(vs_asset_load_memory(xml, strlen(xml), "deep.dae", &options, &asset,
                               &err) == VS_ERROR_LIMIT);
    CHECK_MSG(strstr(err.message, "deep.dae: line 1: <extra>: XML nesting "
                                  "deeper than the limit of 20") != NULL,
              "%s", err.message);
    options.limits.max_depth = 100;
    vs_result r = vs_asset_load_memory(xml, strlen(xml), "deep.dae", &options,
                                       &asset, &err);
    CHECK_MSG(r != VS_ERROR_LIMIT, "%s", err.message);
    vs_asset_free(asset);
}

/* A .gltf in VS_TEST_TMP/uri/ whose buffer is one folder up. */
static void test_external_paths_policy(void)
{
    mkdir(VS_TEST_TMP "/uri", 0755); /* may exist already */
    FILE *f = fopen(VS_TEST_TMP "/outside.bin", "wb");
    CHECK(f != NULL);
    if (!f) return;
    const float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    fwrite(pos, sizeof pos, 1, f);
    fclose(f);
    const char *fmt =
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":36,"
        "\"uri\":\"%s\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
        "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
        "\"nodes\":[{\"mesh\":0}]}";
    vs_load_options options;
    memset(&options, 0, sizeof options);
    options.base_dir = VS_TEST_TMP "/uri";
    vs_error err;
    char *up = fx_format(fmt, "../outside.bin");
    char *abs = fx_format(fmt, VS_TEST_TMP "/outside.bin");
    char *web = fx_format(fmt, "https://example.com/outside.bin");
    char *file = fx_format(fmt, "file:///etc/passwd");
    CHECK(load_text(up, &options, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "leaves the asset's folder") != NULL);
    CHECK(load_text(abs, &options, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "absolute paths are not allowed") != NULL);
    options.allow_external_paths = true;
    CHECK_MSG(load_text(up, &options, &err) == VS_OK, "%s", err.message);
    CHECK_MSG(load_text(abs, &options, &err) == VS_OK, "%s", err.message);
    /* Other schemes are never read, allowed or not. */
    CHECK(load_text(web, &options, &err) == VS_ERROR_UNSUPPORTED);
    CHECK(strstr(err.message, "URI scheme is not supported") != NULL);
    CHECK(load_text(file, &options, &err) == VS_ERROR_UNSUPPORTED);
    free(up);
    free(abs);
    free(web);
    free(file);
}

int main(void)
{
    RUN(test_valid_triangle_loads);
    RUN(test_singular_ibm_is_refused);
    RUN(test_accessor_and_keyframe_limits);
    RUN(test_collada_non_finite_skin_data);
    RUN(test_external_paths_policy);
    RUN(test_xml_depth_limit);
    return test_summary();
}
