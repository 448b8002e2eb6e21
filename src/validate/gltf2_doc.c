/* SPDX-License-Identifier: MIT */
/* The raw glTF 2.0 document for validation: JSON (or GLB), every buffer's
 * bytes, every bufferView's range and every accessor's JSON, each read as
 * far as it is well formed. What cannot be read is left unusable (ok =
 * false) and the checks that need it are skipped: the loader's error names
 * the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate_internal.h"

const cJSON *vd_item(const cJSON *array, uint32_t count, int64_t index)
{
    if (!array || index < 0 || index >= (int64_t)count) return NULL;
    return cJSON_GetArrayItem(array, (int)index);
}

int64_t vd_int(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsNumber(v)) return -1;
    double d = v->valuedouble;
    if (!(d >= 0 && d <= 4294967295.0) || d != floor(d)) return -1;
    return (int64_t)d;
}

static const cJSON *collection(const cJSON *root, const char *key,
                               uint32_t *count)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!cJSON_IsArray(a)) {
        *count = 0;
        return NULL;
    }
    *count = (uint32_t)cJSON_GetArraySize(a);
    return a;
}

static void load_buffers(vd_doc *d, const char *base_dir, uint64_t max)
{
    const cJSON *arr = collection(d->root, "buffers", &d->buffer_count);
    if (!d->buffer_count) return;
    d->raw_buffers =
        mem_calloc(vd_alloc(d), d->buffer_count, sizeof *d->raw_buffers);
    d->buffers = mem_calloc(vd_alloc(d), d->buffer_count, sizeof *d->buffers);
    if (!d->raw_buffers || !d->buffers) {
        d->r->oom = true;
        d->buffer_count = 0;
        return;
    }
    uint32_t i = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, arr)
    {
        gltf_bytes *raw = &d->raw_buffers[i], *out = &d->buffers[i];
        int64_t length = vd_int(b, "byteLength");
        const cJSON *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
        char path[64];
        snprintf(path, sizeof path, "buffers[%u].uri", i);
        if (cJSON_IsString(uri)) {
            vs_error err;
            /* A missing buffer is the loader's to report; a refused
             * allocation stops the validation. */
            if (gltf_load_uri_io(&d->io, d->src, base_dir, uri->valuestring,
                                 path, max, d->opt.allow_external_paths, raw,
                                 &err) == VS_ERROR_OUT_OF_MEMORY)
                d->r->oom = true;
        } else if (i == 0 && d->glb_bin && d->glb_bin_size) {
            /* The BIN chunk lies in the file's bytes, which outlive d. */
            *out = (gltf_bytes){(uint8_t *)d->glb_bin, d->glb_bin_size, false, false};
        }
        if (raw->data) *out = (gltf_bytes){raw->data, raw->size, false, false};
        /* byteLength bounds what views may use (the BIN chunk may be padded,
         * a file longer than declared is the validator's business). */
        if (out->data && length >= 0 && (uint64_t)length < out->size)
            out->size = (size_t)length;
        if (out->data && (length < 0 || (uint64_t)length > out->size))
            *out = (gltf_bytes){NULL, 0, false, false};
        ++i;
    }
}

static void load_views(vd_doc *d)
{
    const cJSON *arr = collection(d->root, "bufferViews", &d->view_count);
    if (!d->view_count) return;
    d->views = mem_calloc(vd_alloc(d), d->view_count, sizeof *d->views);
    if (!d->views) {
        d->r->oom = true;
        d->view_count = 0;
        return;
    }
    uint32_t i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, arr)
    {
        vd_view *out = &d->views[i++];
        int64_t buffer = vd_int(v, "buffer"), offset = vd_int(v, "byteOffset"),
                length = vd_int(v, "byteLength"),
                stride = vd_int(v, "byteStride");
        if (offset < 0) offset = 0;
        out->has_stride = stride >= 0;
        out->stride = stride >= 4 && stride <= 252 ? (uint32_t)stride : 0;
        if (buffer < 0 || buffer >= d->buffer_count || length < 1) continue;
        out->declared = true;
        out->size = (size_t)length;
        out->offset = (size_t)offset;
        const gltf_bytes *b = &d->buffers[buffer];
        if (!b->data || (uint64_t)offset + (uint64_t)length > b->size) continue;
        out->ok = true;
        out->data = b->data + offset;
    }
}

static uint32_t type_components(const char *type, bool *matrix)
{
    static const struct {
        const char *name;
        uint32_t n;
        bool matrix;
    } types[] = {{"SCALAR", 1, false}, {"VEC2", 2, false}, {"VEC3", 3, false},
                 {"VEC4", 4, false},   {"MAT2", 4, true},  {"MAT3", 9, true},
                 {"MAT4", 16, true}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(type, types[i].name) == 0) {
            *matrix = types[i].matrix;
            return types[i].n;
        }
    return 0;
}

static gltf_accessor_desc desc_of(const vd_doc *d, const vd_accessor *a,
                                  bool raw)
{
    gltf_accessor_desc desc = {0};
    const vd_view *v = &d->views[a->view];
    desc.data = v->data + a->offset;
    desc.available = v->size - (size_t)a->offset;
    desc.stride = v->stride;
    desc.count = a->count;
    desc.component_type = a->component_type;
    desc.components = a->components;
    desc.normalized = a->normalized && !raw;
    desc.is_matrix = a->is_matrix;
    return desc;
}

static void load_accessors(vd_doc *d)
{
    const cJSON *arr = collection(d->root, "accessors", &d->accessor_count);
    if (!d->accessor_count) return;
    d->accessors =
        mem_calloc(vd_alloc(d), d->accessor_count, sizeof *d->accessors);
    if (!d->accessors) {
        d->r->oom = true;
        d->accessor_count = 0;
        return;
    }
    uint32_t i = 0;
    const cJSON *j;
    cJSON_ArrayForEach(j, arr)
    {
        vd_accessor *a = &d->accessors[i++];
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
        int64_t ct = vd_int(j, "componentType"), count = vd_int(j, "count"),
                view = vd_int(j, "bufferView"),
                offset = vd_int(j, "byteOffset");
        a->view = view >= 0 && view < d->view_count ? (int32_t)view : -1;
        a->offset = offset >= 0 ? (uint64_t)offset : 0;
        a->normalized =
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "normalized"));
        a->sparse = cJSON_GetObjectItemCaseSensitive(j, "sparse") != NULL;
        a->type = cJSON_IsString(type) ? type->valuestring : "";
        a->components = type_components(a->type, &a->is_matrix);
        if (!a->components || !gltf_component_size((uint32_t)ct) || count < 1)
            continue;
        a->component_type = (uint32_t)ct;
        a->count = (uint32_t)count;
        a->ok = true;
        if (a->view < 0 || a->sparse || !d->views[a->view].ok ||
            a->offset > d->views[a->view].size)
            continue;
        gltf_accessor_desc desc = desc_of(d, a, true);
        if (d->views[a->view].stride &&
            d->views[a->view].stride < gltf_element_size(&desc))
            continue;
        a->data_ok = gltf_accessor_fits(&desc);
    }
}

float *vd_accessor_floats(vd_doc *d, int64_t i, bool raw)
{
    if (i < 0 || i >= d->accessor_count || !d->accessors[i].data_ok)
        return NULL;
    const vd_accessor *a = &d->accessors[i];
    float *out =
        mem_alloc(vd_alloc(d), (size_t)a->count * a->components * sizeof *out);
    if (!out) {
        d->r->oom = true;
        return NULL;
    }
    gltf_accessor_desc desc = desc_of(d, a, raw);
    gltf_decode_floats(&desc, out);
    return out;
}

bool vd_doc_open(vd_doc *d, const uint8_t *data, size_t size,
                 const char *base_dir, uint64_t max_buffer)
{
    const char *json = (const char *)data;
    size_t json_size = size;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) {
        vs_error err;
        uint32_t version;
        if (glb_parse(data, size, d->src, &json, &json_size, &d->glb_bin,
                      &d->glb_bin_size, &version, &err) != VS_OK ||
            version != 2)
            return false; /* the loader reports why */
    }
    d->root = cJSON_ParseWithLength(json, json_size);
    if (!cJSON_IsObject(d->root)) return false;
    d->nodes = collection(d->root, "nodes", &d->node_count);
    d->meshes = collection(d->root, "meshes", &d->mesh_count);
    d->skins = collection(d->root, "skins", &d->skin_count);
    d->animations = collection(d->root, "animations", &d->animation_count);
    d->scenes = collection(d->root, "scenes", &d->scene_count);
    load_buffers(d, base_dir, max_buffer);
    load_views(d);
    load_accessors(d);
    return !d->r->oom;
}

void vd_doc_close(vd_doc *d)
{
    for (uint32_t i = 0; d->raw_buffers && i < d->buffer_count; ++i)
        file_bytes_release(&d->io, &d->raw_buffers[i]);
    mem_free(vd_alloc(d), d->raw_buffers);
    mem_free(vd_alloc(d), d->buffers);
    mem_free(vd_alloc(d), d->views);
    mem_free(vd_alloc(d), d->accessors);
    mem_free(vd_alloc(d), d->parent);
    mem_free(vd_alloc(d), d->in_loop);
    mem_free(vd_alloc(d), d->roots);
    mem_free(vd_alloc(d), d->child_start);
    mem_free(vd_alloc(d), d->child);
    cJSON_Delete(d->root);
}
