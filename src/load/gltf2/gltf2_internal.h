/* SPDX-License-Identifier: MIT */
/* Shared state of the glTF 2.0 loader (gltf2_*.c) and its small JSON
 * helpers. Every helper takes the JSON path of the object it reads so that
 * each message reads "file: meshes[0].primitives[1].indices: what is wrong". */
#ifndef VS_LOAD_GLTF2_GLTF2_INTERNAL_H
#define VS_LOAD_GLTF2_GLTF2_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "format/gltf_common.h"
#include "format/json_index.h"
#include "vskin/vskin.h"

#define GLTF2_PATH 192 /* room for the deepest JSON path we print */

typedef struct gltf2_buffer {
    const uint8_t *data; /* NULL: no data (placeholder), see missing */
    const char *missing; /* why there is no data */
    bool unsupported;    /* missing because vskin never reads such URIs */
    size_t size;         /* byteLength */
    gltf_bytes owned; /* bytes of a data: URI or file, given back at the end */
} gltf2_buffer;

typedef struct gltf2_view {
    uint32_t buffer;
    size_t size;
    size_t buffer_offset; /* byteOffset in the buffer (alignment checks) */
    uint32_t stride;      /* 0 = tightly packed */
    /* EXT_meshopt_compression: the view's bytes, decoded at load (from the
     * load's allocator, freed with the buffers); NULL for a plain view. */
    uint8_t *decoded;
} gltf2_view;

typedef struct gltf2_ctx {
    vs_asset *asset;
    load_io io; /* the asset's allocator (temporaries) and file reader */
    const cJSON *root;
    const char *src; /* asset->source_name */
    vs_error *error;
    uint32_t buffer_count;
    gltf2_buffer *buffers;
    uint32_t view_count;
    gltf2_view *views;
    uint32_t accessor_count;
    const cJSON *accessors;
    /* accessors[i] by index: cJSON arrays are linked lists, and a lookup per
     * reference would make loading quadratic in the accessor count. */
    const cJSON **accessor_items;
    /* Every accessor's JSON read once (gltf2_check_accessors): reading an
     * accessor object per reference would cost references x its members. */
    struct gltf2_parsed *parsed;
    uint32_t node_count;
    uint32_t skin_count;   /* root "skins" array size (before loading) */
    uint32_t camera_count; /* root "cameras" array size */
    bool quantization;     /* KHR_mesh_quantization is required */
    /* Per material: 1 when it was dropped as broken; NULL when none was. */
    uint8_t *material_dropped;
    bool draco_required;   /* KHR_draco_mesh_compression is required */
    bool meshopt_required; /* EXT_meshopt_compression is required */
    /* While a KHR_draco_mesh_compression primitive loads: per accessor, the
     * decoded bytes that stand in for its data (NULL: none), all in one
     * block; the accessors set are listed to clear them afterwards. */
    const uint8_t **decoded;
    uint8_t *draco_block;
    int32_t *draco_accessors;
    uint32_t draco_accessor_count;
    /* Per-node marks for duplicate checks (gltf2_marks.c). */
    uint32_t *mark_stamp;
    uint8_t *mark_bits;
    uint32_t mark_current;
} gltf2_ctx;

/* ---- JSON helpers (gltf2_json.c); absent optional members keep defaults */

/* Formats a JSON path into out[GLTF2_PATH], truncating when too long. */
void path_fmt(char *out, const char *fmt, ...) VS_PRINTF(2, 3);

/* Optional array member: *out NULL and *count 0 when absent. */
vs_result json_array(gltf2_ctx *c, const cJSON *obj, const char *key,
                     const char *path, const cJSON **out, uint32_t *count);
/* Optional object member (NULL when absent). */
vs_result json_object(gltf2_ctx *c, const cJSON *obj, const char *key,
                      const char *path, const cJSON **out);
/* An object's index-th array element must itself be an object. */
vs_result json_element_object(gltf2_ctx *c, const cJSON *item,
                              const char *path);
/* Integer in [0, count): absent -> *out = -1 unless required. */
vs_result json_index(gltf2_ctx *c, const cJSON *obj, const char *key,
                     const char *path, uint32_t count, bool required,
                     int32_t *out);
/* Non-negative integer; absent -> def unless required. */
vs_result json_uint(gltf2_ctx *c, const cJSON *obj, const char *key,
                    const char *path, bool required, uint64_t def,
                    uint64_t *out);
/* A value (not a member) that must be an index in [0, count). */
vs_result json_index_value(gltf2_ctx *c, const cJSON *item, const char *path,
                           uint32_t count, uint32_t *out);
/* Fixed-length number array; absent leaves out untouched. *present tells. */
vs_result json_floats(gltf2_ctx *c, const cJSON *obj, const char *key,
                      const char *path, float *out, uint32_t n,
                      bool *present);
/* Optional string member; absent -> def. Wrong type -> error. */
vs_result json_string(gltf2_ctx *c, const cJSON *obj, const char *key,
                      const char *path, const char *def, const char **out);
/* The "name" member copied into the asset ("" when absent). */
vs_result json_name(gltf2_ctx *c, const cJSON *obj, const char *path,
                    const char **out);

/* ---- per-node marks (gltf2_marks.c): duplicate checks over node lists in
 * linear time, without clearing an array per list. */
vs_result marks_alloc(gltf2_ctx *c);
/* Starts a new list: every mark is cleared, in O(1). */
void marks_begin(gltf2_ctx *c);
/* Sets `bit` (1..128) on `node`; returns whether it was already set. */
bool marks_test_set(gltf2_ctx *c, uint32_t node, uint8_t bit);
/* Frees the marks, the accessor index and the buffers. */
void gltf2_ctx_free(gltf2_ctx *c);

/* ---- buffers and views (gltf2_buffers.c) */
vs_result gltf2_load_buffers(gltf2_ctx *c, const uint8_t *bin,
                             size_t bin_size, const char *base_dir);
void gltf2_free_buffers(gltf2_ctx *c);
/* A view's bytes for a decoder: NULL (and the error set, naming `path`)
 * when its buffer has no data. */
const uint8_t *gltf2_view_bytes(gltf2_ctx *c, uint32_t view,
                                const char *path);

/* ---- compressed geometry: the message of a build without a decoder,
 * "FILE: PATH: EXTENSION: this build of vskin has no NAME decoder" */
vs_result gltf2_no_decoder(gltf2_ctx *c, const char *path,
                           const char *extension, const char *decoder);

/* KHR_draco_mesh_compression (gltf2_draco.c): decodes the primitive's
 * Draco data, if it has any, so that its accessors read the decoded
 * values until gltf2_draco_end; call after gltf2_check_attributes. */
vs_result gltf2_draco_begin(gltf2_ctx *c, const cJSON *prim,
                            const cJSON *attrs, const char *path,
                            uint32_t mode);
void gltf2_draco_end(gltf2_ctx *c);

/* EXT_meshopt_compression (gltf2_meshopt.c): when the bufferView (JSON v,
 * checked as a plain view into `view`) has the extension, decodes its data
 * into view->decoded. */
vs_result gltf2_meshopt_view(gltf2_ctx *c, const cJSON *v, const char *path,
                             gltf2_view *view);
/* Whether buffer b (JSON) is EXT_meshopt_compression's fallback and this
 * build never reads it: one without a uri, and with the decoder any, as
 * only readers without it need its data. */
bool gltf2_meshopt_fallback(const cJSON *b, bool has_uri);

/* ---- accessors (gltf2_accessor.c) */

/* What a reference expects of an accessor. */
typedef struct gltf2_expect {
    const char *types[4];    /* allowed "type" values, NULL-terminated */
    uint32_t ctypes;         /* allowed componentTypes: GLTF2_CT bits */
    uint32_t ctypes_normalized; /* of those, the ones that must be normalized */
    uint32_t count;          /* required element count, 0 = any */
    /* The core rule that KHR_mesh_quantization widens: messages say so. */
    bool quantizable;
} gltf2_expect;

#define GLTF2_CT(t) (1u << ((t) - GLTF_BYTE))
#define GLTF2_CT_FLOAT GLTF2_CT(GLTF_FLOAT)
#define GLTF2_CT_INTS                                                          \
    (GLTF2_CT(GLTF_BYTE) | GLTF2_CT(GLTF_UNSIGNED_BYTE) |                      \
     GLTF2_CT(GLTF_SHORT) | GLTF2_CT(GLTF_UNSIGNED_SHORT))

/* Decodes accessor `index` (referenced from `ref`) to floats owned by the
 * asset: count * components values. */
vs_result gltf2_accessor_floats(gltf2_ctx *c, int32_t index, const char *ref,
                                const gltf2_expect *expect, float **out,
                                uint32_t *count, uint32_t *components);
/* Same, to uint32 in an array the caller frees (mem_free(c->io.alloc)). */
vs_result gltf2_accessor_uints(gltf2_ctx *c, int32_t index, const char *ref,
                               const gltf2_expect *expect, uint32_t **out,
                               uint32_t *count, uint32_t *components);

/* Reads the root "accessors" array and indexes it; call before any other
 * accessor function (gltf2_ctx_free frees the index). */
vs_result gltf2_index_accessors(gltf2_ctx *c);

/* Checks every accessor's JSON, its fit in its bufferView and, where the
 * data is there, its floats and sparse indices, without decoding anything.
 * After it, gltf2_accessor_info may trust the accessors' JSON. */
vs_result gltf2_check_accessors(gltf2_ctx *c);

typedef struct gltf2_accessor_summary {
    uint32_t count;
    uint32_t component_type;
    bool has_source; /* bufferView or sparse: else all zeros, no real data */
    bool has_bounds; /* min and max present */
    bool has_sparse;
    uint32_t components; /* 1..16 once checked, 0 before */
    bool is_matrix;
} gltf2_accessor_summary;

/* JSON facts of a checked accessor; false when index is out of range. */
bool gltf2_accessor_info(const gltf2_ctx *c, int32_t index,
                         gltf2_accessor_summary *out);

/* JSON checks of primitive attributes and targets (gltf2_attributes.c). */
vs_result gltf2_check_attributes(gltf2_ctx *c, const cJSON *prim,
                                 const cJSON *attrs, const char *path);
/* NORMAL/TANGENT unit length and tangent sign of a decoded primitive
 * (attrs: its attributes object; zero-filled accessors are not checked):
 * those off are normalised in place, with a warning. */
vs_result gltf2_check_directions(gltf2_ctx *c, const cJSON *attrs,
                                 const char *ap, vs_primitive *p);
/* A primitive without POSITION: its targets, all empty. */
vs_result gltf2_empty_targets(gltf2_ctx *c, const cJSON *prim,
                              const char *path, vs_primitive *p);
/* Root collections, extensionsUsed/Required, root extensions
 * (gltf2_validate.c). */
vs_result gltf2_check_root(gltf2_ctx *c);
/* Checks that need the finished hierarchy (after vs_priv_asset_finalize): node
 * weights vs morph targets, skin.skeleton vs joints (gltf2_validate.c). */
vs_result gltf2_check_links(gltf2_ctx *c);

/* Scene lists that name non-root nodes, repaired with warnings
 * (gltf2_scene_roots.c); after the nodes are loaded. */
vs_result gltf2_scene_roots(gltf2_ctx *c, vs_scene *scenes, uint32_t n);

/* ---- objects */
vs_result gltf2_load_nodes(gltf2_ctx *c);
vs_result gltf2_load_scenes(gltf2_ctx *c);
vs_result gltf2_load_meshes(gltf2_ctx *c);
/* Images before materials, materials before meshes: a primitive decodes
 * the texture coordinate set its material reads (gltf2_material.c). */
vs_result gltf2_load_images(gltf2_ctx *c);
vs_result gltf2_load_materials(gltf2_ctx *c);
vs_result gltf2_load_skins(gltf2_ctx *c);
vs_result gltf2_load_animations(gltf2_ctx *c);

#endif
