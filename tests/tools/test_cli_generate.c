/* SPDX-License-Identifier: MIT */
/* `vskin generate tube`: writes a .glb that loads with the counts asked for,
 * refuses to overwrite without --force, rejects bad arguments (exit 2), and
 * (when node and the pinned gltf-validator are installed) passes the Khronos
 * glTF-Validator. */
#include <stdint.h>

#include "tools/cli_run.h"
#include "vskin/vskin.h"

#define REPO_ROOT VS_TEST_DATA "/../.."

static void test_writes_and_loads(void)
{
    char out[400], args[600];
    tmp_path(out, sizeof out, "cli_tube.glb");
    remove(out);
    snprintf(args, sizeof args,
             "generate tube --joints 12 --vertices 800 --influences 6 -o '%s'",
             out);
    cli_result r = cli_run(args);
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(strstr(r.out, "wrote") != NULL);
    cli_result_free(&r);
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_file(out, NULL, &a, &err) == VS_OK, "%s",
              err.message);
    if (a) {
        CHECK(a->skins[0].joint_count == 12);
        CHECK(a->meshes[0].primitives[0].vertex_count == 800);
        CHECK(a->meshes[0].primitives[0].influence_count == 8);
        vs_asset_free(a);
    }
    /* exists: refused without --force, replaced with it */
    r = cli_run(args);
    CHECK(r.status == 1 && strstr(r.err, "--force") != NULL);
    cli_result_free(&r);
    strcat(args, " --force");
    r = cli_run(args);
    CHECK(r.status == 0);
    cli_result_free(&r);

    if (system("command -v node >/dev/null 2>&1") != 0 ||
        !test_path_exists(REPO_ROOT
                          "/node_modules/gltf-validator/package.json")) {
        printf("validator check skipped: node or gltf-validator missing\n");
        return;
    }
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "node '%s/tests/validator/validate.mjs' '%s' >/dev/null 2>&1",
             REPO_ROOT, out);
    CHECK_MSG(system(cmd) == 0, "the validator reports errors in %s", out);
}

static void test_bad_arguments(void)
{
    static const char *bad[] = {
        "generate tube --joints 0 -o x.glb",
        "generate tube --influences 9 -o x.glb",
        "generate tube --vertices -5 -o x.glb",
        "generate tube --joints 4",
        "generate tube --joints 4 -o x.gltf",
        "generate --joints 4 -o x.glb",
        "generate tube --segments 2 -o x.glb",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cli_result r = cli_run(bad[i]);
        CHECK_MSG(r.status == 2, "%s: status %d", bad[i], r.status);
        CHECK_MSG(strstr(r.err, "vskin generate") != NULL, "%s: %s", bad[i],
                  r.err);
        cli_result_free(&r);
    }
}

int main(void)
{
    RUN(test_writes_and_loads);
    RUN(test_bad_arguments);
    return test_summary();
}
