/* SPDX-License-Identifier: MIT */
/* What the glTF 2.0 writer changes so the file is valid glTF 2.0, on a
 * source built to need it (tests/load/gltf2/gltf2_synthetic.h): non-unit normals,
 * a repeated joint, weights not summing to 1, non-unit STEP rotation keys,
 * CUBICSPLINE morph weights and a Z-up source in 2 m units with an animated
 * root. Each change must leave the posed positions equal to the corrected
 * source's, and the file must say what glTF expects. */
#include "write/gltf2/gltf2_roundtrip.h"
#include "load/gltf2/gltf2_synthetic.h"
#include "write/gltf2/gltf2_writer.h"

static void test_cleanups_keep_the_pose(void)
{
    synthetic s;
    bool made = synthetic_make(&s);
    CHECK_MSG(made, "%s did not load as expected", SYNTHETIC_SOURCE);
    if (!made) {
        vs_asset_free(s.loaded);
        return;
    }
    const char *path = VS_TEST_TMP "/writer_edits.glb";
    gltf2_write_report rep;
    vs_error err;
    vs_result r = gltf2_write_file(&s.asset, path, NULL, &rep, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    CHECK(rep.renormalized_normals == 3);
    CHECK(rep.dropped_normals == 0);
    CHECK(rep.normalized_rotations == 2);
    CHECK(rep.unnormalized_weights == 1);
    CHECK(rep.axes_corrected);

    vs_asset *out = NULL;
    r = vs_asset_load_file(path, NULL, &out, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (out) {
        float c[16];
        gltf2_axis_correction(&s.asset, c);
        /* The correction maps Z-up 2 m units to Y-up metres. */
        float up[3] = {0, 0, 1}, y[3];
        xform_transform_point(c, up, y);
        CHECK_NEAR(y[1], 2.0, 1e-6);
        rt_result cmp = rt_compare(&s.asset, out, c);
        CHECK_MSG(cmp.ok && cmp.worst <= 1e-4 * cmp.extent,
                  "posed positions differ by %g (extent %g)", cmp.worst,
                  cmp.extent);
        CHECK(cmp.moved > 0.1);

        const vs_primitive *p = &out->meshes[0].primitives[0];
        for (uint32_t v = 0; v < p->vertex_count && p->normals; ++v) {
            const float *n = p->normals + 3 * v;
            CHECK_NEAR(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1.0, 1e-5);
        }
        /* Joint 1 twice (0.25 + 0.25): one slot of weight 1, the rest
         * unused and pointing at joint 0. */
        CHECK(p->joints[0] == 1 && p->weights[0] == 1.0f);
        CHECK(p->joints[1] == 0 && p->weights[1] == 0.0f);

        CHECK(out->clip_count == 1);
        if (out->clip_count == 1) {
            const vs_clip *cl = &out->clips[0];
            CHECK(strcmp(cl->name, "synthetic") == 0);
            CHECK(cl->channel_count == 3);
            for (uint32_t i = 0; i < cl->channel_count; ++i) {
                const vs_anim_channel *ch = &cl->channels[i];
                const vs_anim_sampler *sm = &cl->samplers[ch->sampler];
                if (ch->path == VS_PATH_WEIGHTS) {
                    CHECK(sm->interpolation == VS_INTERP_CUBICSPLINE);
                    CHECK(sm->key_count == 3 && sm->components == 1);
                    CHECK(memcmp(sm->values, synthetic_morph,
                                 sizeof synthetic_morph) == 0);
                } else if (ch->path == VS_PATH_ROTATION) {
                    CHECK(sm->interpolation == VS_INTERP_STEP);
                    CHECK_NEAR(sm->values[3], 0.9238795, 1e-6);
                } else {
                    /* A root: its keys got the correction, (x, y, z) ->
                     * 2 * (x, z, -y). */
                    CHECK(ch->node == 1);
                    CHECK_NEAR(sm->values[8], -1.0, 1e-6);
                    CHECK_NEAR(sm->values[6], 1.0, 1e-6);
                }
            }
        }
    }
    vs_asset_free(out);
    vs_asset_free(s.loaded);
}

/* A zero-length normal cannot be made unit: NORMAL is left out. */
static void test_zero_normal_drops_the_attribute(void)
{
    synthetic s;
    if (!synthetic_make(&s)) {
        CHECK_MSG(0, "%s did not load as expected", SYNTHETIC_SOURCE);
        vs_asset_free(s.loaded);
        return;
    }
    s.normals[3] = s.normals[4] = s.normals[5] = 0.0f;
    const char *path = VS_TEST_TMP "/writer_edits_zero.gltf";
    gltf2_write_report rep;
    vs_error err;
    CHECK(gltf2_write_file(&s.asset, path, NULL, &rep, &err) == VS_OK);
    CHECK(rep.dropped_normals == 1);
    vs_asset *out = NULL;
    CHECK(vs_asset_load_file(path, NULL, &out, &err) == VS_OK);
    if (out) {
        CHECK(out->meshes[0].primitives[0].normals == NULL);
        CHECK(out->meshes[0].primitives[0].target_count == 1);
        CHECK(out->meshes[0].primitives[0].targets[0].normals == NULL);
    }
    vs_asset_free(out);
    vs_asset_free(s.loaded);
}

/* A primitive without vertices has no glTF form: an error naming it. */
static void test_empty_primitive_is_refused(void)
{
    synthetic s;
    if (!synthetic_make(&s)) {
        CHECK_MSG(0, "%s did not load as expected", SYNTHETIC_SOURCE);
        vs_asset_free(s.loaded);
        return;
    }
    s.prim.vertex_count = 0;
    const char *path = VS_TEST_TMP "/writer_edits_empty.gltf";
    remove(path);
    vs_error err;
    vs_result r = gltf2_write_file(&s.asset, path, NULL, NULL, &err);
    CHECK(r == VS_ERROR_UNSUPPORTED);
    CHECK_MSG(strstr(err.message, "morph_skinned.gltf") &&
                  strstr(err.message, "meshes[0].primitives[0]"),
              "%s", err.message);
    CHECK(!test_path_exists(path));
    vs_asset_free(s.loaded);
}

int main(void)
{
    RUN(test_cleanups_keep_the_pose);
    RUN(test_zero_normal_drops_the_attribute);
    RUN(test_empty_primitive_is_refused);
    return test_summary();
}
