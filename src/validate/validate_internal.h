/* SPDX-License-Identifier: MIT */
/* Shared state of the validator (src/validate/): the report being built
 * and, for glTF 2.0, the raw document (JSON, buffers) that the raw passes
 * read. Unlike the loader, nothing here stops at the first problem: each
 * check adds an issue and goes on; only running out of memory stops. */
#ifndef VS_VALIDATE_VALIDATE_INTERNAL_H
#define VS_VALIDATE_VALIDATE_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/error.h"
#include "format/gltf_common.h"
#include "format/json_index.h"
#include "format/read_file.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* ---- the report (report.c) */

typedef struct vd_report {
    /* Every block of the validation comes from it, the report's too: the
     * asset's allocator, or vs_load_options.allocator for a file. */
    vs_allocator alloc;
    vs_validation_report *report;
    uint32_t capacity;
    uint32_t max_issues;
    uint32_t dropped; /* issues beyond max_issues */
    bool oom;
} vd_report;

vd_report *vd_report_create(const char *source_name, const vs_allocator *alloc);
/* Adds an issue; pointer is printf-formatted when it contains '%' args
 * (use vd_issue for the usual case). Out of memory sets r->oom. */
void vd_issue(vd_report *r, vs_severity sev, const char *code,
              const char *pointer, const char *fmt, ...) VS_PRINTF(5, 6);
/* out = base + suffix (truncated to size): a JSON pointer one level down. */
void vd_join(char *out, size_t size, const char *base, const char *suffix);
/* Whether an issue with this code and pointer is already there. */
bool vd_has(const vd_report *r, const char *code, const char *pointer);
/* Adds the truncation note, hands the public report over and frees r;
 * out of memory (now or before): frees r and its report, returns NULL. */
vs_validation_report *vd_report_finish(vd_report *r);
void vd_report_discard(vd_report *r);

/* The allocator of the report's validation. */
static inline const vs_allocator *vd_alloc_of(const vd_report *r)
{
    return &r->alloc;
}

/* ---- resolved options */
typedef struct vd_options {
    uint32_t max_influences;
    float weight_tolerance;
    /* vs_load_options.allow_external_paths: the raw pass reads buffers under
     * the same URI policy as the loader. */
    bool allow_external_paths;
} vd_options;
vd_options vd_options_resolve(const vs_validate_options *o);

/* ---- the raw glTF 2.0 document (gltf2_doc.c) */

typedef struct vd_view {
    bool declared; /* buffer index and byteLength valid (offset, size) */
    bool ok;       /* declared, and the buffer's bytes cover the range */
    const uint8_t *data;
    size_t size;
    size_t offset;   /* byteOffset in the buffer */
    uint32_t stride; /* 0 = absent */
    bool has_stride;
} vd_view;

/* One accessor as far as its JSON is well formed. */
typedef struct vd_accessor {
    bool ok; /* type, componentType and count are valid */
    uint32_t component_type;
    uint32_t components; /* 1..16 */
    bool is_matrix;
    bool normalized;
    uint32_t count;
    int32_t view;    /* -1 when none */
    uint64_t offset; /* accessor.byteOffset */
    bool sparse;
    bool data_ok;     /* ok, has a valid view and fits it, no sparse:
                         its elements can be read */
    const char *type; /* "VEC3"... */
} vd_accessor;

typedef struct vd_doc {
    vd_report *r;
    /* How the buffers are read: the file reader and allocator of the
     * vs_load_options. */
    load_io io;
    vd_options opt;
    const char *src;
    cJSON *root;
    uint32_t buffer_count;
    /* Each buffer as read (given back through io at close), and the part of
     * it that byteLength declares, which the views use (data NULL when
     * missing or shorter than declared). */
    file_bytes *raw_buffers;
    gltf_bytes *buffers;
    const uint8_t *glb_bin;
    size_t glb_bin_size;
    uint32_t view_count;
    vd_view *views;
    uint32_t accessor_count;
    vd_accessor *accessors;
    /* Root collections (NULL/0 when absent or not arrays). */
    const cJSON *nodes, *meshes, *skins, *animations, *scenes;
    uint32_t node_count, mesh_count, skin_count, animation_count, scene_count;
    /* Node hierarchy (filled by vd_check_nodes): the first parent that
     * lists a node (-1: root), children in CSR form, and whether the node
     * is on a cycle (ancestor walks stop at those). */
    int32_t *parent;
    bool *in_loop;
    int64_t *roots;        /* topmost ancestor, -1 on or below a loop */
    uint32_t *child_start; /* node_count + 1 */
    uint32_t *child;
} vd_doc;

/* Item i of a cJSON array in O(1) would need an index; these collections are
 * walked once per check, so cJSON_GetArrayItem's O(i) is only used for
 * references (bounded by the file size). */
const cJSON *vd_item(const cJSON *array, uint32_t count, int64_t index);
/* Integer member (0 to UINT32_MAX: byte lengths as well as indices) or -1
 * when absent or not a non-negative integer in that range. */
int64_t vd_int(const cJSON *obj, const char *key);

/* Parses data (glTF JSON or GLB), loads buffers and views, reads accessors.
 * Problems that stop the raw pass (not JSON) become issues; returns false
 * then. base_dir resolves relative URIs. */
/* The allocator every block of the raw pass comes from. */
static inline const vs_allocator *vd_alloc(const vd_doc *d)
{
    return vd_alloc_of(d->r);
}

bool vd_doc_open(vd_doc *d, const uint8_t *data, size_t size,
                 const char *base_dir, uint64_t max_buffer);
void vd_doc_close(vd_doc *d);

/* Elements of accessor i as floats (raw values: normalized integers are NOT
 * scaled when raw is true), count * components, from vd_alloc(d); NULL when it
 * cannot be read (or out of memory, which sets r->oom). */
float *vd_accessor_floats(vd_doc *d, int64_t i, bool raw);

/* ---- raw checks */
void vd_check_accessors(vd_doc *d); /* gltf2_accessors.c */
void vd_check_meshes(vd_doc *d);    /* gltf2_meshes.c */
void vd_check_nodes(vd_doc *d);     /* gltf2_nodes.c */
/* The topmost ancestor of node i (itself when a root); -1 when i is out of
 * range or on a loop. */
int64_t vd_root_of(const vd_doc *d, int64_t i);
/* Whether a's ancestors (or a itself) include b. */
bool vd_is_ancestor_or_self(const vd_doc *d, int64_t b, int64_t a);
/* Whether mesh m has a primitive with JOINTS_0. */
bool vd_mesh_skinned(const vd_doc *d, int64_t m);
/* Whether node n has a non-default matrix or TRS. */
bool vd_node_has_transform(const cJSON *n);
void vd_check_skins(vd_doc *d);      /* gltf2_skins.c */
void vd_check_animations(vd_doc *d); /* gltf2_anims.c */

/* ---- model checks (model.c); gltf2_raw_done: the raw pass covered the
 * per-vertex and structural checks, run only the model-only ones. */
void vd_check_model(vd_report *r, const vd_options *opt, const vs_asset *a,
                    bool gltf2_raw_done);

#endif
