/* SPDX-License-Identifier: MIT */
/* What the CLI's writing commands never do: write over a file the load read
 * (the input or one of its buffers, by device and inode, --force or not),
 * write a file under another format's extension, write one file twice in a
 * run, follow a link out of the asset's folder, leave a fragment or lose the
 * old file on a full disk, or pair one run's .gltf with another's .bin. */
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "tools/cli_run.h"
#include "vskin/vskin.h"

#define DIR VS_TEST_TMP "/cli_outputs"

static char *slurp_or_empty(const char *path)
{
    char *text = cli_slurp(path);
    return text ? text : calloc(1, 1);
}

/* vskin ARGS, run in DIR (the test's working folder, make_dir); the
 * result's status. Keeps stderr in *err when err is given. */
static int run_in_dir(const char *args, char **err)
{
    cli_result r = cli_run(args);
    if (err)
        *err = r.err;
    else
        free(r.err);
    free(r.out);
    return r.status;
}

/* DIR with m.gltf + m.bin (the embedded asset converted), shared.gltf naming
 * the same m.bin, and in.json: a glTF under another name. */
static void make_dir(void)
{
    int rc = system("rm -rf '" DIR "' && mkdir -p '" DIR "'");
    CHECK(rc == 0 && chdir(DIR) == 0);
    CHECK(run_in_dir("convert -o m.gltf", NULL) == 0);
    rc = system("cd '" DIR "' && cp m.gltf shared.gltf && cp m.gltf in.json"
                " && cp m.gltf in.png");
    CHECK(rc == 0);
}

static bool same_text(const char *path, const char *expected)
{
    char *now = slurp_or_empty(path);
    bool same = strcmp(now, expected) == 0;
    free(now);
    return same;
}

static void force_never_overwrites_the_inputs_buffer(void)
{
    make_dir();
    char *bin = slurp_or_empty(DIR "/m.bin");
    static const char *commands[] = {
        "convert shared.gltf -o m.gltf --force",
        "bake shared.gltf -o m.gltf --force",
        "reweight shared.gltf --max-influences 2 -o m.gltf --force",
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
        char *err = NULL;
        CHECK_MSG(run_in_dir(commands[i], &err) == 1, "%s", commands[i]);
        CHECK_MSG(strstr(err, "m.bin: refusing to write over") != NULL, "%s",
                  err);
        CHECK_MSG(same_text(DIR "/m.bin", bin), "%s", commands[i]);
        free(err);
    }
    /* A link to the buffer is the buffer. */
    CHECK(system("cd '" DIR "' && ln -s m.bin link.obj && ln -s m.bin "
                 "link.json") == 0);
    char *err = NULL;
    CHECK(run_in_dir("pose shared.gltf -o link.obj", &err) == 1);
    CHECK_MSG(strstr(err, "refusing") != NULL, "%s", err);
    free(err);
    CHECK(run_in_dir("joints shared.gltf -o link.json", &err) == 1);
    CHECK_MSG(strstr(err, "refusing") != NULL, "%s", err);
    free(err);
    CHECK(same_text(DIR "/m.bin", bin));
    free(bin);
}

/* Compared as files, not as strings: "./in.json" is in.json. */
static void the_input_is_never_written_under_another_spelling(void)
{
    make_dir();
    char *json = slurp_or_empty(DIR "/in.json");
    char *png = slurp_or_empty(DIR "/in.png");
    char *err = NULL;
    CHECK(run_in_dir("joints in.json -o ./in.json", &err) == 1);
    CHECK_MSG(strstr(err, "input") != NULL, "%s", err);
    free(err);
    CHECK(run_in_dir("render in.png -o ./in.png --size 8x8", &err) == 1);
    CHECK_MSG(strstr(err, "input") != NULL, "%s", err);
    free(err);
    CHECK(same_text(DIR "/in.json", json));
    CHECK(same_text(DIR "/in.png", png));
    free(json);
    free(png);
}

static void the_extension_matches_the_format(void)
{
    make_dir();
    char *gltf = slurp_or_empty(DIR "/m.gltf");
    static const char *refused[] = {
        "render m.gltf -o m.gltf",
        "render --frames 3 -o clip.png",
        "render --fps 10 -o clip.png",
        "joints -o out.gltf",
        "joints --format texture -o out.json",
        "bench --smoke --plot plot.svg",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
        char *err = NULL;
        CHECK_MSG(run_in_dir(refused[i], &err) == 2, "%s", refused[i]);
        CHECK_MSG(err[0] != '\0', "%s: no message", refused[i]);
        free(err);
    }
    CHECK(same_text(DIR "/m.gltf", gltf));
    CHECK(!test_path_exists(DIR "/clip.png"));
    CHECK(!test_path_exists(DIR "/out.gltf"));
    free(gltf);
}

/* Times that print alike in six digits name distinct files; one time given
 * twice would write one file twice and is refused. */
static void pose_writes_each_file_once(void)
{
    make_dir();
    CHECK(run_in_dir("pose --loop --time 1234567,1234568 -o p.obj", NULL) ==
          0);
    CHECK(test_path_exists(DIR "/p_t1234567.obj"));
    CHECK(test_path_exists(DIR "/p_t1234568.obj"));
    CHECK(run_in_dir("pose --time 0.1,2.5 -o s.obj", NULL) == 0);
    CHECK(test_path_exists(DIR "/s_t0.1.obj"));
    CHECK(test_path_exists(DIR "/s_t2.5.obj"));
    char *err = NULL;
    CHECK(run_in_dir("pose --time 1,1 -o q.obj", &err) == 1);
    CHECK_MSG(strstr(err, "q_t1.obj") != NULL, "%s", err);
    free(err);
    CHECK(!test_path_exists(DIR "/q_t1.obj"));
}

static void links_out_of_the_folder_are_not_read(void)
{
    make_dir();
    int rc = system("cd '" DIR "' && mkdir a out && echo SECRET > out/secret"
                    " && cp m.gltf a/ && ln -s ../out/secret a/m.bin");
    CHECK(rc == 0);
    char *err = NULL;
    CHECK(run_in_dir("convert a/m.gltf -o leak.glb", &err) == 1);
    CHECK_MSG(strstr(err, "\"m.bin\"") != NULL, "%s", err);
    CHECK_MSG(strstr(err, "outside the asset's folder") != NULL, "%s", err);
    free(err);
    CHECK(!test_path_exists(DIR "/leak.glb"));
}

/* No temporary file is left in DIR. */
static bool no_temporary_files(void)
{
    return system("ls '" DIR "' | grep -q '\\.tmp$'") != 0;
}

/* A file size limit makes every write past it fail with EFBIG, as a full
 * disk does: the old file stays whole and no temporary file is left. */
static void a_full_disk_keeps_the_old_file(void)
{
    make_dir();
    static const char *commands[] = {
        "pose --time 0.5 -o old.obj",
        "joints --time 0,0.5 -o old.json",
        "convert -o old.gltf --force",
    };
    static const char *outputs[] = {"old.obj", "old.json", "old.gltf"};
    struct rlimit saved;
    CHECK(getrlimit(RLIMIT_FSIZE, &saved) == 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    for (size_t i = 0; i < 3; ++i) {
        char path[512];
        snprintf(path, sizeof path, DIR "/%s", outputs[i]);
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (f) {
            fputs("OLD", f);
            fclose(f);
        }
        struct rlimit small = {256, saved.rlim_max};
        CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
        char *err = NULL;
        int status = run_in_dir(commands[i], &err);
        setrlimit(RLIMIT_FSIZE, &saved);
        CHECK_MSG(status == 1, "%s: status %d", commands[i], status);
        /* The message names the file (convert's .bin fails first). */
        CHECK_MSG(strstr(err, "old.") != NULL, "%s", err);
        free(err);
        CHECK_MSG(same_text(path, "OLD"), "%s", commands[i]);
        CHECK_MSG(no_temporary_files(), "%s", commands[i]);
    }
    signal(SIGXFSZ, old_handler);
}

/* Byte for byte (a .bin holds zeros). */
static bool same_files(const char *a, const char *b)
{
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    bool same = x && y;
    while (same) {
        int c = fgetc(x);
        same = c == fgetc(y);
        if (c == EOF) break;
    }
    if (x) fclose(x);
    if (y) fclose(y);
    return same;
}

/* race.gltf and race.bin are both the ones of run A or both of run B. */
static bool pair_is_one_runs(void)
{
    bool a = same_files("race.gltf", "A/race.gltf") &&
             same_files("race.bin", "A/race.bin");
    bool b = same_files("race.gltf", "B/race.gltf") &&
             same_files("race.bin", "B/race.bin");
    return a || b;
}

static const char *const run_a[] = {"vskin", "convert", "-o", "race.gltf",
                                    "--force", NULL};
static const char *const run_b[] = {
    "vskin", "convert", VS_TEST_DATA "/gltf1/SimpleSkin.gltf", "-o",
    "race.gltf", "--force", "--keep-axes", NULL};

/* Runs of two different sources to one .gltf at once: whichever wins, the
 * .bin beside it is that run's. */
static void concurrent_converts_leave_a_whole_pair(void)
{
    make_dir();
    /* The two runs alone, for reference: their .gltf and .bin differ. */
    CHECK(system("mkdir A B") == 0);
    CHECK(run_in_dir("convert -o A/race.gltf", NULL) == 0);
    CHECK(run_in_dir("convert '" VS_TEST_DATA "/gltf1/SimpleSkin.gltf' -o "
                     "B/race.gltf --keep-axes",
                     NULL) == 0);
    CHECK(!same_files("A/race.bin", "B/race.bin"));
    enum { ROUNDS = 40, RUNS = 4 };
    int mixed = 0;
    for (int round = 0; round < ROUNDS; ++round) {
        pid_t pids[RUNS];
        for (int k = 0; k < RUNS; ++k) {
            pids[k] = fork();
            if (pids[k] == 0) {
                int null = open("/dev/null", O_WRONLY);
                if (null >= 0) {
                    dup2(null, 1);
                    dup2(null, 2);
                }
                execv(VS_CLI_PATH, (char *const *)(k % 2 ? run_b : run_a));
                _exit(127);
            }
        }
        for (int k = 0; k < RUNS; ++k) {
            int status = 0;
            if (pids[k] > 0) waitpid(pids[k], &status, 0);
        }
        mixed += !pair_is_one_runs();
    }
    CHECK_MSG(mixed == 0, "%d of %d rounds left a mixed pair", mixed, ROUNDS);
}

int main(void)
{
    RUN(force_never_overwrites_the_inputs_buffer);
    RUN(the_input_is_never_written_under_another_spelling);
    RUN(the_extension_matches_the_format);
    RUN(pose_writes_each_file_once);
    RUN(links_out_of_the_folder_are_not_read);
    RUN(a_full_disk_keeps_the_old_file);
    RUN(concurrent_converts_leave_a_whole_pair);
    return test_summary();
}
