/* SPDX-License-Identifier: MIT */
/* glTF 2.0 skins (§3.7.3): joints are node indices (unique), the inverse
 * bind matrices a MAT4 float accessor with a matrix per joint, identity
 * when absent; glTF 2.0 has no bind shape matrix, so it is identity. */
#include <math.h>

#include "asset/asset_internal.h"
#include "base/xform.h"
#include "load/gltf2/gltf2_internal.h"

static const gltf2_expect expect_ibm = {.types = {"MAT4"},
                                        .ctypes = GLTF2_CT_FLOAT};

static vs_result skin(gltf2_ctx *c, const cJSON *obj, uint32_t i, vs_skin *s)
{
    char path[GLTF2_PATH], where[GLTF2_PATH];
    path_fmt(path, "skins[%u]", i);
    const cJSON *arr, *e;
    uint32_t n, k = 0;
    int32_t ibm;
    vs_result r = json_element_object(c, obj, path);
    if (r != VS_OK || (r = json_name(c, obj, path, &s->name)) != VS_OK ||
        (r = json_array(c, obj, "joints", path, &arr, &n)) != VS_OK ||
        (r = json_index(c, obj, "skeleton", path, c->node_count, false,
                        &s->skeleton)) != VS_OK ||
        (r = json_index(c, obj, "inverseBindMatrices", path,
                        c->accessor_count, false, &ibm)) != VS_OK)
        return r;
    if (n == 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.joints: at least one joint is required",
                         c->src, path);
    if (n > asset_limits(c->asset)->max_joints)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: %s.joints: %u joints exceed the limit of %u",
                         c->src, path, n, asset_limits(c->asset)->max_joints);
    uint32_t *joints = vs_priv_asset_calloc(c->asset, n, sizeof *joints, c->error,
                                    path);
    if (!joints) return c->error ? c->error->code : VS_ERROR_LIMIT;
    /* Joint uniqueness (schema uniqueItems), in linear time. */
    marks_begin(c);
    cJSON_ArrayForEach(e, arr)
    {
        path_fmt(where, "%s.joints[%u]", path, k);
        if ((r = json_index_value(c, e, where, c->node_count, &joints[k])) !=
            VS_OK)
            return r;
        if (marks_test_set(c, joints[k], 1))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: node %u is already a joint of this skin",
                             c->src, where, joints[k]);
        ++k;
    }
    s->joints = joints;
    s->joint_count = n;
    xform_identity(s->bind_shape_matrix);
    path_fmt(where, "%s.inverseBindMatrices", path);
    gltf2_accessor_summary info = {0};
    /* §5.26 skin.inverseBindMatrices: the accessor has at least as many
     * elements as there are joints; joint j uses matrix j, the rest are
     * unused (the validator wants equality, the specification does not).
     * The count is checked from the JSON first, so that a short accessor is
     * refused before it is decoded. */
    if (ibm >= 0 && gltf2_accessor_info(c, ibm, &info) && info.count < n)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s: accessor %d has %u elements but the skin "
                         "has %u joints",
                         c->src, where, ibm, info.count, n);
    if (ibm >= 0) {
        float *m;
        uint32_t count;
        gltf2_expect e = expect_ibm;
        if ((r = gltf2_accessor_floats(c, ibm, where, &e, &m, &count,
                                       NULL)) != VS_OK)
            return r;
        /* §3.7.3.1 / validator ACCESSOR_INVALID_IBM: an inverse bind
         * matrix is affine; a projective last row would skew every skinned
         * vertex. Exporters write 0 and 1, the tolerance forgives text
         * rounded to a few digits. An accessor without data (all zeros, §3.6.2.3) is what
         * the file says, and the validator leaves it alone too. */
        bool has_data = info.has_source;
        for (uint32_t j = 0; has_data && j < n; ++j) {
            const float *mat = m + 16 * (size_t)j;
            if (!gltf_ibm_is_affine(mat))
                return set_error(c->error, VS_ERROR_INVALID,
                                 "%s: %s: accessor %d: matrix %u is not "
                                 "affine (last row %g %g %g %g)",
                                 c->src, where, ibm, j, (double)mat[3],
                                 (double)mat[7], (double)mat[11],
                                 (double)mat[15]);
        }
        s->inverse_bind_matrices = m;
    } else {
        float *m = vs_priv_asset_calloc(c->asset, (size_t)n * 16, sizeof *m, c->error,
                                where);
        if (!m) return c->error ? c->error->code : VS_ERROR_LIMIT;
        for (uint32_t j = 0; j < n; ++j) xform_identity(m + 16 * (size_t)j);
        s->inverse_bind_matrices = m;
    }
    return VS_OK;
}

vs_result gltf2_load_skins(gltf2_ctx *c)
{
    const cJSON *arr, *e;
    uint32_t n, i = 0;
    vs_result r = json_array(c, c->root, "skins", "", &arr, &n);
    if (r != VS_OK || n == 0) return r;
    vs_skin *skins = vs_priv_asset_calloc(c->asset, n, sizeof *skins, c->error,
                                  "skins");
    if (!skins) return c->error ? c->error->code : VS_ERROR_LIMIT;
    cJSON_ArrayForEach(e, arr)
    {
        if ((r = skin(c, e, i, &skins[i])) != VS_OK) return r;
        ++i;
    }
    c->asset->skins = skins;
    c->asset->skin_count = n;
    return VS_OK;
}
