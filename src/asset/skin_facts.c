/* SPDX-License-Identifier: MIT */
/* Per-skin facts for the joint matrices (asset/skin_facts.h). */
#include "asset/skin_facts.h"

#include "asset/asset_internal.h"
#include "base/affine.h"
#include "base/error.h"
#include "base/xform.h"

skin_facts skin_facts_of(const vs_skin *skin)
{
    skin_facts f = {true, xform_is_identity(skin->bind_shape_matrix, 0.0f),
                    NULL};
    const float *ibms = skin->inverse_bind_matrices;
    for (uint32_t j = 0; ibms && j < skin->joint_count; ++j)
        f.ibms_affine &= affine_is_affine(ibms + 16 * (size_t)j);
    return f;
}

vs_result skin_facts_build(vs_asset *asset, vs_error *error)
{
    asset_internal *in = asset->internal_;
    if (asset->skin_count == 0) return VS_OK;
    bool refused = false;
    skin_facts *facts = asset_calloc_optional(asset, asset->skin_count,
                                              sizeof *facts, &refused);
    for (uint32_t s = 0; facts && s < asset->skin_count; ++s) {
        const vs_skin *skin = &asset->skins[s];
        facts[s] = skin_facts_of(skin);
        const float *ibms = skin->inverse_bind_matrices;
        if (!facts[s].ibms_affine || !ibms) continue;
        float *rows = asset_calloc_optional(asset, skin->joint_count,
                                            12 * sizeof *rows, &refused);
        if (!rows) continue; /* 3x4 matrices are transposed instead */
        for (uint32_t j = 0; j < skin->joint_count; ++j)
            affine_rows(ibms + 16 * (size_t)j, rows + 12 * (size_t)j);
        facts[s].ibm_rows = rows;
    }
    if (refused)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: skin facts: out of memory", asset->source_name);
    if (facts) {
        in->skin_facts = facts;
        in->skin_facts_skins = asset->skins;
        in->skin_fact_count = asset->skin_count;
    }
    return VS_OK;
}

const skin_facts *skin_facts_for(const vs_asset *asset, uint32_t s)
{
    const asset_internal *in = asset->internal_;
    if (!in || !in->skin_facts || in->skin_facts_skins != asset->skins ||
        s >= in->skin_fact_count || s >= asset->skin_count)
        return NULL;
    return &in->skin_facts[s];
}
