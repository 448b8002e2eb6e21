/* SPDX-License-Identifier: MIT */
/* Conservative world bounds of the posed mesh from the joint matrices alone.
 *
 * With the default (normalized) weights a skinned point is
 *     p' = sum_i w_i J_i p,  w_i >= 0, sum w_i = 1,
 * a convex combination of the points J_i p. J_i = M_i * L_i with
 * M_i = R^-1 * G(joint_i) and L_i = IBM_i * BSM, and L_i p lies in joint i's
 * bind-space box (asset/joint_bounds.h), so p' lies in the hull of M_i applied
 * to the corners of those boxes. Raw weights or negative weights break the
 * convexity, and so does dual-quaternion skinning (a blended rotation moves a
 * point along an arc, outside the hull: a 180-degree twist keeps the middle
 * ring's radius where the hull is a segment through the axis): those
 * primitives are skinned exactly instead. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/joint_bounds.h"
#include "base/affine.h"
#include "asset/skin_facts.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/xform.h"
#include "vskin/vskin.h"

/* M_j = R^-1 * G(joint_j) for every joint (R as vs_pose_joint_matrices). */
static bool joint_worlds(const vs_pose *pose, const vs_skin *skin,
                         int32_t relative_to, float *out)
{
    float root_inv[16];
    if (relative_to >= 0 &&
        !xform_invert(vs_pose_world(pose, (uint32_t)relative_to), root_inv))
        return false;
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        const float *g = vs_pose_world(pose, skin->joints[j]);
        if (relative_to >= 0)
            xform_mul(root_inv, g, out + 16 * (size_t)j);
        else
            xform_copy(g, out + 16 * (size_t)j);
    }
    return true;
}

/* Influence set s of pb, given M_j (worlds) and J_j (joint_mats); adds to b
 * the intersection of two boxes that both hold its posed vertices:
 * - the hull of M_j applied to member j's box of L_j p, over members j;
 * - with w_j >= lo_j and sum w_j = 1, the weights lie in the simplex whose
 *   corners are lo + (1 - sum lo) e_k, and p' = (sum w_j J_j) p is bilinear
 *   in (w, p): its box is that of the set's mesh-space box through the
 *   blended matrices at those corners, B_k = C + (1 - sum lo) J_k with
 *   C = sum lo_j J_j. */
static void add_set(const prim_bounds *pb, uint32_t s, const float *worlds,
                    const float *joint_mats, bounds_box *b)
{
    uint32_t first = pb->set_start[s], end = pb->set_start[s + 1];
    bounds_box hull, blend;
    bounds_box_empty(&hull);
    bounds_box_empty(&blend);
    float c[16] = {0}, rest = 1.0f;
    for (uint32_t k = first; k < end; ++k) {
        const uint16_t j = pb->set_joints[k];
        bounds_box_add_transformed(&hull, worlds + 16 * (size_t)j,
                                   &pb->member_boxes[k]);
        const float *m = joint_mats + 16 * (size_t)j;
        for (int e = 0; e < 16; ++e)
            c[e] += pb->member_lo[k] * m[e];
        rest -= pb->member_lo[k];
    }
    if (rest < 0.0f) rest = 0.0f;
    for (uint32_t k = first; k < end; ++k) {
        const float *m = joint_mats + 16 * (size_t)pb->set_joints[k];
        float bk[16];
        for (int e = 0; e < 16; ++e)
            bk[e] = c[e] + rest * m[e];
        bounds_box_add_transformed(&blend, bk, &pb->set_boxes[s]);
    }
    if (bounds_box_is_empty(&hull)) return;
    for (int a = 0; a < 3; ++a) {
        hull.min[a] = fmaxf(hull.min[a], blend.min[a]);
        hull.max[a] = fminf(hull.max[a], blend.max[a]);
    }
    bounds_box_add(b, hull.min);
    bounds_box_add(b, hull.max);
}

static vs_result exact_primitive(const vs_pose *pose, uint32_t node,
                                 uint32_t p,
                                 const vs_pose_mesh_options *options,
                                 bounds_box *b, vs_error *error)
{
    vs_posed_primitive posed;
    vs_result r = vs_pose_mesh_primitive(pose, node, p, options, &posed, error);
    if (r != VS_OK) return r;
    for (size_t v = 0; v < posed.vertex_count; ++v)
        bounds_box_add(b, posed.positions + v * 3);
    vs_posed_primitive_free(&posed);
    return VS_OK;
}

static vs_result skinned_instance(const vs_pose *pose, uint32_t instance,
                                  const vs_pose_mesh_options *options,
                                  bounds_box *b, vs_error *error)
{
    const vs_asset *asset = vs_pose_asset(pose);
    uint32_t node = asset->instances[instance];
    const vs_node *n = &asset->nodes[node];
    const vs_mesh *mesh = &asset->meshes[n->mesh];
    const vs_skin *skin = &asset->skins[n->skin];
    bool raw = options && (options->skin_flags & VS_SKIN_RAW_WEIGHTS);
    bool dq = options && options->method == VS_SKIN_DUAL_QUATERNION;
    /* The blend bound transforms bind boxes by affine maps; a projective
     * bind (glTF 1.0 or COLLADA may write one) divides by w, and its box is
     * no image of the corners: such skins are posed. */
    const skin_facts *kept = skin_facts_for(asset, (uint32_t)n->skin);
    const skin_facts facts = kept ? *kept : skin_facts_of(skin);
    bool projective = !facts.ibms_affine ||
                      (!facts.bsm_identity &&
                       !affine_is_affine(skin->bind_shape_matrix));
    int32_t relative_to =
        options && options->space == VS_SPACE_SKELETON ? skin->skeleton : -1;
    float *worlds = NULL;
    vs_result r = VS_OK;
    for (uint32_t p = 0; r == VS_OK && p < mesh->primitive_count; ++p) {
        const prim_bounds *pb = joint_bounds_get(asset, instance, p);
        if (pb && pb->joint_count == 0) { /* no influences: rigid */
            bounds_box_add_transformed(b, vs_pose_world(pose, node), &pb->mesh);
            continue;
        }
        /* No bind boxes kept (the load left them out under its memory
         * limit), or a set where the blend bound does not hold: pose it. */
        if (!pb || raw || dq || projective || pb->not_convex) {
            r = exact_primitive(pose, node, p, options, b, error);
            continue;
        }
        if (!worlds) {
            /* M_j for every joint, then J_j = M_j * L_j. */
            worlds = mem_alloc(asset_allocator(asset),
                               sizeof(float) * 32 * (size_t)skin->joint_count);
            if (!worlds) {
                r = set_error(error, VS_ERROR_OUT_OF_MEMORY,
                              "%s: out of memory bounding nodes[%u]",
                              asset->source_name, node);
                break;
            }
            if (!joint_worlds(pose, skin, relative_to, worlds)) {
                r = set_error(error, VS_ERROR_INVALID,
                              "%s: nodes[%d]: world matrix is singular, "
                              "cannot bound skins[%d] relative to it",
                              asset->source_name, relative_to, n->skin);
                break;
            }
            for (uint32_t j = 0; j < skin->joint_count; ++j)
                xform_mul(worlds + 16 * (size_t)j, pb->bind + 16 * (size_t)j,
                          worlds + 16 * ((size_t)skin->joint_count + j));
        }
        for (uint32_t k = 0; k < pb->set_count; ++k)
            add_set(pb, k, worlds, worlds + 16 * (size_t)skin->joint_count, b);
        for (uint32_t k = 0; k < pb->overflow_count; ++k)
            bounds_box_add_transformed(
                b, worlds + 16 * (size_t)pb->overflow_joints[k],
                &pb->overflow_boxes[k]);
        /* Unweighted vertices keep their input position. */
        if (!bounds_box_is_empty(&pb->unweighted)) {
            bounds_box_add(b, pb->unweighted.min);
            bounds_box_add(b, pb->unweighted.max);
        }
    }
    mem_free(asset_allocator(asset), worlds);
    return r;
}

vs_result vs_pose_fast_bounds(const vs_pose *pose,
                              const vs_pose_mesh_options *options,
                              float out_min[3], float out_max[3],
                              bool *out_any, vs_error *error)
{
    if (out_any) *out_any = false;
    if (!pose || !out_min || !out_max)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_pose_fast_bounds: pose, out_min and out_max are "
                         "needed");
    const vs_asset *asset = vs_pose_asset(pose);
    bounds_box b;
    bounds_box_empty(&b);
    vs_result r = VS_OK;
    for (uint32_t i = 0; r == VS_OK && i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_node *n = &asset->nodes[node];
        if (n->skin >= 0 && asset->skins[n->skin].joint_count > 0) {
            r = skinned_instance(pose, i, options, &b, error);
            continue;
        }
        const vs_mesh *mesh = &asset->meshes[n->mesh];
        for (uint32_t p = 0; r == VS_OK && p < mesh->primitive_count; ++p) {
            const prim_bounds *pb = joint_bounds_get(asset, i, p);
            if (pb)
                bounds_box_add_transformed(&b, vs_pose_world(pose, node),
                                           &pb->mesh);
            else
                r = exact_primitive(pose, node, p, options, &b, error);
        }
    }
    /* Bounds over part of the geometry would be wrong: an error gives none. */
    bool any = r == VS_OK && !bounds_box_is_empty(&b);
    for (int k = 0; k < 3; ++k) {
        out_min[k] = any ? b.min[k] : 0.0f;
        out_max[k] = any ? b.max[k] : 0.0f;
    }
    if (out_any) *out_any = any;
    return r;
}
