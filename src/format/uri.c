/* SPDX-License-Identifier: MIT */
/* Resolving glTF buffer URIs (glTF 2.0 §3.3.2 / §2.8 "URIs"): embedded
 * data: URIs, or paths relative to the glTF file. Anything that could read
 * outside the asset's folder (absolute paths, "..", other schemes) is refused
 * so that loading an untrusted file cannot read arbitrary files; on disk a
 * symbolic link that resolves outside the folder is refused as well. */
/* realpath() is an XSI function: glibc declares it only with this. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "format/gltf_common.h"
#include "format/read_file.h"

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* RFC 2397: data:[<mediatype>][;<param>=<value>]*;base64,<data>. glTF
 * embeds binary data base64-encoded; a header with an empty or malformed
 * parameter is not a URI at all (validator INVALID_URI). */
static vs_result load_data_uri(const vs_allocator *alloc, const char *src,
                               const char *uri, const char *path,
                               uint64_t max_size, gltf_bytes *out,
                               vs_error *error)
{
    const char *comma = strchr(uri, ',');
    if (!comma)
        return set_error(error, VS_ERROR_INVALID,
                         "%s: %s: data URI has no ',' separator", src, path);
    bool base64 = false;
    const char *p = uri + 5 + strcspn(uri + 5, ";,");
    while (p < comma) {
        const char *param = p + 1;
        size_t len = strcspn(param, ";,");
        if (len == 6 && strncmp(param, "base64", 6) == 0 &&
            param + len == comma)
            base64 = true;
        else if (len == 0 || !memchr(param, '=', len))
            return set_error(error, VS_ERROR_INVALID,
                             "%s: %s: malformed data URI parameter \"%.*s\"",
                             src, path, (int)len, param);
        p = param + len;
    }
    if (!base64)
        return set_error(error, VS_ERROR_UNSUPPORTED,
                         "%s: %s: only base64 data URIs are supported", src,
                         path);
    const char *b64 = comma + 1;
    size_t len = strlen(b64);
    if ((uint64_t)(len / 4) * 3 > max_size)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: %s: embedded data exceeds the buffer size "
                         "limit of %llu bytes",
                         src, path, (unsigned long long)max_size);
    vs_result r = base64_decode(alloc, b64, len, &out->data, &out->size);
    if (r == VS_ERROR_OUT_OF_MEMORY)
        return set_error(error, r,
                         "%s: %s: out of memory decoding %zu base64 "
                         "characters",
                         src, path, len);
    if (r != VS_OK)
        return set_error(error, r, "%s: %s: invalid base64 in data URI", src,
                         path);
    return VS_OK;
}

/* Percent-decodes `uri` into *out (from alloc) and checks that it stays
 * inside the base folder. */
static vs_result safe_relative_path(const vs_allocator *alloc, const char *src,
                                    const char *uri, const char *path,
                                    bool allow_external, char **out,
                                    vs_error *error)
{
    size_t n = strlen(uri);
    char *rel = mem_alloc(alloc, n + 1);
    *out = NULL;
    if (!rel)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                         src);
    size_t o = 0;
    for (size_t i = 0; i < n; ++i) {
        char c = uri[i];
        if (c == '%') {
            /* uri[i + 2] is only read when uri[i + 1] was a digit (not
             * the terminator). */
            int hi = hex_value(uri[i + 1]);
            int lo = hi >= 0 ? hex_value(uri[i + 2]) : -1;
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                mem_free(alloc, rel);
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: %s: bad percent escape in URI \"%s\"",
                                 src, path, uri);
            }
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        rel[o++] = c;
    }
    rel[o] = '\0';
    const char *why = NULL;
    vs_result code = VS_ERROR_INVALID;
    if ((rel[0] == '/' || rel[0] == '\\') && !allow_external) {
        why = "absolute paths are not allowed (vs_load_options."
              "allow_external_paths)";
    } else if (strcspn(uri, ":") < strcspn(uri, "/")) {
        why = "only data: URIs and relative file paths are supported";
        code = VS_ERROR_UNSUPPORTED;
    }
    /* Walk the components: ".." may only go back into folders the path
     * entered itself, never above base_dir. */
    long depth = 0;
    for (const char *p = rel; !why && !allow_external && *p;) {
        size_t len = strcspn(p, "/\\");
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                why = "the path leaves the asset's folder (vs_load_options."
                      "allow_external_paths)";
        } else if (len > 0 && !(len == 1 && p[0] == '.')) {
            ++depth;
        }
        p += len;
        if (*p) ++p;
    }
    if (why) {
        mem_free(alloc, rel);
        return set_error(error, code, "%s: %s: \"%s\": %s", src, path, uri,
                         why);
    }
    *out = rel;
    return VS_OK;
}

/* The disk path of `full` once every symbolic link is resolved, in real
 * (PATH_MAX bytes), checked to lie inside the real path of base_dir: the
 * textual rules above cannot see a link inside the folder that points out of
 * it ("scene.bin -> /etc/passwd", "data -> /home"). Links that stay inside
 * are followed. The file is then read at its resolved path, so a link
 * swapped in between can only be a folder on the way (docs/robustness.md
 * states that limit). */
static vs_result resolve_inside(const char *source_name, const char *base_dir,
                                const char *full, const char *uri,
                                const char *path, char *real, vs_error *error)
{
    char base[PATH_MAX];
    if (!realpath(base_dir[0] ? base_dir : ".", base))
        return set_error(error, VS_ERROR_IO,
                         "%s: %s: \"%s\": the asset's folder %s: %s",
                         source_name, path, uri, base_dir, strerror(errno));
    if (!realpath(full, real))
        return set_error(error, VS_ERROR_IO,
                         "%s: %s: \"%s\": %s: cannot open: %s", source_name,
                         path, uri, full, strerror(errno));
    size_t n = strlen(base);
    bool root = n == 1 && base[0] == '/';
    if (root || (strncmp(real, base, n) == 0 && real[n] == '/'))
        return VS_OK;
    return set_error(error, VS_ERROR_INVALID,
                     "%s: %s: \"%s\": %s is a symbolic link (or lies in a "
                     "linked folder) that resolves to %s, outside the "
                     "asset's folder %s (vs_load_options."
                     "allow_external_paths)",
                     source_name, path, uri, full, real, base);
}

vs_result gltf_load_uri_io(const load_io *io, const char *source_name,
                           const char *base_dir, const char *uri,
                           const char *path, uint64_t max_size,
                           bool allow_external, gltf_bytes *out,
                           vs_error *error)
{
    const vs_allocator *alloc = io ? io->alloc : NULL;
    *out = (gltf_bytes){NULL, 0, false, false};
    if (strncmp(uri, "data:", 5) == 0)
        return load_data_uri(alloc, source_name, uri, path, max_size, out,
                             error);
    if (!base_dir)
        return set_error(error, VS_ERROR_IO,
                         "%s: %s: external file \"%s\" cannot be resolved "
                         "(no base folder for a memory load)",
                         source_name, path, uri);
    char *rel;
    vs_result r = safe_relative_path(alloc, source_name, uri, path,
                                     allow_external, &rel, error);
    if (r != VS_OK) return r;
    size_t blen = strlen(base_dir);
    bool slash = blen > 0 && base_dir[blen - 1] == '/';
    size_t full_len = blen + 1 + strlen(rel) + 1;
    char *full = mem_alloc(alloc, full_len);
    if (!full) {
        mem_free(alloc, rel);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                         source_name);
    }
    size_t pos = 0;
    if (rel[0] != '/') { /* an allowed absolute path is used as it is */
        memcpy(full, base_dir, blen);
        pos = blen;
        if (blen > 0 && !slash) full[pos++] = '/';
    }
    strcpy(full + pos, rel);
    mem_free(alloc, rel);
    /* A file reader resolves paths its own way: it gets the path after the
     * textual rules, and links are its business. */
    bool disk = !(io && io->reader && io->reader->read);
    char *real = NULL;
    if (disk && !allow_external) {
        real = mem_alloc(alloc, PATH_MAX);
        r = real ? resolve_inside(source_name, base_dir, full, uri, path, real,
                                  error)
                 : set_error(error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: out of memory", source_name);
        if (r != VS_OK) {
            mem_free(alloc, real);
            mem_free(alloc, full);
            return r;
        }
    }
    vs_error inner;
    r = load_io_read(io, real ? real : full, max_size, out, &inner);
    mem_free(alloc, real);
    mem_free(alloc, full);
    if (r != VS_OK)
        return set_error(error, r, "%s: %s: \"%s\": %s", source_name, path,
                         uri, inner.message);
    return VS_OK;
}

vs_result gltf_load_uri(const char *source_name, const char *base_dir,
                        const char *uri, const char *path, uint64_t max_size,
                        bool allow_external, gltf_bytes *out, vs_error *error)
{
    return gltf_load_uri_io(NULL, source_name, base_dir, uri, path, max_size,
                            allow_external, out, error);
}
