/* SPDX-License-Identifier: MIT */
/* Joint matrices from a posed skeleton (glTF 2.0 §3.7.3.3; glTF 1.0 and
 * COLLADA add the bind shape matrix):
 *     J_j = R^-1 * G(joint_j) * IBM_j * BSM
 * R = I gives world-space skinning; R = G(node) gives object-space skinning
 * relative to that node (glTF 1.0's inverse(meshWorld) term). */
#include "asset/skin_facts.h"
#include "base/affine.h"
#include "base/affine_avx2.h"
#include "base/affine_avx512.h"
#include "base/cpu_avx2.h"
#include "base/cpu_avx512.h"
#include "base/error.h"
#include "base/xform.h"
#include "pose/pose_internal.h"

/* out = a * b, affine-only when b is affine (exact for any a: the skipped
 * terms multiply the zeros of b's last row). */
static void mul(const float a[16], const float b[16], float out[16])
{
    if (affine_is_affine(b))
        affine_mul(a, b, out);
    else
        xform_mul(a, b, out);
}

static vs_result check_args(const vs_pose *pose, uint32_t skin,
                            int32_t relative_to, const float *out,
                            vs_error *error)
{
    if (!pose || !out)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_pose_joint_matrices: pose and out must not be "
                         "NULL");
    const vs_asset *asset = vs_pose_asset(pose);
    if (skin >= asset->skin_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: skins[%u]: skin does not exist (%u skins)",
                         asset->source_name, skin, asset->skin_count);
    if (relative_to >= (int32_t)asset->node_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: nodes[%d]: node does not exist (%u nodes), "
                         "cannot skin skins[%u] relative to it",
                         asset->source_name, relative_to, asset->node_count,
                         skin);
    return VS_OK;
}

/* The joint matrices into out: 16 floats per joint (column-major 4x4), or
 * with pack_3x4 12 floats per joint (row-major 3x4, rows 0..2), refused with
 * VS_ERROR_UNSUPPORTED when a matrix is not affine. */
static vs_result compute(const vs_pose *pose, uint32_t skin,
                         int32_t relative_to, bool pack_3x4, float *out,
                         vs_error *error)
{
    vs_result r = check_args(pose, skin, relative_to, out, error);
    if (r != VS_OK) return r;
    const vs_asset *asset = vs_pose_asset(pose);
    const vs_skin *sk = &asset->skins[skin];
    float root_inv[16];
    bool relative = relative_to >= 0;
    if (relative &&
        !xform_invert(vs_pose_world(pose, (uint32_t)relative_to), root_inv))
        return set_error(error, VS_ERROR_INVALID,
                         "%s: nodes[%d]: world matrix is singular, cannot "
                         "skin skins[%u] relative to it",
                         asset->source_name, relative_to, skin);
    /* glTF 2.0 has no bind shape matrix (identity): skip the product.
     * mul's affine-only product needs only its right factor affine (G's
     * own last row, projective or not, goes through), so the IBMs are
     * tested per skin rather than G and IBM per joint: once at load, or
     * now for a skin array the asset did not load. */
    const skin_facts *kept = skin_facts_for(asset, skin);
    const skin_facts facts = kept ? *kept : skin_facts_of(sk);
    const bool bsm = !facts.bsm_identity, ibms_affine = facts.ibms_affine;
    const float *worlds = pose_worlds(pose);
    const float *ibms = sk->inverse_bind_matrices;
    /* With the IBMs' rows, kept at load, and nothing else to multiply:
     * G * IBM straight from the rows (no transpose for 3x4 output), two
     * columns or rows per instruction where AVX2 runs (base/affine_avx2.h),
     * the same floats either way. For 3x4, J is affine exactly where G is
     * (the IBM is affine and invertible); a joint whose G is not goes on
     * below, which refuses it. */
    const bool from_rows = facts.ibm_rows && !bsm && !relative;
    const bool avx2 = from_rows && cpu_avx2();
    if (avx2 && !pack_3x4) {
        if (cpu_avx512_preferred())
            affine_avx512_mul_rows_batch(worlds, sk->joints, facts.ibm_rows,
                                         sk->joint_count, out);
        else
            affine_avx2_mul_rows_batch(worlds, sk->joints, facts.ibm_rows,
                                       sk->joint_count, out);
        return VS_OK;
    }
    uint32_t j = 0;
    if (avx2)
        j = affine_avx2_mul_rows_3x4_batch(worlds, sk->joints, facts.ibm_rows,
                                           sk->joint_count, out);
    else if (from_rows && pack_3x4)
        for (; j < sk->joint_count; ++j) {
            const float *g = worlds + 16 * (size_t)sk->joints[j];
            if (!affine_is_affine(g)) break;
            affine_mul_rows(g, facts.ibm_rows + 12 * (size_t)j,
                            out + 12 * (size_t)j);
        }
    float packed[16];
    for (; j < sk->joint_count; ++j) {
        float *m = pack_3x4 ? packed : out + 16 * (size_t)j;
        const float *g = worlds + 16 * (size_t)sk->joints[j];
        if (!ibms)
            xform_copy(g, m); /* §3.7.3.1: absent IBMs are identity */
        else if (ibms_affine)
            affine_mul(g, ibms + 16 * (size_t)j, m);
        else
            xform_mul(g, ibms + 16 * (size_t)j, m);
        if (bsm) mul(m, sk->bind_shape_matrix, m);
        if (relative) mul(root_inv, m, m);
        if (!pack_3x4) continue;
        if (!affine_is_affine(m))
            return set_error(error, VS_ERROR_UNSUPPORTED,
                             "%s: skins[%u].joints[%u]: joint matrix is not "
                             "affine (last row %g %g %g %g); use "
                             "vs_pose_joint_matrices",
                             asset->source_name, skin, j, (double)m[3],
                             (double)m[7], (double)m[11], (double)m[15]);
        affine_rows(m, out + 12 * (size_t)j);
    }
    return VS_OK;
}

vs_result vs_pose_joint_matrices(const vs_pose *pose, uint32_t skin,
                                 int32_t relative_to, float *out,
                                 vs_error *error)
{
    return compute(pose, skin, relative_to, false, out, error);
}

vs_result vs_pose_joint_matrices_3x4(const vs_pose *pose, uint32_t skin,
                                     int32_t relative_to, float *out,
                                     vs_error *error)
{
    return compute(pose, skin, relative_to, true, out, error);
}
