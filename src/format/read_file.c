/* SPDX-License-Identifier: MIT */
/* Reading a whole file into memory within a size limit, with a clear error
 * (read_file.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/error.h"
#include "format/read_file.h"

static vs_result read_disk(const vs_allocator *alloc, const char *path,
                           uint64_t max_size, uint8_t **out, size_t *size,
                           vs_error *error)
{
    *out = NULL;
    *size = 0;
    struct stat st;
    if (stat(path, &st) != 0)
        return set_error(error, VS_ERROR_IO, "%s: cannot open: %s", path,
                         strerror(errno));
    if (!S_ISREG(st.st_mode))
        return set_error(error, VS_ERROR_IO, "%s: not a regular file", path);
    if ((uint64_t)st.st_size > max_size)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: file of %lld bytes exceeds the limit of %llu "
                         "bytes",
                         path, (long long)st.st_size,
                         (unsigned long long)max_size);
    FILE *f = fopen(path, "rb");
    if (!f)
        return set_error(error, VS_ERROR_IO, "%s: cannot open: %s", path,
                         strerror(errno));
    size_t n = (size_t)st.st_size;
    /* +1: room for a terminator, n may be 0 */
    uint8_t *buf = mem_alloc(alloc, n + 1);
    if (!buf) {
        fclose(f);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory reading %zu bytes", path, n);
    }
    size_t got = fread(buf, 1, n, f);
    int failed = ferror(f);
    fclose(f);
    if (got != n || failed) {
        mem_free(alloc, buf);
        return set_error(error, VS_ERROR_IO, "%s: read error", path);
    }
    buf[n] = 0;
    *out = buf;
    *size = n;
    return VS_OK;
}

vs_result read_file(const char *path, uint64_t max_size, uint8_t **out,
                    size_t *size, vs_error *error)
{
    return read_disk(NULL, path, max_size, out, size, error);
}

bool file_reader_valid(const vs_file_reader *reader)
{
    return !reader || reader->read || !reader->release;
}

/* The reader's answer, checked: what it returns is untrusted as much as
 * the file itself. */
static vs_result read_callback(const load_io *io, const char *path,
                               uint64_t max_size, file_bytes *out,
                               vs_error *error)
{
    const vs_file_reader *reader = io->reader;
    vs_error inner = {VS_OK, ""};
    void *data = NULL;
    size_t size = 0;
    vs_result r =
        reader->read(path, max_size, &data, &size, &inner, reader->user);
    if (r != VS_OK) {
        /* A code that is no vs_result still reports a failure. */
        if ((unsigned)r > VS_ERROR_RENDER) r = VS_ERROR_IO;
        inner.message[sizeof inner.message - 1] = '\0';
        return set_error(error, r, "%s: %s", path,
                         inner.message[0] ? inner.message
                                          : vs_result_string(r));
    }
    out->data = data;
    out->size = size;
    out->from_reader = true;
    vs_result code = VS_OK;
    if (size > max_size)
        code = set_error(error, VS_ERROR_LIMIT,
                         "%s: file of %zu bytes exceeds the limit of %llu "
                         "bytes",
                         path, size, (unsigned long long)max_size);
    else if (!data && size)
        code = set_error(error, VS_ERROR_IO,
                         "%s: the file reader returned %zu bytes but no data",
                         path, size);
    else if (io->budget && !budget_charge(io->budget, size))
        code = set_error(error, VS_ERROR_LIMIT,
                         "%s: file of %zu bytes exceeds the memory limit "
                         "(max_total_memory: %llu bytes for the whole load, "
                         "%llu in use)",
                         path, size, (unsigned long long)io->budget->limit,
                         (unsigned long long)io->budget->used);
    else
        out->charged = io->budget != NULL;
    if (code != VS_OK)
        file_bytes_release(&(load_io){.alloc = NULL, .reader = reader}, out);
    return code;
}

vs_result load_io_read(const load_io *io, const char *path, uint64_t max_size,
                       file_bytes *out, vs_error *error)
{
    *out = (file_bytes){NULL, 0, false, false};
    const vs_file_reader *reader = io ? io->reader : NULL;
    if (reader && reader->read)
        return read_callback(io, path, max_size, out, error);
    return read_disk(io ? io->alloc : NULL, path, max_size, &out->data,
                     &out->size, error);
}

void file_bytes_release(const load_io *io, file_bytes *bytes)
{
    if (bytes->from_reader) {
        const vs_file_reader *reader = io->reader;
        if (reader->release && bytes->data)
            reader->release(bytes->data, bytes->size, reader->user);
        if (bytes->charged && io->budget)
            budget_release(io->budget, bytes->size);
    } else {
        mem_free(io ? io->alloc : NULL, bytes->data);
    }
    *bytes = (file_bytes){NULL, 0, false, false};
}
