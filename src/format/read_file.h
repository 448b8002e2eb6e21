/* SPDX-License-Identifier: MIT */
/* Whole-file reading with a size limit, for the loaders and the validator. */
#ifndef VS_FORMAT_READ_FILE_H
#define VS_FORMAT_READ_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "vskin/vskin.h"

/* Reads a whole file, refusing files above max_size. *out is malloc'd. */
vs_result read_file(const char *path, uint64_t max_size, uint8_t **out,
                    size_t *size, vs_error *error);

#endif
