/* SPDX-License-Identifier: MIT */
/* vs_validate_file / vs_validate_asset: the raw glTF 2.0 pass (every
 * problem of the document, gltf2_*.c), the loader's verdict, then the
 * model-level checks (model.c). */
#include <string.h>

#include "asset/asset_internal.h"
#include "format/read_file.h"
#include "validate/validate_internal.h"
#include "vskin/vskin_tools.h"

/* glTF 2.0 JSON or GLB version 2; glTF 1.0 and COLLADA are left to the
 * loader and the model checks. */
static bool is_gltf2(const uint8_t *data, size_t size)
{
    if (size >= 8 && memcmp(data, "glTF", 4) == 0) return data[4] == 2;
    size_t i = 0;
    if (size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
        i = 3;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                        data[i] == '\n'))
        ++i;
    return i < size && data[i] == '{';
}

static bool version_1(const cJSON *root)
{
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(root, "asset");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (cJSON_IsString(v)) return v->valuestring[0] == '1';
    if (cJSON_IsNumber(v)) return v->valuedouble < 2.0;
    return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "nodes")) ||
           cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "meshes"));
}

/* Returns whether the raw pass ran (the document is glTF 2.0 JSON). */
static bool raw_pass(vd_report *r, const vd_options *opt, const load_io *io,
                     const char *path, const uint8_t *data, size_t size,
                     const char *dir, uint64_t max_buffer)
{
    vd_doc d = {.r = r, .opt = *opt, .io = *io, .src = path};
    bool ran = false;
    if (vd_doc_open(&d, data, size, dir, max_buffer) && !version_1(d.root)) {
        ran = true;
        vd_check_accessors(&d);
        vd_check_meshes(&d);
        vd_check_nodes(&d);
        if (!r->oom) {
            vd_check_skins(&d);
            vd_check_animations(&d);
        }
    }
    vd_doc_close(&d);
    return ran;
}

static vs_result finish(vd_report *r, vs_validation_report **out,
                        vs_error *error, const char *name)
{
    *out = vd_report_finish(r);
    if (!*out)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory while validating", name);
    return VS_OK;
}

/* A JSON path of the loaders ("nodes[0].rotation") as the JSON pointer
 * the report uses ("/nodes/0/rotation"); false for anything else (a
 * COLLADA line and element), which stays in the message. */
static bool path_to_pointer(const char *path, char *out, size_t size)
{
    size_t n = 0;
    if (!path[0] || size < 2) return false;
    out[n++] = '/';
    for (const char *c = path; *c; ++c) {
        char ch = *c;
        if (ch == '.' || ch == '[') {
            ch = '/';
        } else if (ch == ']') {
            continue;
        } else if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                     (ch >= '0' && ch <= '9') || ch == '_')) {
            return false;
        }
        if (n + 1 >= size) return false;
        out[n++] = ch;
    }
    out[n] = '\0';
    return true;
}

/* The load's repairs (vs_asset.warnings) as warnings of the report: the
 * raw pass may report the same flaw as an error, and this says what the
 * loader made of it. */
static void report_load_warnings(vd_report *r, const vs_asset *asset)
{
    for (uint32_t i = 0; i < asset->warning_count; ++i) {
        const vs_warning *w = &asset->warnings[i];
        char pointer[256];
        if (path_to_pointer(w->object, pointer, sizeof pointer))
            vd_issue(r, VS_SEVERITY_WARNING, "LOAD_REPAIRED", pointer, "%s",
                     w->message);
        else
            vd_issue(r, VS_SEVERITY_WARNING, "LOAD_REPAIRED", "", "%s%s%s",
                     w->object, w->object[0] ? ": " : "", w->message);
    }
}

vs_result vs_validate_file(const char *path, const vs_validate_options *options,
                           vs_validation_report **out_report, vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    clear_error(error);
    if (!path || !out_report)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_validate_file: NULL argument");
    *out_report = NULL;
    vs_load_options load = options ? options->load : (vs_load_options){0};
    vs_result res = mem_check_allocator(&load.allocator, "vs_validate_file",
                                        "options->load.allocator", error);
    if (res != VS_OK) return res;
    if (!file_reader_valid(&load.file_reader))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_validate_file: options->load.file_reader: "
                         "release without read");
    vs_limits limits = vs_priv_limits_resolve(&load.limits);
    /* The raw pass reads the file, and its buffers, as the load does. */
    const load_io io = {.alloc = &load.allocator, .reader = &load.file_reader};
    file_bytes file;
    res = load_io_read(&io, path, limits.max_file_size, &file, error);
    if (res != VS_OK) return res;
    const uint8_t *data = file.data;
    const size_t size = file.size;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? mem_strndup(io.alloc, path, (size_t)(slash - path) + 1)
                      : mem_strdup(io.alloc, "./");
    vd_report *r = vd_report_create(path, io.alloc);
    if (!dir || !r) {
        mem_free(io.alloc, dir);
        file_bytes_release(&io, &file);
        vd_report_discard(r);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                         path);
    }
    if (options && options->max_issues) r->max_issues = options->max_issues;
    vd_options opt = vd_options_resolve(options);
    opt.allow_external_paths = load.allow_external_paths;
    bool raw = is_gltf2(data, size) && raw_pass(r, &opt, &io, path, data, size,
                                                dir, limits.max_buffer_size);
    if (raw) r->report->format = VS_FORMAT_GLTF2;
    load.base_dir = dir;
    vs_asset *asset = NULL;
    vs_error lerr;
    res = vs_asset_load_memory(data, size, path, &load, &asset, &lerr);
    if (res == VS_OK) {
        r->report->loaded = true;
        r->report->format = asset->format;
        report_load_warnings(r, asset);
        vd_check_model(r, &opt, asset, raw);
    } else if (res == VS_ERROR_OUT_OF_MEMORY) {
        r->oom = true;
    } else {
        vd_issue(r, VS_SEVERITY_ERROR, "LOAD_FAILED", "", "%s (%s)",
                 lerr.message, vs_result_string(res));
    }
    vs_asset_free(asset);
    mem_free(io.alloc, dir);
    file_bytes_release(&io, &file);
    return finish(r, out_report, error, path);
}

vs_result vs_validate_asset(const vs_asset *asset,
                            const vs_validate_options *options,
                            vs_validation_report **out_report, vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    clear_error(error);
    if (!asset || !out_report)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_validate_asset: NULL argument");
    *out_report = NULL;
    vd_report *r = vd_report_create(asset->source_name, asset_allocator(asset));
    if (!r)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                         asset->source_name);
    if (options && options->max_issues) r->max_issues = options->max_issues;
    vd_options opt = vd_options_resolve(options);
    r->report->format = asset->format;
    r->report->loaded = true;
    report_load_warnings(r, asset);
    vd_check_model(r, &opt, asset, false);
    return finish(r, out_report, error, asset->source_name);
}
