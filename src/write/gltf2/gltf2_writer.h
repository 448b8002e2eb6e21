/* SPDX-License-Identifier: MIT */
/* Writing a vs_asset as glTF 2.0 (.gltf + .bin, .gltf with an embedded
 * data: URI, or .glb), whatever format it was loaded from. The output follows
 * glTF 2.0 semantics: joint matrices are G(joint) * IBM (§3.7.3.3), so a
 * glTF 1.0 / COLLADA bind shape matrix is folded into the inverse bind
 * matrices; COLLADA's up axis and unit are turned into Y-up metres unless
 * asked not to. docs/convert.md describes every mapping.
 *
 * gltf2_writer.c assembles the document and gltf2_writer_file.c writes it;
 * gltf2_writer_buffer.c owns the binary buffer, bufferViews and accessors;
 * gltf2_writer_mesh.c meshes and materials, gltf2_writer_images.c the
 * materials' images, samplers and textures, gltf2_writer_attrs.c the
 * attributes glTF constrains (normals, tangents, joints and weights);
 * gltf2_writer_nodes.c nodes, skins and scenes; gltf2_writer_anim.c
 * animations; gltf2_writer_axes.c the axis correction. */
#ifndef VS_WRITE_GLTF2_GLTF2_WRITER_H
#define VS_WRITE_GLTF2_GLTF2_WRITER_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/alloc.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

/* The public options and report (vskin_tools.h) under the writer's short
 * names; vs_write_gltf checks its arguments and calls gltf2_write_file. */
typedef vs_gltf_write_options gltf2_write_options;
typedef vs_gltf_write_report gltf2_write_report;

/* Writes `asset` to `path`: GLB when the name ends in ".glb" (any case),
 * else glTF JSON with the buffer in gltf2_bin_path(path) (or embedded).
 * Existing files are replaced (write/write_file.h): refusing them is the
 * caller's policy. report may be NULL. On failure no file is changed. */
vs_result gltf2_write_file(const vs_asset *asset, const char *path,
                           const gltf2_write_options *options,
                           gltf2_write_report *report, vs_error *error);

/* True when path ends in ".glb" (case-insensitive). */
bool gltf2_path_is_glb(const char *path);
/* The .bin written beside a .gltf: the path with its extension replaced by
 * ".bin" ("a/b.gltf" -> "a/b.bin"), from alloc (NULL: malloc); NULL when
 * out of memory. */
char *gltf2_bin_path(const char *gltf_path, const vs_allocator *alloc);

/* The matrix taking the asset's axes and unit to glTF's Y-up metres
 * (identity for glTF sources): a rotation (Z_UP: -90 deg about X, X_UP:
 * +90 deg about Z, COLLADA 1.4 §up_axis) times a uniform unit_meters scale.
 * Returns false when it is the identity. */
bool gltf2_axis_correction(const vs_asset *asset, float out[16]);

/* ---- shared by gltf2_writer*.c ------------------------------------------ */

/* The node forest's roots and pre-order intervals (gltf2_writer_tree.c). */
typedef struct gltf2w_tree gltf2w_tree;

typedef struct gltf2w_ctx {
    const vs_asset *asset;
    /* The asset's allocator: every block of the writer comes from it (the
     * JSON tree is cJSON's, which has its own hooks). */
    const vs_allocator *alloc;
    const char *path;           /* output file, for messages */
    vs_error *error;            /* never NULL */
    gltf2_write_report *report; /* never NULL */
    cJSON *root;
    cJSON *views;     /* root.bufferViews */
    cJSON *accessors; /* root.accessors */
    /* Their lengths: cJSON counts an array's items by walking it. */
    int32_t view_count, accessor_count;
    gltf2w_tree *tree; /* built once per write */
    /* glTF 2.0 wants a skin's joints distinct (§5.28, and vskin's loader
     * refuses repeats); a model may list one node twice with different
     * inverse bind matrices. Each repeat becomes a stand-in: a new node,
     * child of the repeated one with no transform of its own, so its world
     * matrix is the same and the pose is unchanged. joint_out: per joint
     * slot of every skin in order (joint_at[s] is skin s's first), the node
     * the file names; stand_in_parent: per stand-in (node index
     * asset->node_count + k), the node it stands in for. */
    uint32_t *joint_out, *joint_at;
    uint32_t *stand_in_parent, *stand_in_slot;
    uint32_t stand_in_count;
    /* Per node, its first stand-in, and per stand-in the next one of the
     * same node (UINT32_MAX ends the list); only when there are any. */
    uint32_t *stand_in_first, *stand_in_next;
    uint8_t *bin;     /* the single buffer */
    size_t bin_size, bin_capacity;
    /* Axis correction, applied to every root node: q (x,y,z,w) and a
     * uniform scale s, so C * T*R*S = T(s*q*t) * R(q*r) * S(s*S). */
    bool correct;
    float correction[16];
    float correction_q[4];
    float correction_s;
    /* Per node: an animation channel targets its translation, rotation or
     * scale (glTF forbids `matrix` on such nodes, §3.5.3). */
    bool *animated;
} gltf2w_ctx;

/* Unit vectors and quaternions: lengths off by more than GLTF2W_UNIT_FIX
 * are normalized; only those off by more than GLTF2W_UNIT_REPORT are counted
 * in the report, so float rounding in the source (0.383, 0.924) is fixed
 * without a warning. */
#define GLTF2W_UNIT_FIX 1e-6f
#define GLTF2W_UNIT_REPORT 1e-3f

/* The tree of the asset's nodes, through the writer's allocator; NULL when
 * memory runs out. */
gltf2w_tree *gltf2w_tree_build(const vs_asset *a, const vs_allocator *alloc);
void gltf2w_tree_free(gltf2w_tree *t);
/* Whether `ancestor` is `node` or one of its ancestors; O(1). */
bool gltf2w_tree_contains(const gltf2w_tree *t, uint32_t ancestor,
                          uint32_t node);
/* The root above node (node itself for a root). */
uint32_t gltf2w_tree_root(const gltf2w_tree *t, uint32_t node);
/* The distinct roots of the joints of every skin used by a node at or under
 * `node`, computed on the first call for that node; *out stays valid until
 * the next call for another node. False when memory runs out. */
bool gltf2w_tree_joint_roots(gltf2w_tree *t, const vs_asset *a, uint32_t node,
                             const uint32_t **out, uint32_t *out_count);
/* A fresh mark for gltf2w_tree_mark (which clears nothing): mark(n) is true
 * the first time n is marked with this stamp. */
uint32_t gltf2w_tree_stamp(gltf2w_tree *t);
bool gltf2w_tree_mark(gltf2w_tree *t, uint32_t node, uint32_t stamp);

/* Fills joint_out / stand_in_* (see gltf2w_ctx); false when memory runs
 * out. */
bool gltf2w_plan_joints(gltf2w_ctx *c);

/* Out of memory while building: sets the error, returns VS_ERROR_OUT_OF_MEMORY.
 */
vs_result gltf2w_oom(gltf2w_ctx *c, const char *what);

/* Appends size bytes at a 4-byte aligned offset as a new bufferView
 * (target 0 = none, else ARRAY_BUFFER 34962 / ELEMENT_ARRAY_BUFFER 34963).
 * Returns the view index, or -1 with the error set. */
int32_t gltf2w_view(gltf2w_ctx *c, const void *data, size_t size, int target);
/* A FLOAT accessor over its own bufferView; min/max (per component) are
 * added when `bounds` is set. type: "SCALAR", "VEC2".."VEC4", "MAT4". */
int32_t gltf2w_floats(gltf2w_ctx *c, const float *data, uint32_t count,
                      uint32_t components, const char *type, int target,
                      bool bounds);
/* An integer accessor (UNSIGNED_BYTE/SHORT/INT) over its own bufferView
 * from count * components uint32 values, each below the type's range. */
int32_t gltf2w_uints(gltf2w_ctx *c, const uint32_t *data, uint32_t count,
                     uint32_t components, const char *type,
                     uint32_t component_type, int target);

/* A JSON number for a float: the shortest decimal that reads back as it. */
cJSON *gltf2w_number(float value);
/* Adds key: [n numbers]; false when out of memory. */
bool gltf2w_add_floats(cJSON *obj, const char *key, const float *v, size_t n);

/* NORMAL / TANGENT accessors, renormalized where needed; -2 when the
 * attribute has a zero vector and is left out, -1 on error. */
int32_t gltf2w_normals(gltf2w_ctx *c, const vs_primitive *p);
int32_t gltf2w_tangents(gltf2w_ctx *c, const vs_primitive *p);
/* JOINTS_n / WEIGHTS_n for every set of 4 influences, added to attributes. */
vs_result gltf2w_influences(gltf2w_ctx *c, const vs_primitive *p,
                            cJSON *attributes);

vs_result gltf2w_meshes(gltf2w_ctx *c);
vs_result gltf2w_materials(gltf2w_ctx *c);
/* images, samplers and textures for the materials' base colour textures:
 * tex[m] (material_count entries) is material m's texture index, or -1 when
 * it has none or its image was left out (unreadable, or neither a whole PNG
 * nor a whole JPEG: counted in report->dropped_images). Images keep their
 * bytes, stored as bufferViews. */
vs_result gltf2w_textures(gltf2w_ctx *c, int32_t *tex);
/* pbr.baseColorTexture for ref written as `texture`, with
 * KHR_texture_transform (then named in extensionsUsed); false when out of
 * memory. */
bool gltf2w_texture_info(gltf2w_ctx *c, const vs_texture_ref *ref,
                         int32_t texture, cJSON *pbr);
/* The TEXCOORD_n set written for ref's coordinates: 0 for set 0, else 1
 * (primitives get TEXCOORD_1, glTF wanting the sets numbered from 0 without
 * gaps, §3.7.2.1). */
uint32_t gltf2w_texcoord_set(const vs_texture_ref *ref);
vs_result gltf2w_nodes(gltf2w_ctx *c);
vs_result gltf2w_skins(gltf2w_ctx *c);
vs_result gltf2w_scenes(gltf2w_ctx *c);
vs_result gltf2w_animations(gltf2w_ctx *c);
/* Per node: true when a channel targets its translation, rotation or scale
 * (from c->alloc; NULL when out of memory). */
bool *gltf2w_animated_nodes(const gltf2w_ctx *c);

/* Adds the buffer and writes the file(s) (gltf2_writer_file.c). */
vs_result gltf2w_emit(gltf2w_ctx *c, bool glb, bool embed);
/* Fills c->correct, correction, correction_q/_s from the asset. */
void gltf2w_setup_correction(gltf2w_ctx *c, bool keep_axes);
/* True when node i gets the correction: a root whose transform matters
 * (not a childless skinned mesh node, whose transform glTF ignores). */
bool gltf2w_corrects(const gltf2w_ctx *c, uint32_t node);
/* Axis correction of a root's local transform and animation values. */
void gltf2w_correct_trs(const gltf2w_ctx *c, vs_trs *trs);
void gltf2w_correct_values(const gltf2w_ctx *c, vs_anim_path path,
                           float *values, size_t count);

#endif
