/* SPDX-License-Identifier: MIT */
/* External URIs on disk and symbolic links: a link (to a file or to a
 * folder) that resolves outside the asset's folder is refused with a message
 * naming the file and the URI; links that stay inside are followed;
 * allow_external_paths lifts the rule; a file reader gets the path after the
 * textual rules and resolves links its own way. */
#include <errno.h>
#include <unistd.h>

#include "format/gltf_common.h"
#include "test.h"

#define ROOT VS_TEST_TMP "/uri_links"
#define ASSET ROOT "/asset"
#define OUTSIDE ROOT "/outside"

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static void put_link(const char *target, const char *path)
{
    unlink(path);
    CHECK_MSG(symlink(target, path) == 0, "%s: %s", path, strerror(errno));
}

static void make_tree(void)
{
    mkdir(ROOT, 0777);
    mkdir(ASSET, 0777);
    mkdir(ASSET "/sub", 0777);
    mkdir(OUTSIDE, 0777);
    put_file(OUTSIDE "/secret.bin", "SECRET");
    put_file(ASSET "/inner.bin", "INNER");
    put_file(ASSET "/sub/deep.bin", "DEEP");
    put_link("../outside/secret.bin", ASSET "/file_out.bin");
    put_link(OUTSIDE "/secret.bin", ASSET "/abs_out.bin");
    put_link("../outside", ASSET "/dir_out");
    put_link("inner.bin", ASSET "/link_in.bin");
    put_link("sub", ASSET "/sub_link");
    put_link("../inner.bin", ASSET "/sub/up_in.bin");
}

/* Loads `uri` from ASSET; returns the result, the bytes in *text. */
static vs_result load(const char *uri, bool allow_external, char *text,
                      size_t size, vs_error *err)
{
    gltf_bytes b;
    text[0] = '\0';
    vs_result r = gltf_load_uri("scene.gltf", ASSET, uri, "buffers[0].uri", 100,
                                allow_external, &b, err);
    if (r == VS_OK) {
        snprintf(text, size, "%.*s", (int)b.size, (const char *)b.data);
        free(b.data);
    }
    return r;
}

static void links_out_of_the_folder_are_refused(void)
{
    static const char *uris[] = {"file_out.bin", "abs_out.bin",
                                 "dir_out/secret.bin", "./dir_out/secret.bin",
                                 "sub/../dir_out/secret.bin"};
    for (size_t i = 0; i < sizeof uris / sizeof uris[0]; ++i) {
        char text[64];
        vs_error err;
        CHECK_MSG(load(uris[i], false, text, sizeof text, &err) ==
                      VS_ERROR_INVALID,
                  "%s read as \"%s\"", uris[i], text);
        CHECK(strstr(text, "SECRET") == NULL);
        CHECK_MSG(strstr(err.message, "scene.gltf: buffers[0].uri: ") ==
                      err.message,
                  "%s", err.message);
        CHECK_MSG(strstr(err.message, uris[i]) != NULL, "%s", err.message);
        CHECK_MSG(strstr(err.message, "outside the asset's folder") != NULL,
                  "%s", err.message);
    }
}

static void links_inside_the_folder_are_followed(void)
{
    char text[64];
    vs_error err;
    CHECK_MSG(load("link_in.bin", false, text, sizeof text, &err) == VS_OK,
              "%s", err.message);
    CHECK(strcmp(text, "INNER") == 0);
    CHECK_MSG(load("sub_link/deep.bin", false, text, sizeof text, &err) ==
                  VS_OK,
              "%s", err.message);
    CHECK(strcmp(text, "DEEP") == 0);
    CHECK_MSG(load("sub/up_in.bin", false, text, sizeof text, &err) == VS_OK,
              "%s", err.message);
    CHECK(strcmp(text, "INNER") == 0);
    /* A missing file keeps the plain message. */
    CHECK(load("none.bin", false, text, sizeof text, &err) == VS_ERROR_IO);
    CHECK_MSG(strstr(err.message, "none.bin: cannot open") != NULL, "%s",
              err.message);
}

static void allow_external_paths_follows_any_link(void)
{
    char text[64];
    vs_error err;
    CHECK_MSG(load("file_out.bin", true, text, sizeof text, &err) == VS_OK,
              "%s", err.message);
    CHECK(strcmp(text, "SECRET") == 0);
    CHECK(load("dir_out/secret.bin", true, text, sizeof text, &err) == VS_OK);
}

static vs_result reader_read(const char *path, uint64_t max_size, void **data,
                             size_t *size, vs_error *error, void *user)
{
    (void)max_size;
    (void)error;
    snprintf(user, 256, "%s", path);
    static char bytes[] = "FROM READER";
    *data = bytes;
    *size = sizeof bytes - 1;
    return VS_OK;
}

/* The reader decides what a link means: vskin resolves nothing on disk for
 * it, after the textual rules. */
static void a_file_reader_gets_the_path_unresolved(void)
{
    char seen[256] = "";
    load_io io = {.reader = &(vs_file_reader){reader_read, NULL, seen}};
    gltf_bytes b;
    vs_error err;
    CHECK_MSG(gltf_load_uri_io(&io, "scene.gltf", ASSET, "file_out.bin",
                               "buffers[0].uri", 100, false, &b, &err) == VS_OK,
              "%s", err.message);
    CHECK(strcmp(seen, ASSET "/file_out.bin") == 0);
    file_bytes_release(&io, &b);
    CHECK(gltf_load_uri_io(&io, "scene.gltf", ASSET, "../outside/secret.bin",
                           "buffers[0].uri", 100, false, &b,
                           &err) == VS_ERROR_INVALID);
}

int main(void)
{
    make_tree();
    RUN(links_out_of_the_folder_are_refused);
    RUN(links_inside_the_folder_are_followed);
    RUN(allow_external_paths_follows_any_link);
    RUN(a_file_reader_gets_the_path_unresolved);
    return test_summary();
}
