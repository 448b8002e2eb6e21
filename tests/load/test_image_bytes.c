/* SPDX-License-Identifier: MIT */
/* vs_asset_image_bytes reads an image after the load with the load's URI
 * rules: embedded bytes as they are, data: URIs decoded, files relative to
 * the asset's folder, nothing outside it (not through "..", not through a
 * symbolic link), and through a caller's file reader when given one. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "vskin/vskin.h"

#define QUAD_DIR VS_TEST_DATA "/render/textured_quad"

/* One image per URI given; base_dir as the load's. */
static vs_asset *with_images(const char *images, const char *base_dir)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"images\":[%s]}", images);
    vs_load_options lo = {.base_dir = base_dir};
    vs_asset *a = NULL;
    vs_error e = {0};
    vs_result r =
        vs_asset_load_memory(json, strlen(json), "i.gltf", &lo, &a, &e);
    CHECK_MSG(r == VS_OK, "%s", e.message);
    return a;
}

static void test_files_and_data_uris(void)
{
    vs_asset *a =
        with_images("{\"uri\":\"checker.png\"},"
                    "{\"uri\":\"data:image/png;base64,iVBORw==\"},"
                    "{\"uri\":\"absent.png\"},"
                    "{\"uri\":\"../render/textured_quad/checker.png\"}",
                    QUAD_DIR);
    if (!a) return;
    const uint8_t *data = NULL;
    size_t size = 0;
    vs_error e = {0};
    CHECK(vs_asset_image_bytes(a, 0, NULL, &data, &size, &e) == VS_OK);
    CHECK(size == 75 && data && data[1] == 'P');
    vs_asset_image_bytes_free(a, 0, data, size);
    CHECK(vs_asset_image_bytes(a, 1, NULL, &data, &size, &e) == VS_OK);
    CHECK(size == 4 && data[0] == 0x89 && data[3] == 'G');
    vs_asset_image_bytes_free(a, 1, data, size);
    CHECK(vs_asset_image_bytes(a, 2, NULL, &data, &size, &e) == VS_ERROR_IO);
    CHECK(strstr(e.message, "images[2].uri") && strstr(e.message, "absent"));
    CHECK(vs_asset_image_bytes(a, 3, NULL, &data, &size, &e) ==
          VS_ERROR_INVALID);
    CHECK(strstr(e.message, "leaves the asset's folder"));
    CHECK(vs_asset_image_bytes(a, 4, NULL, &data, &size, &e) ==
          VS_ERROR_ARGUMENT);
    vs_asset_free(a);
}

static void test_no_folder_no_files(void)
{
    vs_asset *a = with_images("{\"uri\":\"checker.png\"}", NULL);
    if (!a) return;
    const uint8_t *data;
    size_t size;
    vs_error e = {0};
    CHECK(vs_asset_image_bytes(a, 0, NULL, &data, &size, &e) == VS_ERROR_IO);
    CHECK(strstr(e.message, "no base folder"));
    vs_asset_free(a);
}

static void test_links_out_of_the_folder_are_refused(void)
{
    char dir[512], link[600];
    snprintf(dir, sizeof dir, "%s/image_bytes_links", VS_TEST_TMP);
    snprintf(link, sizeof link, "%s/out.png", dir);
    mkdir(dir, 0755);
    unlink(link);
    CHECK(symlink(QUAD_DIR "/checker.png", link) == 0);
    vs_asset *a = with_images("{\"uri\":\"out.png\"}", dir);
    if (!a) return;
    const uint8_t *data;
    size_t size;
    vs_error e = {0};
    CHECK(vs_asset_image_bytes(a, 0, NULL, &data, &size, &e) ==
          VS_ERROR_INVALID);
    CHECK(strstr(e.message, "symbolic link"));
    vs_asset_free(a);
    unlink(link);
}

static int released;
static vs_result read_memory(const char *path, uint64_t max_size, void **out,
                             size_t *size, vs_error *error, void *user)
{
    (void)max_size;
    (void)error;
    static char bytes[] = "PICTURE";
    if (!strstr(path, "pic.png")) return VS_ERROR_IO;
    *(int *)user += 1;
    *out = bytes;
    *size = 7;
    return VS_OK;
}
static void release_memory(void *data, size_t size, void *user)
{
    (void)data;
    (void)size;
    (void)user;
    ++released;
}

static void test_a_file_reader_reads_the_image(void)
{
    vs_asset *a = with_images("{\"uri\":\"pic.png\"}", "");
    if (!a) return;
    int reads = 0;
    vs_file_reader reader = {read_memory, release_memory, &reads};
    const uint8_t *data;
    size_t size;
    vs_error e = {0};
    released = 0;
    CHECK(vs_asset_image_bytes(a, 0, &reader, &data, &size, &e) == VS_OK);
    /* A copy: the reader's bytes are given back at once. */
    CHECK(reads == 1 && released == 1 && size == 7 &&
          memcmp(data, "PICTURE", 7) == 0);
    vs_asset_image_bytes_free(a, 0, data, size);
    vs_file_reader bad = {NULL, release_memory, NULL};
    CHECK(vs_asset_image_bytes(a, 0, &bad, &data, &size, &e) ==
          VS_ERROR_ARGUMENT);
    vs_asset_free(a);
}

int main(void)
{
    RUN(test_files_and_data_uris);
    RUN(test_no_folder_no_files);
    RUN(test_links_out_of_the_folder_are_refused);
    RUN(test_a_file_reader_reads_the_image);
    return test_summary();
}
