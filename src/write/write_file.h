/* SPDX-License-Identifier: MIT */
/* Output files written beside their target under a temporary name and
 * renamed over it only once complete (vs_write_bytes in vskin_tools.h
 * states the contract), so that a failed write never leaves a partial file
 * nor changes the file that was there. Every writer of the tools library
 * writes through these. */
#ifndef VS_WRITE_WRITE_FILE_H
#define VS_WRITE_WRITE_FILE_H

#include <stdio.h>

#include "vskin/vskin.h"

typedef struct out_file {
    FILE *f;          /* the temporary file while open, else NULL */
    char *tmp;        /* its name (from alloc) until renamed or removed */
    const char *path; /* the target, borrowed; for renaming and messages */
    vs_allocator alloc; /* the caller's allocator (zero: malloc) */
} out_file;

/* Creates the temporary file beside `path` (*o need not be initialised);
 * its name comes from alloc (NULL: malloc). */
vs_result out_file_open(out_file *o, const char *path,
                        const vs_allocator *alloc, vs_error *error);
/* Closes the temporary file, reporting any write error that occurred
 * (including one only noticed at fclose, such as a full disk); on error
 * the temporary file is removed. */
vs_result out_file_close(out_file *o, vs_error *error);
/* Closes the temporary file if still open (out_file_close), then renames
 * it over the target; on error removes it. */
vs_result out_file_commit(out_file *o, vs_error *error);
/* Closes (if open) and removes the temporary file: the target stays as it
 * was. Does nothing on a finished or zeroed out_file. */
void out_file_discard(out_file *o);
/* Takes an exclusive flock() on the folder of `path` (blocking until other
 * vskin writers of that folder release theirs; the folder's name is
 * allocated through alloc meanwhile) and sets *out_lock to what
 * out_folder_unlock needs: -1 when the folder cannot be opened or locked,
 * which then goes unlocked. VS_ERROR_OUT_OF_MEMORY (*out_lock -1) when the
 * name cannot be copied. Not nestable: one lock per folder at a time. */
vs_result out_folder_lock(const char *path, const vs_allocator *alloc,
                          int *out_lock, vs_error *error);
void out_folder_unlock(int lock);
/* Commits files that belong together (a .gltf and its .bin), in order,
 * while holding an exclusive flock() on the folder of the first: two vskin
 * processes writing the same set at once then each rename a whole set in
 * turn, and the set left is one run's, never one file of each. Zeroed
 * entries are skipped. Stops at the first failure (the files not yet
 * committed stay temporary, for out_file_discard). */
vs_result out_files_commit(out_file *const *files, size_t count,
                           vs_error *error);

/* One contiguous piece of a file written by write_file_parts. */
typedef struct file_part {
    const void *data;
    size_t size;
} file_part;

/* Writes the parts, in order, to a temporary file beside path and closes
 * it; *o is then ready for out_file_commit or out_file_discard. */
vs_result write_file_parts(out_file *o, const char *path,
                           const vs_allocator *alloc, const file_part *parts,
                           size_t count, vs_error *error);

#endif
