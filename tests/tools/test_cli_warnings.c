/* SPDX-License-Identifier: MIT */
/* What the commands do with a load's warnings: printed on stderr as
 * "vskin CMD: warning: FILE: OBJECT: MESSAGE" with exit status 0, hidden by
 * --quiet, listed by info --json and validate --json, and turned into a
 * refusal (exit 1) by --strict. */
#include <cjson/cJSON.h>
#include <stdbool.h>

#include "cli_run.h"
#include "test.h"

#define FLAWED VS_TEST_TMP "/warned_simple_skin.gltf"

/* SimpleSkin with a rest rotation twice unit length on node 2 (its clip
 * animates that rotation, so the posed clip is unchanged). */
static bool write_flawed(void)
{
    char *text = test_read_text(VS_TEST_DATA "/../../data/SimpleSkin.gltf");
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    free(text);
    cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    cJSON *node = cJSON_GetArrayItem(nodes, 2);
    if (!node) {
        cJSON_Delete(root);
        return false;
    }
    const double rotation[4] = {0, 0, 0, 2};
    cJSON_DeleteItemFromObjectCaseSensitive(node, "rotation");
    cJSON_AddItemToObject(node, "rotation",
                          cJSON_CreateDoubleArray(rotation, 4));
    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    FILE *f = fopen(FLAWED, "wb");
    bool ok = out && f && fputs(out, f) >= 0;
    if (f) ok = fclose(f) == 0 && ok;
    cJSON_free(out);
    return ok;
}

static void warnings_on_stderr(void)
{
    cli_result r = cli_run("info '" FLAWED "'");
    CHECK(r.status == 0);
    CHECK_MSG(strstr(r.err, "vskin info: warning: " FLAWED
                            ": nodes[2].rotation: quaternion is not unit "
                            "length (2): normalised\n") != NULL,
              "%s", r.err);
    CHECK(strstr(r.out, "format: glTF 2.0") != NULL);
    cli_result_free(&r);
}

static void quiet_hides_them(void)
{
    cli_result r = cli_run("info --quiet '" FLAWED "'");
    CHECK(r.status == 0);
    CHECK_MSG(r.err[0] == '\0', "%s", r.err);
    cli_result_free(&r);
    char obj[512];
    tmp_path(obj, sizeof obj, "warned_pose.obj");
    remove(obj);
    char args[1024];
    snprintf(args, sizeof args, "pose --quiet '%s' -o '%s'", FLAWED, obj);
    r = cli_run(args);
    CHECK_MSG(r.status == 0 && r.err[0] == '\0', "%d %s", r.status, r.err);
    CHECK(test_path_exists(obj));
    remove(obj);
    cli_result_free(&r);
}

static void strict_refuses(void)
{
    cli_result r = cli_run("pose --strict '" FLAWED "'");
    CHECK(r.status == 1);
    CHECK_MSG(strstr(r.err, "vskin pose: " FLAWED ": nodes[2].rotation: "
                            "quaternion is not unit length (2) (refused by "
                            "a strict load") != NULL,
              "%s", r.err);
    CHECK(r.out[0] == '\0');
    cli_result_free(&r);
    /* A clean file passes --strict. */
    r = cli_run("info --strict");
    CHECK_MSG(r.status == 0 && r.err[0] == '\0', "%d %s", r.status, r.err);
    cli_result_free(&r);
}

static void json_lists_them(void)
{
    cli_result r = cli_run("info --json --quiet '" FLAWED "'");
    CHECK(r.status == 0);
    cJSON *root = cJSON_Parse(r.out);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "warnings");
    CHECK(cJSON_IsArray(list) && cJSON_GetArraySize(list) == 1);
    const cJSON *w = cJSON_GetArrayItem(list, 0);
    const cJSON *object = cJSON_GetObjectItemCaseSensitive(w, "object");
    const cJSON *message = cJSON_GetObjectItemCaseSensitive(w, "message");
    CHECK(cJSON_IsString(object) &&
          strcmp(object->valuestring, "nodes[2].rotation") == 0);
    CHECK(cJSON_IsString(message) &&
          strstr(message->valuestring, "normalised") != NULL);
    cJSON_Delete(root);
    cli_result_free(&r);

    r = cli_run("validate --json '" FLAWED "'");
    CHECK(strstr(r.out, "\"LOAD_REPAIRED\"") != NULL);
    CHECK(strstr(r.out, "\"/nodes/2/rotation\"") != NULL);
    CHECK(strstr(r.out, "\"ROTATION_NON_UNIT\"") != NULL);
    cli_result_free(&r);
    /* A clean file's list is there, and empty. */
    r = cli_run("info --json");
    root = cJSON_Parse(r.out);
    list = cJSON_GetObjectItemCaseSensitive(root, "warnings");
    CHECK(cJSON_IsArray(list) && cJSON_GetArraySize(list) == 0);
    cJSON_Delete(root);
    cli_result_free(&r);
}

int main(void)
{
    if (!write_flawed()) {
        fprintf(stderr, "cannot write %s\n", FLAWED);
        return 1;
    }
    RUN(warnings_on_stderr);
    RUN(quiet_hides_them);
    RUN(strict_refuses);
    RUN(json_lists_them);
    remove(FLAWED);
    return test_summary();
}
