/* SPDX-License-Identifier: MIT */
/* Whole-file reading with a size limit, for the loaders and the validator:
 * from disk, or through the vs_file_reader of the load's options. */
#ifndef VS_FORMAT_READ_FILE_H
#define VS_FORMAT_READ_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/budget.h"
#include "vskin/vskin.h"

/* Where a load's files and memory come from: the vs_load_options file
 * reader and allocator (NULL, or a zero value: the disk and the C
 * library). */
typedef struct load_io {
    const vs_allocator *alloc;
    const vs_file_reader *reader;
    /* The load's memory budget (NULL: none): the bytes a file reader
     * returns are charged to it until they are released; bytes read from
     * disk come from alloc, which charges it itself when it is the load's
     * allocator. */
    mem_budget *budget;
} load_io;

/* Bytes read through a load_io: from its reader (which owns them until
 * they are released) or from disk (in its allocator). */
typedef struct file_bytes {
    uint8_t *data;
    size_t size;
    bool from_reader;
    bool charged; /* its size is charged to the load_io's budget */
} file_bytes;

/* Reads a whole file from disk, refusing files above max_size. *out is
 * malloc'd (with one NUL after its size bytes). */
vs_result read_file(const char *path, uint64_t max_size, uint8_t **out,
                    size_t *size, vs_error *error);

/* Whether a file reader (NULL: the disk) is usable: release only with
 * read. */
bool file_reader_valid(const vs_file_reader *reader);

/* Reads the whole file `path` through io, refusing more than max_size
 * bytes, and (VS_ERROR_LIMIT) bytes from a reader that pass io's budget. The message of a failure starts with path. Give the bytes back
 * with file_bytes_release. */
vs_result load_io_read(const load_io *io, const char *path, uint64_t max_size,
                       file_bytes *out, vs_error *error);
/* Gives the bytes back (to the reader, or to the allocator) and zeroes
 * *bytes; zeroed bytes are ignored. */
void file_bytes_release(const load_io *io, file_bytes *bytes);

#endif
