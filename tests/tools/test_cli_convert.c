/* SPDX-License-Identifier: MIT */
/* `vskin convert`: the output kinds (.gltf + .bin, --embed, .glb), the
 * overwrite policy (existing outputs only with --force, the input never),
 * usage errors (exit 2) and failures (exit 1) with messages that name the
 * file, an image it leaves out said as a warning, and that what it writes
 * loads and poses like the source. */
#include <stdint.h>

#include "tools/cli_run.h"
#include "vskin/vskin.h"

#define GLTF1_SKIN VS_TEST_DATA "/gltf1/SimpleSkin.gltf"

static void remove_outputs(const char *stem)
{
    char path[512];
    static const char *ext[] = {".gltf", ".bin", ".glb"};
    for (int i = 0; i < 3; ++i) {
        snprintf(path, sizeof path, "%s/%s%s", VS_TEST_TMP, stem, ext[i]);
        remove(path);
    }
}

static cli_result run(const char *fmt, const char *a, const char *b)
{
    char args[2048];
    snprintf(args, sizeof args, fmt, a, b);
    return cli_run(args);
}

static void test_help(void)
{
    cli_result r = cli_run("convert --help");
    CHECK(r.status == 0);
    CHECK(strstr(r.out, "usage: vskin convert") != NULL);
    CHECK(strstr(r.out, "--keep-axes") != NULL);
    CHECK(strstr(r.out, "--force") != NULL);
    cli_result_free(&r);
}

/* .gltf writes its buffer beside it, named after it. */
static void test_gltf_and_bin(void)
{
    char out[512], bin[512];
    remove_outputs("cli_conv_a");
    tmp_path(out, sizeof out, "cli_conv_a.gltf");
    tmp_path(bin, sizeof bin, "cli_conv_a.bin");
    cli_result r = run("convert '%s' -o '%s'", GLTF1_SKIN, out);
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(strstr(r.out, "wrote") != NULL);
    CHECK(test_path_exists(out) && test_path_exists(bin));
    char *text = cli_slurp(out);
    CHECK(text && strstr(text, "\"uri\":\t\"cli_conv_a.bin\"") != NULL);
    CHECK(text && strstr(text, "\"version\":\t\"2.0\"") != NULL);
    free(text);
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_file(out, NULL, &a, &err) == VS_OK, "%s",
              err.message);
    if (a) {
        CHECK(a->format == VS_FORMAT_GLTF2);
        CHECK(a->skin_count == 1 && a->clip_count == 1);
        CHECK(a->instance_count == 1);
    }
    vs_asset_free(a);
    cli_result_free(&r);
}

static void test_embed_and_glb(void)
{
    char out[512], bin[512];
    remove_outputs("cli_conv_e");
    tmp_path(out, sizeof out, "cli_conv_e.gltf");
    tmp_path(bin, sizeof bin, "cli_conv_e.bin");
    cli_result r = run("convert '%s' -o '%s' --embed", GLTF1_SKIN, out);
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(!test_path_exists(bin));
    char *text = cli_slurp(out);
    CHECK(text &&
          strstr(text, "data:application/octet-stream;base64,") != NULL);
    free(text);
    cli_result_free(&r);

    tmp_path(out, sizeof out, "cli_conv_e.glb");
    r = run("convert '%s' -o '%s'", GLTF1_SKIN, out);
    CHECK_MSG(r.status == 0, "%s", r.err);
    text = cli_slurp(out);
    CHECK(text && memcmp(text, "glTF", 4) == 0 && text[4] == 2);
    free(text);
    CHECK(!test_path_exists(bin));
    cli_result_free(&r);

    r = run("convert '%s' -o '%s' --embed", GLTF1_SKIN, out);
    CHECK(r.status == 2);
    CHECK(strstr(r.err, "--embed") != NULL);
    cli_result_free(&r);
}

/* An image the writer cannot keep (broken.png ends inside its header) is
 * a warning; the file is written, its material untextured. `vskin
 * reweight`, which writes through the same writer, warns too. */
static void test_left_out_image_warns(void)
{
    char out[512];
    remove_outputs("cli_conv_img");
    tmp_path(out, sizeof out, "cli_conv_img.glb");
    cli_result r = run("convert '%s' -o '%s'",
                       VS_TEST_DATA "/render/textured_quad/broken_image.gltf",
                       out);
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK_MSG(strstr(r.err, "warning: 1 images could not be read") != NULL,
              "%s", r.err);
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_file(out, NULL, &a, &err) == VS_OK, "%s",
              err.message);
    CHECK(a && a->image_count == 0 && a->material_count == 1 &&
          a->materials[0].base_color_texture.image == -1);
    vs_asset_free(a);
    cli_result_free(&r);

    r = run("reweight '%s' --max-influences 2 -o '%s' --force",
            VS_TEST_DATA "/render/textured_quad/broken_image.gltf", out);
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK_MSG(strstr(r.err, "reweight: warning: 1 images could not be read") !=
                  NULL,
              "%s", r.err);
    cli_result_free(&r);
}

/* Existing outputs are refused without --force and left untouched. */
static void test_overwrite_policy(void)
{
    char out[512], bin[512];
    remove_outputs("cli_conv_f");
    tmp_path(out, sizeof out, "cli_conv_f.gltf");
    tmp_path(bin, sizeof bin, "cli_conv_f.bin");
    FILE *f = fopen(out, "w");
    if (f) {
        fputs("precious", f);
        fclose(f);
    }
    cli_result r = run("convert '%s' -o '%s'", GLTF1_SKIN, out);
    CHECK(r.status == 1);
    CHECK(strstr(r.err, "cli_conv_f.gltf") != NULL);
    CHECK(strstr(r.err, "--force") != NULL);
    char *text = cli_slurp(out);
    CHECK(text && strcmp(text, "precious") == 0);
    free(text);
    CHECK(!test_path_exists(bin));
    cli_result_free(&r);

    /* Only the .bin exists: refused too. */
    remove(out);
    f = fopen(bin, "w");
    if (f) fclose(f);
    r = run("convert '%s' -o '%s'", GLTF1_SKIN, out);
    CHECK(r.status == 1);
    CHECK(strstr(r.err, "cli_conv_f.bin") != NULL);
    CHECK(!test_path_exists(out));
    cli_result_free(&r);

    r = run("convert '%s' -o '%s' --force", GLTF1_SKIN, out);
    CHECK_MSG(r.status == 0, "%s", r.err);
    text = cli_slurp(out);
    CHECK(text && strstr(text, "\"asset\"") != NULL);
    free(text);
    cli_result_free(&r);

    /* The input is never written over, --force or not. */
    r = run("convert '%s' -o '%s' --force", out, out);
    CHECK(r.status == 1);
    CHECK(strstr(r.err, "input") != NULL);
    cli_result_free(&r);
}

static void test_errors(void)
{
    cli_result r = cli_run("convert");
    CHECK(r.status == 2);
    CHECK(strstr(r.err, "-o") != NULL);
    cli_result_free(&r);

    char out[512];
    tmp_path(out, sizeof out, "cli_conv_x.obj");
    r = run("convert '%s' -o '%s'", GLTF1_SKIN, out);
    CHECK(r.status == 2);
    CHECK(strstr(r.err, "cli_conv_x.obj") != NULL);
    cli_result_free(&r);

    r = run("convert '%s' -o '%s' --bogus", GLTF1_SKIN, out);
    CHECK(r.status == 2);
    CHECK(strstr(r.err, "--bogus") != NULL);
    cli_result_free(&r);

    remove_outputs("cli_conv_m");
    tmp_path(out, sizeof out, "cli_conv_m.glb");
    r = run("convert '%s' -o '%s'", VS_TEST_TMP "/missing.gltf", out);
    CHECK(r.status == 1);
    CHECK(strstr(r.err, "missing.gltf") != NULL);
    CHECK(!test_path_exists(out));
    cli_result_free(&r);

    r = run("convert -o '%s'%s", VS_TEST_TMP "/no/such/dir/x.glb", "");
    CHECK(r.status == 1);
    CHECK(strstr(r.err, "no/such/dir/x.glb") != NULL);
    cli_result_free(&r);
}

/* No FILE: the embedded SimpleSkin, like every other command; the result
 * poses to the same vertices as `vskin pose` on the source at t = 1. */
static void test_default_asset_poses_alike(void)
{
    char out[512];
    remove_outputs("cli_conv_d");
    tmp_path(out, sizeof out, "cli_conv_d.glb");
    cli_result r = run("convert -o '%s' --keep-axes%s", out, "");
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    cli_result a = cli_run("pose --time 1");
    cli_result b = run("pose '%s' --time 1%s", out, "");
    CHECK(a.status == 0 && b.status == 0);
    /* Same summary apart from the instance name line's source. */
    const char *va = strstr(a.out, "vertices"), *vb = strstr(b.out, "vertices");
    CHECK(va && vb && strcmp(va, vb) == 0);
    cli_result_free(&a);
    cli_result_free(&b);
}

int main(void)
{
    RUN(test_help);
    RUN(test_gltf_and_bin);
    RUN(test_embed_and_glb);
    RUN(test_left_out_image_warns);
    RUN(test_overwrite_policy);
    RUN(test_errors);
    RUN(test_default_asset_poses_alike);
    return test_summary();
}
