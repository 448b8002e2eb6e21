/* SPDX-License-Identifier: MIT */
/* vs_validate_file allocates through options->load.allocator and its raw
 * pass reads the file and its buffers through options->load.file_reader;
 * vs_validate_asset allocates through the asset's allocator. Every block
 * is freed (the report's by vs_validation_report_free), vskin calls the C
 * library's allocator not once (cJSON keeps its own), and refusing any one
 * allocation fails the call with VS_ERROR_OUT_OF_MEMORY, leaking
 * nothing. */
#include "alloc_check.h"
#include "vskin/vskin_tools.h"

#define DATA VS_TEST_DATA
#define MANY VS_TEST_TMP "/alloc_many_issues.gltf"

/* Files with buffers in a .bin, in a data: URI, a file the loader refuses,
 * and one with more issues than the report's first block holds and than
 * max_issues (MANY, written by write_many). */
static const char *const files[] = {
    DATA "/gltf2/interpolation_test.gltf",       DATA "/validate/clean.gltf",
    DATA "/validate/joint_index_oob.gltf",       MANY,
    DATA "/collada/bind_shape_non_identity.dae",
};
enum { FILE_COUNT = sizeof files / sizeof files[0] };

/* 40 nodes with both a matrix and a scale: an issue each. */
static void write_many(void)
{
    FILE *f = fopen(MANY, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[", f);
    for (int i = 0; i < 40; ++i)
        fprintf(f,
                "%s{\"scale\":[1,1,1],\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,"
                "0,1]}",
                i ? "," : "");
    fputs("]}\n", f);
    fclose(f);
}

static void validate_scenario(run *r, const vs_allocator *a, void *ctx)
{
    /* MANY: 40 issues kept to 30, and a note for the rest. */
    const vs_validate_options o = {.load = {.allocator = *a},
                                   .max_issues =
                                       strcmp(ctx, MANY) == 0 ? 30 : 0};
    vs_validation_report *report = NULL;
    vs_error err = {0};
    arm(r);
    bool loaded = false;
    if (step_result(r, vs_validate_file(ctx, &o, &report, &err), &err,
                    "vs_validate_file")) {
        CHECK(report->source_name[0] != '\0');
        loaded = report->loaded;
    }
    vs_validation_report_free(report);
    report = NULL;
    vs_asset *asset = NULL;
    /* joint_index_oob.gltf is refused by the loader. */
    if (loaded &&
        step_result(r, vs_asset_load_file(ctx, &o.load, &asset, &err), &err,
                    "load") &&
        step_result(r, vs_validate_asset(asset, &o, &report, &err), &err,
                    "vs_validate_asset"))
        CHECK(report->loaded);
    vs_validation_report_free(report);
    vs_asset_free(asset);
}

static void test_validation_uses_the_allocator(void)
{
    write_many();
    vs_validation_report *report = NULL;
    const vs_validate_options o = {.max_issues = 30};
    CHECK(vs_validate_file(MANY, &o, &report, NULL) == VS_OK);
    CHECK(report && report->issue_count == 31 &&
          strcmp(report->issues[30].code, "VALIDATION_TRUNCATED") == 0);
    vs_validation_report_free(report);
    for (int i = 0; i < FILE_COUNT; ++i)
        alloc_check_clean(files[i], validate_scenario, (void *)files[i]);
}

static void test_every_refusal_unwinds(void)
{
    for (int i = 0; i < 4; ++i)
        alloc_check_refusals(files[i], validate_scenario, (void *)files[i]);
}

/* A file system that serves "virtual/<name>" from tests/data/gltf2 and
 * counts what it reads. */
typedef struct vfs {
    int reads, bin_reads, releases;
} vfs;

static vs_result vfs_read(const char *path, uint64_t max_size, void **out_data,
                          size_t *out_size, vs_error *error, void *user)
{
    vfs *fs = user;
    if (strncmp(path, "virtual/", 8) != 0) {
        snprintf(error->message, sizeof error->message, "%s: not here", path);
        return VS_ERROR_IO;
    }
    char real[512];
    snprintf(real, sizeof real, "%s/gltf2/%s", DATA, path + 8);
    FILE *f = fopen(real, "rb");
    if (!f) return VS_ERROR_IO;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n < 0 || (uint64_t)n > max_size) {
        fclose(f);
        return VS_ERROR_LIMIT;
    }
    unsigned char *p = COUNTING_RAW_ALLOC((size_t)n + 1);
    size_t got = p ? fread(p, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!p || got != (size_t)n) {
        COUNTING_RAW_FREE(p);
        return VS_ERROR_IO;
    }
    ++fs->reads;
    if (strstr(path, ".bin")) ++fs->bin_reads;
    *out_data = p;
    *out_size = (size_t)n;
    return VS_OK;
}

static void vfs_release(void *data, size_t size, void *user)
{
    (void)size;
    ++((vfs *)user)->releases;
    COUNTING_RAW_FREE(data);
}

/* The raw pass reads through the file reader: a file that exists only in
 * it validates as the same file on disk does, its .bin read by the raw
 * pass and by the load. */
static void test_raw_pass_reads_through_the_file_reader(void)
{
    vfs fs = {0};
    counting c;
    const vs_validate_options o = {
        .load = {.allocator = counting_allocator(&c),
                 .file_reader = {vfs_read, vfs_release, &fs}}};
    vs_validation_report *virt = NULL, *disk = NULL;
    vs_error err = {0};
    watch(true);
    vs_result res =
        vs_validate_file("virtual/interpolation_test.gltf", &o, &virt, &err);
    watch(false);
    CHECK_MSG(res == VS_OK, "%s", err.message);
    CHECK(libc_calls_seen() == 0);
    CHECK(vs_validate_file(files[0], NULL, &disk, &err) == VS_OK);
    if (virt && disk) {
        CHECK(virt->loaded && virt->format == VS_FORMAT_GLTF2);
        CHECK(virt->issue_count == disk->issue_count);
        for (uint32_t i = 0; i < virt->issue_count && i < disk->issue_count;
             ++i)
            CHECK(strcmp(virt->issues[i].code, disk->issues[i].code) == 0);
    }
    CHECK(fs.reads == 3 && fs.bin_reads == 2 && fs.releases == 3);
    vs_validation_report_free(virt);
    vs_validation_report_free(disk);
    CHECK(counting_live(&c) == 0 && atomic_load(&c.foreign) == 0);

    /* A file the reader does not have is an I/O error, as from disk. */
    CHECK(vs_validate_file("elsewhere.gltf", &o, &virt, &err) == VS_ERROR_IO);
    CHECK(!virt && strstr(err.message, "not here") != NULL);
}

static void test_half_set_options_are_refused(void)
{
    counting c;
    vs_validate_options o = {.load = {.allocator = counting_allocator(&c)}};
    o.load.allocator.free = NULL;
    vs_validation_report *report = NULL;
    vs_error err = {0};
    CHECK(vs_validate_file(files[1], &o, &report, &err) == VS_ERROR_ARGUMENT);
    CHECK(!report && strstr(err.message, "allocator") != NULL);
    o.load.allocator = (vs_allocator){0};
    o.load.file_reader.release = vfs_release;
    CHECK(vs_validate_file(files[1], &o, &report, &err) == VS_ERROR_ARGUMENT);
    CHECK(!report && atomic_load(&c.calls) == 0);
}

int main(void)
{
    RUN(test_validation_uses_the_allocator);
    RUN(test_every_refusal_unwinds);
    RUN(test_raw_pass_reads_through_the_file_reader);
    RUN(test_half_set_options_are_refused);
    return test_summary();
}
