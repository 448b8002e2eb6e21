/* SPDX-License-Identifier: MIT */
/* The public writers of vskin_tools.h for whole files: vs_write_bytes,
 * vs_write_gltf, vs_write_png / vs_read_png and the GIF writer. Each works,
 * refuses bad arguments, and writes beside the target and renames: a
 * failed write (a full disk, a folder in the way) leaves the file that was
 * there as it was and no temporary file behind. Uses the public headers
 * only. */
#include <sys/resource.h>
#include <stdint.h>

#include "test.h"
#include "vskin/vskin_tools.h"
#include "write/tools_api_support.h"

#define DIR_ VS_TEST_TMP "/tools_api"
#define OLD "old contents\n"
#define SKIN VS_TEST_DATA "/gltf2/CesiumMan.gltf"

static vs_asset *load(const char *path)
{
    vs_asset *a = NULL;
    vs_error e;
    CHECK_MSG(vs_asset_load_file(path, NULL, &a, &e) == VS_OK, "%s", e.message);
    return a;
}

static void test_write_bytes(void)
{
    char p[512];
    vs_error e;
    scratch_path(p, sizeof p, DIR_, "bytes.bin");
    CHECK(vs_write_bytes("abc", 3, p, NULL, &e) == VS_OK);
    CHECK(file_is(p, "abc"));
    CHECK(vs_write_bytes("xy", 2, p, NULL, &e) == VS_OK); /* replaces */
    CHECK(file_is(p, "xy"));
    CHECK(vs_write_bytes(NULL, 0, p, NULL, &e) == VS_OK);
    CHECK(file_is(p, ""));
    CHECK(vs_write_bytes(NULL, 1, p, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_bytes("a", 1, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_bytes("a", 1, "", NULL, NULL) == VS_ERROR_ARGUMENT);
    const char *nodir = DIR_ "/no/such/folder/x.bin";
    CHECK(vs_write_bytes("a", 1, nodir, NULL, &e) == VS_ERROR_IO);
    CHECK_MSG(e.code == VS_ERROR_IO && strstr(e.message, nodir), "%s",
              e.message);
    CHECK(leftover_temps(DIR_) == 0);
}

/* A replaced file keeps its permissions, as it would written in place. */
static void test_replaced_file_keeps_its_mode(void)
{
    char p[512];
    struct stat st;
    scratch_path(p, sizeof p, DIR_, "mode.bin");
    CHECK(write_text(p, OLD) && chmod(p, 0600) == 0);
    CHECK(vs_write_bytes("new", 3, p, NULL, NULL) == VS_OK);
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK(file_is(p, "new"));
}

/* A folder where the file should go: the rename fails, the folder and
 * everything else stay. */
static void test_folder_in_the_way(void)
{
    char p[512];
    vs_error e;
    scratch_path(p, sizeof p, DIR_, "folder.obj");
    mkdir(p, 0777);
    CHECK(vs_write_bytes("abc", 3, p, NULL, &e) == VS_ERROR_IO);
    CHECK_MSG(strstr(e.message, "folder.obj") != NULL, "%s", e.message);
    struct stat st;
    CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK(leftover_temps(DIR_) == 0);
    rmdir(p);
}

/* Every whole-file writer under a file size limit smaller than its output:
 * it fails, the old file is unchanged and no temporary file is left. */
static void test_full_disk_keeps_old_files(void)
{
    vs_asset *a = load(SKIN);
    if (!a) return;
    char glb[512], gltf[512], png[512], bytes[512];
    scratch_path(glb, sizeof glb, DIR_, "full.glb");
    scratch_path(gltf, sizeof gltf, DIR_, "full.gltf");
    scratch_path(png, sizeof png, DIR_, "full.png");
    scratch_path(bytes, sizeof bytes, DIR_, "full.bin");
    char *bin = vs_gltf_bin_path(gltf, NULL);
    const char *all[] = {glb, gltf, bin, png, bytes};
    for (int i = 0; i < 5; ++i)
        CHECK(bin && write_text(all[i], OLD));
    enum { W = 256, H = 256 };
    uint8_t *rgba = malloc(W * H * 4);
    for (size_t i = 0; rgba && i < W * H * 4; ++i)
        rgba[i] = (uint8_t)(i * 2654435761u >> 13); /* incompressible */
    char *big = calloc(1, 1 << 16);
    vs_error e;
    limit_file_size(4096);
    CHECK(vs_write_gltf(a, glb, NULL, NULL, &e) == VS_ERROR_IO);
    CHECK(vs_write_gltf(a, gltf, NULL, NULL, &e) == VS_ERROR_IO);
    CHECK(rgba && vs_write_png(rgba, W, H, png, NULL, &e) == VS_ERROR_IO);
    CHECK(big && vs_write_bytes(big, 1 << 16, bytes, NULL, &e) == VS_ERROR_IO);
    limit_file_size(0);
    for (int i = 0; i < 5; ++i)
        CHECK_MSG(bin && file_is(all[i], OLD), "%s changed", all[i]);
    CHECK(leftover_temps(DIR_) == 0);
    free(big);
    free(rgba);
    free(bin);
    vs_asset_free(a);
}

static void test_gltf(void)
{
    vs_asset *a = load(SKIN);
    if (!a) return;
    char glb[512], gltf[512], obj[512];
    scratch_path(glb, sizeof glb, DIR_, "skin.GLB");
    scratch_path(gltf, sizeof gltf, DIR_, "skin.gltf");
    scratch_path(obj, sizeof obj, DIR_, "skin.obj");
    vs_gltf_write_report rep;
    memset(&rep, 0xff, sizeof rep);
    vs_error e;
    CHECK_MSG(vs_write_gltf(a, glb, NULL, &rep, &e) == VS_OK, "%s", e.message);
    CHECK(!rep.axes_corrected && rep.dropped_normals == 0);
    vs_gltf_write_options embed = {.embed = true};
    CHECK(vs_write_gltf(a, gltf, NULL, NULL, &e) == VS_OK);
    char *bin = vs_gltf_bin_path(gltf, NULL);
    CHECK(bin && strcmp(bin, DIR_ "/skin.bin") == 0 && test_path_exists(bin));
    vs_asset *b = load(glb), *c = load(gltf);
    CHECK(b && c && b->skin_count == a->skin_count &&
          c->node_count == a->node_count && c->clip_count == a->clip_count);
    vs_asset_free(b);
    vs_asset_free(c);
    /* errors: nothing is written */
    CHECK(vs_write_gltf(NULL, glb, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_gltf(a, NULL, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_gltf(a, obj, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK_MSG(strstr(e.message, "skin.obj") && strstr(e.message, ".glb"), "%s",
              e.message);
    CHECK(!test_path_exists(obj));
    CHECK(vs_write_gltf(a, glb, &embed, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_gltf(a, DIR_ "/none/x.glb", NULL, NULL, &e) == VS_ERROR_IO);
    CHECK(vs_gltf_bin_path(NULL, NULL) == NULL);
    CHECK(leftover_temps(DIR_) == 0);
    free(bin);
    vs_asset_free(a);
}

static void test_png(void)
{
    enum { W = 5, H = 3 };
    uint8_t rgba[W * H * 4];
    for (size_t i = 0; i < sizeof rgba; ++i)
        rgba[i] = (uint8_t)(i * 7);
    char p[512];
    scratch_path(p, sizeof p, DIR_, "pixels.png");
    vs_error e;
    CHECK_MSG(vs_write_png(rgba, W, H, p, NULL, &e) == VS_OK, "%s", e.message);
    uint32_t w = 0, h = 0;
    uint8_t *back = NULL;
    CHECK_MSG(vs_read_png(p, NULL, &w, &h, &back, &e) == VS_OK, "%s",
              e.message);
    CHECK(w == W && h == H && back && memcmp(back, rgba, sizeof rgba) == 0);
    free(back);
    CHECK(vs_write_png(NULL, W, H, p, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_png(rgba, 0, H, p, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_png(rgba, W, H, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_png(rgba, W, H, DIR_ "/none/x.png", NULL, &e) ==
          VS_ERROR_IO);
    CHECK(vs_read_png(NULL, NULL, &w, &h, &back, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_read_png(p, NULL, NULL, &h, &back, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_read_png(DIR_ "/missing.png", NULL, &w, &h, &back, &e) ==
          VS_ERROR_IO);
    CHECK(back == NULL);
    char txt[512];
    scratch_path(txt, sizeof txt, DIR_, "not_a.png");
    CHECK(write_text(txt, OLD));
    CHECK(vs_read_png(txt, NULL, &w, &h, &back, &e) == VS_ERROR_IO && !back);
    /* A chunk declaring about 2 GB in a 116-byte file: refused before
     * libpng, which would allocate the declared length, reads it. */
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    CHECK(vs_read_png(VS_TEST_DATA "/regressions/image_decode-huge-text-chunk"
                                   ".png",
                      NULL, &w, &h, &back, &e) == VS_ERROR_PARSE &&
          !back);
    getrusage(RUSAGE_SELF, &after);
    CHECK_MSG(strstr(e.message, "chunk 2 (tEXt) declares"), "%s", e.message);
    CHECK_MSG(after.ru_maxrss - before.ru_maxrss < 64 * 1024,
              "peak resident size grew by %ld KiB",
              after.ru_maxrss - before.ru_maxrss);
}

static bool write_gif(const char *path, const uint8_t *frames, int count)
{
    vs_gif_writer *g = NULL;
    vs_error e;
    bool ok = vs_gif_writer_open(path, 4, 2, 5, NULL, &g, &e) == VS_OK;
    for (int i = 0; ok && i < count; ++i)
        ok = vs_gif_writer_add(g, frames + 32 * i, &e) == VS_OK;
    CHECK_MSG(ok, "%s", e.message);
    return vs_gif_writer_close(g, &e) == VS_OK && ok;
}

static void test_gif(void)
{
    uint8_t frames[3 * 32];
    for (size_t i = 0; i < sizeof frames; ++i)
        frames[i] = (uint8_t)(i * 37);
    char a[512], b[512], kept[512];
    scratch_path(a, sizeof a, DIR_, "a.gif");
    scratch_path(b, sizeof b, DIR_, "b.gif");
    scratch_path(kept, sizeof kept, DIR_, "kept.gif");
    CHECK(write_gif(a, frames, 3) && write_gif(b, frames, 3));
    size_t n = 0;
    char *bytes = read_whole(a, &n);
    CHECK(bytes && n > 6 && memcmp(bytes, "GIF89a", 6) == 0);
    free(bytes);
    CHECK(same_bytes(a, b)); /* deterministic */
    /* Until closed the target is untouched; discarded, it stays so. */
    CHECK(write_text(kept, OLD));
    vs_gif_writer *g = NULL;
    vs_error e;
    CHECK(vs_gif_writer_open(kept, 4, 2, 5, NULL, &g, &e) == VS_OK);
    CHECK(vs_gif_writer_add(g, frames, &e) == VS_OK);
    CHECK(file_is(kept, OLD));
    vs_gif_writer_discard(g);
    CHECK(file_is(kept, OLD));
    /* A frame that cannot be written: close fails and writes nothing. */
    enum { BIG = 512 };
    uint8_t *noise = malloc(BIG * BIG * 4);
    for (size_t i = 0; noise && i < (size_t)BIG * BIG * 4; ++i)
        noise[i] = (uint8_t)(i * 2654435761u >> 11);
    g = NULL;
    CHECK(vs_gif_writer_open(kept, BIG, BIG, 5, NULL, &g, &e) == VS_OK);
    limit_file_size(4096);
    vs_result added = noise ? vs_gif_writer_add(g, noise, &e) : VS_ERROR_IO;
    vs_result closed = vs_gif_writer_close(g, &e);
    limit_file_size(0);
    CHECK(added != VS_OK || closed != VS_OK);
    CHECK(closed == VS_ERROR_IO);
    CHECK(file_is(kept, OLD));
    free(noise);
    /* errors */
    g = NULL;
    CHECK(vs_gif_writer_open(a, 0, 2, 5, NULL, &g, &e) == VS_ERROR_ARGUMENT &&
          !g);
    CHECK(vs_gif_writer_open(NULL, 4, 2, 5, NULL, &g, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_gif_writer_open(a, 4, 2, 5, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_gif_writer_open(DIR_ "/none/x.gif", 4, 2, 5, NULL, &g, &e) ==
          VS_ERROR_IO);
    CHECK(vs_gif_writer_add(NULL, frames, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_gif_writer_close(NULL, &e) == VS_OK);
    vs_gif_writer_discard(NULL);
    CHECK(leftover_temps(DIR_) == 0);
}

int main(void)
{
    scratch_reset(DIR_);
    RUN(test_write_bytes);
    RUN(test_replaced_file_keeps_its_mode);
    RUN(test_folder_in_the_way);
    RUN(test_full_disk_keeps_old_files);
    RUN(test_gltf);
    RUN(test_png);
    RUN(test_gif);
    return test_summary();
}
