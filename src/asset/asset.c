/* SPDX-License-Identifier: MIT */
/* Building a vs_asset: arena allocation within limits and the finalisation
 * every loader shares. */
#include "asset/asset_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/clip_plans.h"
#include "asset/joint_bounds.h"
#include "asset/prim_refs.h"
#include "asset/skin_facts.h"
#include "asset/time_groups.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/xform.h"

vs_limits vs_priv_limits_resolve(const vs_limits *in)
{
    vs_limits l = {0};
    if (in) l = *in;
    if (!l.max_file_size) l.max_file_size = 1ull << 30;
    if (!l.max_buffer_size) l.max_buffer_size = 1ull << 30;
    if (!l.max_total_memory) l.max_total_memory = 4ull << 30;
    if (!l.max_nodes) l.max_nodes = 1000000u;
    if (!l.max_joints) l.max_joints = 65535u;
    if (!l.max_depth) l.max_depth = 1000u;
    if (!l.max_accessor_elements) l.max_accessor_elements = 1ull << 26;
    if (!l.max_keyframes) l.max_keyframes = 1u << 20;
    if (!l.max_instanced_vertices) l.max_instanced_vertices = 1ull << 28;
    return l;
}

vs_asset *vs_priv_asset_create(const char *source_name, const vs_load_options *options)
{
    const vs_allocator *alloc = options ? &options->allocator : NULL;
    vs_asset *asset = mem_calloc(alloc, 1, sizeof *asset);
    asset_internal *in = mem_calloc(alloc, 1, sizeof *in);
    if (!asset || !in) {
        mem_free(alloc, asset);
        mem_free(alloc, in);
        return NULL;
    }
    if (options) {
        in->alloc = options->allocator;
        in->reader = options->file_reader;
    }
    in->limits = vs_priv_limits_resolve(options ? &options->limits : NULL);
    in->allow_external_paths = options && options->allow_external_paths;
    in->strict = options && options->strict;
    budget_init(&in->budget, in->limits.max_total_memory);
    in->load_state = (budget_allocator){&in->budget, &in->alloc};
    in->load_alloc = budget_allocator_make(&in->load_state);
    arena_init_budget(&in->arena, &in->budget, alloc);
    asset->internal_ = in;
    asset->source_name = vs_priv_asset_strdup(asset, source_name ? source_name : "");
    asset->generator = "";
    asset->up_axis = VS_UP_Y;
    asset->unit_meters = 1.0f;
    asset->default_scene = -1;
    if (!asset->source_name) {
        vs_asset_free(asset);
        return NULL;
    }
    return asset;
}

bool asset_allow_external_paths(const vs_asset *asset)
{
    return ((const asset_internal *)asset->internal_)->allow_external_paths;
}

const vs_file_reader *asset_file_reader(const vs_asset *asset)
{
    return &((const asset_internal *)asset->internal_)->reader;
}

const vs_allocator *asset_load_allocator(const vs_asset *asset)
{
    return &((const asset_internal *)asset->internal_)->load_alloc;
}

mem_budget *asset_budget(vs_asset *asset)
{
    return &((asset_internal *)asset->internal_)->budget;
}

void *asset_temp_calloc_optional(vs_asset *asset, size_t count, size_t size,
                                 bool *refused)
{
    asset_internal *in = asset->internal_;
    /* The header the charged allocator adds is small next to the slack of
     * a whole budget; ask for it too so that the check is exact enough. */
    if (size != 0 && count > SIZE_MAX / size) return NULL;
    if (!budget_fits(&in->budget, (uint64_t)count * size + 64)) return NULL;
    void *p = mem_calloc(&in->load_alloc, count, size);
    if (!p) *refused = true;
    return p;
}

void *vs_priv_asset_calloc(vs_asset *asset, size_t count, size_t size, vs_error *error,
                   const char *where)
{
    asset_internal *in = asset->internal_;
    void *p = arena_alloc(&in->arena, count, size);
    if (!p) {
        if (arena_over_limit(&in->arena, count, size))
            set_error(error, VS_ERROR_LIMIT,
                      "%s: %s: %zu x %zu bytes exceed the memory limit "
                      "(max_total_memory: %llu bytes for the whole load, "
                      "%llu in use)",
                      asset->source_name, where, count, size,
                      (unsigned long long)in->limits.max_total_memory,
                      (unsigned long long)in->budget.used);
        else
            set_error(error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: %s: out of memory allocating %zu x %zu bytes",
                      asset->source_name, where, count, size);
    }
    return p;
}

void *asset_calloc_optional(vs_asset *asset, size_t count, size_t size,
                            bool *refused)
{
    asset_internal *in = asset->internal_;
    void *p = arena_alloc(&in->arena, count, size);
    if (!p && !arena_over_limit(&in->arena, count, size)) *refused = true;
    /* A table left out is no failure of the load: forget the refusal. */
    if (!p && !*refused) in->budget.refused = false;
    return p;
}

char *vs_priv_asset_strdup(vs_asset *asset, const char *s)
{
    return arena_strdup(&((asset_internal *)asset->internal_)->arena, s);
}

char *vs_priv_asset_strndup(vs_asset *asset, const char *s, size_t n)
{
    return arena_strndup(&((asset_internal *)asset->internal_)->arena, s, n);
}

void vs_asset_free(vs_asset *asset)
{
    if (!asset) return;
    asset_internal *in = asset->internal_;
    /* The asset and its internals come from the allocator they hold. */
    const vs_allocator alloc = in ? in->alloc : (vs_allocator){0};
    if (in) {
        arena_free(&in->arena);
        mem_free(&alloc, in);
    }
    mem_free(&alloc, asset);
}

uint32_t node_target_count(const vs_asset *asset, const vs_node *node)
{
    if (node->mesh < 0) return 0;
    const vs_mesh *mesh = &asset->meshes[node->mesh];
    uint32_t count = 0;
    for (uint32_t p = 0; p < mesh->primitive_count; ++p)
        if (mesh->primitives[p].target_count > count)
            count = mesh->primitives[p].target_count;
    return count;
}

void node_rest_local(const vs_node *node, float out[16])
{
    if (node->has_matrix)
        xform_copy(node->matrix, out);
    else
        xform_from_trs(&node->rest_trs, out);
}

void vs_asset_rest_world(const vs_asset *asset, uint32_t node, float out[16])
{
    xform_identity(out);
    if (!asset || node >= asset->node_count) return;
    float local[16];
    /* Walk up the chain; depth is bounded by the finalize check. */
    for (int32_t n = (int32_t)node; n >= 0; n = asset->nodes[n].parent) {
        node_rest_local(&asset->nodes[n], local);
        xform_mul(local, out, out);
    }
}

int32_t vs_asset_find_clip(const vs_asset *asset, const char *name_or_index)
{
    if (!asset || !name_or_index || !*name_or_index) return -1;
    for (uint32_t i = 0; i < asset->clip_count; ++i)
        if (strcmp(asset->clips[i].name, name_or_index) == 0) return (int32_t)i;
    char *end = NULL;
    long v = strtol(name_or_index, &end, 10);
    if (end && *end == '\0' && v >= 0 && (unsigned long)v < asset->clip_count)
        return (int32_t)v;
    return -1;
}

/* ---------------------------------------------------------- finalisation */

static vs_result link_nodes(vs_asset *asset, vs_node *nodes, vs_error *error)
{
    const char *src = asset->source_name;
    for (uint32_t i = 0; i < asset->node_count; ++i) nodes[i].parent = -1;
    for (uint32_t i = 0; i < asset->node_count; ++i) {
        for (uint32_t c = 0; c < nodes[i].child_count; ++c) {
            uint32_t ch = nodes[i].children[c];
            if (ch >= asset->node_count)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: nodes[%u].children[%u]: node %u does not "
                                 "exist (%u nodes)",
                                 src, i, c, ch, asset->node_count);
            if (ch == i)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: nodes[%u].children[%u]: a node cannot be "
                                 "its own child (cycle)",
                                 src, i, c);
            if (nodes[ch].parent >= 0)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: nodes[%u]: node has two parents "
                                 "(nodes[%d] and nodes[%u])",
                                 src, ch, nodes[ch].parent, i);
            nodes[ch].parent = (int32_t)i;
        }
    }
    return VS_OK;
}

/* Breadth-first from the roots: parents before children. A node never reached
 * sits on a cycle (every node has at most one parent by now). */
static vs_result order_nodes(vs_asset *asset, vs_error *error)
{
    uint32_t n = asset->node_count;
    uint32_t *order = vs_priv_asset_calloc(asset, n ? n : 1, sizeof *order, error,
                                   "node order");
    uint32_t *depth =
        mem_calloc(asset_load_allocator(asset), n ? n : 1, sizeof *depth);
    if (!order || !depth) {
        mem_free(asset_load_allocator(asset), depth);
        if (order)
            return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                             asset->source_name);
        return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (asset->nodes[i].parent < 0) order[count++] = i;
    for (uint32_t head = 0; head < count; ++head) {
        const vs_node *node = &asset->nodes[order[head]];
        for (uint32_t c = 0; c < node->child_count; ++c) {
            uint32_t ch = node->children[c];
            depth[ch] = depth[order[head]] + 1;
            if (depth[ch] > asset_limits(asset)->max_depth) {
                mem_free(asset_load_allocator(asset), depth);
                return set_error(error, VS_ERROR_LIMIT,
                                 "%s: nodes[%u]: hierarchy deeper than the "
                                 "limit of %u levels",
                                 asset->source_name, ch,
                                 asset_limits(asset)->max_depth);
            }
            order[count++] = ch;
        }
    }
    if (count != n) {
        /* The first node never reached, found with one mark per node (the
         * depths are spent: reuse them as marks). */
        memset(depth, 0, (size_t)n * sizeof *depth);
        for (uint32_t k = 0; k < count; ++k) depth[order[k]] = 1;
        uint32_t bad = 0;
        while (bad < n && depth[bad]) ++bad;
        mem_free(asset_load_allocator(asset), depth);
        return set_error(error, VS_ERROR_INVALID,
                         "%s: nodes[%u]: node hierarchy has a cycle",
                         asset->source_name, bad);
    }
    mem_free(asset_load_allocator(asset), depth);
    asset->node_order = order;
    return VS_OK;
}

static vs_result check_node_refs(const vs_asset *asset, vs_error *error)
{
    const char *src = asset->source_name;
    for (uint32_t i = 0; i < asset->node_count; ++i) {
        const vs_node *node = &asset->nodes[i];
        if (node->mesh >= (int32_t)asset->mesh_count)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: nodes[%u].mesh: mesh %d does not exist",
                             src, i, node->mesh);
        if (node->skin >= (int32_t)asset->skin_count)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: nodes[%u].skin: skin %d does not exist",
                             src, i, node->skin);
    }
    for (uint32_t s = 0; s < asset->skin_count; ++s) {
        const vs_skin *skin = &asset->skins[s];
        if (skin->joint_count > asset_limits(asset)->max_joints)
            return set_error(error, VS_ERROR_LIMIT,
                             "%s: skins[%u].joints: %u joints exceed the limit "
                             "of %u",
                             src, s, skin->joint_count,
                             asset_limits(asset)->max_joints);
        for (uint32_t j = 0; j < skin->joint_count; ++j)
            if (skin->joints[j] >= asset->node_count)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: skins[%u].joints[%u]: node %u does not "
                                 "exist",
                                 src, s, j, skin->joints[j]);
        if (skin->skeleton >= (int32_t)asset->node_count)
            return set_error(error, VS_ERROR_INVALID,
                             "%s: skins[%u].skeleton: node %d does not exist",
                             src, s, skin->skeleton);
    }
    for (uint32_t s = 0; s < asset->scene_count; ++s) {
        const vs_scene *scene = &asset->scenes[s];
        for (uint32_t k = 0; k < scene->node_count; ++k) {
            uint32_t r = scene->nodes[k];
            if (r >= asset->node_count)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: scenes[%u].nodes[%u]: node %u does not "
                                 "exist",
                                 src, s, k, r);
            if (asset->nodes[r].parent >= 0)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: scenes[%u].nodes[%u]: node %u is not a "
                                 "root node (its parent is node %d)",
                                 src, s, k, r, asset->nodes[r].parent);
        }
    }
    if (asset->default_scene >= (int32_t)asset->scene_count)
        return set_error(error, VS_ERROR_INVALID,
                         "%s: scene: scene %d does not exist", src,
                         asset->default_scene);
    return VS_OK;
}

/* The first joint index of a mesh's primitives at or above `joints`. */
static vs_result joint_past_skin(const vs_asset *asset, uint32_t node,
                                 uint32_t joints, vs_error *error)
{
    const vs_node *n = &asset->nodes[node];
    const vs_mesh *mesh = &asset->meshes[n->mesh];
    for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
        const vs_primitive *prim = &mesh->primitives[p];
        size_t count = (size_t)prim->vertex_count * prim->influence_count;
        for (size_t k = 0; k < count; ++k)
            if (prim->joints[k] >= joints)
                return set_error(
                    error, VS_ERROR_INVALID,
                    "%s: meshes[%d].primitives[%u].attributes.JOINTS_%zu: "
                    "vertex %zu uses joint %u but skins[%d] (used by "
                    "nodes[%u]) has %u joints",
                    asset->source_name, n->mesh, p,
                    (k % prim->influence_count) / 4,
                    k / prim->influence_count, prim->joints[k], n->skin, node,
                    joints);
    }
    return VS_OK;
}

/* Joint indices are checked once here so that no skinning loop can read past
 * the joint matrices. Each joints array's largest index is found once
 * (prim_refs.h) and each mesh keeps the largest of its primitives', so the
 * check of a node is one comparison however many nodes share the mesh; only
 * a node that fails scans its mesh again, for the message. */
static vs_result check_skinned_primitives(vs_asset *asset, vs_error *error)
{
    const vs_allocator *tmp = asset_load_allocator(asset);
    size_t count;
    prim_ref *refs = prim_refs_sorted(asset, false, &count);
    int64_t *mesh_max = refs ? mem_alloc(tmp, (asset->mesh_count ? asset->mesh_count : 1) *
                                                  sizeof *mesh_max)
                             : NULL;
    if (!mesh_max) {
        mem_free(tmp, refs);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: joint checks: out of memory", asset->source_name);
    }
    for (uint32_t m = 0; m < asset->mesh_count; ++m) mesh_max[m] = -1;
    int64_t most = -1;
    for (size_t i = 0; i < count; ++i) {
        if (i == 0 || refs[i].data != refs[i - 1].data) {
            const vs_primitive *prim =
                &asset->meshes[refs[i].mesh].primitives[refs[i].primitive];
            size_t n = (size_t)prim->vertex_count * prim->influence_count;
            most = -1;
            for (size_t k = 0; k < n; ++k)
                if (prim->joints[k] > most) most = prim->joints[k];
        }
        if (most > mesh_max[refs[i].mesh]) mesh_max[refs[i].mesh] = most;
    }
    vs_result r = VS_OK;
    for (uint32_t i = 0; i < asset->node_count && r == VS_OK; ++i) {
        const vs_node *node = &asset->nodes[i];
        if (node->mesh < 0 || node->skin < 0) continue;
        uint32_t joints = asset->skins[node->skin].joint_count;
        if (mesh_max[node->mesh] >= (int64_t)joints)
            r = joint_past_skin(asset, i, joints, error);
    }
    mem_free(tmp, refs);
    mem_free(tmp, mesh_max);
    return r;
}

static vs_result finalize_clips(vs_asset *asset, vs_error *error)
{
    const char *src = asset->source_name;
    for (uint32_t c = 0; c < asset->clip_count; ++c) {
        vs_clip *clip = (vs_clip *)&asset->clips[c];
        bool any = false;
        for (uint32_t s = 0; s < clip->sampler_count; ++s) {
            const vs_anim_sampler *smp = &clip->samplers[s];
            if (smp->key_count == 0) continue;
            float t0 = smp->times[0], t1 = smp->times[smp->key_count - 1];
            if (!any || t0 < clip->start) clip->start = t0;
            if (!any || t1 > clip->end) clip->end = t1;
            any = true;
        }
        for (uint32_t k = 0; k < clip->channel_count; ++k) {
            const vs_anim_channel *ch = &clip->channels[k];
            if (ch->node >= asset->node_count)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: animations[%u].channels[%u].target.node: "
                                 "node %u does not exist",
                                 src, c, k, ch->node);
            if (ch->sampler >= clip->sampler_count)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: animations[%u].channels[%u].sampler: "
                                 "sampler %u does not exist",
                                 src, c, k, ch->sampler);
        }
    }
    return VS_OK;
}

/* The nodes of the default scene (all when there is none), marked in one
 * pass parents-before-children over node_order: a lookup of each node's
 * root in the scene's list would cost nodes x roots. */
static vs_result collect_instances(vs_asset *asset, vs_error *error)
{
    const uint32_t n = asset->node_count;
    uint8_t *in_scene = NULL;
    if (asset->default_scene >= 0) {
        in_scene = mem_calloc(asset_load_allocator(asset), n ? n : 1,
                              sizeof *in_scene);
        if (!in_scene)
            return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: mesh instances: out of memory",
                             asset->source_name);
        const vs_scene *scene = &asset->scenes[asset->default_scene];
        for (uint32_t k = 0; k < scene->node_count; ++k)
            in_scene[scene->nodes[k]] = 1;
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t i = asset->node_order[k];
            if (asset->nodes[i].parent >= 0)
                in_scene[i] = in_scene[asset->nodes[i].parent];
        }
    }
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (asset->nodes[i].mesh >= 0 && (!in_scene || in_scene[i])) ++count;
    uint32_t *inst = vs_priv_asset_calloc(asset, count ? count : 1,
                                          sizeof *inst, error,
                                          "mesh instances");
    if (inst) {
        count = 0;
        for (uint32_t i = 0; i < n; ++i)
            if (asset->nodes[i].mesh >= 0 && (!in_scene || in_scene[i]))
                inst[count++] = i;
        asset->instances = inst;
        asset->instance_count = count;
    }
    mem_free(asset_load_allocator(asset), in_scene);
    return inst ? VS_OK : error ? error->code : VS_ERROR_OUT_OF_MEMORY;
}

vs_result vs_priv_asset_finalize(vs_asset *asset, vs_error *error)
{
    vs_result r;
    if (asset->node_count > asset_limits(asset)->max_nodes)
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: nodes: %u nodes exceed the limit of %u",
                         asset->source_name, asset->node_count,
                         asset_limits(asset)->max_nodes);
    if ((r = link_nodes(asset, (vs_node *)asset->nodes, error)) != VS_OK) return r;
    if ((r = order_nodes(asset, error)) != VS_OK) return r;
    if ((r = check_node_refs(asset, error)) != VS_OK) return r;
    if ((r = check_skinned_primitives(asset, error)) != VS_OK) return r;
    if ((r = asset_check_skin_data(asset, error)) != VS_OK) return r;
    if ((r = finalize_clips(asset, error)) != VS_OK) return r;
    if ((r = time_groups_build(asset, error)) != VS_OK) return r;
    if ((r = collect_instances(asset, error)) != VS_OK) return r;
    if ((r = joint_bounds_build(asset, error)) != VS_OK) return r;
    /* Last, as they are optional: memory they take under the asset's limit
     * can never be what an essential allocation above then lacks. */
    if ((r = clip_plans_build(asset, error)) != VS_OK) return r;
    return skin_facts_build(asset, error);
}
