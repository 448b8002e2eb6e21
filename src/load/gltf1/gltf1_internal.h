/* SPDX-License-Identifier: MIT */
/* Shared state of the glTF 1.0 loader (gltf1_*.c). glTF 1.0 keys every
 * top-level object by a string id; the loader maps each dictionary to dense
 * indices in the order the ids appear in the JSON object and resolves every
 * reference through a sorted id table, so lookups stay O(log n) however large
 * the file. */
#ifndef VS_LOAD_GLTF1_GLTF1_INTERNAL_H
#define VS_LOAD_GLTF1_GLTF1_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/gltf_common.h"
#include "vskin/vskin.h"

/* Room for an object path such as nodes["id"].skeletons[3]; ids longer than
 * GLTF1_ID_SHOWN characters are cut in messages. */
#define GLTF1_PATH_SIZE 512
#define GLTF1_ID_SHOWN 120

typedef struct gltf1_id {
    const char *key;
    uint32_t index;
} gltf1_id;

/* One dictionary: items[i] is the object with dense index i (file order),
 * its id is items[i]->string. */
typedef struct gltf1_dict {
    const char *kind; /* singular, for messages: "node", "accessor", ... */
    uint32_t count;
    const cJSON **items;
    gltf1_id *sorted;
} gltf1_dict;

typedef struct gltf1_ctx {
    vs_asset *asset;
    load_io io;      /* the asset's allocator (temporaries) and file reader */
    const char *src; /* asset->source_name */
    const cJSON *root;
    const uint8_t *bin; /* KHR_binary_glTF body or NULL */
    size_t bin_size;
    const char *base_dir;
    vs_error *error;

    gltf1_dict buffers, views, accessors, materials, meshes, nodes, skins,
        animations, scenes;
    /* Buffers are decoded on first use so that unreferenced buffers (e.g.
     * shader or image data) cost nothing and cannot fail the load. */
    gltf_bytes *buffer_data;
    bool *buffer_loaded;
    /* Accessors resolved so far, by dense index (NULL until the first):
     * reading an accessor's JSON per reference would cost references x
     * its members. */
    struct gltf1_accessor *accessor_cache;
    bool *accessor_cached;
    /* The buffer read from the binary body although its id is not
     * binary_glTF (gltf1_accessors.c), -1 when none; found once. */
    int32_t body_alias;
    bool body_alias_known, body_alias_warned;
} gltf1_ctx;

/* ---- gltf1_dict.c: id tables and JSON field helpers */

/* Builds `dict` from root[key] (absent: empty). The member must be an object
 * whose members are objects; duplicate ids are rejected. */
vs_result gltf1_dict_build(gltf1_ctx *c, const cJSON *parent, const char *key,
                           const char *parent_path, const char *kind,
                           gltf1_dict *dict);
void gltf1_dict_free(gltf1_ctx *c, gltf1_dict *dict);
/* Dense index of `id`, or -1. */
int32_t gltf1_dict_find(const gltf1_dict *dict, const char *id);
/* Resolves the id string `item` found at `path`: on failure the message is
 * 'path: <kind> "<id>" does not exist' (or names the wrong JSON type). */
vs_result gltf1_resolve(gltf1_ctx *c, const gltf1_dict *dict, const cJSON *item,
                        const char *path, uint32_t *out);
/* Optional array of ids obj[key] resolved through dict into asset-owned
 * indices (*out NULL and *count 0 when absent). */
vs_result gltf1_resolve_ids(gltf1_ctx *c, const gltf1_dict *dict,
                            const cJSON *obj, const char *key, const char *path,
                            uint32_t **out, uint32_t *count);
/* The id of dense index i. */
const char *gltf1_id_of(const gltf1_dict *dict, uint32_t i);

/* Optional unsigned integer member (default when absent); rejects
 * non-integers, negatives and values above max. */
vs_result gltf1_get_uint(gltf1_ctx *c, const cJSON *obj, const char *key,
                         const char *path, uint64_t def, uint64_t max,
                         uint64_t *out);
/* Optional array of exactly n numbers; *found tells whether it was there. */
vs_result gltf1_get_floats(gltf1_ctx *c, const cJSON *obj, const char *key,
                           const char *path, uint32_t n, float *out,
                           bool *found);
/* Optional string member: NULL when absent, an error when not a string. */
vs_result gltf1_get_string(gltf1_ctx *c, const cJSON *obj, const char *key,
                           const char *path, const char **out);
/* Optional array member: NULL when absent, an error when not an array. */
vs_result gltf1_get_array(gltf1_ctx *c, const cJSON *obj, const char *key,
                          const char *path, const cJSON **out);
/* Arena copy of obj.name when it is a string, else of fallback; NULL (and
 * the error set) when out of memory. */
const char *gltf1_name(gltf1_ctx *c, const cJSON *obj, const char *fallback);
/* "<dict_key>[\"<id>\"]" into out (GLTF1_PATH_SIZE bytes). */
void gltf1_path(char *out, const char *dict_key, const char *id);
/* printf into out (GLTF1_PATH_SIZE bytes); a longer path is cut. */
void gltf1_pathf(char *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Sets an error "src: path: <formatted>" and returns code. */
vs_result gltf1_fail(gltf1_ctx *c, vs_result code, const char *path,
                     const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- gltf1_accessors.c: buffers, bufferViews, accessors */

typedef struct gltf1_accessor {
    uint32_t index;
    const char *id;
    gltf_accessor_desc desc;
} gltf1_accessor;

/* Resolves the accessor id `ref` (found at `path`), its bufferView and
 * buffer, and checks that every element lies inside the bufferView. */
vs_result gltf1_accessor_get(gltf1_ctx *c, const cJSON *ref, const char *path,
                             gltf1_accessor *out);
/* Requires `components` per element (0: any) and returns count *
 * components floats owned by the asset; integer components are decoded as
 * normalized when `normalized` is set. */
vs_result gltf1_accessor_floats(gltf1_ctx *c, const gltf1_accessor *acc,
                                const char *path, uint32_t components,
                                bool float_only, bool normalized, float **out);
/* Releases the decoded buffers. */
void gltf1_buffers_free(gltf1_ctx *c);

/* ---- the object loaders, called in this order by gltf1_load */

vs_result gltf1_load_materials(gltf1_ctx *c);
vs_result gltf1_load_meshes(gltf1_ctx *c);
/* Nodes; meshes of nodes with several meshes are merged into extra vs_mesh
 * entries appended after the file's meshes. */
vs_result gltf1_load_nodes(gltf1_ctx *c);
/* One vs_skin per (skin, skeletons) instance; sets vs_node.skin. */
vs_result gltf1_load_skins(gltf1_ctx *c);
vs_result gltf1_load_animations(gltf1_ctx *c);
vs_result gltf1_load_scenes(gltf1_ctx *c);

#endif
