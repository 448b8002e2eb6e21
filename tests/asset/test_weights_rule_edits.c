/* SPDX-License-Identifier: MIT */
/* Converting to glTF 2.0 and reweighting keep the pose of the vertices the
 * default weights rule leaves unskinned (weights summing to less than 0,
 * to 0, or to NaN): they keep their input position through the written file
 * and the reweighted copy, as in the source, and every other vertex keeps
 * its pose. The source is tests/data/gltf2/SimpleSkin.gltf with three
 * vertices' weights edited, a shallow copy as in gltf2_synthetic.h. */
#include "write/gltf2/gltf2_roundtrip.h"
#include "write/gltf2/gltf2_writer.h"
#include "vskin/vskin_tools.h"

#define SOURCE VS_TEST_DATA "/gltf2/SimpleSkin.gltf"

enum { NEGATIVE = 8, ZERO = 6, NOT_A_NUMBER = 9, MAX_WEIGHTS = 64 };

typedef struct edited {
    vs_asset *loaded;
    vs_asset asset;
    vs_mesh mesh;
    vs_primitive prim;
    float weights[MAX_WEIGHTS];
} edited;

static bool make_edited(edited *e)
{
    memset(e, 0, sizeof *e);
    vs_error err;
    if (vs_asset_load_file(SOURCE, NULL, &e->loaded, &err) != VS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return false;
    }
    const vs_asset *a = e->loaded;
    if (a->mesh_count != 1 || a->meshes[0].primitive_count != 1) return false;
    e->asset = *a;
    e->mesh = a->meshes[0];
    e->prim = a->meshes[0].primitives[0];
    const uint32_t k = e->prim.influence_count;
    if (e->prim.vertex_count <= NOT_A_NUMBER ||
        e->prim.vertex_count * k > MAX_WEIGHTS)
        return false;
    memcpy(e->weights, e->prim.weights,
           e->prim.vertex_count * k * sizeof(float));
    for (uint32_t i = 0; i < k; ++i)
        e->weights[ZERO * k + i] = 0.0f;
    /* A positive weight among them: keeping it, or dividing by the sum,
     * would skin the vertex. */
    e->weights[NEGATIVE * k] = -0.75f;    /* joint 0, the root */
    e->weights[NEGATIVE * k + 1] = 0.25f; /* joint 1, bent at t = 1 */
    e->weights[NOT_A_NUMBER * k + 1] = NAN;
    e->prim.weights = e->weights;
    e->mesh.primitives = &e->prim;
    e->asset.meshes = &e->mesh;
    return true;
}

/* The three edited vertices, posed at t = 1 (the strip bent), are where
 * the source's file puts them. */
static void check_kept(const char *what, const vs_asset *a,
                       const vs_primitive *src)
{
    vs_pose *pose = NULL;
    vs_error err;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    size_t n = 0;
    float *p = pose ? rt_pose_all(pose, 0, 1.0f, &n) : NULL;
    CHECK(p && n == (size_t)src->vertex_count * 3);
    static const uint32_t kept[] = {NEGATIVE, ZERO, NOT_A_NUMBER};
    for (int i = 0; p && i < 3; ++i) {
        const uint32_t v = kept[i];
        CHECK_MSG(memcmp(p + 3 * v, src->positions + 3 * v, 12) == 0,
                  "%s: vertex %u at %g %g %g, input %g %g %g", what, v,
                  p[3 * v], p[3 * v + 1], p[3 * v + 2], src->positions[3 * v],
                  src->positions[3 * v + 1], src->positions[3 * v + 2]);
    }
    free(p);
    vs_pose_free(pose);
}

static void convert_keeps_unskinned_vertices(void)
{
    edited e;
    bool made = make_edited(&e);
    CHECK_MSG(made, "%s did not load as expected", SOURCE);
    if (made) {
        check_kept("source", &e.asset, &e.prim);
        const char *path = VS_TEST_TMP "/weights_rule_convert.glb";
        gltf2_write_report rep;
        vs_error err;
        CHECK_MSG(gltf2_write_file(&e.asset, path, NULL, &rep, &err) == VS_OK,
                  "%s", err.message);
        vs_asset *out = NULL;
        CHECK_MSG(vs_asset_load_file(path, NULL, &out, &err) == VS_OK, "%s",
                  err.message);
        if (out) {
            check_kept("converted", out, &e.prim);
            float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                  0, 0, 1, 0, 0, 0, 0, 1};
            rt_result cmp = rt_compare(&e.asset, out, identity);
            CHECK_MSG(cmp.ok && cmp.worst <= 1e-6 * cmp.extent,
                      "posed positions differ by %g (extent %g)", cmp.worst,
                      cmp.extent);
            CHECK(cmp.moved > 0.1);
            /* Written as no weight at all, which glTF can say. */
            const vs_primitive *p = &out->meshes[0].primitives[0];
            for (uint32_t i = 0; i < p->influence_count; ++i)
                CHECK(p->weights[NEGATIVE * p->influence_count + i] == 0.0f);
        }
        vs_asset_free(out);
    }
    vs_asset_free(e.loaded);
}

static void reweight_keeps_unskinned_vertices(void)
{
    edited e;
    bool made = make_edited(&e);
    CHECK_MSG(made, "%s did not load as expected", SOURCE);
    for (uint32_t keep = 1; made && keep <= 4; keep += 3) {
        vs_asset *rw = NULL;
        vs_reweight_stats st;
        vs_error err;
        vs_reweight_options o = {keep, true};
        CHECK_MSG(vs_asset_reweight(&e.asset, &o, &rw, &st, &err) == VS_OK,
                  "%s", err.message);
        if (!rw) continue;
        char what[32];
        snprintf(what, sizeof what, "reweighted to %u", keep);
        check_kept(what, rw, &e.prim);
        /* Keeping every influence changes no pose. */
        if (keep == 4) {
            float d = 1;
            int32_t clip;
            float t;
            CHECK(vs_max_position_error(&e.asset, rw, 0, &d, &clip, &t, &err) ==
                  VS_OK);
            CHECK_MSG(d <= 1e-6f, "moved %g at clip %d t %g", d, clip, t);
        }
        vs_asset_free(rw);
    }
    vs_asset_free(e.loaded);
}

int main(void)
{
    RUN(convert_keeps_unskinned_vertices);
    RUN(reweight_keeps_unskinned_vertices);
    return test_summary();
}
