/* SPDX-License-Identifier: MIT */
/* Model-level skin checks on a loaded vs_asset, so glTF 1.0 and COLLADA get
 * them too: influences per vertex (weights normalized, not negative, not
 * more than the limit, joints in range and not repeated), inverse bind
 * matrices (affine, invertible, and whether the bind pose is the rest
 * pose), joints with a common root and joints no vertex uses. For glTF 2.0
 * the raw pass (gltf2_*.c) already did the per-vertex and structural
 * checks with the document's own pointers; only the model-only checks run.
 * Key times need no check here: every loader rejects non-increasing ones
 * (vs_anim_sampler.times is strictly increasing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/xform.h"
#include "validate/validate_internal.h"
#include "vskin/vskin_tools.h"

#define ERR VS_SEVERITY_ERROR
#define WARN VS_SEVERITY_WARNING
#define INFO VS_SEVERITY_INFO
/* Rest pose vs bind pose: largest element difference of G(joint) * IBM
 * from the identity that still counts as "the same pose". */
#define POSE_TOLERANCE 1e-3f

/* glTF 2.0 requires normalized weights and distinct joints per vertex
 * (§3.7.3.3); glTF 1.0 and COLLADA only expect them and runtimes divide by
 * the sum and add repeated joints up, so there they are warnings (sev). */
static void check_primitive(vd_report *r, const vd_options *opt,
                            const vs_primitive *p, const char *pp,
                            vs_severity sev)
{
    uint32_t n = p->influence_count, neg = 0, sum = 0, many = 0, dup = 0,
             zero = 0, first_sum = 0, most = 0;
    for (uint32_t v = 0; v < p->vertex_count; ++v) {
        const uint16_t *j = p->joints + (size_t)v * n;
        const float *w = p->weights + (size_t)v * n;
        float total = 0;
        uint32_t used = 0;
        bool d = false, z = false, ng = false;
        for (uint32_t k = 0; k < n; ++k) {
            total += w[k];
            ng |= w[k] < 0;
            if (w[k] == 0) {
                z |= j[k] != 0;
                continue;
            }
            ++used;
            for (uint32_t e = 0; e < k; ++e)
                d |= w[e] != 0 && j[e] == j[k];
        }
        neg += ng;
        dup += d;
        zero += z;
        if (fabsf(total - 1) > opt->weight_tolerance && sum++ == 0)
            first_sum = v;
        if (used > opt->max_influences) {
            ++many;
            if (used > most) most = used;
        }
    }
    char q[160];
    snprintf(q, sizeof q, "%s/weights", pp);
    if (neg)
        vd_issue(r, ERR, "ACCESSOR_WEIGHTS_NEGATIVE", q,
                 "%u vertices have a negative weight", neg);
    if (sum)
        vd_issue(r, sev, "ACCESSOR_WEIGHTS_NON_NORMALIZED", q,
                 "%u vertices (first %u) have weights that do not sum to 1",
                 sum, first_sum);
    if (many)
        vd_issue(r, WARN, "SKIN_TOO_MANY_INFLUENCES", q,
                 "%u vertices have more than %u non-zero weights (up to %u)",
                 many, opt->max_influences, most);
    snprintf(q, sizeof q, "%s/joints", pp);
    if (dup)
        vd_issue(r, sev, "ACCESSOR_JOINTS_INDEX_DUPLICATE", q,
                 "%u vertices name the same joint twice", dup);
    if (zero)
        vd_issue(r, WARN, "ACCESSOR_JOINTS_USED_ZERO_WEIGHT", q,
                 "%u vertices have a non-zero joint index with zero weight",
                 zero);
}

static void check_ibms(vd_report *r, const vs_asset *a, uint32_t s,
                       bool structural)
{
    const vs_skin *skin = &a->skins[s];
    if (!skin->inverse_bind_matrices) return;
    uint32_t bad = 0, singular = 0, moved = 0;
    float worst = 0;
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        const float *m = skin->inverse_bind_matrices + (size_t)j * 16;
        float inv[16], g[16], jm[16], full[16];
        if (m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1)
            ++bad;
        else if (!xform_invert(m, inv))
            ++singular;
        vs_asset_rest_world(a, skin->joints[j], g);
        xform_mul(g, m, jm);
        xform_mul(jm, skin->bind_shape_matrix, full);
        float dev = 0;
        for (int k = 0; k < 16; ++k) {
            float e = fabsf(full[k] - (k % 5 == 0 ? 1.0f : 0.0f));
            if (e > dev) dev = e;
        }
        if (dev > POSE_TOLERANCE) ++moved;
        if (dev > worst) worst = dev;
    }
    char p[64];
    snprintf(p, sizeof p, "/skins/%u/inverseBindMatrices", s);
    if (structural && bad)
        vd_issue(r, ERR, "ACCESSOR_INVALID_IBM", p,
                 "%u matrices are not affine (last row is not 0, 0, 0, 1)",
                 bad);
    if (structural && singular)
        vd_issue(r, ERR, "SKIN_IBM_NON_INVERTIBLE", p,
                 "%u matrices are not invertible", singular);
    if (moved)
        vd_issue(r, INFO, "SKIN_BIND_POSE_NOT_REST_POSE", p,
                 "for %u of %u joints the rest pose differs from the bind "
                 "pose (largest element of G(joint) * IBM off the identity "
                 "by %g); the mesh is deformed at rest, which is allowed",
                 moved, skin->joint_count, (double)worst);
}

static uint32_t root_of(const vs_asset *a, uint32_t n)
{
    while (a->nodes[n].parent >= 0)
        n = (uint32_t)a->nodes[n].parent;
    return n;
}

/* Joints no vertex of a primitive skinned by this skin weights. */
static void check_usage(vd_report *r, const vs_asset *a, uint32_t s, bool *used)
{
    const vs_skin *skin = &a->skins[s];
    bool any_mesh = false;
    for (uint32_t j = 0; j < skin->joint_count; ++j)
        used[j] = false;
    for (uint32_t i = 0; i < a->node_count; ++i) {
        const vs_node *n = &a->nodes[i];
        if (n->skin != (int32_t)s || n->mesh < 0) continue;
        any_mesh = true;
        const vs_mesh *m = &a->meshes[n->mesh];
        for (uint32_t p = 0; p < m->primitive_count; ++p) {
            const vs_primitive *pr = &m->primitives[p];
            size_t total = (size_t)pr->vertex_count * pr->influence_count;
            for (size_t k = 0; k < total; ++k)
                if (pr->weights[k] != 0 && pr->joints[k] < skin->joint_count)
                    used[pr->joints[k]] = true;
        }
    }
    uint32_t unused = 0, first = 0;
    for (uint32_t j = 0; j < skin->joint_count; ++j)
        if (!used[j] && unused++ == 0) first = j;
    char p[64];
    snprintf(p, sizeof p, "/skins/%u/joints/%u", s, first);
    if (any_mesh && unused)
        vd_issue(r, INFO, "SKIN_UNUSED_JOINTS", p,
                 "%u of %u joints (first %u) carry no vertex weight (bones "
                 "that only parent others are normal)",
                 unused, skin->joint_count, first);
    if (!any_mesh) {
        snprintf(p, sizeof p, "/skins/%u", s);
        vd_issue(r, INFO, "SKIN_UNUSED", p, "no mesh node uses this skin");
    }
}

void vd_check_model(vd_report *r, const vd_options *opt, const vs_asset *a,
                    bool gltf2_raw_done)
{
    if (!gltf2_raw_done) {
        for (uint32_t m = 0; m < a->mesh_count; ++m)
            for (uint32_t p = 0; p < a->meshes[m].primitive_count; ++p) {
                const vs_primitive *pr = &a->meshes[m].primitives[p];
                if (!pr->influence_count) continue;
                char pp[96];
                snprintf(pp, sizeof pp, "/meshes/%u/primitives/%u", m, p);
                check_primitive(r, opt, pr, pp,
                                a->format == VS_FORMAT_GLTF2 ? ERR : WARN);
            }
    }
    uint32_t most = 0;
    for (uint32_t s = 0; s < a->skin_count; ++s)
        if (a->skins[s].joint_count > most) most = a->skins[s].joint_count;
    bool *used = mem_alloc(&r->alloc, (most ? most : 1) * sizeof *used);
    if (!used) {
        r->oom = true;
        return;
    }
    for (uint32_t s = 0; s < a->skin_count && !r->oom; ++s) {
        const vs_skin *skin = &a->skins[s];
        check_ibms(r, a, s, !gltf2_raw_done);
        check_usage(r, a, s, used);
        if (gltf2_raw_done || !skin->joint_count) continue;
        uint32_t root = root_of(a, skin->joints[0]);
        for (uint32_t j = 1; j < skin->joint_count; ++j)
            if (root_of(a, skin->joints[j]) != root) {
                char p[64];
                snprintf(p, sizeof p, "/skins/%u/joints", s);
                /* COLLADA allows several <skeleton> roots (and its
                 * joint -1 is the mesh node); glTF 2.0 does not, so a
                 * converted file would fail validation. */
                vd_issue(r, WARN, "SKIN_NO_COMMON_ROOT", p,
                         "joints %u and 0 have different roots (glTF 2.0 "
                         "requires one common root)",
                         j);
                break;
            }
    }
    mem_free(&r->alloc, used);
}
