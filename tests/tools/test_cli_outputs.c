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
    CHECK(run_in_dir("pose --loop --time 1234567,1234568 -o p.obj", NULL) == 0);
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
        "render --frames 4 --size 32x32 -o old.gif",
    };
    static const char *outputs[] = {"old.obj", "old.json", "old.gltf",
                                    "old.gif"};
    struct rlimit saved;
    CHECK(getrlimit(RLIMIT_FSIZE, &saved) == 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; ++i) {
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

/* Starts vskin ARGV in folder `dir`, its output thrown away. */
static pid_t start(const char *const *argv, const char *dir)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        if (chdir(dir) == 0) execv(VS_CLI_PATH, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static int finish(pid_t pid)
{
    int status = -1;
    if (pid > 0) waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Every file of `files` in DIR is the one run a wrote in A/, or every one is
 * the one run b wrote in B/. */
static bool set_is_one_runs(const char *const *files)
{
    bool a = true, b = true;
    char here[256], there[256];
    for (const char *const *f = files; *f; ++f) {
        snprintf(here, sizeof here, "%s", *f);
        snprintf(there, sizeof there, "A/%s", *f);
        a = a && same_files(here, there);
        snprintf(there, sizeof there, "B/%s", *f);
        b = b && same_files(here, there);
    }
    return a || b;
}

/* Runs a and b (which write the same names, relative, with different
 * contents) alone in A/ and B/ for reference, then two of each at once in
 * DIR, round after round: whichever wins, the files it leaves are all one
 * run's. */
static void race(const char *const *a, const char *const *b,
                 const char *const *files)
{
    make_dir();
    CHECK(system("mkdir A B") == 0);
    CHECK(finish(start(a, "A")) == 0 && finish(start(b, "B")) == 0);
    char first_a[256], first_b[256];
    snprintf(first_a, sizeof first_a, "A/%s", files[0]);
    snprintf(first_b, sizeof first_b, "B/%s", files[0]);
    CHECK(!same_files(first_a, first_b));
    enum { ROUNDS = 40, RUNS = 4 };
    int mixed = 0;
    for (int round = 0; round < ROUNDS; ++round) {
        pid_t pids[RUNS];
        for (int k = 0; k < RUNS; ++k)
            pids[k] = start(k % 2 ? b : a, ".");
        for (int k = 0; k < RUNS; ++k)
            CHECK(finish(pids[k]) == 0);
        mixed += !set_is_one_runs(files);
    }
    CHECK_MSG(mixed == 0, "%d of %d rounds left a mixed set (%s ...)", mixed,
              ROUNDS, files[0]);
}

static void concurrent_converts_leave_a_whole_pair(void)
{
    static const char *const a[] = {"vskin",     "convert", "-o",
                                    "race.gltf", "--force", NULL};
    static const char *const b[] = {
        "vskin",       "convert",   VS_TEST_DATA "/gltf1/SimpleSkin.gltf",
        "-o",          "race.gltf", "--force",
        "--keep-axes", NULL};
    static const char *const files[] = {"race.bin", "race.gltf", NULL};
    race(a, b, files);
}

static void concurrent_poses_leave_a_whole_file(void)
{
    static const char *const a[] = {"vskin", "pose",  "--time", "0",
                                    "-o",    "p.obj", NULL};
    static const char *const b[] = {"vskin", "pose",  "--time", "0.5",
                                    "-o",    "p.obj", NULL};
    static const char *const files[] = {"p.obj", NULL};
    race(a, b, files);
}

static void concurrent_vat_bakes_leave_a_whole_set(void)
{
    static const char *const a[] = {"vskin",   "bake", "--clip", "0",
                                    "--fps",   "10",   "--vat",  "v",
                                    "--force", NULL};
    static const char *const b[] = {"vskin",   "bake", "--clip", "0",
                                    "--fps",   "7",    "--vat",  "v",
                                    "--force", NULL};
    /* The embedded asset has no normals: no v.normals.bin. */
    static const char *const files[] = {"v.bin", "v.json", "v.glb", NULL};
    race(a, b, files);
}

/* A bake that fails, before writing or while writing, leaves every file of
 * BASE that was there as it was, and no temporary file. */
static void a_failed_vat_bake_keeps_every_old_file(void)
{
    make_dir();
    static const char *names[] = {"v.bin", "v.normals.bin", "v.json", "v.glb"};
    for (int i = 0; i < 4; ++i) {
        FILE *f = fopen(names[i], "wb");
        CHECK(f != NULL);
        if (f) {
            fputs("OLD", f);
            fclose(f);
        }
    }
    CHECK(run_in_dir("bake --clip nope --vat v --force", NULL) == 1);
    struct rlimit saved;
    CHECK(getrlimit(RLIMIT_FSIZE, &saved) == 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = {256, saved.rlim_max};
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    char *err = NULL;
    int status = run_in_dir("bake --clip 0 --vat v --force", &err);
    setrlimit(RLIMIT_FSIZE, &saved);
    signal(SIGXFSZ, old_handler);
    CHECK_MSG(status == 1, "status %d", status);
    CHECK_MSG(strstr(err, "v.") != NULL, "%s", err);
    free(err);
    for (int i = 0; i < 4; ++i)
        CHECK_MSG(same_text(names[i], "OLD"), "%s", names[i]);
    CHECK(no_temporary_files());
}

int main(void)
{
    RUN(force_never_overwrites_the_inputs_buffer);
    RUN(the_input_is_never_written_under_another_spelling);
    RUN(the_extension_matches_the_format);
    RUN(pose_writes_each_file_once);
    RUN(links_out_of_the_folder_are_not_read);
    RUN(a_full_disk_keeps_the_old_file);
    RUN(a_failed_vat_bake_keeps_every_old_file);
    RUN(concurrent_converts_leave_a_whole_pair);
    RUN(concurrent_poses_leave_a_whole_file);
    RUN(concurrent_vat_bakes_leave_a_whole_set);
    return test_summary();
}
