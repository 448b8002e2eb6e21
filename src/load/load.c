/* SPDX-License-Identifier: MIT */
/* Format detection and the public load entry points. */
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "base/error.h"
#include "format/gltf_common.h"
#include "format/read_file.h"
#include "load/json_scan.h"
#include "load/loaders.h"

static size_t skip_bom_and_space(const uint8_t *d, size_t n)
{
    size_t i = 0;
    if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF) i = 3;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n')) ++i;
    return i;
}

/* XML in UTF-16 (XML 1.0 Appendix F): a byte order mark, or big-endian
 * without one, then white space and '<' as 16-bit units. The COLLADA
 * loader decodes it (libxml2 reads the mark, or the declaration);
 * little-endian without a mark already starts with the byte '<'. */
static bool starts_utf16_xml(const uint8_t *d, size_t n)
{
    bool little;
    size_t i = 0;
    if (n >= 2 && d[0] == 0xFF && d[1] == 0xFE) {
        little = true;
        i = 2;
    } else if (n >= 2 && d[0] == 0xFE && d[1] == 0xFF) {
        little = false;
        i = 2;
    } else if (n >= 2 && d[0] == 0x00 && d[1] == '<') {
        little = false;
    } else {
        return false;
    }
    for (; i + 1 < n; i += 2) {
        uint8_t high = little ? d[i + 1] : d[i];
        uint8_t low = little ? d[i] : d[i + 1];
        if (high != 0) return false;
        if (low == '<') return true;
        if (low != ' ' && low != '\t' && low != '\r' && low != '\n')
            return false;
    }
    return false;
}

/* glTF 1.0 has "asset.version" starting with "1" (1.0, 1.0.1, the 1.1 draft)
 * or, in early files, no version but objects keyed by id. */
static bool looks_like_gltf1(const cJSON *root)
{
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (cJSON_IsString(version)) return version->valuestring[0] == '1';
    if (cJSON_IsNumber(version)) return version->valuedouble < 2.0;
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(root, "meshes");
    return cJSON_IsObject(nodes) || cJSON_IsObject(meshes);
}

static vs_result load_json(vs_asset *asset, const char *json, size_t size,
                           const uint8_t *bin, size_t bin_size, int glb_version,
                           const char *base_dir, vs_error *error)
{
    /* cJSON allocates its tree through its own process-wide hooks, out of
     * reach of the budget: its size is bounded from the text first, and
     * that bound is charged for as long as the tree lives. */
    mem_budget *budget = asset_budget(asset);
    const json_tree_bound bound = json_tree_bound_of(json, size);
    if (!budget_charge(budget, bound.bytes))
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: parsing the JSON takes up to %llu bytes (%llu "
                         "values, %llu strings), which exceed the memory "
                         "limit (max_total_memory: %llu bytes for the whole "
                         "load, %llu in use)",
                         asset->source_name, (unsigned long long)bound.bytes,
                         (unsigned long long)bound.values,
                         (unsigned long long)bound.strings,
                         (unsigned long long)budget->limit,
                         (unsigned long long)budget->used);
    cJSON *root = cJSON_ParseWithLength(json, size);
    if (!root) {
        budget_release(budget, bound.bytes);
        size_t offset = 0;
        if (json_well_formed(json, size, &offset))
            return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: out of memory parsing the JSON (%zu "
                             "bytes, up to %llu bytes of tree)",
                             asset->source_name, size,
                             (unsigned long long)bound.bytes);
        return set_error(error, VS_ERROR_PARSE,
                         "%s: invalid JSON near byte %zu", asset->source_name,
                         offset);
    }
    vs_result r;
    if (!cJSON_IsObject(root))
        r = set_error(error, VS_ERROR_INVALID,
                      "%s: the JSON root is not an object", asset->source_name);
    else if (glb_version == 1 || (glb_version == 0 && looks_like_gltf1(root)))
        r = gltf1_load(asset, root, bin, bin_size, base_dir, error);
    else
        r = gltf2_load(asset, root, bin, bin_size, base_dir, error);
    cJSON_Delete(root);
    budget_release(budget, bound.bytes);
    return r;
}

static vs_result load_any(vs_asset *asset, const uint8_t *data, size_t size,
                          const char *base_dir, vs_error *error)
{
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) {
        const char *json;
        size_t json_size, bin_size;
        const uint8_t *bin;
        uint32_t version;
        glb_notes notes;
        vs_result r = glb_parse_noted(data, size, asset->source_name, &json,
                                      &json_size, &bin, &bin_size, &version,
                                      &notes, error);
        if (r == VS_OK && notes.unaligned_chunk >= 0) {
            char where[32];
            snprintf(where, sizeof where, "GLB chunk %d",
                     notes.unaligned_chunk);
            r = asset_warn(asset, error, where, "read as written",
                           "length %u is not a multiple of 4",
                           notes.unaligned_length);
        }
        if (r != VS_OK) return r;
        return load_json(asset, json, json_size, bin, bin_size, (int)version,
                         base_dir, error);
    }
    size_t i = skip_bom_and_space(data, size);
    if (i < size && data[i] == '{')
        return load_json(asset, (const char *)data + i, size - i, NULL, 0, 0,
                         base_dir, error);
    if ((i < size && data[i] == '<') || starts_utf16_xml(data, size)) {
#if VSKIN_WITH_COLLADA
        return collada_load(asset, data, size, base_dir, error);
#else
        return set_error(error, VS_ERROR_UNSUPPORTED,
                         "%s: a COLLADA file, and this vskin was built "
                         "without COLLADA (VSKIN_WITH_COLLADA=OFF)",
                         asset->source_name);
#endif
    }
    if (size == 0)
        return set_error(error, VS_ERROR_PARSE, "%s: file is empty",
                         asset->source_name);
    return set_error(error, VS_ERROR_PARSE,
                     "%s: not a glTF (.gltf/.glb) or COLLADA (.dae) file",
                     asset->source_name);
}

/* A temporary the budget refused reached its caller as an ordinary failed
 * allocation: the load says which limit it was. */
static vs_result budget_refused(const mem_budget *budget, vs_error *error)
{
    char what[VS_ERROR_MESSAGE_SIZE];
    snprintf(what, sizeof what, "%s", error ? error->message : "");
    return set_error(error, VS_ERROR_LIMIT,
                     "%s: %llu more bytes would exceed the memory limit "
                     "(max_total_memory: %llu bytes for the whole load, "
                     "%llu in use)",
                     what, (unsigned long long)budget->refused_bytes,
                     (unsigned long long)budget->limit,
                     (unsigned long long)budget->refused_used);
}

static vs_result load_common(const void *data, size_t size, const char *name,
                             const char *base_dir, const vs_load_options *options,
                             vs_asset **out_asset, vs_error *error)
{
    vs_asset *asset = vs_priv_asset_create(name, options);
    if (!asset)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
    /* The file's bytes count against the load's budget, as whoever holds
     * them holds them for the whole load. */
    mem_budget *budget = asset_budget(asset);
    vs_result r;
    if (!budget_charge(budget, size))
        r = set_error(error, VS_ERROR_LIMIT,
                      "%s: %zu bytes of file exceed the memory limit "
                      "(max_total_memory: %llu bytes for the whole load)",
                      name, size, (unsigned long long)budget->limit);
    else if (base_dir &&
             !(((asset_internal *)asset->internal_)->base_dir =
                   vs_priv_asset_strdup(asset, base_dir)))
        r = set_error(error, VS_ERROR_LIMIT,
                      "%s: the base folder exceeds the memory limit", name);
    else
        r = load_any(asset, data, size, base_dir, error);
    if (r == VS_OK) r = asset_publish_warnings(asset, error);
    if (r == VS_ERROR_OUT_OF_MEMORY && budget->refused)
        r = budget_refused(budget, error);
    budget_release(budget, size);
    if (r != VS_OK) {
        vs_asset_free(asset);
        return r;
    }
    *out_asset = asset;
    return VS_OK;
}

/* The callbacks of the options: both of the allocator or neither, and no
 * release without a read. */
static vs_result check_options(const vs_load_options *options, const char *who,
                               vs_error *error)
{
    if (!options) return VS_OK;
    vs_result r = mem_check_allocator(&options->allocator, who,
                                      "options->allocator", error);
    if (r == VS_OK && !file_reader_valid(&options->file_reader))
        r = set_error(error, VS_ERROR_ARGUMENT,
                      "%s: options->file_reader: release is set but read "
                      "is NULL",
                      who);
    return r;
}

vs_result vs_asset_load_memory(const void *data, size_t size, const char *name,
                               const vs_load_options *options,
                               vs_asset **out_asset, vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    clear_error(error);
    if (!out_asset || (!data && size))
        return set_error(error, VS_ERROR_ARGUMENT, "vs_asset_load_memory: "
                                                   "NULL argument");
    *out_asset = NULL;
    vs_result r = check_options(options, "vs_asset_load_memory", error);
    if (r != VS_OK) return r;
    if (!name) name = "memory";
    vs_limits limits = vs_priv_limits_resolve(options ? &options->limits : NULL);
    if (size > limits.max_file_size)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: %zu bytes exceed the file size limit of %llu",
                         name, size, (unsigned long long)limits.max_file_size);
    return load_common(data ? data : "", size, name,
                       options ? options->base_dir : NULL, options, out_asset,
                       error);
}

vs_result vs_asset_load_file(const char *path, const vs_load_options *options,
                             vs_asset **out_asset, vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    clear_error(error);
    if (!path || !out_asset)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_asset_load_file: NULL argument");
    *out_asset = NULL;
    vs_result r = check_options(options, "vs_asset_load_file", error);
    if (r != VS_OK) return r;
    vs_limits limits = vs_priv_limits_resolve(options ? &options->limits : NULL);
    const load_io io = {.alloc = options ? &options->allocator : NULL,
                        .reader = options ? &options->file_reader : NULL};
    file_bytes file;
    r = load_io_read(&io, path, limits.max_file_size, &file, error);
    if (r != VS_OK) return r;

    /* Relative URIs resolve against the file's folder. */
    const char *slash = strrchr(path, '/');
    char *dir = slash ? mem_strndup(io.alloc, path, (size_t)(slash - path) + 1)
                      : mem_strdup(io.alloc, "./");
    if (!dir) {
        file_bytes_release(&io, &file);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    r = load_common(file.data ? file.data : (const uint8_t *)"", file.size,
                    path, dir, options, out_asset, error);
    mem_free(io.alloc, dir);
    file_bytes_release(&io, &file);
    return r;
}
