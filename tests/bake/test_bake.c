/* SPDX-License-Identifier: MIT */
/* Bakes: a static bake written as .glb and loaded back poses (trivially) to
 * the source's posed positions and keeps the surface (textures, their
 * images and coordinate sets, vertex colours); a morph-target clip bake
 * sampled at every
 * frame time gives that frame's posed positions; VAT rows are the posed
 * positions bit for bit; bad arguments are refused. */
#include <stdint.h>

#include "bake/bake.h"
#include "test.h"
#include "write/gltf2/gltf2_textured.h"
#include "vskin/vskin.h"
#include "write/gltf2/gltf2_writer.h"
#include "write/posed_scene.h"

static const char *const sources[] = {
    VS_TEST_DATA "/gltf2/SimpleSkin.gltf",
    VS_TEST_DATA "/gltf2/CesiumMan.gltf",
    VS_TEST_DATA "/gltf2/RiggedSimple.gltf",
    VS_TEST_DATA "/gltf1/SimpleSkin.gltf",
    VS_TEST_DATA "/collada/bind_shape_non_identity.dae",
    VS_TEST_DATA "/render/morph_skinned.gltf",
};
#define SOURCE_COUNT (sizeof sources / sizeof sources[0])

static vs_asset *load(const char *path)
{
    vs_asset *a = NULL;
    vs_error e = {0};
    CHECK_MSG(vs_asset_load_file(path, NULL, &a, &e) == VS_OK, "%s: %s", path,
              e.message);
    return a;
}

static bool near(float a, float b)
{
    return fabsf(a - b) <= 1e-5f * (1.0f + fabsf(b));
}

/* Compares every posed primitive of `baked` (posed by `pose`) with
 * `expected` (pose_all_primitives order); returns the largest difference. */
static double compare(const vs_pose *pose, const vs_posed_primitive *expected,
                      uint32_t count, const char *label)
{
    vs_posed_primitive *got = NULL;
    uint32_t n = 0;
    vs_error e = {0};
    CHECK_MSG(pose_all_primitives(pose, NULL, &got, &n, &e) == VS_OK, "%s: %s",
              label, e.message);
    CHECK_MSG(n == count, "%s: %u primitives, expected %u", label, n, count);
    double worst = 0.0;
    int reported = 0;
    for (uint32_t k = 0; got && k < n && k < count; ++k) {
        CHECK(got[k].vertex_count == expected[k].vertex_count);
        if (got[k].vertex_count != expected[k].vertex_count) continue;
        for (size_t v = 0; v < (size_t)got[k].vertex_count * 3; ++v) {
            float a = got[k].positions[v], b = expected[k].positions[v];
            worst = fmax(worst, fabs((double)a - b));
            if (!near(a, b) && reported++ < 3)
                CHECK_MSG(near(a, b),
                          "%s: primitive %u float %zu: %.9g vs %.9g", label, k,
                          v, a, b);
        }
    }
    CHECK_MSG(reported == 0, "%s: %d positions differ", label, reported);
    posed_primitives_free(NULL, got, n);
    return worst;
}

static void test_static_bake_poses_to_the_same_positions(void)
{
    for (size_t s = 0; s < SOURCE_COUNT; ++s) {
        vs_asset *src = load(sources[s]);
        if (!src) continue;
        vs_pose *pose = NULL;
        CHECK(vs_pose_create(src, &pose, NULL) == VS_OK);
        const float fractions[] = {0.0f, 0.3f, 0.77f, 1.0f};
        for (size_t t = 0; pose && t < 4; ++t) {
            vs_pose_reset(pose);
            float time = 0.0f;
            if (src->clip_count) {
                time = src->clips[0].start +
                       (src->clips[0].end - src->clips[0].start) * fractions[t];
                CHECK(vs_pose_sample(pose, 0, time, VS_TIME_CLAMP, NULL) ==
                      VS_OK);
            }
            vs_pose_update_world(pose);
            vs_posed_primitive *expected = NULL;
            uint32_t count = 0;
            vs_error e = {0};
            CHECK(pose_all_primitives(pose, NULL, &expected, &count, &e) ==
                  VS_OK);
            vs_asset *baked = NULL;
            CHECK_MSG(bake_pose(pose, NULL, &baked, &e) == VS_OK, "%s",
                      e.message);
            CHECK(baked && baked->skin_count == 0 && baked->clip_count == 0);
            CHECK(baked && baked->material_count == src->material_count);
            /* The materials keep their textures (CesiumMan's has one). */
            CHECK(baked && baked->image_count == src->image_count);
            for (uint32_t m = 0; baked && m < baked->material_count; ++m)
                CHECK(baked->materials[m].base_color_texture.image ==
                      src->materials[m].base_color_texture.image);
            char path[512];
            snprintf(path, sizeof path, "%s/bake_static_%zu_%zu.glb",
                     VS_TEST_TMP, s, t);
            /* keep_axes: the COLLADA source's posed positions stay as
             * they are, so they compare one to one. */
            gltf2_write_options opts = {.keep_axes = true};
            CHECK_MSG(baked && gltf2_write_file(baked, path, &opts, NULL, &e) ==
                                   VS_OK,
                      "%s: %s", path, e.message);
            vs_asset *back = load(path);
            vs_pose *back_pose = NULL;
            if (back && vs_pose_create(back, &back_pose, NULL) == VS_OK) {
                CHECK(back->skin_count == 0 && back->clip_count == 0);
                vs_pose_update_world(back_pose);
                char label[600];
                snprintf(label, sizeof label, "%s t=%g", sources[s], time);
                double worst = compare(back_pose, expected, count, label);
                printf("  static %-60s t=%-8g max |diff| %.3g\n", sources[s],
                       time, worst);
            }
            vs_pose_free(back_pose);
            vs_asset_free(back);
            vs_asset_free(baked);
            posed_primitives_free(NULL, expected, count);
        }
        vs_pose_free(pose);
        vs_asset_free(src);
    }
}

/* The textured quad (a file image read through the source's folder, a
 * bufferView image, a texture reading set 1, COLOR_0) baked, and the bake
 * written as .glb and read back: the same images, bytes for bytes, the
 * same texture references and surface. */
static void test_static_bake_keeps_textures(void)
{
    vs_asset *src = textured_load(textured_doc, "textured.gltf");
    vs_pose *pose = NULL;
    CHECK(src && vs_pose_create(src, &pose, NULL) == VS_OK);
    vs_asset *baked = NULL;
    vs_error e = {0};
    CHECK_MSG(pose && bake_pose(pose, NULL, &baked, &e) == VS_OK, "%s",
              e.message);
    vs_pose_free(pose);
    if (!baked) {
        vs_asset_free(src);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/bake_textured.glb", VS_TEST_TMP);
    gltf2_write_report rep = {0};
    CHECK_MSG(gltf2_write_file(baked, path, NULL, &rep, &e) == VS_OK, "%s",
              e.message);
    CHECK(rep.dropped_images == 0);
    vs_asset *back = load(path);
    const vs_asset *got[] = {baked, back};
    const char *labels[] = {"baked", "written"};
    for (int k = 0; k < 2 && got[k]; ++k) {
        printf("  %s\n", labels[k]);
        CHECK_MSG(got[k]->image_count == src->image_count, "%s: %u images",
                  labels[k], got[k]->image_count);
        CHECK(got[k]->material_count == src->material_count);
        for (uint32_t m = 0; m < got[k]->material_count &&
                             m < src->material_count;
             ++m)
            same_material(src, got[k], m);
        CHECK(got[k]->mesh_count == 1);
        if (got[k]->mesh_count == 1) same_primitives(src, got[k]);
    }
    vs_asset_free(back);
    vs_asset_free(baked);
    vs_asset_free(src);
}

static void check_morph_bake(const char *source, vs_interpolation interp)
{
    vs_asset *src = load(source);
    if (!src || src->clip_count == 0) {
        vs_asset_free(src);
        return;
    }
    bake_clip_options o = {.fps = 10.0f, .interpolation = interp};
    vs_asset *baked = NULL;
    vs_error e = {0};
    CHECK_MSG(bake_clip_morph(src, 0, &o, &baked, &e) == VS_OK, "%s",
              e.message);
    float *times = NULL;
    uint32_t frames = 0;
    CHECK(bake_frame_times(src, 0, o.fps, &times, &frames, &e) == VS_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/bake_morph_%d.glb", VS_TEST_TMP,
             (int)interp);
    gltf2_write_options wo = {.keep_axes = true};
    CHECK_MSG(baked && gltf2_write_file(baked, path, &wo, NULL, &e) == VS_OK,
              "%s: %s", path, e.message);
    vs_asset *back = load(path);
    vs_pose *sp = NULL, *bp = NULL;
    CHECK(vs_pose_create(src, &sp, NULL) == VS_OK);
    CHECK(back && vs_pose_create(back, &bp, NULL) == VS_OK);
    CHECK(back && back->clip_count == (frames > 1 ? 1u : 0u) &&
          back->skin_count == 0);
    double worst = 0.0;
    for (uint32_t f = 0; sp && bp && f < frames; ++f) {
        vs_pose_reset(sp);
        CHECK(vs_pose_sample(sp, 0, times[f], VS_TIME_CLAMP, NULL) == VS_OK);
        vs_pose_update_world(sp);
        vs_posed_primitive *expected = NULL;
        uint32_t count = 0;
        CHECK(pose_all_primitives(sp, NULL, &expected, &count, &e) == VS_OK);
        vs_pose_reset(bp);
        CHECK(vs_pose_sample(bp, 0, times[f] - times[0], VS_TIME_CLAMP, NULL) ==
              VS_OK);
        vs_pose_update_world(bp);
        char label[600];
        snprintf(label, sizeof label, "%s morph frame %u", source, f);
        worst = fmax(worst, compare(bp, expected, count, label));
        posed_primitives_free(NULL, expected, count);
    }
    printf("  morph  %-60s %u frames, max |diff| %.3g\n", source, frames,
           worst);
    CHECK(frames >= 2);
    vs_pose_free(sp);
    vs_pose_free(bp);
    vs_asset_free(back);
    vs_asset_free(baked);
    vs_asset_free(src);
    free(times);
}

static void test_morph_bake_replays_the_clip(void)
{
    check_morph_bake(VS_TEST_DATA "/gltf2/SimpleSkin.gltf", VS_INTERP_LINEAR);
    check_morph_bake(VS_TEST_DATA "/gltf2/CesiumMan.gltf", VS_INTERP_STEP);
    check_morph_bake(VS_TEST_DATA "/render/morph_skinned.gltf",
                     VS_INTERP_LINEAR);
}

static void test_vat_rows_are_posed_positions(void)
{
    vs_asset *src = load(VS_TEST_DATA "/gltf2/CesiumMan.gltf");
    if (!src) return;
    bake_clip_options o = {.fps = 15.0f};
    const char *base = VS_TEST_TMP "/bake_vat_cesium";
    vs_error e = {0};
    CHECK_MSG(bake_vat_write(src, 0, &o, base, &e) == VS_OK, "%s", e.message);
    float *times = NULL;
    uint32_t frames = 0;
    CHECK(bake_frame_times(src, 0, o.fps, &times, &frames, &e) == VS_OK);
    FILE *f = fopen(VS_TEST_TMP "/bake_vat_cesium.bin", "rb");
    FILE *fn = fopen(VS_TEST_TMP "/bake_vat_cesium.normals.bin", "rb");
    CHECK(f != NULL && fn != NULL);
    CHECK(test_path_exists(VS_TEST_TMP "/bake_vat_cesium.json"));
    CHECK(test_path_exists(VS_TEST_TMP "/bake_vat_cesium.glb"));
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(src, &pose, NULL) == VS_OK);
    size_t mismatches = 0, floats = 0;
    for (uint32_t fr = 0; f && fn && pose && fr < frames; ++fr) {
        vs_pose_reset(pose);
        vs_pose_sample(pose, 0, times[fr], VS_TIME_CLAMP, NULL);
        vs_pose_update_world(pose);
        vs_posed_primitive *posed = NULL;
        uint32_t count = 0;
        CHECK(pose_all_primitives(pose, NULL, &posed, &count, &e) == VS_OK);
        for (uint32_t k = 0; k < count; ++k)
            for (size_t v = 0; v < (size_t)posed[k].vertex_count * 3; ++v) {
                float p = NAN, n = NAN; /* read below; NaN counts as a mismatch */
                CHECK(fread(&p, 4, 1, f) == 1 && fread(&n, 4, 1, fn) == 1);
                mismatches += p != posed[k].positions[v];
                mismatches += n != posed[k].normals[v];
                ++floats;
            }
        posed_primitives_free(NULL, posed, count);
    }
    char extra;
    CHECK(f && fread(&extra, 1, 1, f) == 0); /* nothing after the last row */
    CHECK_MSG(mismatches == 0, "%zu of %zu VAT floats differ", mismatches,
              floats);
    CHECK(floats == (size_t)frames * 3273 * 3);
    printf("  vat    CesiumMan: %u frames x 3273 vertices, %zu mismatches\n",
           frames, mismatches);
    if (f) fclose(f);
    if (fn) fclose(fn);
    vs_pose_free(pose);
    free(times);
    vs_asset_free(src);
}

static void test_bad_arguments_are_refused(void)
{
    vs_asset *src = load(VS_TEST_DATA "/gltf2/SimpleSkin.gltf");
    if (!src) return;
    vs_asset *out = NULL;
    vs_error e = {0};
    bake_clip_options o = {.fps = 0.0f};
    CHECK(bake_clip_morph(src, 0, &o, &out, &e) == VS_ERROR_ARGUMENT);
    CHECK(strstr(e.message, "fps") != NULL);
    o.fps = 30.0f;
    CHECK(bake_clip_morph(src, 7, &o, &out, &e) == VS_ERROR_NOT_FOUND);
    o.fps = 1e9f;
    CHECK(bake_clip_morph(src, 0, &o, &out, &e) == VS_ERROR_LIMIT);
    o.fps = 30.0f;
    o.interpolation = VS_INTERP_CUBICSPLINE;
    CHECK(bake_clip_morph(src, 0, &o, &out, &e) == VS_ERROR_ARGUMENT);
    CHECK(out == NULL);
    o.interpolation = VS_INTERP_LINEAR;
    CHECK(bake_vat_write(src, 0, &o, "/nonexistent-dir/x", &e) == VS_ERROR_IO);
    CHECK(bake_pose(NULL, NULL, &out, &e) == VS_ERROR_ARGUMENT);
    vs_asset_free(src);
    /* An asset without meshes has nothing to bake. */
    src = load(VS_TEST_DATA "/collada_anim/clips.dae");
    if (!src) return;
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(src, &pose, NULL) == VS_OK);
    CHECK(pose && bake_pose(pose, NULL, &out, &e) == VS_ERROR_NOT_FOUND);
    CHECK(strstr(e.message, "nothing to bake") != NULL);
    CHECK(bake_clip_morph(src, 0, &o, &out, &e) == VS_ERROR_NOT_FOUND);
    CHECK(bake_vat_write(src, 0, &o, VS_TEST_TMP "/bake_none", &e) ==
          VS_ERROR_NOT_FOUND);
    CHECK(!test_path_exists(VS_TEST_TMP "/bake_none.json"));
    vs_pose_free(pose);
    vs_asset_free(src);
}

int main(void)
{
    RUN(test_static_bake_poses_to_the_same_positions);
    RUN(test_static_bake_keeps_textures);
    RUN(test_morph_bake_replays_the_clip);
    RUN(test_vat_rows_are_posed_positions);
    RUN(test_bad_arguments_are_refused);
    return test_summary();
}
