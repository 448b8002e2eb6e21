/* SPDX-License-Identifier: MIT */
/* image_decode_rgba on PNGs whose chunks do not fit their data: the fuzzer's
 * 116-byte file declaring a text chunk of about 2 GB, which libpng alone
 * allocates before reading, and a file cut inside a chunk; a good file,
 * whole, with bytes after IEND, and without IEND, which libpng reads. Memory is checked through the
 * process's peak resident size, not time. No GL context. */
#include <sys/resource.h>

#include "render/image_decode.h"
#include "test.h"

#define HUGE_TEXT VS_TEST_DATA "/regressions/image_decode-huge-text-chunk.png"
#define HUGE_CUT                                                               \
    VS_TEST_DATA "/regressions/image_decode-huge-chunk-cut-short.png"
#define CHECKER VS_TEST_DATA "/render/textured_quad/checker.png"

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 64);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) abort();
    fclose(f);
    *size = (size_t)n;
    return b;
}

static long peak_kib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

static vs_result decode(const uint8_t *data, size_t size, vs_error *e,
                        uint32_t *w, uint32_t *h)
{
    uint8_t *rgba = NULL;
    vs_result r =
        image_decode_rgba(data, size, NULL, 4096u * 4096u, 8192, w, h, &rgba, e);
    CHECK(r == VS_OK ? rgba != NULL : rgba == NULL && e->message[0]);
    free(rgba);
    return r;
}

static void huge_declared_chunk_is_refused_without_allocating(void)
{
    size_t size = 0;
    uint8_t *data = read_all(HUGE_TEXT, &size);
    if (!data) return;
    long before = peak_kib();
    vs_error e;
    uint32_t w, h;
    CHECK(decode(data, size, &e, &w, &h) == VS_ERROR_PARSE);
    CHECK_MSG(strstr(e.message, "chunk 2 (tEXt) declares 2013265945 bytes"),
              "%s", e.message);
    /* libpng alone would take the declared 2 GB. */
    long grown = peak_kib() - before;
    CHECK_MSG(grown < 64 * 1024, "peak resident size grew by %ld KiB", grown);
    free(data);
    /* The same chunk's length and type with the file ending 3 bytes into
     * its data: fewer bytes than a whole chunk header plus CRC, which libpng
     * still reads, and allocates for, before it finds the data missing. */
    data = read_all(HUGE_CUT, &size);
    if (!data) return;
    before = peak_kib();
    CHECK(decode(data, size, &e, &w, &h) == VS_ERROR_PARSE);
    CHECK_MSG(strstr(e.message, "chunk 2 (tEXt) declares 2013265945 bytes, "
                                "more than the 3 left"),
              "%s", e.message);
    grown = peak_kib() - before;
    CHECK_MSG(grown < 64 * 1024, "peak resident size grew by %ld KiB", grown);
    free(data);
}

static void good_png_decodes_whole_or_with_trailing_bytes(void)
{
    size_t size = 0;
    uint8_t *data = read_all(CHECKER, &size);
    if (!data) return;
    vs_error e;
    uint32_t w = 0, h = 0;
    CHECK_MSG(decode(data, size, &e, &w, &h) == VS_OK, "%s", e.message);
    CHECK(w > 0 && h > 0);
    /* Bytes after IEND are not the PNG's business. */
    memset(data + size, 0xAB, 64);
    CHECK_MSG(decode(data, size + 64, &e, &w, &h) == VS_OK, "%s", e.message);
    /* Without IEND, or cut inside it: libpng reads such files, and so does
     * vskin (the chunks that are there fit). */
    CHECK_MSG(decode(data, size - 12, &e, &w, &h) == VS_OK, "%s", e.message);
    CHECK_MSG(decode(data, size - 1, &e, &w, &h) == VS_OK, "%s", e.message);
    /* Cut inside the data of the chunk before IEND (IEND is 12 bytes, the
     * CRC before it 4): its declared length does not fit. */
    CHECK(decode(data, size - 17, &e, &w, &h) == VS_ERROR_PARSE);
    CHECK_MSG(strstr(e.message, "bad PNG: chunk") &&
                  strstr(e.message, "more than the"),
              "%s", e.message);
    free(data);
}

int main(void)
{
    RUN(huge_declared_chunk_is_refused_without_allocating);
    RUN(good_png_decodes_whole_or_with_trailing_bytes);
    return test_summary();
}
