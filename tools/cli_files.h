/* SPDX-License-Identifier: MIT */
/* Which files a vskin command read, so that none of them is written over:
 * the file reader the CLI loads with, which records each file it reads by
 * device and inode, and the checks that compare an output with them. */
#ifndef VS_TOOLS_CLI_FILES_H
#define VS_TOOLS_CLI_FILES_H

#include <stdbool.h>

#include "vskin/vskin.h"

/* The reader of the CLI's loads of `input`: reads from disk like the
 * library, refuses an external file whose real path leaves the folder of
 * `input` (the library applies that rule only to its own disk reads), and
 * records the identity of every file it reads. One load per process. */
vs_file_reader cli_file_reader(const char *input);

/* False (with "vskin CMD: PATH: refusing to write over ..." printed) when
 * `path` is the same file (device and inode, through links and other
 * spellings) as `input` or as any file the load has read so far. */
bool cli_output_spares_reads(const char *cmd, const char *input,
                             const char *path);

#endif
