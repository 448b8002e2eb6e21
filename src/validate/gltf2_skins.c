/* SPDX-License-Identifier: MIT */
/* Raw skin checks (glTF 2.0 §3.7.3): the inverse bind matrices accessor
 * (MAT4 FLOAT, at least one per joint, no byteStride, affine and
 * invertible) and the joint hierarchy (resolved joints with a common root,
 * skin.skeleton an ancestor of every joint). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "validate/validate_internal.h"

#define ERR VS_SEVERITY_ERROR

static double det3(const float *m)
{
    return (double)m[0] * ((double)m[5] * m[10] - (double)m[9] * m[6]) -
           (double)m[4] * ((double)m[1] * m[10] - (double)m[9] * m[2]) +
           (double)m[8] * ((double)m[1] * m[6] - (double)m[5] * m[2]);
}

static void check_ibm(vd_doc *d, uint32_t s, const cJSON *skin, uint32_t joints)
{
    int64_t ai = vd_int(skin, "inverseBindMatrices");
    if (ai < 0 || ai >= d->accessor_count) return;
    const vd_accessor *a = &d->accessors[ai];
    char p[64];
    snprintf(p, sizeof p, "/skins/%u/inverseBindMatrices", s);
    if (a->view >= 0 && d->views[a->view].has_stride)
        vd_issue(d->r, ERR, "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", p,
                 "the bufferView of inverse bind matrices must not define "
                 "byteStride");
    if (!a->ok) return;
    if (a->components != 16 || a->component_type != GLTF_FLOAT) {
        vd_issue(d->r, ERR, "SKIN_IBM_INVALID_FORMAT", p,
                 "inverse bind matrices must be MAT4 FLOAT, not %s of "
                 "componentType %u",
                 a->type, a->component_type);
        return;
    }
    if (a->count < joints)
        vd_issue(d->r, ERR, "INVALID_IBM_ACCESSOR_COUNT", p,
                 "%u matrices for %u joints", a->count, joints);
    float *m = vd_accessor_floats(d, ai, true);
    if (!m) return;
    uint32_t bad_row = 0, first_row = 0, singular = 0, first_singular = 0;
    for (uint32_t k = 0; k < a->count; ++k) {
        const float *x = m + (size_t)k * 16;
        if (x[3] != 0 || x[7] != 0 || x[11] != 0 || x[15] != 1) {
            if (bad_row++ == 0) first_row = k;
        } else if (!(fabs(det3(x)) > 1e-12)) {
            if (singular++ == 0) first_singular = k;
        }
    }
    if (bad_row)
        vd_issue(d->r, ERR, "ACCESSOR_INVALID_IBM", p,
                 "%u matrices (first %u) are not affine: the last row must "
                 "be (0, 0, 0, 1)",
                 bad_row, first_row);
    if (singular)
        vd_issue(d->r, ERR, "SKIN_IBM_NON_INVERTIBLE", p,
                 "%u matrices (first %u) are not invertible", singular,
                 first_singular);
    mem_free(vd_alloc(d), m);
}

static void check_hierarchy(vd_doc *d, uint32_t s, const cJSON *skin,
                            const cJSON *joints)
{
    char p[64];
    int64_t root = -2, skeleton = vd_int(skin, "skeleton");
    if (skeleton >= d->node_count) skeleton = -1; /* unresolved: schema's */
    bool common = true, under_skeleton = true;
    const cJSON *j;
    cJSON_ArrayForEach(j, joints)
    {
        int64_t node = json_array_index(j);
        int64_t r = vd_root_of(d, node);
        if (r < 0 || (root != -2 && r != root)) common = false;
        root = r;
        if (skeleton >= 0 && !vd_is_ancestor_or_self(d, skeleton, node))
            under_skeleton = false;
    }
    if (!common) {
        snprintf(p, sizeof p, "/skins/%u/joints", s);
        vd_issue(d->r, ERR, "SKIN_NO_COMMON_ROOT", p,
                 "the joints do not have a common root%s",
                 root < 0 ? " (a joint is missing or on a node loop)" : "");
    } else if (!under_skeleton) {
        snprintf(p, sizeof p, "/skins/%u/skeleton", s);
        vd_issue(d->r, ERR, "SKIN_SKELETON_INVALID", p,
                 "skeleton node %lld is not an ancestor of every joint",
                 (long long)skeleton);
    }
}

void vd_check_skins(vd_doc *d)
{
    uint32_t s = 0;
    const cJSON *skin;
    cJSON_ArrayForEach(skin, d->skins)
    {
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(skin, "joints");
        uint32_t n =
            cJSON_IsArray(joints) ? (uint32_t)cJSON_GetArraySize(joints) : 0;
        check_ibm(d, s, skin, n);
        if (n) check_hierarchy(d, s, skin, joints);
        ++s;
    }
}
