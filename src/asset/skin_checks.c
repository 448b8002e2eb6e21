/* SPDX-License-Identifier: MIT */
/* Load-time checks of everything the skinning hot loop reads, so that loop
 * needs no checks of its own: weights finite (NaN/inf would poison every
 * vertex they touch), inverse bind matrices and bind shape matrices finite
 * and invertible enough to mean something. Joint indices are checked in
 * asset.c (check_skinned_primitives). Negative weights are accepted: the
 * skinning equation is defined for them and some exporters write tiny
 * negative values; only non-finite ones are refused. */
#include <math.h>

#include "asset/asset_internal.h"
#include "asset/prim_refs.h"
#include "base/alloc.h"
#include "base/error.h"

/* |det| of the upper 3x3 relative to the product of its column lengths
 * (1 for a rotation times any scale, 0 for a degenerate matrix): below this
 * the matrix squashes space onto a plane, line or point and cannot be the
 * inverse of a bind pose. Scale-invariant, so tiny units (cm, mm) pass. */
#define MIN_RELATIVE_DET 1e-6

static bool matrix_finite(const float *m)
{
    for (int i = 0; i < 16; ++i)
        if (!isfinite(m[i])) return false;
    return true;
}

static bool matrix_invertible(const float *m)
{
    double c[3][3], len = 1.0;
    for (int col = 0; col < 3; ++col) {
        double s = 0.0;
        for (int row = 0; row < 3; ++row) {
            c[col][row] = m[col * 4 + row];
            s += c[col][row] * c[col][row];
        }
        len *= sqrt(s);
    }
    double det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) -
                 c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                 c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    return len > 0.0 && fabs(det) > MIN_RELATIVE_DET * len;
}

static vs_result check_skin_matrices(const vs_asset *asset, uint32_t s,
                                     vs_error *error)
{
    const vs_skin *skin = &asset->skins[s];
    const char *src = asset->source_name;
    if (!matrix_finite(skin->bind_shape_matrix) ||
        !matrix_invertible(skin->bind_shape_matrix))
        return set_error(error, VS_ERROR_INVALID,
                         "%s: skins[%u].bindShapeMatrix: not finite or not "
                         "invertible",
                         src, s);
    if (!skin->inverse_bind_matrices) return VS_OK;
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        const float *m = skin->inverse_bind_matrices + (size_t)j * 16;
        if (!matrix_finite(m))
            return set_error(error, VS_ERROR_INVALID,
                             "%s: skins[%u].inverseBindMatrices[%u]: a value "
                             "is NaN or infinite",
                             src, s, j);
        if (!matrix_invertible(m))
            return set_error(error, VS_ERROR_INVALID,
                             "%s: skins[%u].inverseBindMatrices[%u]: the "
                             "matrix is singular (relative |det| <= %g)",
                             src, s, j, MIN_RELATIVE_DET);
    }
    return VS_OK;
}

/* Each weights array once (prim_refs.h). */
static vs_result check_weights(const vs_asset *asset, vs_error *error)
{
    size_t count;
    prim_ref *refs = prim_refs_sorted(asset, true, &count);
    if (!refs)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: skin checks: out of memory", asset->source_name);
    vs_result r = VS_OK;
    for (size_t i = 0; i < count && r == VS_OK; ++i) {
        if (i > 0 && refs[i].data == refs[i - 1].data) continue;
        const uint32_t m = refs[i].mesh, p = refs[i].primitive;
        const vs_primitive *prim = &asset->meshes[m].primitives[p];
        size_t n = (size_t)prim->vertex_count * prim->influence_count;
        for (size_t k = 0; k < n; ++k)
            if (!isfinite(prim->weights[k])) {
                r = set_error(
                    error, VS_ERROR_INVALID,
                    "%s: meshes[%u].primitives[%u].attributes.WEIGHTS_%zu:"
                    " vertex %zu has a NaN or infinite weight",
                    asset->source_name, m, p,
                    (k % prim->influence_count) / 4,
                    k / prim->influence_count);
                break;
            }
    }
    mem_free(asset_load_allocator(asset), refs);
    return r;
}

vs_result asset_check_skin_data(const vs_asset *asset, vs_error *error)
{
    vs_result r;
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        if ((r = check_skin_matrices(asset, s, error)) != VS_OK) return r;
    return check_weights(asset, error);
}
