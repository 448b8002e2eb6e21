/* SPDX-License-Identifier: MIT */
/* image_decode_rgba on PNGs whose chunks do not fit their data: the
 * fuzzer's 116-byte file declaring a text chunk of about 2 GB, which libpng
 * alone allocates before reading, the same cut inside that chunk, a file
 * cut inside a chunk, one whose last CRC runs past the end (read from
 * right before an unreadable page); a good file, whole, with bytes after
 * IEND, and without IEND, which libpng reads. Memory is checked through the
 * process's peak resident size, not time. No GL context. */
/* mmap and MAP_ANONYMOUS, outside C11 and POSIX proper. */
#define _DEFAULT_SOURCE
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "render/image_decode.h"
#include "test.h"

#define HUGE_TEXT VS_TEST_DATA "/regressions/image_decode-huge-text-chunk.png"
#define HUGE_CUT                                                               \
    VS_TEST_DATA "/regressions/image_decode-huge-chunk-cut-short.png"
#define CRC_PAST_END                                                           \
    VS_TEST_DATA "/regressions/image_decode-crc-past-the-end.png"
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

/* A copy of data[0..size) ending right before an unreadable page, so a
 * read past its end faults without a sanitizer. Give it back with
 * munmap(base, *mapped). */
static uint8_t *guarded_copy(const uint8_t *data, size_t size, void **base,
                             size_t *mapped)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t pages = (size + page - 1) / page + 1;
    *mapped = pages * page;
    *base = mmap(NULL, *mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (*base == MAP_FAILED) abort();
    uint8_t *guard = (uint8_t *)*base + (pages - 1) * page;
    if (mprotect(guard, page, PROT_NONE) != 0) abort();
    memcpy(guard - size, data, size);
    return guard - size;
}

/* The last chunk's data fits but its CRC runs past the end: the walk must
 * stop there, not read on (the fuzzer's heap overflow). */
static void chunk_walk_stops_at_the_end(void)
{
    size_t size = 0;
    uint8_t *data = read_all(CRC_PAST_END, &size);
    if (!data) return;
    void *base;
    size_t mapped;
    uint8_t *copy = guarded_copy(data, size, &base, &mapped);
    vs_error e;
    uint32_t w, h;
    decode(copy, size, &e, &w, &h); /* libpng's verdict either way */
    munmap(base, mapped);
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
    RUN(chunk_walk_stops_at_the_end);
    return test_summary();
}
