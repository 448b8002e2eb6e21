/* SPDX-License-Identifier: MIT */
/* vs_asset_reweight / vs_max_position_error / `vskin reweight` on
 * tests/data/validate/reweight_source.gltf: six animated joints, vertex 0
 * with six influences (0.4 0.3 0.1 0.1 0.06 0.04 on joints 0..5), vertex 1
 * with one, vertex 2 with a tie (0.5 on joints 2 and 3), vertex 3 with two
 * (0.7 on joint 5, 0.3 on joint 4). */
#include <sys/wait.h>

#include "write/gltf2/gltf2_writer.h"
#include "test.h"
#include "tools/cli_run.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

#define SOURCE VS_TEST_DATA "/validate/reweight_source.gltf"
#define REPO_ROOT VS_TEST_DATA "/../.."

static vs_asset *load(const char *path)
{
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_file(path, NULL, &a, &err) == VS_OK, "%s",
              err.message);
    return a;
}

static vs_asset *reweight(const vs_asset *src, uint32_t n, bool normalize,
                          vs_reweight_stats *st)
{
    vs_asset *out = NULL;
    vs_error err;
    vs_reweight_options o = {n, normalize};
    CHECK_MSG(vs_asset_reweight(src, &o, &out, st, &err) == VS_OK, "%s",
              err.message);
    return out;
}

static void keeps_the_largest_weights_renormalized(void)
{
    vs_asset *src = load(SOURCE);
    if (!src) return;
    CHECK(src->meshes[0].primitives[0].influence_count == 8);
    vs_reweight_stats st;
    vs_asset *rw = reweight(src, 4, true, &st);
    if (rw) {
        const vs_primitive *p = &rw->meshes[0].primitives[0];
        CHECK(p->influence_count == 4);
        /* Vertex 0: joints 0..3, weights / 0.9, largest first. */
        const float w0[4] = {0.4f / 0.9f, 0.3f / 0.9f, 0.1f / 0.9f,
                             0.1f / 0.9f};
        for (int k = 0; k < 4; ++k) {
            CHECK(p->joints[k] == k);
            CHECK_NEAR(p->weights[k], w0[k], 1e-6);
        }
        CHECK(p->joints[12] == 5 && p->joints[13] == 4);
        CHECK_NEAR(p->weights[12], 0.7, 1e-6);
        CHECK(st.vertices_changed == 1);
        CHECK(st.influences_dropped == 2);
        CHECK_NEAR(st.max_dropped_weight, 0.06, 1e-6);
        /* The source is untouched. */
        CHECK(src->meshes[0].primitives[0].influence_count == 8);
        CHECK_NEAR(src->meshes[0].primitives[0].weights[4], 0.06, 1e-6);
    }
    vs_asset_free(rw);

    rw = reweight(src, 1, false, &st);
    if (rw) {
        const vs_primitive *p = &rw->meshes[0].primitives[0];
        CHECK(p->influence_count == 4);
        CHECK(p->joints[0] == 0);
        CHECK_NEAR(p->weights[0], 0.4, 1e-6); /* not normalized */
        CHECK_NEAR(p->weights[1], 0, 0);
        CHECK(p->joints[8] == 2); /* a tie keeps the earlier influence */
        CHECK_NEAR(p->weights[8], 0.5, 1e-6);
        CHECK(st.vertices_changed == 3);
        CHECK(st.influences_dropped == 5 + 1 + 1);
    }
    vs_asset_free(rw);
    vs_asset_free(src);
}

static void position_error_grows_with_dropped_weight(void)
{
    vs_asset *src = load(SOURCE);
    if (!src) return;
    vs_asset *all = reweight(src, 8, true, NULL);
    vs_asset *four = reweight(src, 4, true, NULL);
    vs_asset *one = reweight(src, 1, true, NULL);
    float e8 = -1, e4 = -1, e1 = -1, t = -1;
    int32_t clip = -2;
    vs_error err;
    CHECK(vs_max_position_error(src, all, 0, &e8, NULL, NULL, &err) == VS_OK);
    CHECK(vs_max_position_error(src, four, 30, &e4, &clip, &t, &err) == VS_OK);
    CHECK(vs_max_position_error(src, one, 30, &e1, NULL, NULL, &err) == VS_OK);
    CHECK_NEAR(e8, 0, 1e-6);
    /* IBMs are the inverse rest worlds, so the rest pose has no error; the
     * bend grows to t = 1. */
    CHECK(e4 > 1e-3f);
    CHECK(clip == 0);
    CHECK_NEAR(t, 1, 1e-6);
    CHECK(e1 > e4);
    /* Mismatched assets are refused. */
    vs_asset *other = load(VS_TEST_DATA "/validate/clean.gltf");
    CHECK(vs_max_position_error(src, other, 30, &e1, NULL, NULL, &err) ==
          VS_ERROR_ARGUMENT);
    vs_asset_free(other);
    vs_asset_free(all);
    vs_asset_free(four);
    vs_asset_free(one);
    vs_asset_free(src);
}

static void bad_options_are_refused(void)
{
    vs_asset *src = load(SOURCE), *out = NULL;
    vs_error err;
    vs_reweight_options o = {0, true};
    CHECK(vs_asset_reweight(src, &o, &out, NULL, &err) == VS_ERROR_ARGUMENT);
    CHECK(out == NULL);
    CHECK(vs_asset_reweight(NULL, &o, &out, NULL, &err) == VS_ERROR_ARGUMENT);
    vs_asset_free(src);
}

/* Khronos' glTF-Validator on path when the npm package is installed:
 * returns its exit status (77 when absent). */
static int khronos_validate(const char *path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "node '%s/tests/validator/validate.mjs' '%s' >/dev/null 2>&1",
             REPO_ROOT, path);
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void cli_writes_valid_gltf_and_reports_the_error(void)
{
    char out[512], bin[512], cmd[1400];
    tmp_path(out, sizeof out, "reweight_out.gltf");
    tmp_path(bin, sizeof bin, "reweight_out.bin");
    remove(out);
    remove(bin);
    snprintf(cmd, sizeof cmd,
             "reweight '%s' --max-influences 4 --normalize -o '%s'", SOURCE,
             out);
    cli_result c = cli_run(cmd);
    CHECK_MSG(c.status == 0, "%s", c.err);
    const char *at = strstr(c.out, "max position error: ");
    float reported = at ? strtof(at + 20, NULL) : -1;
    cli_result_free(&c);

    vs_asset *src = load(SOURCE), *written = load(out);
    if (src && written) {
        CHECK(written->meshes[0].primitives[0].influence_count == 4);
        float e = -1;
        vs_error err;
        CHECK(vs_max_position_error(src, written, 30, &e, NULL, NULL, &err) ==
              VS_OK);
        CHECK_NEAR(reported, e, 1e-5 + 1e-4 * e);
        CHECK(reported > 1e-3f);
    }
    vs_asset_free(src);
    vs_asset_free(written);

    vs_validation_report *r = NULL;
    vs_error err;
    CHECK(vs_validate_file(out, NULL, &r, &err) == VS_OK);
    CHECK(r && r->counts[VS_SEVERITY_ERROR] == 0 &&
          r->counts[VS_SEVERITY_WARNING] == 0);
    vs_validation_report_free(r);
    int k = khronos_validate(out);
    if (k == 77)
        printf("glTF-Validator not installed: its check skipped\n");
    else
        CHECK_MSG(k == 0, "glTF-Validator rejected %s", out);

    /* No overwrite without --force; with it, fine. */
    c = cli_run(cmd);
    CHECK(c.status == 1 && strstr(c.err, "--force"));
    cli_result_free(&c);
    snprintf(cmd, sizeof cmd,
             "reweight '%s' --max-influences 2 --normalize --force -o '%s'",
             SOURCE, out);
    c = cli_run(cmd);
    CHECK(c.status == 0);
    cli_result_free(&c);

    /* Usage errors. */
    c = cli_run("reweight '" SOURCE "' -o x.gltf");
    CHECK(c.status == 2);
    cli_result_free(&c);
    c = cli_run("reweight '" SOURCE "' --max-influences 0 -o x.gltf");
    CHECK(c.status == 2);
    cli_result_free(&c);
    c = cli_run("reweight '" SOURCE "' --max-influences 4 -o x.obj");
    CHECK(c.status == 2);
    cli_result_free(&c);
    remove(out);
    remove(bin);
}

/* The copy's images are read from the source's folder (broken.png is 23
 * bytes: read, not decoded). */
static void images_stay_readable(void)
{
    vs_asset *src =
        load(VS_TEST_DATA "/render/textured_quad/broken_image.gltf");
    vs_asset *out = src ? reweight(src, 4, true, NULL) : NULL;
    if (!out) {
        vs_asset_free(src);
        return;
    }
    const uint8_t *data = NULL;
    size_t size = 0;
    vs_error e = {0};
    CHECK_MSG(out->image_count == 1 &&
                  vs_asset_image_bytes(out, 0, NULL, &data, &size, &e) ==
                      VS_OK &&
                  size == 23,
              "%s", e.message);
    vs_asset_image_bytes_free(out, 0, data, size);
    vs_asset_free(out);
    vs_asset_free(src);
}

int main(void)
{
    RUN(keeps_the_largest_weights_renormalized);
    RUN(position_error_grows_with_dropped_weight);
    RUN(bad_options_are_refused);
    RUN(cli_writes_valid_gltf_and_reports_the_error);
    RUN(images_stay_readable);
    return test_failures ? 1 : 0;
}
