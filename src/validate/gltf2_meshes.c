/* SPDX-License-Identifier: MIT */
/* Raw checks of primitive data (glTF 2.0 §3.7.2.1, §3.7.3.3): per-vertex
 * skin influences over every JOINTS_n/WEIGHTS_n set, indices, colours,
 * normals and tangents. Each kind of problem is reported once per attribute
 * with the first offending vertex and a count, so a bad mesh of a million
 * vertices gives a few lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate_internal.h"

#define ERR VS_SEVERITY_ERROR
#define WARN VS_SEVERITY_WARNING
#define MAX_SETS 8
/* The glTF-Validator's unit-length tolerance for 3-vectors. */
#define UNIT_TOLERANCE 0.00674f

typedef struct tally {
    uint32_t count, first;
} tally;

static void hit(tally *t, uint32_t vertex)
{
    if (t->count++ == 0) t->first = vertex;
}

/* Smallest joint count of the skins of nodes that use mesh m (the bound a
 * joint index must respect for every instance); -1 when none. */
static int64_t joint_limit(const vd_doc *d, uint32_t m)
{
    int64_t limit = -1;
    const cJSON *n;
    cJSON_ArrayForEach(n, d->nodes)
    {
        if (vd_int(n, "mesh") != m) continue;
        const cJSON *skin = vd_item(d->skins, d->skin_count, vd_int(n, "skin"));
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(skin, "joints");
        if (!cJSON_IsArray(joints)) continue;
        int64_t c = cJSON_GetArraySize(joints);
        if (limit < 0 || c < limit) limit = c;
    }
    return limit;
}

typedef struct sets {
    uint32_t n;
    float *joints[MAX_SETS], *weights[MAX_SETS];
    uint32_t count; /* vertices */
} sets;

static void check_influences(vd_doc *d, uint32_t m, const char *ap,
                             const cJSON *attrs)
{
    sets s = {0};
    for (; s.n < MAX_SETS; ++s.n) {
        char jn[16], wn[16];
        snprintf(jn, sizeof jn, "JOINTS_%u", s.n & 7);
        snprintf(wn, sizeof wn, "WEIGHTS_%u", s.n & 7);
        int64_t ja = vd_int(attrs, jn), wa = vd_int(attrs, wn);
        if (ja < 0 || wa < 0 || ja >= d->accessor_count ||
            wa >= d->accessor_count)
            break;
        const vd_accessor *J = &d->accessors[ja], *W = &d->accessors[wa];
        if (J->components != 4 || W->components != 4 || J->is_matrix ||
            W->is_matrix || J->count != W->count ||
            (s.n && J->count != s.count))
            break;
        s.count = J->count;
        s.joints[s.n] = vd_accessor_floats(d, ja, true);
        s.weights[s.n] = vd_accessor_floats(d, wa, false);
        if (!s.joints[s.n] || !s.weights[s.n]) {
            mem_free(vd_alloc(d), s.joints[s.n]);
            mem_free(vd_alloc(d), s.weights[s.n]);
            break;
        }
    }
    int64_t limit = joint_limit(d, m);
    tally oob[MAX_SETS] = {{0}}, dup[MAX_SETS] = {{0}}, zero[MAX_SETS] = {{0}},
          neg[MAX_SETS] = {{0}}, sum = {0}, many = {0};
    uint32_t most = 0;
    float worst = 1;
    for (uint32_t v = 0; v < s.count; ++v) {
        float total = 0;
        uint32_t used = 0;
        for (uint32_t k = 0; k < s.n * 4; ++k) {
            float w = s.weights[k / 4][v * 4 + k % 4];
            float j = s.joints[k / 4][v * 4 + k % 4];
            /* Influences already reported (negative, out of range,
             * repeated) stay out of the sum, as in the glTF-Validator. */
            bool bad = false;
            if (w < 0) {
                hit(&neg[k / 4], v);
                bad = true;
            }
            if (w == 0) {
                if (j != 0) hit(&zero[k / 4], v);
                continue;
            }
            ++used;
            if (limit >= 0 && j >= (float)limit) {
                hit(&oob[k / 4], v);
                bad = true;
            }
            for (uint32_t e = 0; e < k; ++e)
                if (s.weights[e / 4][v * 4 + e % 4] != 0 &&
                    s.joints[e / 4][v * 4 + e % 4] == j) {
                    hit(&dup[k / 4], v);
                    bad = true;
                    break;
                }
            if (!bad) total += w;
        }
        if (fabsf(total - 1) > d->opt.weight_tolerance) {
            if (sum.count == 0) worst = total;
            hit(&sum, v);
        }
        if (used > d->opt.max_influences) {
            hit(&many, v);
            if (used > most) most = used;
        }
    }
    char p[160];
    for (uint32_t k = 0; k < s.n; ++k) {
        snprintf(p, sizeof p, "%s/JOINTS_%u", ap, k);
        if (oob[k].count)
            vd_issue(d->r, ERR, "ACCESSOR_JOINTS_INDEX_OOB", p,
                     "%u vertices (first %u) use a joint index >= %lld, the "
                     "joint count of the smallest skin used with this mesh",
                     oob[k].count, oob[k].first, (long long)limit);
        if (dup[k].count)
            vd_issue(d->r, ERR, "ACCESSOR_JOINTS_INDEX_DUPLICATE", p,
                     "%u vertices (first %u) name the same joint twice",
                     dup[k].count, dup[k].first);
        if (zero[k].count)
            vd_issue(d->r, WARN, "ACCESSOR_JOINTS_USED_ZERO_WEIGHT", p,
                     "%u vertices (first %u) have a non-zero joint index "
                     "with zero weight",
                     zero[k].count, zero[k].first);
        snprintf(p, sizeof p, "%s/WEIGHTS_%u", ap, k);
        if (neg[k].count)
            vd_issue(d->r, ERR, "ACCESSOR_WEIGHTS_NEGATIVE", p,
                     "%u vertices (first %u) have a negative weight",
                     neg[k].count, neg[k].first);
        if (sum.count)
            vd_issue(d->r, ERR, "ACCESSOR_WEIGHTS_NON_NORMALIZED", p,
                     "%u vertices (first %u, sum %g) have weights that do "
                     "not sum to 1",
                     sum.count, sum.first, (double)worst);
        mem_free(vd_alloc(d), s.joints[k]);
        mem_free(vd_alloc(d), s.weights[k]);
    }
    if (many.count) {
        snprintf(p, sizeof p, "%s/WEIGHTS_0", ap);
        vd_issue(d->r, WARN, "SKIN_TOO_MANY_INFLUENCES", p,
                 "%u vertices (first %u) have more than %u non-zero "
                 "weights (up to %u)",
                 many.count, many.first, d->opt.max_influences, most);
    }
}

static void check_indices(vd_doc *d, const cJSON *prim, const char *pp,
                          int64_t vertices)
{
    int64_t ia = vd_int(prim, "indices");
    float *ix = vd_accessor_floats(d, ia, true);
    if (!ix) return;
    const vd_accessor *a = &d->accessors[ia];
    double restart = a->component_type == GLTF_UNSIGNED_BYTE    ? 255.0
                     : a->component_type == GLTF_UNSIGNED_SHORT ? 65535.0
                                                                : 4294967295.0;
    tally oob = {0}, rs = {0};
    for (uint32_t k = 0; k < a->count; ++k) {
        if ((double)ix[k] >= restart)
            hit(&rs, k);
        else if (vertices >= 0 && ix[k] >= (float)vertices)
            hit(&oob, k);
    }
    char p[160];
    snprintf(p, sizeof p, "%s/indices", pp);
    if (oob.count)
        vd_issue(d->r, ERR, "ACCESSOR_INDEX_OOB", p,
                 "%u indices (first at %u) are >= the vertex count %lld",
                 oob.count, oob.first, (long long)vertices);
    if (rs.count)
        vd_issue(d->r, ERR, "ACCESSOR_INDEX_PRIMITIVE_RESTART", p,
                 "%u indices (first at %u) hold the primitive restart value",
                 rs.count, rs.first);
    mem_free(vd_alloc(d), ix);
}

/* COLOR_n in 0..1, NORMAL unit, TANGENT unit with w = +-1. */
static void check_vectors(vd_doc *d, const cJSON *attrs, const char *ap)
{
    const cJSON *attr;
    cJSON_ArrayForEach(attr, attrs)
    {
        const char *name = attr->string;
        bool color = strncmp(name, "COLOR_", 6) == 0;
        bool normal = strcmp(name, "NORMAL") == 0;
        bool tangent = strcmp(name, "TANGENT") == 0;
        if (!color && !normal && !tangent) continue;
        int64_t ai = vd_int(attrs, name);
        float *v = vd_accessor_floats(d, ai, false);
        if (!v) continue;
        const vd_accessor *a = &d->accessors[ai];
        uint32_t n = a->components;
        tally bad = {0}, sign = {0};
        for (uint32_t k = 0; k < a->count; ++k) {
            const float *e = v + (size_t)k * n;
            if (color) {
                for (uint32_t c = 0; c < n; ++c)
                    if (!(e[c] >= 0 && e[c] <= 1)) {
                        hit(&bad, k);
                        break;
                    }
            } else if (n >= 3) {
                float len = sqrtf(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
                if (!(fabsf(len - 1) <= UNIT_TOLERANCE)) hit(&bad, k);
                if (tangent && n == 4 && e[3] != 1 && e[3] != -1) hit(&sign, k);
            }
        }
        char p[160];
        snprintf(p, sizeof p, "%s/%s", ap, name);
        if (bad.count)
            vd_issue(d->r, ERR,
                     color ? "ACCESSOR_NON_CLAMPED"
                           : "ACCESSOR_VECTOR3_NON_UNIT",
                     p, "%u elements (first %u) are %s", bad.count, bad.first,
                     color ? "outside 0..1" : "not of unit length");
        if (sign.count)
            vd_issue(d->r, ERR, "ACCESSOR_INVALID_SIGN", p,
                     "%u tangents (first %u) have w other than 1 or -1",
                     sign.count, sign.first);
        mem_free(vd_alloc(d), v);
    }
}

void vd_check_meshes(vd_doc *d)
{
    uint32_t m = 0;
    const cJSON *mesh;
    cJSON_ArrayForEach(mesh, d->meshes)
    {
        const cJSON *prims =
            cJSON_GetObjectItemCaseSensitive(mesh, "primitives");
        uint32_t p = 0;
        const cJSON *prim;
        if (!cJSON_IsArray(prims)) prims = NULL;
        cJSON_ArrayForEach(prim, prims)
        {
            if (d->r->oom) return;
            char pp[96], ap[128];
            snprintf(pp, sizeof pp, "/meshes/%u/primitives/%u", m, p);
            snprintf(ap, sizeof ap, "%s/attributes", pp);
            const cJSON *attrs =
                cJSON_GetObjectItemCaseSensitive(prim, "attributes");
            if (cJSON_IsObject(attrs)) {
                int64_t pos = vd_int(attrs, "POSITION");
                int64_t vertices =
                    pos >= 0 && pos < d->accessor_count && d->accessors[pos].ok
                        ? (int64_t)d->accessors[pos].count
                        : -1;
                check_influences(d, m, ap, attrs);
                check_indices(d, prim, pp, vertices);
                check_vectors(d, attrs, ap);
            }
            ++p;
        }
        ++m;
    }
}
