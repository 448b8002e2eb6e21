/* SPDX-License-Identifier: MIT */
/* Shared state of the COLLADA loader (collada_*.c except the animation
 * part). The pipeline:
 *   XML (libxml2) -> id index -> visual scenes walked into runtime nodes and
 *   transform stacks (collada_scene.c) -> every <instance_geometry> /
 *   <instance_controller> becomes one vs_mesh (collada_geometry.c,
 *   collada_material.c) and, for controllers, one vs_skin with its joints
 *   resolved in the scene (collada_skin.c) -> animations ->
 * vs_priv_asset_finalize. Temporary data lives in ctx->tmp (freed when the load
 * ends); only what the asset keeps is allocated with vs_priv_asset_calloc. See
 * docs/formats.md. */
#ifndef VS_LOAD_COLLADA_COLLADA_LOADER_H
#define VS_LOAD_COLLADA_COLLADA_LOADER_H

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/error.h"
#include "load/collada/collada_internal.h"

typedef struct collada_id {
    const char *id;
    const xmlNode *element;
    uint32_t order; /* document order, to keep the first of equal ids */
} collada_id;

/* A string key of a runtime node (its id, sid or name) for joint lookups. */
typedef struct collada_key {
    const char *key;
    uint32_t node;
} collada_key;

/* A mesh instance found while walking the scene, built once the whole node
 * tree exists (skins need it). */
typedef struct collada_instance {
    const xmlNode *element; /* <instance_geometry> or <instance_controller> */
    uint32_t node;
    uint32_t scene; /* visual scene index */
} collada_instance;

typedef struct collada_ctx {
    vs_asset *asset;
    vs_error *error;
    const char *src; /* asset->source_name */
    const xmlNode *root;
    /* Temporaries, charged to the load's one memory budget. */
    arena tmp;
    /* The XML text and tree estimate charged to that budget while the
     * document lives (collada_xml_read), given back after it is freed. */
    uint64_t xml_charged;

    collada_id *ids; /* every element with an id, sorted by id */
    uint32_t id_count;

    /* Runtime nodes, grown while walking (malloc'd; copied into the asset at
     * the end). Indices are pre-order per visual scene, so the subtree of
     * node i is [i, subtree_end[i]) and scene s is [scene_begin[s],
     * scene_begin[s + 1]). */
    vs_node *nodes;
    collada_node_stack *stacks;
    uint32_t *subtree_end;
    uint32_t node_count, node_cap;
    uint32_t *scene_begin; /* visual_scene_count + 1 entries */

    collada_instance *instances;
    uint32_t instance_count, instance_cap;

    /* Runtime node keys for joint lookups, each sorted by (key, node). */
    collada_key *by_id, *by_sid, *by_name;
    uint32_t by_id_count, by_sid_count, by_name_count;

    const xmlNode **materials; /* <material> elements, asset material order */
    uint32_t material_count;
    vs_skin *skins; /* one per <instance_controller> */
    uint32_t skin_count;
} collada_ctx;

/* Error result when ctx->error was set by an allocator. */
#define COLLADA_ERR(ctx) ((ctx)->error->code)

/* ---- collada_xml.c: elements, attributes, text, numbers, errors */

/* Local element name test (COLLADA 1.4 and 1.5 differ only in namespace). */
bool collada_is(const xmlNode *n, const char *name);
/* First element child named name, or NULL. */
const xmlNode *collada_child(const xmlNode *n, const char *name);
/* Next element sibling after n named name (NULL name: any), or NULL. */
const xmlNode *collada_next(const xmlNode *n, const char *name);
/* Attribute value without copying (NULL when absent). */
const char *collada_attr(const xmlNode *n, const char *name);
/* Iterates every <name> of every <library> under root: item NULL gives the
 * first, then the one after item; NULL at the end. */
const xmlNode *collada_item(const xmlNode *root, const xmlNode *item,
                            const char *library, const char *name);
/* Pre-order walk below root (root excluded), iterative. */
const xmlNode *collada_walk(const xmlNode *n, const xmlNode *root);

/* "FILE: line N: <element attr="value">: message"; attr NULL shows the
 * element's id when it has one. Returns code. */
vs_result collada_fail(collada_ctx *ctx, vs_result code, const xmlNode *element,
                       const char *attr, const char *fmt, ...) VS_PRINTF(5, 6);
/* A flaw vskin repairs (asset_warn): the warning's object is "line N:
 * <element attr="value">" as collada_fail names it. VS_OK, or the strict
 * load's refusal. */
vs_result collada_warn(collada_ctx *ctx, const xmlNode *element,
                       const char *attr, const char *action, const char *fmt,
                       ...) VS_PRINTF(5, 6);
/* Turns the refusal just made (ctx->error, whose message names the file
 * first) into a warning on `element`: for what turned out to lie outside
 * the pose (an effect, or an instance whose geometry cannot be read, which
 * is then dropped). VS_OK, or the strict load's refusal. */
vs_result collada_demote(collada_ctx *ctx, const xmlNode *element,
                         const char *attr, const char *action);
void *collada_tmp(collada_ctx *ctx, size_t count, size_t size,
                  const char *where);
/* Arena copy of s in the asset (NULL s gives NULL); false when out of
 * memory (error set). */
bool collada_strdup(collada_ctx *ctx, const char *s, const char **out);

/* The element's text (its text children joined); an element child inside
 * is an error. */
vs_result collada_text(collada_ctx *ctx, const xmlNode *n, const char **out);
/* Whitespace-separated numbers of the element's text. *count receives how
 * many; arrays live in ctx->tmp. */
vs_result collada_floats(collada_ctx *ctx, const xmlNode *n, float **out,
                         uint32_t *count);
/* collada_floats, but INF and NaN values (also the Microsoft C runtime's
 * "1.#INF" spellings) read as 0 and are counted in *zeroed. */
vs_result collada_floats_zeroing(collada_ctx *ctx, const xmlNode *n,
                                 float **out, uint32_t *count,
                                 uint32_t *zeroed);
/* Integers in [min, UINT32_MAX] as int64 (min is 0 or -1). */
vs_result collada_ints(collada_ctx *ctx, const xmlNode *n, int64_t min,
                       int64_t **out, uint32_t *count);
/* Exactly n floats. */
vs_result collada_floats_n(collada_ctx *ctx, const xmlNode *e, uint32_t n,
                           float *out);
/* Unsigned integer attribute; *out = def when absent. */
vs_result collada_uint_attr(collada_ctx *ctx, const xmlNode *n,
                            const char *name, uint32_t def, uint32_t *out);

/* Builds ctx->ids. */
vs_result collada_index_ids(collada_ctx *ctx);
/* The element with the id a "#id" reference (or a bare "id") names, or
 * NULL; reports nothing. */
const xmlNode *collada_lookup(const collada_ctx *ctx, const char *ref);
/* The element whose id is the first len bytes of id, or NULL. */
const xmlNode *collada_find(const collada_ctx *ctx, const char *id, size_t len);
/* Resolves a "#id" reference found in attribute / text of `at`: the
 * element, which must be named `kind` (NULL: any). Errors name `at`. A
 * bare "id" that names an element of the document reads as "#id", with a
 * warning. */
vs_result collada_resolve(collada_ctx *ctx, const xmlNode *at, const char *attr,
                          const char *ref, const char *kind,
                          const xmlNode **out);

/* ---- collada_xml_read.c, collada_xml_scan.c: the document under limits */

/* No COLLADA element has anywhere near this many attributes; libxml2's
 * duplicate-attribute check is quadratic in their number. */
#define COLLADA_MAX_ATTRIBUTES 256u
/* set_error format of a refused DTD: (source, long line). */
#define COLLADA_DTD_REFUSED                                                    \
    "%s: line %ld: the document has a DOCTYPE; COLLADA documents have none, "  \
    "and DTDs (where entities are declared) are not supported"

/* What the pre-scan counted; text includes comments, PIs and CDATA. */
typedef struct collada_xml_census {
    uint64_t elements, attributes, attribute_bytes;
    uint64_t text_nodes, text_bytes;
} collada_xml_census;

/* Parses xml (any encoding libxml2 reads) into *doc with *pctx, refusing a
 * DTD, an element with more than COLLADA_MAX_ATTRIBUTES attributes, nesting
 * beyond vs_limits.max_depth, and a file whose text and tree would not fit
 * vs_limits.max_total_memory, before building anything; on success
 * ctx->tmp's limit is what the budget has left. The caller frees *doc and
 * *pctx (set even on failure). */
vs_result collada_xml_read(collada_ctx *ctx, const uint8_t *xml, size_t size,
                           xmlParserCtxtPtr *pctx, xmlDocPtr *doc);
/* One linear pass over UTF-8 text: refuses a DOCTYPE and too many
 * attributes on one element (error set), and counts the rest. */
vs_result collada_xml_scan(collada_ctx *ctx, const uint8_t *text, size_t size,
                           collada_xml_census *out);
/* Bytes libxml2's tree of the scanned text may take, an upper estimate. */
uint64_t collada_xml_tree_cost(const collada_xml_census *c);

/* ---- collada_source.c: <source> data through its accessor */

typedef struct collada_floats_src {
    uint32_t count;      /* accessor count */
    uint32_t components; /* values read per element */
    float *values;       /* count * components, packed */
} collada_floats_src;

/* Reads `components` values per element (the accessor's first named
 * params; all when components is 0, then *components = stride). */
vs_result collada_source_floats(collada_ctx *ctx, const xmlNode *source,
                                uint32_t components, collada_floats_src *out);
/* How collada_source_read reads: `components` values per element (0: all
 * the accessor binds); an accessor that binds fewer but at least
 * min_components (0: no fewer) has the rest padded with 0; with
 * zero_nonfinite, INF and NaN values read as 0. */
typedef struct collada_source_opts {
    uint32_t components, min_components;
    bool zero_nonfinite;
} collada_source_opts;

/* What collada_source_read repaired, for the caller's warning. */
typedef struct collada_source_flaws {
    uint32_t bound;  /* values per element read (the rest are padding) */
    uint32_t zeroed; /* non-finite values read as 0 */
} collada_source_flaws;

vs_result collada_source_read(collada_ctx *ctx, const xmlNode *source,
                              const collada_source_opts *opts,
                              collada_floats_src *out,
                              collada_source_flaws *flaws);
/* Whether a <source> has the <technique_common><accessor> it is read
 * through. */
bool collada_source_has_accessor(const xmlNode *source);
/* Name_array or IDREF_array strings of a source (pointers into a tmp copy);
 * *idref tells which. */
vs_result collada_source_names(collada_ctx *ctx, const xmlNode *source,
                               char ***out, uint32_t *count, bool *idref);

/* ---- collada_polygons.c */

/* The corners of a primitive element: p holds stride values per corner,
 * sizes[g] corners per polygon / strip / fan. */
typedef struct collada_corners {
    int64_t *p;
    uint64_t p_count;
    uint32_t *sizes;
    uint32_t groups;
    bool strip;
} collada_corners;

/* Reads <p> (and <vcount>) of a <triangles>, <polylist>, <polygons>,
 * <tristrips>, <trifans>, <lines> or <linestrips> with `stride` indices per
 * corner, checking count against what the element holds. */
vs_result collada_read_corners(collada_ctx *ctx, const xmlNode *prim,
                               uint32_t stride, collada_corners *c);
/* Triangles as corner numbers (3 per triangle, in ctx->tmp). */
vs_result collada_triangulate(collada_ctx *ctx, const xmlNode *prim,
                              const collada_corners *c, uint32_t **out,
                              uint32_t *tris);
/* Line segments as corner numbers (2 per segment, in ctx->tmp): each group's
 * consecutive corners, so a strip of n corners gives n - 1 segments. */
vs_result collada_segments(collada_ctx *ctx, const xmlNode *prim,
                           const collada_corners *c, uint32_t **out,
                           uint32_t *segments);

/* ---- collada_geometry.c */

typedef struct collada_geometry {
    const char *name;
    uint32_t position_count; /* COLLADA positions (skin weights index them) */
    /* The position_count positions themselves, 3 floats each (load
     * temporaries): what a morph target of this geometry contributes,
     * whether or not its polygons use each one. */
    const float *source_positions;
    uint32_t primitive_count;
    vs_primitive *primitives; /* asset-owned arrays, material -1 */
    const char **symbols;     /* material symbol per primitive or NULL */
    /* Default morph weights (a <morph>'s MORPH_WEIGHT values), asset-owned;
     * 0 / NULL for a plain geometry. */
    uint32_t weight_count;
    const float *weights;
} collada_geometry;

/* The de-indexed triangles and lines of a <geometry> (built once,
 * cached). */
vs_result collada_geometry_get(collada_ctx *ctx, const xmlNode *geometry,
                               const xmlNode *at, const collada_geometry **out);

/* ---- collada_morph.c */

/* The base geometry of a <controller>'s <morph> with one vs_morph_target
 * per MORPH_TARGET on each primitive and the MORPH_WEIGHT values as default
 * weights (built once, cached on the <morph>). */
vs_result collada_morph_get(collada_ctx *ctx, const xmlNode *controller,
                            const collada_geometry **out);
/* True when the <instance_controller> names a <controller> with a <morph>
 * and no <skin>: a mesh with morph targets and no vs_skin. */
bool collada_instance_is_morph(collada_ctx *ctx, const xmlNode *instance);

/* ---- collada_image.c */

/* Fills asset->images from <library_images> (URIs only, nothing read). */
vs_result collada_load_images(collada_ctx *ctx);
/* The base colour texture a <texture> element of `effect` names (image -1,
 * with a warning, when it names no image). */
vs_result collada_diffuse_texture(collada_ctx *ctx, const xmlNode *effect,
                                  const xmlNode *texture, vs_texture_ref *out);

/* ---- collada_material.c */

/* Fills asset->materials from <library_materials>. */
vs_result collada_load_materials(collada_ctx *ctx);
/* Material index bound to `symbol` by the instance's <bind_material>, or
 * -1 when the instance binds nothing to it. */
vs_result collada_bind_material(collada_ctx *ctx, const xmlNode *instance,
                                const char *symbol, int32_t *out);
/* mesh = copies of the geometry's primitives `prims` (the geometry's own or
 * skinned ones) with the instance's materials bound. */
vs_result collada_instance_mesh(collada_ctx *ctx, const xmlNode *instance,
                                const collada_geometry *g,
                                const vs_primitive *prims, const char *name,
                                vs_mesh *mesh);

/* ---- collada_skin.c */

/* Builds the mesh of an <instance_controller> on node and its vs_skin;
 * *loaded is false (and nothing built) when the skin's geometry does not
 * exist. */
vs_result collada_load_controller(collada_ctx *ctx,
                                  const collada_instance *inst, vs_mesh *mesh,
                                  vs_skin *skin, int32_t skin_index,
                                  bool *loaded);
/* Sorted key tables for joint lookups (after the node walk). */
vs_result collada_index_nodes(collada_ctx *ctx);

/* ---- collada_scene.c */

/* Walks every visual scene into ctx->nodes / stacks / instances and fills
 * asset->scenes and default_scene. */
vs_result collada_load_scenes(collada_ctx *ctx);
/* Builds meshes / skins of ctx->instances and copies the nodes into the
 * asset. */
vs_result collada_build_instances(collada_ctx *ctx);

#endif
