/* SPDX-License-Identifier: MIT */
/* `vskin bench --smoke --json`: the benchmark runs end to end at tiny sizes
 * and its JSON has every kind of row with positive numbers (no timing
 * thresholds: this only keeps the benchmark from rotting). Also the usage
 * errors, and that --plot writes a PNG. */
#include <cjson/cJSON.h>
#include <stdbool.h>

#include "tools/cli_run.h"

static int count_kind(const cJSON *rows, const char *kind)
{
    int n = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *k = cJSON_GetObjectItem(row, "kind");
        if (cJSON_IsString(k) && strcmp(k->valuestring, kind) == 0) ++n;
    }
    return n;
}

static bool positive(const cJSON *row, const char *field)
{
    const cJSON *v = cJSON_GetObjectItem(row, field);
    return cJSON_IsNumber(v) && v->valuedouble > 0 && isfinite(v->valuedouble);
}

static void test_smoke_json(void)
{
    char args[512], png[400];
    tmp_path(png, sizeof png, "bench_smoke.png");
    remove(png);
    snprintf(args, sizeof args, "bench --smoke --json --plot '%s'", png);
    cli_result r = cli_run(args);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cJSON *root = cJSON_Parse(r.out);
    CHECK_MSG(root != NULL, "not JSON: %.200s", r.out);
    const cJSON *rows = cJSON_GetObjectItem(root, "rows");
    CHECK(cJSON_IsArray(rows));
    /* 2 sizes x 4 influences x 3 attribute sets: reference + 2 thread counts */
    CHECK(count_kind(rows, "skin") == 2 * 4 * 3 * 3);
    CHECK(count_kind(rows, "copy") == 2);
    CHECK(count_kind(rows, "isa") >= 2 * 1); /* portable at least, per size */
    /* per size: 1 and 4 influences x 2 thread counts, the plain job's
     * positions-only row beside each, and one random-joint-list cell */
    CHECK(count_kind(rows, "stream") == 2 * (2 * 2 + 2 + 1));
    CHECK(count_kind(rows, "frame") == 4);     /* 2 characters x 4x4 / 3x4 */
    CHECK(count_kind(rows, "crowd") == 2 * 2); /* plain and prepared */
    const cJSON *row;
    int bad = 0, references = 0;
    cJSON_ArrayForEach(row, rows)
    {
        const char *kind = cJSON_GetObjectItem(row, "kind")->valuestring;
        bool ok = positive(row, "threads");
        if (!strcmp(kind, "copy")) {
            ok = ok && positive(row, "gbytes_per_second");
        } else if (!strcmp(kind, "frame")) {
            ok = ok && positive(row, "us_per_frame") && positive(row, "joints");
        } else if (!strcmp(kind, "crowd")) {
            ok = ok && positive(row, "characters_per_second");
        } else {
            static const char *fields[] = {
                "influences",       "vertices",          "vertices_per_second",
                "bytes_per_vertex", "gbytes_per_second", "speedup_vs_reference",
                "fraction_of_copy"};
            for (size_t f = 0; f < sizeof fields / sizeof fields[0]; ++f)
                ok = ok && positive(row, fields[f]);
            const cJSON *impl = cJSON_GetObjectItem(row, "impl");
            if (cJSON_IsString(impl) &&
                !strcmp(impl->valuestring, "reference")) {
                ++references;
                CHECK_NEAR(cJSON_GetObjectItem(row, "speedup_vs_reference")
                               ->valuedouble,
                           1.0, 1e-9);
            }
        }
        if (!ok) {
            ++bad;
            char *text = cJSON_PrintUnformatted(row);
            fprintf(stderr, "bad row: %s\n", text);
            free(text);
        }
    }
    CHECK(bad == 0);
    CHECK(references == 2 * 4 * 3);
    int plain_pos = 0, random_joints = 0;
    cJSON_ArrayForEach(row, rows)
    {
        if (strcmp(cJSON_GetObjectItem(row, "kind")->valuestring, "stream"))
            continue;
        const char *impl = cJSON_GetObjectItem(row, "impl")->valuestring;
        const char *what = cJSON_GetObjectItem(row, "what")->valuestring;
        if (!strncmp(impl, "job:", 4) && !strcmp(what, "pos")) ++plain_pos;
        if (cJSON_IsTrue(cJSON_GetObjectItem(row, "random_joints"))) {
            ++random_joints;
            CHECK(cJSON_GetObjectItem(row, "influences")->valueint == 4);
            CHECK(!strcmp(what, "pos+nrm") && !strncmp(impl, "auto:", 5));
        }
    }
    CHECK(plain_pos == 2 * 2);
    CHECK(random_joints == 2);
    /* bytes per vertex as documented: positions + normals, 4 influences */
    cJSON_ArrayForEach(row, rows)
    {
        if (strcmp(cJSON_GetObjectItem(row, "kind")->valuestring, "skin") ||
            strcmp(cJSON_GetObjectItem(row, "what")->valuestring, "pos+nrm") ||
            cJSON_GetObjectItem(row, "influences")->valueint != 4)
            continue;
        CHECK_NEAR(cJSON_GetObjectItem(row, "bytes_per_vertex")->valuedouble,
                   24 + 24 + 4 * 6, 1e-9);
    }
    cJSON_Delete(root);
    cli_result_free(&r);
    CHECK(test_path_exists(png));
}

static void test_usage_errors(void)
{
    static const char *bad[] = {"bench --sizes 0",      "bench --threads x",
                                "bench --influences 9", "bench --method cubic",
                                "bench --nope",         "bench --min-time -1",
                                "bench --sizes"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        cli_result r = cli_run(bad[i]);
        CHECK_MSG(r.status == 2, "%s: status %d", bad[i], r.status);
        CHECK_MSG(strstr(r.err, "vskin bench") != NULL, "%s: %s", bad[i],
                  r.err);
        cli_result_free(&r);
    }
    cli_result r = cli_run("bench --help");
    CHECK(r.status == 0 && strstr(r.out, "--smoke") != NULL);
    cli_result_free(&r);
}

/* --method dq: the skinning rows blend dual quaternions (the same grid, the
 * DQS scalar reference as baseline); the stream rows are linear-only. */
static void test_smoke_dual_quaternion(void)
{
    cli_result r = cli_run("bench --smoke --json --method dq");
    CHECK_MSG(r.status == 0, "%s", r.err);
    cJSON *root = cJSON_Parse(r.out);
    CHECK_MSG(root != NULL, "not JSON: %.200s", r.out);
    const cJSON *method = cJSON_GetObjectItem(root, "method");
    CHECK(cJSON_IsString(method) && !strcmp(method->valuestring, "dq"));
    const cJSON *rows = cJSON_GetObjectItem(root, "rows");
    CHECK(count_kind(rows, "skin") == 2 * 4 * 3 * 3);
    CHECK(count_kind(rows, "stream") == 0);
    const cJSON *row;
    int bad = 0;
    cJSON_ArrayForEach(row, rows)
    {
        if (strcmp(cJSON_GetObjectItem(row, "kind")->valuestring, "skin"))
            continue;
        if (!positive(row, "vertices_per_second") ||
            !positive(row, "speedup_vs_reference"))
            ++bad;
    }
    CHECK(bad == 0);
    cJSON_Delete(root);
    cli_result_free(&r);
}

int main(void)
{
    RUN(test_smoke_json);
    RUN(test_smoke_dual_quaternion);
    RUN(test_usage_errors);
    return test_summary();
}
