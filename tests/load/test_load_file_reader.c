/* SPDX-License-Identifier: MIT */
/* vs_load_options.file_reader: an in-memory file system serves a .gltf and
 * its .bin (through vs_asset_load_file, and through vs_asset_load_memory
 * with a base folder), glTF 1.0 external buffers and a COLLADA file, giving
 * the same asset as the disk; every read is released once; the reader's
 * failures propagate with a message that names the file; the path rules
 * and limits apply before the reader is asked; a release without a read is
 * refused. */
#include <cjson/cJSON.h>
#include <stdint.h>

#include "counting_allocator.h"
#include "format/gltf_common.h"
#include "test.h"
#include "vskin/vskin.h"

#define DATA VS_TEST_DATA
enum { VFS_FILES = 16, VFS_PATHS = 16 };

typedef struct vfs_file {
    char path[256];
    unsigned char *data;
    size_t size;
} vfs_file;

/* The file system: files by path, and what it was asked. */
typedef struct vfs {
    vfs_file files[VFS_FILES];
    int count;
    char asked[VFS_PATHS][512]; /* paths read, in order */
    uint64_t asked_max[VFS_PATHS];
    int reads, releases;
    bool copy;             /* hand out copies (and take them back) */
    vs_result fail;        /* fail every read with this, when not VS_OK */
    const char *fail_text; /* ... and this message */
    bool oversize;         /* claim a size past max_size */
    bool no_data;          /* claim a size but give no data */
} vfs;

static void vfs_add(vfs *fs, const char *path, const void *data, size_t size)
{
    vfs_file *f = &fs->files[fs->count++];
    snprintf(f->path, sizeof f->path, "%s", path);
    f->data = malloc(size + 1); /* NUL-terminated, for the tests' strstr */
    memcpy(f->data, data, size);
    f->data[size] = 0;
    f->size = size;
}

/* Adds the disk file `from` as `path`. */
static void vfs_add_file(vfs *fs, const char *path, const char *from)
{
    FILE *f = fopen(from, "rb");
    CHECK(f != NULL);
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n + 1);
    CHECK(fread(buf, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    vfs_add(fs, path, buf, (size_t)n);
    free(buf);
}

static void vfs_free(vfs *fs)
{
    for (int i = 0; i < fs->count; ++i)
        free(fs->files[i].data);
    fs->count = 0;
}

static vs_result vfs_read(const char *path, uint64_t max_size, void **out_data,
                          size_t *out_size, vs_error *error, void *user)
{
    vfs *fs = user;
    if (fs->reads < VFS_PATHS) {
        snprintf(fs->asked[fs->reads], sizeof fs->asked[0], "%s", path);
        fs->asked_max[fs->reads] = max_size;
    }
    ++fs->reads;
    if (fs->fail != VS_OK) {
        snprintf(error->message, sizeof error->message, "%s",
                 fs->fail_text ? fs->fail_text : "");
        return fs->fail;
    }
    for (int i = 0; i < fs->count; ++i) {
        const vfs_file *f = &fs->files[i];
        if (strcmp(f->path, path) != 0) continue;
        if (f->size > max_size) return VS_ERROR_LIMIT;
        *out_size = fs->oversize ? (size_t)max_size + 1 : f->size;
        if (fs->no_data) {
            *out_data = NULL;
            *out_size = 1;
        } else if (fs->copy) {
            *out_data = malloc(f->size ? f->size : 1);
            memcpy(*out_data, f->data, f->size);
        } else {
            *out_data = f->data;
        }
        return VS_OK;
    }
    snprintf(error->message, sizeof error->message,
             "not in the virtual file system");
    return VS_ERROR_IO;
}

static void vfs_release(void *data, size_t size, void *user)
{
    (void)size;
    vfs *fs = user;
    ++fs->releases;
    free(data);
}

/* The reader of fs: copies it releases, or its own bytes in place. */
static vs_file_reader vfs_reader(vfs *fs, bool copy)
{
    fs->copy = copy;
    return (vs_file_reader){vfs_read, copy ? vfs_release : NULL, fs};
}

/* Same vertices and clips as the disk load of `path`. */
static void same_as_disk(const vs_asset *a, const char *path)
{
    vs_asset *d = NULL;
    CHECK(vs_asset_load_file(path, NULL, &d, NULL) == VS_OK);
    if (!a || !d) {
        vs_asset_free(d);
        CHECK(a != NULL);
        return;
    }
    CHECK(a->mesh_count == d->mesh_count && a->clip_count == d->clip_count &&
          a->node_count == d->node_count);
    for (uint32_t m = 0; m < a->mesh_count && m < d->mesh_count; ++m)
        for (uint32_t p = 0; p < a->meshes[m].primitive_count; ++p) {
            const vs_primitive *x = &a->meshes[m].primitives[p];
            const vs_primitive *y = &d->meshes[m].primitives[p];
            CHECK(x->vertex_count == y->vertex_count &&
                  memcmp(x->positions, y->positions,
                         3 * sizeof(float) * x->vertex_count) == 0);
        }
    for (uint32_t c = 0; c < a->clip_count && c < d->clip_count; ++c)
        CHECK(a->clips[c].end == d->clips[c].end);
    vs_asset_free(d);
}

#define INTERP DATA "/gltf2/interpolation_test.gltf"
#define INTERP_BIN DATA "/gltf2/interpolation_test.bin"

static void test_gltf_and_bin_through_the_reader(void)
{
    vfs fs = {0};
    vfs_add_file(&fs, "virtual/interpolation_test.gltf", INTERP);
    vfs_add_file(&fs, "virtual/interpolation_test.bin", INTERP_BIN);
    vs_load_options options = {.file_reader = vfs_reader(&fs, true)};
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK_MSG(vs_asset_load_file("virtual/interpolation_test.gltf", &options,
                                 &asset, &err) == VS_OK,
              "%s", err.message);
    same_as_disk(asset, INTERP);
    CHECK(fs.reads == 2 && fs.releases == 2);
    CHECK(strcmp(fs.asked[0], "virtual/interpolation_test.gltf") == 0);
    CHECK(strcmp(fs.asked[1], "virtual/interpolation_test.bin") == 0);
    CHECK(fs.asked_max[0] == 1ull << 30 && fs.asked_max[1] == 1ull << 30);
    vs_asset_free(asset);

    /* The limits reach the reader. */
    fs.reads = fs.releases = 0;
    options.limits.max_file_size = 40000;
    options.limits.max_buffer_size = 9000;
    CHECK(vs_asset_load_file("virtual/interpolation_test.gltf", &options,
                             &asset, &err) == VS_OK);
    CHECK(fs.asked_max[0] == 40000 && fs.asked_max[1] == 9000);
    vs_asset_free(asset);
    vfs_free(&fs);
}

/* vs_asset_load_memory with a base folder reaches the .bin through the
 * reader; "" is the reader's root; no base folder still refuses. */
static void test_memory_load_with_external_buffer(void)
{
    vfs fs = {0};
    vfs_add_file(&fs, "assets/interpolation_test.bin", INTERP_BIN);
    vfs_add_file(&fs, "interpolation_test.bin", INTERP_BIN);
    vfs_add_file(&fs, "text", INTERP);
    const vfs_file *text = &fs.files[2];
    vs_load_options options = {.base_dir = "assets",
                               .file_reader = vfs_reader(&fs, false)};
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK_MSG(vs_asset_load_memory(text->data, text->size, "interp.gltf",
                                   &options, &asset, &err) == VS_OK,
              "%s", err.message);
    same_as_disk(asset, INTERP);
    vs_asset_free(asset);
    CHECK(fs.reads == 1 && fs.releases == 0);
    CHECK(strcmp(fs.asked[0], "assets/interpolation_test.bin") == 0);
    options.base_dir = "";
    CHECK(vs_asset_load_memory(text->data, text->size, "interp.gltf", &options,
                               &asset, &err) == VS_OK);
    CHECK(strcmp(fs.asked[1], "interpolation_test.bin") == 0);
    vs_asset_free(asset);
    options.base_dir = NULL;
    CHECK(vs_asset_load_memory(text->data, text->size, "interp.gltf", &options,
                               &asset, &err) == VS_ERROR_IO);
    CHECK(strstr(err.message, "no base folder") != NULL);
    CHECK(fs.reads == 2);
    vfs_free(&fs);
}

/* glTF 1.0: SimpleSkin with every data: URI turned into a file. */
static void test_gltf1_buffers_through_the_reader(void)
{
    vfs fs = {0};
    vfs_add_file(&fs, "orig", DATA "/gltf1/SimpleSkin.gltf");
    cJSON *root =
        cJSON_ParseWithLength((const char *)fs.files[0].data, fs.files[0].size);
    cJSON *buffers = cJSON_GetObjectItem(root, "buffers");
    int files = 0;
    for (cJSON *b = buffers ? buffers->child : NULL; b; b = b->next) {
        cJSON *uri = cJSON_GetObjectItem(b, "uri");
        const char *data = strstr(uri->valuestring, "base64,");
        if (!data) continue;
        data += 7;
        uint8_t *bytes = NULL;
        size_t n = 0;
        CHECK(base64_decode(NULL, data, strlen(data), &bytes, &n) == VS_OK);
        char name[64], path[128];
        snprintf(name, sizeof name, "buffer %d.bin", files++);
        snprintf(path, sizeof path, "g1/%s", name);
        vfs_add(&fs, path, bytes, n);
        free(bytes);
        /* Percent-encoded, as a URI must be. */
        snprintf(name, sizeof name, "buffer%%20%d.bin", files - 1);
        cJSON_SetValuestring(uri, name);
    }
    CHECK(files > 0);
    char *text = cJSON_PrintUnformatted(root);
    vfs_add(&fs, "g1/skin.gltf", text, strlen(text));
    cJSON_free(text);
    cJSON_Delete(root);
    vs_load_options options = {.file_reader = vfs_reader(&fs, true)};
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK_MSG(vs_asset_load_file("g1/skin.gltf", &options, &asset, &err) ==
                  VS_OK,
              "%s", err.message);
    CHECK(asset && asset->format == VS_FORMAT_GLTF1);
    same_as_disk(asset, DATA "/gltf1/SimpleSkin.gltf");
    CHECK(fs.reads == 1 + files && fs.releases == fs.reads);
    CHECK(strcmp(fs.asked[1], "g1/buffer 0.bin") == 0 ||
          strcmp(fs.asked[1], "g1/buffer 1.bin") == 0);
    vs_asset_free(asset);
    vfs_free(&fs);
}

static void test_collada_through_the_reader(void)
{
    vfs fs = {0};
    const char *dae = DATA "/collada/bind_shape_non_identity.dae";
    vfs_add_file(&fs, "virtual/model.dae", dae);
    vs_load_options options = {.file_reader = vfs_reader(&fs, true)};
    vs_asset *asset = NULL;
    CHECK(vs_asset_load_file("virtual/model.dae", &options, &asset, NULL) ==
          VS_OK);
    CHECK(asset && asset->format == VS_FORMAT_COLLADA);
    same_as_disk(asset, dae);
    CHECK(fs.reads == 1 && fs.releases == 1);
    vs_asset_free(asset);
    vfs_free(&fs);
}

/* A failure of the reader keeps its code and message, after the file and
 * the object that named it. */
static void test_reader_failures_name_the_file(void)
{
    vfs fs = {0};
    vfs_add_file(&fs, "v/interpolation_test.gltf", INTERP);
    vs_load_options options = {.file_reader = vfs_reader(&fs, true)};
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK(vs_asset_load_file("v/interpolation_test.gltf", &options, &asset,
                             &err) == VS_ERROR_IO);
    CHECK(!asset);
    CHECK_MSG(strstr(err.message, "v/interpolation_test.gltf: buffers[0].uri: "
                                  "\"interpolation_test.bin\": "
                                  "v/interpolation_test.bin: not in the "
                                  "virtual file system"),
              "%s", err.message);
    CHECK(fs.releases == 1); /* the .gltf; the failed read gave nothing */

    CHECK(vs_asset_load_file("v/none.gltf", &options, &asset, &err) ==
          VS_ERROR_IO);
    CHECK(strcmp(err.message, "v/none.gltf: not in the virtual file system") ==
          0);

    fs.fail = VS_ERROR_LIMIT;
    fs.fail_text = "";
    CHECK(vs_asset_load_file("v/interpolation_test.gltf", &options, &asset,
                             &err) == VS_ERROR_LIMIT);
    CHECK_MSG(strstr(err.message, "v/interpolation_test.gltf: ") ==
                      err.message &&
                  strstr(err.message, vs_result_string(VS_ERROR_LIMIT)),
              "%s", err.message);
    fs.fail = VS_OK;

    /* What it returns is checked: a size past the limit, no data. */
    fs.releases = fs.reads = 0;
    fs.oversize = true;
    CHECK(vs_asset_load_file("v/interpolation_test.gltf", &options, &asset,
                             &err) == VS_ERROR_LIMIT);
    CHECK(strstr(err.message, "exceeds the limit") != NULL);
    CHECK(fs.reads == 1 && fs.releases == 1);
    fs.oversize = false;
    fs.no_data = true;
    CHECK(vs_asset_load_file("v/interpolation_test.gltf", &options, &asset,
                             &err) == VS_ERROR_IO);
    CHECK(strstr(err.message, "no data") != NULL);
    fs.no_data = false;
    vfs_free(&fs);
}

/* Whatever leaves the base folder is refused before the reader is asked,
 * unless allow_external_paths. */
static void test_path_rules_come_before_the_reader(void)
{
    vfs fs = {0};
    vfs_add_file(&fs, "orig", INTERP);
    vfs_add_file(&fs, "a/b/../interpolation_test.bin", INTERP_BIN);
    const char *from = "\"interpolation_test.bin\"";
    const char *text = (const char *)fs.files[0].data;
    const char *at = strstr(text, from);
    CHECK(at != NULL);
    if (!at) return;
    const char *escapes[] = {"\"../interpolation_test.bin\"",
                             "\"/a/interpolation_test.bin\"",
                             "\"file:///a/interpolation_test.bin\""};
    for (int e = 0; e < 3; ++e) {
        size_t head = (size_t)(at - text), tail = strlen(at + strlen(from));
        char *edited = malloc(fs.files[0].size + 64);
        memcpy(edited, text, head);
        strcpy(edited + head, escapes[e]);
        memcpy(edited + head + strlen(escapes[e]), at + strlen(from), tail);
        size_t size = head + strlen(escapes[e]) + tail;
        vs_load_options options = {.base_dir = "a/b",
                                   .file_reader = vfs_reader(&fs, true)};
        fs.reads = 0;
        vs_asset *asset = NULL;
        vs_error err = {0};
        vs_result r = vs_asset_load_memory(edited, size, "e.gltf", &options,
                                           &asset, &err);
        CHECK_MSG(r != VS_OK && fs.reads == 0, "%s: %s", escapes[e],
                  err.message);
        vs_asset_free(asset);
        if (e == 0) {
            /* Allowed: the reader is asked for the path as written. */
            options.allow_external_paths = true;
            r = vs_asset_load_memory(edited, size, "e.gltf", &options, &asset,
                                     &err);
            CHECK_MSG(r == VS_OK, "%s", err.message);
            CHECK(fs.reads == 1 &&
                  strcmp(fs.asked[0], "a/b/../interpolation_test.bin") == 0);
            vs_asset_free(asset);
        }
        free(edited);
    }
    vfs_free(&fs);
}

static void test_release_without_read_is_refused(void)
{
    vfs fs = {0};
    vs_load_options options = {.file_reader = {NULL, vfs_release, &fs}};
    vs_asset *asset = NULL;
    vs_error err = {0};
    CHECK(vs_asset_load_file(INTERP, &options, &asset, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "file_reader") != NULL);
    size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    CHECK(vs_asset_load_memory(data, size, "m", &options, &asset, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(fs.reads == 0 && fs.releases == 0);
}

/* A reader and an allocator together: vskin's blocks all come back. */
static void test_reader_with_an_allocator(void)
{
    vfs fs = {0};
    vfs_add_file(&fs, "v/interpolation_test.gltf", INTERP);
    vfs_add_file(&fs, "v/interpolation_test.bin", INTERP_BIN);
    counting c;
    vs_load_options options = {.allocator = counting_allocator(&c),
                               .file_reader = vfs_reader(&fs, false)};
    vs_asset *asset = NULL;
    CHECK(vs_asset_load_file("v/interpolation_test.gltf", &options, &asset,
                             NULL) == VS_OK);
    CHECK(atomic_load(&c.allocs) > 0);
    vs_asset_free(asset);
    CHECK(counting_live(&c) == 0 && atomic_load(&c.foreign) == 0);
    vfs_free(&fs);
}

int main(void)
{
    RUN(test_gltf_and_bin_through_the_reader);
    RUN(test_memory_load_with_external_buffer);
    RUN(test_gltf1_buffers_through_the_reader);
    RUN(test_collada_through_the_reader);
    RUN(test_reader_failures_name_the_file);
    RUN(test_path_rules_come_before_the_reader);
    RUN(test_release_without_read_is_refused);
    RUN(test_reader_with_an_allocator);
    return test_summary();
}
