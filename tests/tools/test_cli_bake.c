/* SPDX-License-Identifier: MIT */
/* `vskin bake`: a static .glb that poses to what `vskin bake -o .obj`
 * wrote, a morph bake and a VAT bake from the command line, the overwrite
 * policy, and usage errors (exit 2) and failures (exit 1) with messages. */
#include <stdint.h>

#include "tools/cli_run.h"
#include "vskin/vskin.h"

#define CESIUM VS_TEST_DATA "/gltf2/CesiumMan.gltf"

static cli_result run(const char *fmt, const char *a, const char *b)
{
    char args[2048];
    snprintf(args, sizeof args, fmt, a, b);
    return cli_run(args);
}

static void test_help(void)
{
    cli_result r = cli_run("bake --help");
    CHECK(r.status == 0);
    CHECK(strstr(r.out, "usage: vskin bake") != NULL);
    CHECK(strstr(r.out, "--vat") != NULL);
    cli_result_free(&r);
}

/* The static glb loads without skin or animation, and its vertices are the
 * OBJ's (which `vskin bake` writes from the same pose). */
static void test_static_glb_and_obj(void)
{
    char glb[512], obj[512];
    tmp_path(glb, sizeof glb, "cli_bake_static.glb");
    tmp_path(obj, sizeof obj, "cli_bake_static.obj");
    remove(glb);
    remove(obj);
    cli_result r = run("bake '%s' --time 1.25 -o '%s'", CESIUM, glb);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    r = run("bake '%s' --time 1.25 -o '%s'", CESIUM, obj);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    vs_asset *a = NULL;
    CHECK(vs_asset_load_file(glb, NULL, &a, NULL) == VS_OK);
    char *text = cli_slurp(obj);
    CHECK(text != NULL);
    if (a && text) {
        CHECK(a->skin_count == 0 && a->clip_count == 0 &&
              a->instance_count == 1);
        const vs_primitive *p = &a->meshes[0].primitives[0];
        /* The first OBJ vertex is the first posed vertex. */
        const char *v = strstr(text, "\nv ");
        float x = 0, y = 0, z = 0;
        CHECK(v && sscanf(v, "\nv %f %f %f", &x, &y, &z) == 3);
        CHECK_NEAR(p->positions[0], x, 1e-6);
        CHECK_NEAR(p->positions[1], y, 1e-6);
        CHECK_NEAR(p->positions[2], z, 1e-6);
        CHECK(p->influence_count == 0 && p->normals && p->texcoords);
    }
    free(text);
    vs_asset_free(a);
    /* Existing output: refused without --force, written with it. */
    r = run("bake '%s' -o '%s'", CESIUM, glb);
    CHECK(r.status == 1 && strstr(r.err, "--force") != NULL);
    cli_result_free(&r);
    r = run("bake '%s' --force -o '%s'", CESIUM, glb);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
}

static void test_morph_and_vat(void)
{
    char glb[512], base[512], json[512];
    tmp_path(glb, sizeof glb, "cli_bake_morph.glb");
    tmp_path(base, sizeof base, "cli_bake_vat");
    tmp_path(json, sizeof json, "cli_bake_vat.json");
    remove(glb);
    cli_result r =
        run("bake '%s' --clip 0 --fps 5 --step -o '%s'", CESIUM, glb);
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(strstr(r.out, "11 frames") != NULL);
    cli_result_free(&r);
    vs_asset *a = NULL;
    CHECK(vs_asset_load_file(glb, NULL, &a, NULL) == VS_OK);
    if (a) {
        CHECK(a->clip_count == 1 && a->skin_count == 0);
        CHECK(a->meshes[0].primitives[0].target_count == 10);
        CHECK(a->clips[0].samplers[0].interpolation == VS_INTERP_STEP);
    }
    vs_asset_free(a);
    r = run("bake '%s' --clip 0 --fps 5 --vat '%s' --force", CESIUM, base);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    char *text = cli_slurp(json);
    CHECK(text && strstr(text, "\"frames\":\t11") != NULL);
    CHECK(text && strstr(text, "\"vertex_count\":\t3273") != NULL);
    CHECK(text && strstr(text, "\"mesh\":\t\"cli_bake_vat.glb\"") != NULL);
    free(text);
}

static void test_usage_errors(void)
{
    static const char *const bad[] = {
        "bake '%s' --vat x",                    /* --vat without --clip */
        "bake '%s' --clip 0 -o x.obj",          /* OBJ has no morphs */
        "bake '%s' -o x.txt",                   /* unknown extension */
        "bake '%s' --fps 3 -o x.glb",           /* --fps without --clip */
        "bake '%s' --clip 0 --fps -1 -o x.glb", /* bad fps */
        "bake '%s' --time 0,1 -o x.glb",        /* one time only */
        "bake '%s'",                            /* no output */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cli_result r = run(bad[i], CESIUM, "");
        CHECK_MSG(r.status == 2 && r.err[0], "'%s' gave %d", bad[i], r.status);
        cli_result_free(&r);
    }
    char out[512];
    tmp_path(out, sizeof out, "cli_bake_missing.glb");
    cli_result r = run("bake '%s' --clip walk -o '%s'", CESIUM, out);
    CHECK(r.status == 1 && strstr(r.err, "no clip 'walk'") != NULL);
    cli_result_free(&r);
    r = run("bake '%s' -o '%s'", VS_TEST_DATA "/missing.gltf", out);
    CHECK(r.status == 1 && strstr(r.err, "missing.gltf") != NULL);
    cli_result_free(&r);
}

/* info --bounds: one line per sample (2 s at 4 fps: 9), each with both
 * boxes; JSON has both per sample; bad --fps and a missing clip fail. */
static void test_info_bounds(void)
{
    cli_result r = run("info '%s' --bounds --fps 4%s", CESIUM, "");
    CHECK_MSG(r.status == 0, "%s", r.err);
    size_t lines = 0;
    for (const char *p = r.out; p && (p = strstr(p, "\nt=")); ++p)
        ++lines;
    CHECK_MSG(lines == 9, "%zu sample lines", lines);
    CHECK(strstr(r.out, "fast [") && strstr(r.out, "exact ["));
    cli_result_free(&r);
    r = run("info '%s' --bounds --json --clip 0 --fps 2%s", CESIUM, "");
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(strstr(r.out, "\"fast\"") && strstr(r.out, "\"exact\"") &&
          strstr(r.out, "\"samples\""));
    cli_result_free(&r);
    r = run("info '%s' --bounds --fps 0%s", CESIUM, "");
    CHECK(r.status == 2);
    cli_result_free(&r);
    r = run("info '%s' --bounds --clip nope%s", CESIUM, "");
    CHECK(r.status == 1 && strstr(r.err, "no clip 'nope'"));
    cli_result_free(&r);
    r = run("info '%s' --fps 3%s", CESIUM, "");
    CHECK(r.status == 2);
    cli_result_free(&r);
}

int main(void)
{
    RUN(test_info_bounds);
    RUN(test_help);
    RUN(test_static_glb_and_obj);
    RUN(test_morph_and_vat);
    RUN(test_usage_errors);
    return test_summary();
}
