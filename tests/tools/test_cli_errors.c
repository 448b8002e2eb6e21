/* SPDX-License-Identifier: MIT */
/* The CLI's failure paths: every error exits non-zero with a message on
 * stderr that names the problem, and nothing is written over the input. */
#include "cli_run.h"
#include "test.h"

static void expect_failure(const char *args, const char *needle)
{
    cli_result r = cli_run(args);
    CHECK_MSG(r.status != 0, "'%s' exited 0", args);
    CHECK_MSG(r.status != -1, "'%s' did not run", args);
    CHECK_MSG(strstr(r.err, needle) != NULL, "'%s': stderr lacks '%s': %s",
              args, needle, r.err);
    cli_result_free(&r);
}

static void missing_file_is_named(void)
{
    expect_failure("info /nonexistent/cli_missing.gltf",
                   "/nonexistent/cli_missing.gltf");
    expect_failure("pose /nonexistent/cli_missing.gltf",
                   "/nonexistent/cli_missing.gltf");
}

static void unknown_options_fail(void)
{
    expect_failure("info --bogus", "--bogus");
    expect_failure("pose --bogus", "--bogus");
    /* info does not pose, so animation options are unknown to it. */
    expect_failure("info --time 1", "--time");
    expect_failure("pose --time", "needs a value");
    expect_failure("pose -o", "needs a value");
}

static void bad_values_fail(void)
{
    expect_failure("pose --anim 7", "clip");
    expect_failure("pose --anim nosuchclip", "clip");
    expect_failure("pose --time 1,,2", "--time");
    expect_failure("pose --time 1x", "--time");
    expect_failure("pose --time nan", "--time");
    expect_failure("pose -o out.txt", "extension");
}

static void loader_error_is_passed_on(void)
{
    char path[512], args[2048];
    tmp_path(path, sizeof path, "cli_not_gltf.gltf");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("{ \"asset\": ", f);
    fclose(f);
    snprintf(args, sizeof args, "info '%s'", path);
    expect_failure(args, path);
}

static void writing_over_the_input_is_refused(void)
{
    /* Content decides the format, so a glTF named .json loads, and -o on the
     * same name would replace it. */
    char *gltf = cli_slurp(VS_TEST_DATA "/gltf2/SimpleSkin.gltf");
    CHECK(gltf != NULL);
    if (!gltf) return;
    char path[512], args[2048];
    tmp_path(path, sizeof path, "cli_input.json");
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(gltf, f);
        fclose(f);
    }
    snprintf(args, sizeof args, "pose '%s' -o '%s'", path, path);
    expect_failure(args, "input");
    /* The same file reached through another spelling. */
    snprintf(args, sizeof args, "pose '%s' -o '%s/./cli_input.json'", path,
             VS_TEST_TMP);
    expect_failure(args, "input");
    char *after = cli_slurp(path);
    CHECK(after && strcmp(after, gltf) == 0);
    free(after);
    free(gltf);
}

static void help_exits_zero(void)
{
    const char *commands[] = {"info --help", "pose --help", "pose -h"};
    for (int i = 0; i < 3; ++i) {
        cli_result r = cli_run(commands[i]);
        CHECK_MSG(r.status == 0, "'%s' exited %d", commands[i], r.status);
        CHECK(strstr(r.out, "usage: vskin") != NULL);
        cli_result_free(&r);
    }
}

int main(void)
{
    RUN(missing_file_is_named);
    RUN(unknown_options_fail);
    RUN(bad_values_fail);
    RUN(loader_error_is_passed_on);
    RUN(writing_over_the_input_is_refused);
    RUN(help_exits_zero);
    return test_summary();
}
