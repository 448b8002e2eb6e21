/* SPDX-License-Identifier: MIT */
/* Output files written to a temporary name beside the target and renamed
 * over it once complete (write/write_file.h), and vs_write_bytes. rename()
 * within one folder replaces the target in one step, so a reader sees the
 * old file or the new one, never a part. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/error.h"
#include "vskin/vskin_tools.h"
#include "write/write_file.h"

/* Tries at most this many names when others' temporary files exist. */
#define NAME_TRIES 100

/* Tells apart the temporary files of threads writing beside one target. */
static atomic_uint temp_counter;

static vs_result open_failed(out_file *o, int err, vs_error *error)
{
    mem_free(&o->alloc, o->tmp);
    o->tmp = NULL;
    return set_error(error, VS_ERROR_IO, "%s: cannot open for writing: %s",
                     o->path, strerror(err));
}

vs_result out_file_open(out_file *o, const char *path,
                        const vs_allocator *alloc, vs_error *error)
{
    *o = (out_file){.path = path, .alloc = alloc ? *alloc : (vs_allocator){0}};
    if (!path || !path[0])
        return set_error(error, VS_ERROR_ARGUMENT,
                         "a path to write to is needed");
    size_t size = strlen(path) + 48;
    o->tmp = mem_alloc(&o->alloc, size);
    if (!o->tmp)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                         path);
    struct stat st;
    bool replaces = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    int fd = -1;
    for (int i = 0; fd < 0 && i < NAME_TRIES; ++i) {
        snprintf(o->tmp, size, "%s.%ld-%u.tmp", path, (long)getpid(),
                 atomic_fetch_add(&temp_counter, 1u));
        /* O_EXCL: never an existing file; 0666 less the umask, as fopen. */
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) return open_failed(o, errno, error);
    /* A replaced file keeps its permissions, as when written in place. */
    if (replaces) (void)fchmod(fd, st.st_mode & 0777);
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int err = errno;
        close(fd);
        unlink(o->tmp);
        return open_failed(o, err, error);
    }
    return VS_OK;
}

vs_result out_file_close(out_file *o, vs_error *error)
{
    if (!o->f) return VS_OK;
    int failed = ferror(o->f);
    int err = errno;
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    o->f = NULL;
    if (!failed) return VS_OK;
    out_file_discard(o);
    return set_error(error, VS_ERROR_IO, "%s: write error: %s", o->path,
                     strerror(err ? err : EIO));
}

vs_result out_file_commit(out_file *o, vs_error *error)
{
    vs_result r = out_file_close(o, error);
    if (r != VS_OK) return r;
    if (!o->tmp)
        return set_error(error, VS_ERROR_ARGUMENT, "%s: nothing to commit",
                         o->path ? o->path : "");
    if (rename(o->tmp, o->path) != 0) {
        int err = errno;
        out_file_discard(o);
        return set_error(error, VS_ERROR_IO, "%s: cannot write: %s", o->path,
                         strerror(err));
    }
    mem_free(&o->alloc, o->tmp);
    o->tmp = NULL;
    return VS_OK;
}

void out_file_discard(out_file *o)
{
    if (o->f) fclose(o->f);
    o->f = NULL;
    if (o->tmp) unlink(o->tmp);
    mem_free(&o->alloc, o->tmp);
    o->tmp = NULL;
}

/* An open descriptor of the folder of `path` ("." when it names none) in
 * *fd, or -1 there when it cannot be opened; VS_ERROR_OUT_OF_MEMORY when
 * its name cannot be copied. */
static vs_result open_folder(const char *path, const vs_allocator *alloc,
                             int *fd, vs_error *error)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path) {
        *fd = open(slash ? "/" : ".", O_RDONLY | O_CLOEXEC);
        return VS_OK;
    }
    char *dir = mem_strndup(alloc, path, (size_t)(slash - path));
    if (!dir)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory locking its folder", path);
    *fd = open(dir, O_RDONLY | O_CLOEXEC);
    mem_free(alloc, dir);
    return VS_OK;
}

vs_result out_folder_lock(const char *path, const vs_allocator *alloc,
                          int *out_lock, vs_error *error)
{
    /* The lock is advisory and only between writers that take it: a folder
     * that cannot be opened or locked (no read permission, a file system
     * without flock) is written without it, as a single file is. */
    int fd = -1;
    *out_lock = -1;
    vs_result r = open_folder(path, alloc, &fd, error);
    if (r != VS_OK || fd < 0) return r;
    int locked;
    while ((locked = flock(fd, LOCK_EX)) != 0 && errno == EINTR) {
    }
    if (locked == 0)
        *out_lock = fd;
    else
        close(fd);
    return VS_OK;
}

void out_folder_unlock(int lock)
{
    if (lock >= 0) close(lock); /* closing releases the lock */
}

vs_result out_files_commit(out_file *const *files, size_t count,
                           vs_error *error)
{
    const out_file *first = NULL;
    for (size_t i = 0; !first && i < count; ++i)
        if (files[i]->tmp) first = files[i];
    if (!first) return VS_OK;
    int lock;
    vs_result r = out_folder_lock(first->path, &first->alloc, &lock, error);
    for (size_t i = 0; r == VS_OK && i < count; ++i)
        if (files[i]->tmp) r = out_file_commit(files[i], error);
    out_folder_unlock(lock);
    return r;
}

vs_result write_file_parts(out_file *o, const char *path,
                           const vs_allocator *alloc, const file_part *parts,
                           size_t count, vs_error *error)
{
    vs_result r = out_file_open(o, path, alloc, error);
    for (size_t i = 0; r == VS_OK && i < count; ++i)
        if (parts[i].size &&
            fwrite(parts[i].data, 1, parts[i].size, o->f) != parts[i].size)
            break; /* the error indicator is set: out_file_close reports it */
    if (r == VS_OK) r = out_file_close(o, error);
    return r;
}

vs_result vs_write_bytes(const void *data, size_t size, const char *path,
                         const vs_allocator *allocator, vs_error *error)
{
    clear_error(error);
    vs_result r =
        mem_check_allocator(allocator, "vs_write_bytes", "allocator", error);
    if (r != VS_OK) return r;
    if (!data && size > 0)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: vs_write_bytes: no data for %zu bytes",
                         path ? path : "", size);
    out_file o;
    file_part part = {data, size};
    r = write_file_parts(&o, path, allocator, &part, 1, error);
    if (r == VS_OK) r = out_file_commit(&o, error);
    return r;
}
