/* SPDX-License-Identifier: MIT */
/* Raw node checks (glTF 2.0 §3.5): matrix vs TRS, decomposable matrices,
 * the hierarchy (a node listed by two parents, loops, found with Tarjan's
 * strongly connected components so any node count stays linear), and how
 * nodes use skins and meshes (§3.7.3.3: a skinned mesh node's own and
 * parents' transforms are ignored). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate_internal.h"

#define ERR VS_SEVERITY_ERROR
#define WARN VS_SEVERITY_WARNING

static bool build_children(vd_doc *d)
{
    uint32_t n = d->node_count, total = 0;
    d->parent = mem_alloc(vd_alloc(d), (n ? n : 1) * sizeof *d->parent);
    d->in_loop = mem_calloc(vd_alloc(d), n ? n : 1, sizeof *d->in_loop);
    d->child_start = mem_calloc(vd_alloc(d), n + 1, sizeof *d->child_start);
    if (!d->parent || !d->in_loop || !d->child_start) return false;
    for (uint32_t i = 0; i < n; ++i)
        d->parent[i] = -1;
    const cJSON *node, *c;
    uint32_t i = 0;
    cJSON_ArrayForEach(node, d->nodes)
    {
        const cJSON *kids = cJSON_GetObjectItemCaseSensitive(node, "children");
        if (cJSON_IsArray(kids)) total += (uint32_t)cJSON_GetArraySize(kids);
        d->child_start[++i] = total;
    }
    d->child = mem_alloc(vd_alloc(d), (total ? total : 1) * sizeof *d->child);
    if (!d->child) return false;
    i = 0;
    cJSON_ArrayForEach(node, d->nodes)
    {
        const cJSON *kids = cJSON_GetObjectItemCaseSensitive(node, "children");
        uint32_t k = 0, at = d->child_start[i];
        if (!cJSON_IsArray(kids)) kids = NULL;
        cJSON_ArrayForEach(c, kids)
        {
            int32_t v = json_array_index(c);
            uint32_t child =
                v >= 0 && (uint32_t)v < n ? (uint32_t)v : UINT32_MAX;
            d->child[at + k] = child;
            if (child != UINT32_MAX) {
                if (d->parent[child] >= 0) {
                    char p[64];
                    snprintf(p, sizeof p, "/nodes/%u/children/%u", i, k);
                    vd_issue(d->r, ERR, "NODE_PARENT_OVERRIDE", p,
                             "node %u already has parent %d", child,
                             d->parent[child]);
                } else {
                    d->parent[child] = (int32_t)i;
                }
            }
            ++k;
        }
        ++i;
    }
    return true;
}

/* Iterative Tarjan: every node of a strongly connected component of two or
 * more nodes, or with an edge to itself, is on a loop. */
static bool find_loops(vd_doc *d)
{
    uint32_t n = d->node_count;
    if (n == 0) return true;
    uint32_t *index = mem_alloc(vd_alloc(d), n * sizeof *index),
             *low = mem_alloc(vd_alloc(d), n * sizeof *low),
             *stack = mem_alloc(vd_alloc(d), n * sizeof *stack),
             *call = mem_alloc(vd_alloc(d), n * sizeof *call),
             *edge = mem_alloc(vd_alloc(d), n * sizeof *edge);
    bool *on = mem_calloc(vd_alloc(d), n, sizeof *on);
    bool ok = index && low && stack && call && edge && on;
    uint32_t next = 1, sp = 0;
    for (uint32_t i = 0; ok && i < n; ++i)
        index[i] = 0;
    for (uint32_t s = 0; ok && s < n; ++s) {
        if (index[s]) continue;
        uint32_t cp = 0;
        call[cp] = s;
        edge[cp++] = d->child_start[s];
        index[s] = low[s] = next++;
        stack[sp++] = s;
        on[s] = true;
        while (cp) {
            uint32_t v = call[cp - 1];
            if (edge[cp - 1] < d->child_start[v + 1]) {
                uint32_t w = d->child[edge[cp - 1]++];
                if (w == UINT32_MAX) continue;
                if (w == v) d->in_loop[v] = true;
                if (!index[w]) {
                    index[w] = low[w] = next++;
                    stack[sp++] = w;
                    on[w] = true;
                    call[cp] = w;
                    edge[cp++] = d->child_start[w];
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            --cp;
            if (cp && low[v] < low[call[cp - 1]]) low[call[cp - 1]] = low[v];
            if (low[v] != index[v]) continue;
            uint32_t size = 0, top = sp;
            do {
                on[stack[--sp]] = false;
                ++size;
            } while (stack[sp] != v);
            if (size > 1)
                for (uint32_t k = sp; k < top; ++k)
                    d->in_loop[stack[k]] = true;
        }
    }
    mem_free(vd_alloc(d), index);
    mem_free(vd_alloc(d), low);
    mem_free(vd_alloc(d), stack);
    mem_free(vd_alloc(d), call);
    mem_free(vd_alloc(d), edge);
    mem_free(vd_alloc(d), on);
    return ok;
}

/* Every node's topmost ancestor, once, in linear time: walk up to a node
 * whose root is known (or a root, or a loop), then write the answer along
 * the path. */
static bool find_roots(vd_doc *d)
{
    uint32_t n = d->node_count;
    d->roots = mem_alloc(vd_alloc(d), (n ? n : 1) * sizeof *d->roots);
    if (!d->roots) return false;
    for (uint32_t i = 0; i < n; ++i)
        d->roots[i] = -2; /* unknown */
    for (uint32_t i = 0; i < n; ++i) {
        int64_t a = i, answer;
        while (d->roots[a] == -2 && !d->in_loop[a] && d->parent[a] >= 0)
            a = d->parent[a];
        if (d->roots[a] != -2)
            answer = d->roots[a];
        else
            answer = d->in_loop[a] ? -1 : a;
        for (int64_t b = i; d->roots[b] == -2;) {
            d->roots[b] = answer;
            if (d->in_loop[b] || d->parent[b] < 0) break;
            b = d->parent[b];
        }
    }
    return true;
}

int64_t vd_root_of(const vd_doc *d, int64_t i)
{
    if (!d->roots || i < 0 || i >= d->node_count) return -1;
    return d->roots[i];
}

bool vd_is_ancestor_or_self(const vd_doc *d, int64_t b, int64_t a)
{
    if (!d->parent || a < 0 || a >= d->node_count) return false;
    for (uint32_t steps = 0; a >= 0 && steps <= d->node_count; ++steps) {
        if (a == b) return true;
        if (d->in_loop[a]) return false;
        a = d->parent[a];
    }
    return false;
}

bool vd_mesh_skinned(const vd_doc *d, int64_t m)
{
    const cJSON *mesh = vd_item(d->meshes, d->mesh_count, m);
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(mesh, "primitives"),
                *prim;
    if (!cJSON_IsArray(prims)) return false;
    cJSON_ArrayForEach(prim, prims)
    {
        const cJSON *attrs =
            cJSON_GetObjectItemCaseSensitive(prim, "attributes");
        if (cJSON_GetObjectItemCaseSensitive(attrs, "JOINTS_0")) return true;
    }
    return false;
}

static bool all_equal(const cJSON *arr, const float *def, int n)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != n) return true;
    int k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsNumber(e) || e->valuedouble != def[k++]) return false;
    }
    return true;
}

bool vd_node_has_transform(const cJSON *n)
{
    static const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                 0, 0, 1, 0, 0, 0, 0, 1};
    static const float t0[3] = {0, 0, 0}, r0[4] = {0, 0, 0, 1},
                       s1[3] = {1, 1, 1};
    return !all_equal(cJSON_GetObjectItemCaseSensitive(n, "matrix"), id, 16) ||
           !all_equal(cJSON_GetObjectItemCaseSensitive(n, "translation"), t0,
                      3) ||
           !all_equal(cJSON_GetObjectItemCaseSensitive(n, "rotation"), r0, 4) ||
           !all_equal(cJSON_GetObjectItemCaseSensitive(n, "scale"), s1, 3);
}

/* §3.5.3: a matrix must decompose into T*R*S: last row (0,0,0,1) and
 * orthogonal, non-zero basis columns (no shear). */
static bool decomposable(const cJSON *arr)
{
    double m[16];
    int k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsNumber(e) || k >= 16) return true; /* schema's business */
        m[k++] = e->valuedouble;
    }
    if (k != 16) return true;
    if (m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1) return false;
    for (int a = 0; a < 3; ++a) {
        double la = sqrt(m[a * 4] * m[a * 4] + m[a * 4 + 1] * m[a * 4 + 1] +
                         m[a * 4 + 2] * m[a * 4 + 2]);
        if (la == 0) return false;
        for (int b = a + 1; b < 3; ++b) {
            double lb = sqrt(m[b * 4] * m[b * 4] + m[b * 4 + 1] * m[b * 4 + 1] +
                             m[b * 4 + 2] * m[b * 4 + 2]);
            double dot = m[a * 4] * m[b * 4] + m[a * 4 + 1] * m[b * 4 + 1] +
                         m[a * 4 + 2] * m[b * 4 + 2];
            if (lb > 0 && fabs(dot) > 1e-4 * la * lb) return false;
        }
    }
    return true;
}

static int64_t mesh_targets(const vd_doc *d, int64_t m)
{
    const cJSON *mesh = vd_item(d->meshes, d->mesh_count, m);
    const cJSON *prims = cJSON_GetObjectItemCaseSensitive(mesh, "primitives");
    const cJSON *prim = cJSON_IsArray(prims) ? prims->child : NULL;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(prim, "targets");
    return cJSON_IsArray(t) ? cJSON_GetArraySize(t) : 0;
}

static void check_node(vd_doc *d, uint32_t i, const cJSON *n)
{
    char p[64], q[80];
    snprintf(p, sizeof p, "/nodes/%u", i);
    const cJSON *matrix = cJSON_GetObjectItemCaseSensitive(n, "matrix");
    snprintf(q, sizeof q, "%s/matrix", p);
    if (matrix && (cJSON_GetObjectItemCaseSensitive(n, "translation") ||
                   cJSON_GetObjectItemCaseSensitive(n, "rotation") ||
                   cJSON_GetObjectItemCaseSensitive(n, "scale")))
        vd_issue(d->r, ERR, "NODE_MATRIX_TRS", q,
                 "a node has a matrix or translation/rotation/scale, not both");
    const cJSON *rotation = cJSON_GetObjectItemCaseSensitive(n, "rotation");
    if (cJSON_IsArray(rotation) && cJSON_GetArraySize(rotation) == 4) {
        /* The loader's tolerance (exporters round to a few digits); past
         * it the loader normalises and warns, and the report says it is
         * an error of the file all the same. */
        double len2 = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, rotation) len2 += c->valuedouble * c->valuedouble;
        if (fabs(sqrt(len2) - 1.0) > 1e-3) {
            char r[80];
            snprintf(r, sizeof r, "%s/rotation", p);
            vd_issue(d->r, ERR, "ROTATION_NON_UNIT", r,
                     "the rotation quaternion is not unit length (%g)",
                     sqrt(len2));
        }
    }
    if (cJSON_IsArray(matrix) && !decomposable(matrix))
        vd_issue(d->r, ERR, "NODE_MATRIX_NON_TRS", q,
                 "the matrix does not decompose into translation, rotation "
                 "and scale");
    if (d->in_loop[i])
        vd_issue(d->r, ERR, "NODE_LOOP", p, "the node is part of a loop");
    int64_t mesh = vd_int(n, "mesh"), skin = vd_int(n, "skin");
    bool has_mesh = mesh >= 0 && mesh < d->mesh_count;
    bool skinned = has_mesh && vd_mesh_skinned(d, mesh);
    const cJSON *weights = cJSON_GetObjectItemCaseSensitive(n, "weights");
    if (has_mesh && cJSON_IsArray(weights) &&
        cJSON_GetArraySize(weights) != mesh_targets(d, mesh)) {
        snprintf(q, sizeof q, "%s/weights", p);
        vd_issue(d->r, ERR, "NODE_WEIGHTS_INVALID", q,
                 "%d weights for a mesh with %lld morph targets",
                 cJSON_GetArraySize(weights), (long long)mesh_targets(d, mesh));
    }
    if (skin >= 0 && has_mesh && !skinned)
        vd_issue(d->r, ERR, "NODE_SKIN_WITH_NON_SKINNED_MESH", p,
                 "the node has a skin but its mesh has no JOINTS_0");
    if (skinned && skin < 0)
        vd_issue(d->r, WARN, "NODE_SKINNED_MESH_WITHOUT_SKIN", p,
                 "the node's mesh has joints and weights but the node has no "
                 "skin");
    if (!(skinned && skin >= 0)) return;
    if (vd_node_has_transform(n))
        vd_issue(d->r, WARN, "NODE_SKINNED_MESH_LOCAL_TRANSFORMS", p,
                 "the transform of a skinned mesh node is ignored "
                 "(glTF 2.0 §3.7.3.3)");
    if (d->parent[i] >= 0)
        vd_issue(d->r, VS_SEVERITY_HINT, "NODE_SKINNED_MESH_NON_ROOT", p,
                 "a skinned mesh node need not have a parent: parent "
                 "transforms do not affect it");
    for (int32_t a = d->in_loop[i] ? -1 : d->parent[i]; a >= 0;
         a = d->in_loop[a] ? -1 : d->parent[a])
        if (vd_node_has_transform(vd_item(d->nodes, d->node_count, a))) {
            vd_issue(d->r, WARN, "NODE_SKINNED_MESH_PARENT_TRANSFORMS", p,
                     "ancestor node %d has a transform, which a skinned mesh "
                     "ignores (glTF 2.0 §3.7.3.3)",
                     a);
            break;
        }
}

/* A skinned mesh node placed by a scene that lacks the skin's joints. */
static void check_scenes(vd_doc *d, uint32_t i, const cJSON *n)
{
    int64_t root = vd_root_of(d, i);
    const cJSON *skin = vd_item(d->skins, d->skin_count, vd_int(n, "skin"));
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(skin, "joints");
    if (root < 0 || !cJSON_IsArray(joints) ||
        !vd_mesh_skinned(d, vd_int(n, "mesh")))
        return;
    const cJSON *scene, *e;
    cJSON_ArrayForEach(scene, d->scenes)
    {
        const cJSON *roots = cJSON_GetObjectItemCaseSensitive(scene, "nodes");
        bool has_node = false;
        cJSON_ArrayForEach(e, roots) has_node |=
            cJSON_IsNumber(e) && e->valuedouble == root;
        if (!has_node) continue;
        const cJSON *j;
        cJSON_ArrayForEach(j, joints)
        {
            int32_t joint = json_array_index(j);
            int64_t jr = joint >= 0 ? vd_root_of(d, joint) : -1;
            bool found = false;
            cJSON_ArrayForEach(e, roots) found |=
                cJSON_IsNumber(e) && jr >= 0 && e->valuedouble == jr;
            if (!found) {
                char p[64];
                snprintf(p, sizeof p, "/nodes/%u", i);
                vd_issue(d->r, ERR, "NODE_SKIN_NO_SCENE", p,
                         "a scene holds this skinned mesh node but not the "
                         "skin's joints");
                return;
            }
        }
    }
}

void vd_check_nodes(vd_doc *d)
{
    if (!build_children(d) || !find_loops(d) || !find_roots(d)) {
        d->r->oom = true;
        return;
    }
    uint32_t i = 0;
    const cJSON *n;
    cJSON_ArrayForEach(n, d->nodes)
    {
        check_node(d, i, n);
        check_scenes(d, i, n);
        ++i;
    }
}
