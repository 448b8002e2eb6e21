/* SPDX-License-Identifier: MIT */
/* The CLI's recording file reader and the checks that keep outputs off the
 * files a load read (cli_files.h). */
/* realpath() is an XSI function: glibc declares it only with this. */
#define _XOPEN_SOURCE 700

#include "cli_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

/* What the one load of this process read. */
static struct {
    const char *input;
    char folder[PATH_MAX]; /* real path of input's folder, "" before */
    file_id *ids;
    size_t count, cap;
} reads;

static void remember(const struct stat *st)
{
    if (reads.count == reads.cap) {
        size_t cap = reads.cap ? 2 * reads.cap : 16;
        file_id *ids = realloc(reads.ids, cap * sizeof *ids);
        /* Without room the file is still read; the output checks then fall
         * back to the input alone, which the command checked by name. */
        if (!ids) return;
        reads.ids = ids;
        reads.cap = cap;
    }
    reads.ids[reads.count++] = (file_id){st->st_dev, st->st_ino};
}

/* Records the real path of the folder of `path`. */
static bool note_folder(const char *path, vs_error *error)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (realpath(dir, reads.folder)) return true;
    /* Truncated to fit the message: a path is at most PATH_MAX long. */
    snprintf(error->message, sizeof error->message, "%.400s: %s", dir,
             strerror(errno));
    reads.folder[0] = '\0';
    return false;
}

/* The library's rule for its own disk reads (docs/robustness.md): an
 * external file is read only where its real path lies in the input's
 * folder, so a symbolic link cannot lead out of it. */
static vs_result check_inside(const char *path, vs_error *error)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        snprintf(error->message, sizeof error->message, "cannot open: %s",
                 strerror(errno));
        return VS_ERROR_IO;
    }
    size_t n = strlen(reads.folder);
    bool root = n == 1 && reads.folder[0] == '/';
    if (root || (strncmp(real, reads.folder, n) == 0 && real[n] == '/'))
        return VS_OK;
    snprintf(error->message, sizeof error->message,
             "a symbolic link that resolves to %.400s, outside the asset's "
             "folder %.400s",
             real, reads.folder);
    return VS_ERROR_INVALID;
}

static vs_result read_whole(int fd, const struct stat *st, uint64_t max_size,
                            void **out, size_t *out_size, vs_error *error)
{
    if (!S_ISREG(st->st_mode)) {
        snprintf(error->message, sizeof error->message, "not a regular file");
        return VS_ERROR_IO;
    }
    if ((uint64_t)st->st_size > max_size) return VS_ERROR_LIMIT;
    size_t n = (size_t)st->st_size;
    char *buf = malloc(n + 1);
    if (!buf) return VS_ERROR_OUT_OF_MEMORY;
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            free(buf);
            snprintf(error->message, sizeof error->message, "read error");
            return VS_ERROR_IO;
        }
        got += (size_t)k;
    }
    remember(st);
    *out = buf;
    *out_size = n;
    return VS_OK;
}

static vs_result cli_read(const char *path, uint64_t max_size, void **out,
                          size_t *out_size, vs_error *error, void *user)
{
    (void)user;
    bool input = reads.input && strcmp(path, reads.input) == 0;
    if (input && !note_folder(path, error)) return VS_ERROR_IO;
    if (!input) {
        vs_result r = reads.folder[0]
                          ? check_inside(path, error)
                          : VS_ERROR_IO; /* no folder known: read nothing */
        if (r != VS_OK) return r;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(error->message, sizeof error->message, "cannot open: %s",
                 strerror(errno));
        return VS_ERROR_IO;
    }
    struct stat st;
    vs_result r = fstat(fd, &st) == 0
                      ? read_whole(fd, &st, max_size, out, out_size, error)
                      : VS_ERROR_IO;
    close(fd);
    return r;
}

static void cli_release(void *data, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(data);
}

vs_file_reader cli_file_reader(const char *input)
{
    reads.input = input;
    return (vs_file_reader){cli_read, cli_release, NULL};
}

static bool same(const struct stat *st, file_id id)
{
    return st->st_dev == id.dev && st->st_ino == id.ino;
}

bool cli_output_spares_reads(const char *cmd, const char *input,
                             const char *path)
{
    struct stat out, in;
    if (stat(path, &out) != 0) return true; /* a new file: nothing to spare */
    bool clash = input && stat(input, &in) == 0 && in.st_dev == out.st_dev &&
                 in.st_ino == out.st_ino;
    if (clash) {
        cli_error(cmd, "%s: refusing to write over the input file", path);
        return false;
    }
    for (size_t i = 0; i < reads.count; ++i)
        if (same(&out, reads.ids[i])) {
            cli_error(cmd,
                      "%s: refusing to write over a file the input uses "
                      "(one of its buffers)",
                      path);
            return false;
        }
    return true;
}
