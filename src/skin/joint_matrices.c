/* Joint matrices from a posed skeleton (glTF 2.0 §3.7.3.3; glTF 1.0 and
 * COLLADA add the bind shape matrix):
 *     J_j = R^-1 * G(joint_j) * IBM_j * BSM
 * R = I gives world-space skinning; R = G(node) gives object-space skinning
 * relative to that node (glTF 1.0's inverse(meshWorld) term). */
#include "core/error.h"
#include "core/xform.h"

vs_result vs_pose_joint_matrices(const vs_pose *pose, uint32_t skin,
                                 int32_t relative_to, float *out,
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
    const vs_skin *sk = &asset->skins[skin];
    float root_inv[16];
    bool relative = relative_to >= 0;
    if (relative &&
        !xform_invert(vs_pose_world(pose, (uint32_t)relative_to), root_inv))
        return set_error(error, VS_ERROR_INVALID,
                         "%s: nodes[%d]: world matrix is singular, cannot "
                         "skin skins[%u] relative to it",
                         asset->source_name, relative_to, skin);
    /* glTF 2.0 has no bind shape matrix (identity): skip the product. */
    bool bsm = !xform_is_identity(sk->bind_shape_matrix, 0.0f);
    for (uint32_t j = 0; j < sk->joint_count; ++j) {
        float *m = out + 16 * (size_t)j;
        const float *g = vs_pose_world(pose, sk->joints[j]);
        if (sk->inverse_bind_matrices)
            xform_mul(g, sk->inverse_bind_matrices + 16 * (size_t)j, m);
        else
            xform_copy(g, m); /* §3.7.3.1: absent IBMs are identity */
        if (bsm) xform_mul(m, sk->bind_shape_matrix, m);
        if (relative) xform_mul(root_inv, m, m);
    }
    return VS_OK;
}
