/* SPDX-License-Identifier: MIT */
/* What loaders use to build a vs_asset: arena-backed allocation with limits,
 * and one shared finalisation pass that derives and checks everything the
 * formats have in common (parents, order, instances, clip ranges). Loaders
 * fill the public structs through non-const pointers they allocated here. */
#ifndef VS_ASSET_ASSET_INTERNAL_H
#define VS_ASSET_ASSET_INTERNAL_H

#include "base/arena.h"
#include "base/budget.h"
#include "base/private_export.h"
#include "vskin/vskin.h"

struct prim_bounds;
struct time_groups;
struct clip_plan;
struct skin_facts;
struct warning_entry;

typedef struct asset_internal {
    /* The load's one memory budget (vs_limits.max_total_memory): the arena,
     * the loaders' temporaries (load_alloc), the buffers a file reader
     * returns and the JSON tree all charge it (docs/design/robustness.md). */
    mem_budget budget;
    budget_allocator load_state;
    vs_allocator load_alloc;
    arena arena;
    /* vs_load_options.allocator: the arena's blocks, the asset itself and
     * everything made from the asset (poses, streams, posed primitives,
     * temporaries) come from it. */
    vs_allocator alloc;
    /* vs_load_options.file_reader, used while the asset loads. */
    vs_file_reader reader;
    vs_limits limits; /* with defaults applied */
    /* Per instance, its mesh's primitive_count bounds (asset/joint_bounds.h),
     * built by vs_priv_asset_finalize. */
    struct prim_bounds **instance_bounds;
    bool allow_external_paths; /* vs_load_options.allow_external_paths */
    /* The folder relative URIs resolve against (NULL: none), kept for the
     * images vs_asset_image_bytes reads after the load. */
    const char *base_dir;
    bool strict;               /* vs_load_options.strict */
    /* What asset_warn recorded, oldest first (asset/warnings.h), until
     * asset_publish_warnings makes vs_asset.warnings of it. */
    struct warning_entry *warnings_head, *warnings_tail;
    uint32_t warnings_kept;
    uint64_t warnings_left_out;
    /* Per clip, samplers with identical key times (asset/time_groups.h),
     * built by vs_priv_asset_finalize for time_group_clips clips. */
    struct time_groups *time_groups;
    uint32_t time_group_clips;
    /* Per clip, its sampling plan (asset/clip_plans.h), built by
     * vs_priv_asset_finalize for clip_plan_count clips. */
    struct clip_plan *clip_plans;
    uint32_t clip_plan_count;
    /* Per skin of skin_facts_skins (asset/skin_facts.h), built by
     * vs_priv_asset_finalize. */
    struct skin_facts *skin_facts;
    const vs_skin *skin_facts_skins;
    uint32_t skin_fact_count;
} asset_internal;

/* Limits with every zero field replaced by its default. */
VS_PRIV_EXPORT vs_limits vs_priv_limits_resolve(const vs_limits *in);

/* A new empty asset (format unknown, no objects, unit 1 m, Y up). */
VS_PRIV_EXPORT vs_asset *vs_priv_asset_create(const char *source_name,
                                              const vs_load_options *options);
/* The limits and the allocator of the asset's vs_load_options. Inline, so
 * that the libraries built on the runtime read them without an exported
 * function: the tools make their blocks, and the assets they make, with a
 * source asset's allocator, and hold what they pose from it to its
 * limits. */
static inline const vs_limits *asset_limits(const vs_asset *asset)
{
    return &((const asset_internal *)asset->internal_)->limits;
}
static inline const vs_allocator *asset_allocator(const vs_asset *asset)
{
    return &((const asset_internal *)asset->internal_)->alloc;
}
/* The file reader of the asset's vs_load_options. */
const vs_file_reader *asset_file_reader(const vs_asset *asset);
/* The allocator of a load's temporaries: the asset's allocator, charged to
 * the load's budget. Everything taken from it is freed before the load
 * returns. */
const vs_allocator *asset_load_allocator(const vs_asset *asset);
/* The load's memory budget, for the pools a loader keeps of its own (a
 * parse tree's estimate, an arena of temporaries: arena_init_budget). */
mem_budget *asset_budget(vs_asset *asset);
/* A temporary the load may do without (scratch of an optional table): NULL
 * when it would pass the budget, and then *refused stays false; only an
 * allocator that refuses sets *refused. Free it with
 * mem_free(asset_load_allocator(asset), p). */
void *asset_temp_calloc_optional(vs_asset *asset, size_t count, size_t size,
                                 bool *refused);
bool asset_allow_external_paths(const vs_asset *asset);

/* count * size zeroed bytes owned by the asset. On failure sets error
 * ("<source>: <where>: ... exceeds the memory limit" or out of memory) and
 * returns NULL. */
VS_PRIV_EXPORT void *vs_priv_asset_calloc(vs_asset *asset, size_t count,
                                          size_t size, vs_error *error,
                                          const char *where);
/* The same for what the asset may do without (a sampling plan, a cached
 * table): NULL as well when the memory limit is reached, but only an
 * allocator that refuses sets *refused, which then fails the load. */
void *asset_calloc_optional(vs_asset *asset, size_t count, size_t size,
                            bool *refused);
VS_PRIV_EXPORT char *vs_priv_asset_strdup(vs_asset *asset, const char *s);
VS_PRIV_EXPORT char *vs_priv_asset_strndup(vs_asset *asset, const char *s,
                                           size_t n);

/* Derives parents, node_order and instances, clip start/end; checks indices
 * (children, meshes, skins, joints, scenes, channels), rejects cycles and nodes
 * with two parents, checks primitive joint indices against the skin of every
 * node that uses them. Loaders call it last. */
VS_PRIV_EXPORT vs_result vs_priv_asset_finalize(vs_asset *asset,
                                                vs_error *error);

/* Finite weights; finite, invertible inverse bind and bind shape matrices
 * (src/asset/skin_checks.c). Called by vs_priv_asset_finalize. */
vs_result asset_check_skin_data(const vs_asset *asset, vs_error *error);

/* Rest local matrix of a node (matrix, or T*R*S). */
void node_rest_local(const vs_node *node, float out[16]);

/* How many morph weights a node has: the most targets of any primitive of
 * its mesh, 0 without a mesh. A weights channel on the node must give
 * exactly this many values per key. */
uint32_t node_target_count(const vs_asset *asset, const vs_node *node);

#endif
