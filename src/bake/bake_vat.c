/* SPDX-License-Identifier: MIT */
/* Vertex-animation textures (bake/bake.h, docs/bake.md): every frame of a clip
 * posed and stored as one row of raw float32 (little-endian) x y z per
 * vertex, all primitives of all mesh instances in pose_all_primitives order;
 * a JSON file describes the rows and names the static mesh (frame 0, .glb)
 * whose vertices the rows follow. The files are written to temporary names
 * and renamed into place once all are complete. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "bake/bake.h"
#include "bake/bake_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "write/gltf2/gltf2_writer.h"
#include "write/mesh_writers.h"
#include "write/posed_scene.h"
#include "write/write_file.h"

static char *with_suffix(const vs_allocator *alloc, const char *base,
                         const char *suffix)
{
    size_t n = strlen(base), m = strlen(suffix);
    char *s = mem_alloc(alloc, n + m + 1);
    if (s) {
        memcpy(s, base, n);
        memcpy(s + n, suffix, m + 1);
    }
    return s;
}

static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static bool host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Appends n floats as float32 little-endian. */
static bool write_floats(FILE *f, const float *v, size_t n)
{
    if (host_is_little_endian()) return fwrite(v, sizeof *v, n, f) == n;
    for (size_t i = 0; i < n; ++i) {
        unsigned char b[4], r[4];
        memcpy(b, &v[i], 4);
        for (int k = 0; k < 4; ++k)
            r[k] = b[3 - k];
        if (fwrite(r, 1, 4, f) != 4) return false;
    }
    return true;
}

typedef struct vat_files {
    char *bin, *normals, *json, *glb;
    out_file pos, nrm, text; /* base.bin, base.normals.bin, base.json */
    bool with_normals;       /* base.normals.bin is written */
} vat_files;

/* One frame's rows; widens the position bounds. */
static bool write_frame(vat_files *files, const vs_posed_primitive *posed,
                        uint32_t prims, float lo[3], float hi[3])
{
    for (uint32_t k = 0; k < prims; ++k) {
        const vs_posed_primitive *p = &posed[k];
        if (!write_floats(files->pos.f, p->positions,
                          (size_t)p->vertex_count * 3))
            return false;
        if (files->nrm.f && !write_floats(files->nrm.f, p->normals,
                                          (size_t)p->vertex_count * 3))
            return false;
        for (size_t v = 0; v < (size_t)p->vertex_count * 3; ++v) {
            float x = p->positions[v];
            if (!isfinite(x)) continue;
            lo[v % 3] = fminf(lo[v % 3], x);
            hi[v % 3] = fmaxf(hi[v % 3], x);
        }
    }
    return true;
}

static cJSON *floats_json(const float *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; ++i)
        cJSON_AddItemToArray(a, json_float(v[i]));
    return a;
}

static vs_result write_json(const vs_asset *asset, uint32_t clip,
                            const bake_clip_options *o, const float *times,
                            uint32_t count, vat_files *files, const float lo[3],
                            const float hi[3], vs_error *error)
{
    cJSON *root = cJSON_CreateObject();
    if (!root) return set_error(error, VS_ERROR_OUT_OF_MEMORY, "out of memory");
    uint32_t vertices = 0;
    cJSON *prims = cJSON_CreateArray();
    for (uint32_t i = 0; prims && i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *m = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; p < m->primitive_count; ++p) {
            cJSON *e = cJSON_CreateObject();
            if (!e) break;
            cJSON_AddStringToObject(e, "node_name", asset->nodes[node].name);
            cJSON_AddNumberToObject(e, "mesh", i);
            cJSON_AddNumberToObject(e, "primitive", p);
            cJSON_AddNumberToObject(e, "first_vertex", vertices);
            cJSON_AddNumberToObject(e, "vertex_count",
                                    m->primitives[p].vertex_count);
            cJSON_AddItemToArray(prims, e);
            vertices += m->primitives[p].vertex_count;
        }
    }
    const vs_clip *c = &asset->clips[clip];
    cJSON_AddStringToObject(root, "format", "vskin-vat");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "source", asset->source_name);
    cJSON_AddStringToObject(root, "clip", c->name ? c->name : "");
    cJSON_AddNumberToObject(root, "clip_index", clip);
    cJSON_AddItemToObject(root, "fps", json_float(o->fps));
    cJSON_AddNumberToObject(root, "frames", count);
    cJSON_AddItemToObject(root, "frame_times", floats_json(times, count));
    cJSON_AddNumberToObject(root, "vertex_count", vertices);
    cJSON_AddStringToObject(root, "component_type", "float32 little-endian");
    cJSON_AddStringToObject(root, "row_layout",
                            "row f = frame f; vertex v at floats 3v, 3v+1, "
                            "3v+2 (x, y, z); vertices in 'primitives' order");
    cJSON_AddNumberToObject(root, "row_floats", (double)vertices * 3);
    cJSON_AddNumberToObject(root, "row_bytes", (double)vertices * 12);
    cJSON *pos = cJSON_AddObjectToObject(root, "positions");
    if (pos) {
        cJSON_AddStringToObject(pos, "file", file_name(files->bin));
        cJSON_AddItemToObject(pos, "min", floats_json(lo, 3));
        cJSON_AddItemToObject(pos, "max", floats_json(hi, 3));
    }
    if (files->with_normals) {
        cJSON *n = cJSON_AddObjectToObject(root, "normals");
        if (n) cJSON_AddStringToObject(n, "file", file_name(files->normals));
    }
    cJSON_AddStringToObject(root, "mesh", file_name(files->glb));
    cJSON_AddItemToObject(root, "primitives", prims);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) return set_error(error, VS_ERROR_OUT_OF_MEMORY, "out of memory");
    file_part parts[] = {{text, strlen(text)}, {"\n", 1}};
    vs_result r = write_file_parts(&files->text, files->json,
                                   asset_allocator(asset), parts, 2, error);
    cJSON_free(text); /* cJSON_Print's, through cJSON's own hooks */
    return r;
}

static bool has_normals(const vs_asset *asset)
{
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        const vs_mesh *m =
            &asset->meshes[asset->nodes[asset->instances[i]].mesh];
        for (uint32_t p = 0; p < m->primitive_count; ++p)
            if (!m->primitives[p].normals) return false;
    }
    return asset->instance_count > 0;
}

/* Frame by frame: pose, append rows, free; memory stays one frame, plus
 * frame 0 as the static mesh the rows follow (*baked). */
static vs_result write_rows(const vs_asset *asset, uint32_t clip,
                            const bake_clip_options *o, const float *times,
                            uint32_t count, vat_files *files, float lo[3],
                            float hi[3], vs_asset **baked, vs_error *error)
{
    vs_pose *pose = NULL;
    vs_result r = vs_pose_create(asset, &pose, error);
    for (uint32_t f = 0; r == VS_OK && f < count; ++f) {
        vs_posed_primitive *posed = NULL;
        uint32_t prims = 0;
        r = bake_pose_frame(pose, clip, times[f], &o->mesh, &posed, &prims,
                            error);
        if (r == VS_OK && !write_frame(files, posed, prims, lo, hi))
            r = set_error(error, VS_ERROR_IO, "%s: write error", files->bin);
        posed_primitives_free(asset_allocator(asset), posed, prims);
        if (r == VS_OK && f == 0) r = bake_pose(pose, &o->mesh, baked, error);
    }
    vs_pose_free(pose);
    return r;
}

vs_result bake_vat_write(const vs_asset *asset, uint32_t clip,
                         const bake_clip_options *options, const char *base,
                         vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    if (!asset || !options || !base)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_bake_vat_write: asset and base are needed");
    float *times = NULL;
    uint32_t count = 0;
    vs_result r = bake_check_meshes(asset, error);
    if (r != VS_OK) return r;
    r = bake_frame_times(asset, clip, options->fps, &times, &count, error);
    if (r != VS_OK) return r;
    const vs_allocator *alloc = asset_allocator(asset);
    vat_files files = {.bin = with_suffix(alloc, base, ".bin"),
                       .normals = with_suffix(alloc, base, ".normals.bin"),
                       .json = with_suffix(alloc, base, ".json"),
                       .glb = with_suffix(alloc, base, ".glb"),
                       .with_normals = has_normals(asset)};
    if (!files.bin || !files.normals || !files.json || !files.glb)
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY, "out of memory");
    if (r == VS_OK) r = out_file_open(&files.pos, files.bin, alloc, error);
    if (r == VS_OK && files.with_normals)
        r = out_file_open(&files.nrm, files.normals, alloc, error);
    float lo[3] = {INFINITY, INFINITY, INFINITY};
    float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    vs_asset *baked = NULL;
    if (r == VS_OK)
        r = write_rows(asset, clip, options, times, count, &files, lo, hi,
                       &baked, error);
    if (r == VS_OK) r = out_file_close(&files.pos, error);
    if (r == VS_OK) r = out_file_close(&files.nrm, error);
    if (r == VS_OK)
        r = write_json(asset, clip, options, times, count, &files, lo, hi,
                       error);
    /* The .glb is the last file written and the first renamed into place;
     * the others follow it, all under the folder's lock, so that bakes of
     * one BASE at once leave one bake's set (out_files_commit). */
    int lock = -1;
    if (r == VS_OK)
        r = out_folder_lock(files.glb, asset_allocator(asset), &lock, error);
    if (r == VS_OK) r = gltf2_write_file(baked, files.glb, NULL, NULL, error);
    out_file *rest[] = {&files.pos, &files.nrm, &files.text};
    for (size_t i = 0; r == VS_OK && i < 3; ++i)
        if (rest[i]->tmp) r = out_file_commit(rest[i], error);
    out_folder_unlock(lock);
    out_file_discard(&files.pos);
    out_file_discard(&files.nrm);
    out_file_discard(&files.text);
    vs_asset_free(baked);
    mem_free(alloc, files.bin);
    mem_free(alloc, files.normals);
    mem_free(alloc, files.json);
    mem_free(alloc, files.glb);
    mem_free(alloc, times);
    return r;
}
