/* SPDX-License-Identifier: MIT */
/* Posed geometry of one mesh instance: morph targets, then skinning with
 * world-space joint matrices, or the node's world matrix for rigid meshes.
 * A convenience over the skinning job for writers, the CLI and bounds. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "skin/lbs/vertex_transform.h"
#include "skin/morph.h"
#include "vskin/vskin.h"

/* vertex_count * per_vertex floats, or NULL when the byte size overflows. */
static float *alloc_floats(const vs_allocator *alloc, size_t vertex_count,
                           size_t per_vertex)
{
    if (per_vertex && vertex_count > SIZE_MAX / sizeof(float) / per_vertex)
        return NULL;
    return mem_alloc(alloc, vertex_count * per_vertex * sizeof(float));
}

void vs_posed_primitive_free(vs_posed_primitive *posed)
{
    if (!posed) return;
    const vs_allocator alloc = posed->allocator;
    mem_free(&alloc, posed->positions);
    mem_free(&alloc, posed->normals);
    mem_free(&alloc, posed->tangents);
    memset(posed, 0, sizeof *posed);
}

/* Source attributes after morphing: either the primitive's own arrays or a
 * scratch copy with the weighted deltas added. */
typedef struct source {
    const float *positions, *normals, *tangents;
    float *scratch;
} source;

static vs_result morph_source(const vs_pose *pose, uint32_t node,
                              const vs_primitive *prim, source *src)
{
    uint32_t weight_count = 0;
    const float *weights = vs_pose_morph_weights(pose, node, &weight_count);
    src->positions = prim->positions;
    src->normals = prim->normals;
    src->tangents = prim->tangents;
    src->scratch = NULL;
    if (!vs_priv_morph_active(prim, weights, weight_count)) return VS_OK;

    const size_t n = prim->vertex_count;
    src->scratch =
        alloc_floats(asset_allocator(vs_pose_asset(pose)), n, 3 + 3 + 4);
    if (!src->scratch) return VS_ERROR_OUT_OF_MEMORY;
    float *p = src->scratch, *nr = p + n * 3, *t = nr + n * 3;
    vs_priv_morph_apply(prim, weights, weight_count, p, nr, t);
    src->positions = p;
    src->normals = prim->normals ? nr : NULL;
    src->tangents = prim->tangents ? t : NULL;
    return VS_OK;
}

/* Rigid meshes: the node's world matrix, with the same point / normal /
 * tangent rules as the skinning job (VS_SKIN_NORMALS_BY_MATRIX in flags:
 * normals by the matrix itself, as skinned meshes take them). */
static void transform_rigid(const float world[16], const source *src,
                            uint32_t flags, vs_posed_primitive *out)
{
    const bool by_matrix = (flags & VS_SKIN_NORMALS_BY_MATRIX) != 0;
    vertex_xform x;
    vertex_xform_zero(&x);
    vertex_xform_add(&x, world, 1.0);
    normal_matrix nm;
    double d[3];
    vertex_xform_normal_matrix(&x, &nm);
    for (size_t v = 0; v < out->vertex_count; ++v) {
        vertex_xform_point(&x, src->positions + v * 3, d);
        for (int k = 0; k < 3; ++k)
            out->positions[v * 3 + k] = (float)d[k];
        if (out->normals) {
            if (by_matrix)
                vertex_xform_vector(&x, src->normals + v * 3, d);
            else
                normal_matrix_apply(&nm, src->normals + v * 3, d);
            normalize_to_float(d, out->normals + v * 3);
        }
        if (out->tangents) {
            vertex_xform_vector(&x, src->tangents + v * 4, d);
            normalize_to_float(d, out->tangents + v * 4);
            out->tangents[v * 4 + 3] = src->tangents[v * 4 + 3];
        }
    }
}

/* glTF 2.0 §3.7.3.3: world-space joint matrices (relative_to = -1), so the
 * skinned node's own transform plays no part; VS_SPACE_SKELETON makes them
 * relative to the skeleton root instead (COLLADA object-space skinning). */
static vs_result skin_primitive(const vs_pose *pose, const vs_node *node,
                                const vs_primitive *prim, uint32_t flags,
                                vs_skin_space space, vs_skin_method method,
                                const source *src, vs_posed_primitive *out,
                                vs_error *error)
{
    const vs_asset *asset = vs_pose_asset(pose);
    const vs_skin *skin = &asset->skins[node->skin];
    if (skin->joint_count == 0)
        return set_error(error, VS_ERROR_INVALID,
                         "%s: skins[%d]: skin has no joints",
                         asset->source_name, node->skin);
    const vs_allocator *alloc = asset_allocator(asset);
    float *joints = alloc_floats(alloc, skin->joint_count, 16);
    if (!joints)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: skins[%d]: out of memory for %u joint matrices",
                         asset->source_name, node->skin, skin->joint_count);
    int32_t relative_to = space == VS_SPACE_SKELETON ? skin->skeleton : -1;
    vs_result r = vs_pose_joint_matrices(pose, (uint32_t)node->skin,
                                         relative_to, joints, error);
    if (r == VS_OK) {
        vs_skinning_job job = {
            .vertex_count = prim->vertex_count,
            .influence_count = prim->influence_count,
            .joint_matrices = joints,
            .joint_count = skin->joint_count,
            .joints = prim->joints,
            .weights = prim->weights,
            .in_positions = src->positions,
            .out_positions = out->positions,
            .in_normals = out->normals ? src->normals : NULL,
            .out_normals = out->normals,
            .in_tangents = out->tangents ? src->tangents : NULL,
            .out_tangents = out->tangents,
            .tangent_components = 4,
            .flags = flags,
            .method = method,
        };
        vs_error inner = {0};
        r = vs_skinning_job_run(&job, &inner);
        if (r != VS_OK)
            set_error(error, r, "%s: skins[%d]: %s", asset->source_name,
                      node->skin, inner.message);
    }
    mem_free(alloc, joints);
    return r;
}

static vs_result alloc_outputs(const vs_asset *asset, const vs_primitive *prim,
                               vs_posed_primitive *out, vs_error *error)
{
    const vs_allocator *alloc = asset_allocator(asset);
    out->allocator = *alloc;
    out->vertex_count = prim->vertex_count;
    out->positions = alloc_floats(alloc, prim->vertex_count, 3);
    bool ok = out->positions != NULL;
    if (ok && prim->normals)
        ok =
            (out->normals = alloc_floats(alloc, prim->vertex_count, 3)) != NULL;
    if (ok && prim->tangents)
        ok = (out->tangents = alloc_floats(alloc, prim->vertex_count, 4)) !=
             NULL;
    if (ok) return VS_OK;
    vs_posed_primitive_free(out);
    return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                     "%s: out of memory for %u posed vertices",
                     asset->source_name, prim->vertex_count);
}

vs_result vs_pose_mesh_primitive(const vs_pose *pose, uint32_t node,
                                 uint32_t primitive,
                                 const vs_pose_mesh_options *options,
                                 vs_posed_primitive *out, vs_error *error)
{
    if (out) memset(out, 0, sizeof *out);
    if (!pose || !out)
        return set_error(
            error, VS_ERROR_ARGUMENT,
            "vs_pose_mesh_primitive: pose and out must not be NULL");
    const vs_asset *asset = vs_pose_asset(pose);
    const char *name = asset->source_name;
    /* Refused for rigid meshes too, as the skinning job refuses it, so one
     * set of options poses every mesh or none. */
    if (options && options->method == VS_SKIN_DUAL_QUATERNION &&
        (options->skin_flags & VS_SKIN_NORMALS_BY_MATRIX))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: pose mesh options: VS_SKIN_NORMALS_BY_MATRIX "
                         "applies to VS_SKIN_LINEAR only, not "
                         "VS_SKIN_DUAL_QUATERNION",
                         name);
    if (node >= asset->node_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: nodes[%u]: no such node (%u nodes)", name, node,
                         asset->node_count);
    const vs_node *n = &asset->nodes[node];
    if (n->mesh < 0)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: nodes[%u]: node has no mesh", name, node);
    const vs_mesh *mesh = &asset->meshes[n->mesh];
    if (primitive >= mesh->primitive_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: meshes[%d].primitives[%u]: no such primitive "
                         "(%u primitives)",
                         name, n->mesh, primitive, mesh->primitive_count);
    const vs_primitive *prim = &mesh->primitives[primitive];

    vs_result r = alloc_outputs(asset, prim, out, error);
    if (r != VS_OK) return r;
    source src;
    if (morph_source(pose, node, prim, &src) != VS_OK) {
        vs_posed_primitive_free(out);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: meshes[%d].primitives[%u]: out of memory for "
                         "morphed vertices",
                         name, n->mesh, primitive);
    }
    if (n->skin >= 0 && prim->influence_count > 0) {
        uint32_t flags = options ? options->skin_flags : 0;
        vs_skin_space space = options ? options->space : VS_SPACE_WORLD;
        vs_skin_method method = options ? options->method : VS_SKIN_LINEAR;
        r = skin_primitive(pose, n, prim, flags, space, method, &src, out,
                           error);
    } else {
        const float *world = vs_pose_world(pose, node);
        if (world)
            transform_rigid(world, &src, options ? options->skin_flags : 0,
                            out);
        else
            r = set_error(error, VS_ERROR_ARGUMENT,
                          "%s: nodes[%u]: pose has no world matrix", name,
                          node);
    }
    mem_free(asset_allocator(asset), src.scratch);
    if (r != VS_OK) vs_posed_primitive_free(out);
    return r;
}

vs_result vs_pose_bounds(const vs_pose *pose,
                         const vs_pose_mesh_options *options, float out_min[3],
                         float out_max[3], bool *out_any, vs_error *error)
{
    if (out_any) *out_any = false;
    if (!pose || !out_min || !out_max)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_pose_bounds: pose, out_min and out_max are "
                         "needed");
    const vs_asset *asset = vs_pose_asset(pose);
    float lo[3] = {INFINITY, INFINITY, INFINITY};
    float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    bool any = false;
    vs_result r = VS_OK;
    for (uint32_t i = 0; r == VS_OK && i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; r == VS_OK && p < mesh->primitive_count; ++p) {
            vs_posed_primitive posed;
            r = vs_pose_mesh_primitive(pose, node, p, options, &posed, error);
            if (r != VS_OK) break;
            for (size_t v = 0; v < posed.vertex_count; ++v) {
                const float *q = posed.positions + v * 3;
                /* A non-finite vertex cannot be framed; skip it. */
                if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]))
                    continue;
                for (int k = 0; k < 3; ++k) {
                    lo[k] = fminf(lo[k], q[k]);
                    hi[k] = fmaxf(hi[k], q[k]);
                }
                any = true;
            }
            vs_posed_primitive_free(&posed);
        }
    }
    /* Bounds over part of the geometry would be wrong, so an error (only
     * out-of-memory once an asset has loaded) gives no bounds at all. */
    if (r != VS_OK) any = false;
    for (int k = 0; k < 3; ++k) {
        out_min[k] = any ? lo[k] : 0.0f;
        out_max[k] = any ? hi[k] : 0.0f;
    }
    if (out_any) *out_any = any;
    return r;
}
