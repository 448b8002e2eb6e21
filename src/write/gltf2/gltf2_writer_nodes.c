/* SPDX-License-Identifier: MIT */
/* Nodes, skins and scenes. Node indices are kept, so node i of the source is
 * node i of the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/xform.h"
#include "format/gltf_common.h"
#include "write/gltf2/gltf2_writer.h"

/* A rest rotation must be a unit quaternion (§5.25); the runtime normalizes
 * when it builds the matrix, so normalizing here changes no pose. */
static void unit_rotation(gltf2w_ctx *c, float *q)
{
    float n = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0.0f) || !isfinite(n)) {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
        c->report->normalized_rotations++;
    } else if (fabsf(n - 1.0f) > GLTF2W_UNIT_FIX) {
        for (int k = 0; k < 4; ++k)
            q[k] /= n;
        c->report->normalized_rotations += fabsf(n - 1.0f) > GLTF2W_UNIT_REPORT;
    }
}

/* `matrix` when the node has one and no channel animates it (§3.5.3 forbids
 * matrix on animation targets); otherwise translation/rotation/scale, each
 * left out when it is the default. Roots get the axis correction. */
static bool transform(gltf2w_ctx *c, uint32_t i, cJSON *obj)
{
    const vs_node *n = &c->asset->nodes[i];
    bool root = gltf2w_corrects(c, i);
    if (n->has_matrix && !c->animated[i]) {
        float m[16];
        xform_copy(n->matrix, m);
        if (root) xform_mul(c->correction, m, m);
        return xform_is_identity(m, 0.0f) ||
               gltf2w_add_floats(obj, "matrix", m, 16);
    }
    vs_trs t = n->rest_trs;
    unit_rotation(c, t.rotation);
    if (root) gltf2w_correct_trs(c, &t);
    bool ok = true;
    if (t.translation[0] != 0 || t.translation[1] != 0 || t.translation[2] != 0)
        ok &= gltf2w_add_floats(obj, "translation", t.translation, 3);
    if (t.rotation[0] != 0 || t.rotation[1] != 0 || t.rotation[2] != 0 ||
        t.rotation[3] != 1)
        ok &= gltf2w_add_floats(obj, "rotation", t.rotation, 4);
    if (t.scale[0] != 1 || t.scale[1] != 1 || t.scale[2] != 1)
        ok &= gltf2w_add_floats(obj, "scale", t.scale, 3);
    return ok;
}

bool gltf2w_plan_joints(gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    size_t slots = 0;
    for (uint32_t s = 0; s < a->skin_count; ++s)
        slots += a->skins[s].joint_count;
    c->joint_at =
        mem_alloc(c->alloc, ((size_t)a->skin_count + 1) * sizeof *c->joint_at);
    c->joint_out =
        mem_alloc(c->alloc, (slots ? slots : 1) * sizeof *c->joint_out);
    c->stand_in_parent =
        mem_alloc(c->alloc, (slots ? slots : 1) * sizeof *c->stand_in_parent);
    c->stand_in_slot =
        mem_alloc(c->alloc, (slots ? slots : 1) * sizeof *c->stand_in_slot);
    if (!c->joint_at || !c->joint_out || !c->stand_in_parent ||
        !c->stand_in_slot)
        return false;
    uint32_t at = 0;
    for (uint32_t s = 0; s < a->skin_count; ++s) {
        uint32_t stamp = gltf2w_tree_stamp(c->tree);
        c->joint_at[s] = at;
        for (uint32_t j = 0; j < a->skins[s].joint_count; ++j, ++at) {
            uint32_t node = a->skins[s].joints[j];
            c->joint_out[at] = node;
            if (gltf2w_tree_mark(c->tree, node, stamp)) continue;
            c->joint_out[at] = a->node_count + c->stand_in_count;
            c->stand_in_parent[c->stand_in_count] = node;
            c->stand_in_slot[c->stand_in_count++] = j;
        }
    }
    c->joint_at[a->skin_count] = at;
    if (c->stand_in_count == 0) return true;
    c->stand_in_first =
        mem_alloc(c->alloc, (size_t)a->node_count * sizeof(uint32_t));
    c->stand_in_next =
        mem_alloc(c->alloc, (size_t)c->stand_in_count * sizeof(uint32_t));
    if (!c->stand_in_first || !c->stand_in_next) return false;
    for (uint32_t n = 0; n < a->node_count; ++n)
        c->stand_in_first[n] = UINT32_MAX;
    /* Built backwards, so each node's list runs in stand-in order. */
    for (uint32_t k = c->stand_in_count; k-- > 0;) {
        c->stand_in_next[k] = c->stand_in_first[c->stand_in_parent[k]];
        c->stand_in_first[c->stand_in_parent[k]] = k;
    }
    return true;
}

/* The stand-ins whose parent is node i, as children. */
static bool add_stand_ins(const gltf2w_ctx *c, uint32_t i, cJSON **list,
                          cJSON *obj)
{
    for (uint32_t k = c->stand_in_first[i]; k != UINT32_MAX;
         k = c->stand_in_next[k]) {
        if (!*list && !(*list = cJSON_AddArrayToObject(obj, "children")))
            return false;
        cJSON *item = cJSON_CreateNumber(c->asset->node_count + k);
        if (!item) return false;
        cJSON_AddItemToArray(*list, item);
    }
    return true;
}

static bool node(gltf2w_ctx *c, uint32_t i, cJSON *obj)
{
    const vs_asset *a = c->asset;
    const vs_node *n = &a->nodes[i];
    /* glTF 1.0 and COLLADA nodes are often known only by their id. */
    const char *name = n->name && n->name[0] ? n->name : n->id;
    if (name && name[0] && !cJSON_AddStringToObject(obj, "name", name))
        return false;
    cJSON *list = NULL;
    if (n->child_count > 0) {
        list = cJSON_AddArrayToObject(obj, "children");
        if (!list) return false;
        for (uint32_t k = 0; k < n->child_count; ++k) {
            cJSON *item = cJSON_CreateNumber(n->children[k]);
            if (!item) return false;
            cJSON_AddItemToArray(list, item);
        }
    }
    if (c->stand_in_count && !add_stand_ins(c, i, &list, obj)) return false;
    if (!transform(c, i, obj)) return false;
    if (n->mesh >= 0 && !cJSON_AddNumberToObject(obj, "mesh", n->mesh))
        return false;
    /* A skin without a mesh skins nothing, and glTF 2.0 forbids it. */
    if (n->skin >= 0 && n->mesh >= 0 &&
        !cJSON_AddNumberToObject(obj, "skin", n->skin))
        return false;
    /* node.weights needs a mesh with that many targets (§5.25). */
    if (n->weight_count > 0 && n->mesh >= 0 &&
        a->meshes[n->mesh].primitive_count > 0 &&
        a->meshes[n->mesh].primitives[0].target_count == n->weight_count &&
        !gltf2w_add_floats(obj, "weights", n->weights, n->weight_count))
        return false;
    return true;
}

vs_result gltf2w_nodes(gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    if (a->node_count == 0) return VS_OK;
    cJSON *list = cJSON_AddArrayToObject(c->root, "nodes");
    if (!list) return gltf2w_oom(c, "nodes");
    for (uint32_t i = 0; i < a->node_count; ++i) {
        cJSON *obj = cJSON_CreateObject();
        if (!obj) return gltf2w_oom(c, "nodes");
        cJSON_AddItemToArray(list, obj);
        if (!node(c, i, obj)) return gltf2w_oom(c, "nodes");
    }
    for (uint32_t k = 0; k < c->stand_in_count; ++k) {
        char name[64];
        snprintf(name, sizeof name, "joint %u stand-in for node %u",
                 c->stand_in_slot[k], c->stand_in_parent[k]);
        cJSON *obj = cJSON_CreateObject();
        if (!obj) return gltf2w_oom(c, "nodes");
        cJSON_AddItemToArray(list, obj);
        if (!cJSON_AddStringToObject(obj, "name", name))
            return gltf2w_oom(c, "nodes");
    }
    return VS_OK;
}

/* skin.skeleton must be a common root of the joints (§5.28,
 * SKIN_SKELETON_INVALID): an ancestor of, or equal to, every joint. */
static bool is_common_root(const gltf2w_ctx *c, const vs_skin *s)
{
    if (s->skeleton < 0 || (uint32_t)s->skeleton >= c->asset->node_count)
        return false;
    for (uint32_t j = 0; j < s->joint_count; ++j)
        if (!gltf2w_tree_contains(c->tree, (uint32_t)s->skeleton, s->joints[j]))
            return false;
    return true;
}

/* glTF 2.0 joint matrices are G(joint) * IBM (§3.7.3.3); the model's are
 * G(joint) * IBM * BSM, so the file gets IBM' = IBM * BSM. */
static int32_t inverse_binds(gltf2w_ctx *c, const vs_skin *s)
{
    bool bsm = !xform_is_identity(s->bind_shape_matrix, 0.0f);
    if (!s->inverse_bind_matrices && !bsm) return -2; /* identities */
    float *m = mem_alloc(c->alloc, (size_t)s->joint_count * 16 * sizeof *m);
    if (!m) {
        gltf2w_oom(c, "inverse bind matrices");
        return -1;
    }
    for (uint32_t j = 0; j < s->joint_count; ++j) {
        float *out = m + 16 * (size_t)j;
        if (s->inverse_bind_matrices)
            xform_copy(s->inverse_bind_matrices + 16 * (size_t)j, out);
        else
            xform_identity(out);
        if (bsm) xform_mul(out, s->bind_shape_matrix, out);
        /* glTF 1.0 and COLLADA may bind projectively; glTF 2.0 cannot. */
        if (!gltf_ibm_is_affine(out)) {
            set_error(c->error, VS_ERROR_UNSUPPORTED,
                      "%s: skins[%u]: joint %u: the inverse bind matrix%s is "
                      "not affine (last row %g %g %g %g), which glTF 2.0 "
                      "cannot express",
                      c->path, (unsigned)(s - c->asset->skins), j,
                      bsm ? " times the bind shape matrix" : "",
                      (double)out[3], (double)out[7], (double)out[11],
                      (double)out[15]);
            mem_free(c->alloc, m);
            return -1;
        }
    }
    int32_t acc = gltf2w_floats(c, m, s->joint_count, 16, "MAT4", 0, false);
    mem_free(c->alloc, m);
    return acc;
}

vs_result gltf2w_skins(gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    if (a->skin_count == 0) return VS_OK;
    cJSON *list = cJSON_AddArrayToObject(c->root, "skins");
    if (!list) return gltf2w_oom(c, "skins");
    for (uint32_t k = 0; k < a->skin_count; ++k) {
        const vs_skin *s = &a->skins[k];
        cJSON *obj = cJSON_CreateObject();
        if (!obj) return gltf2w_oom(c, "skins");
        cJSON_AddItemToArray(list, obj);
        if (s->name && s->name[0] &&
            !cJSON_AddStringToObject(obj, "name", s->name))
            return gltf2w_oom(c, "skins");
        int32_t ibm = s->joint_count ? inverse_binds(c, s) : -2;
        if (ibm == -1) return c->error->code;
        if (ibm >= 0 &&
            !cJSON_AddNumberToObject(obj, "inverseBindMatrices", ibm))
            return gltf2w_oom(c, "skins");
        if (is_common_root(c, s) &&
            !cJSON_AddNumberToObject(obj, "skeleton", s->skeleton))
            return gltf2w_oom(c, "skins");
        cJSON *joints = cJSON_AddArrayToObject(obj, "joints");
        if (!joints) return gltf2w_oom(c, "skins");
        for (uint32_t j = 0; j < s->joint_count; ++j) {
            cJSON *item = cJSON_CreateNumber(c->joint_out[c->joint_at[k] + j]);
            if (!item) return gltf2w_oom(c, "skins");
            cJSON_AddItemToArray(joints, item);
        }
    }
    return VS_OK;
}

static int compare_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* A scene's root list, plus the roots of the joints its skinned nodes use
 * when they are outside it: glTF 1.0 scenes often list only the mesh node,
 * but glTF 2.0 wants the joints in the scene too (NODE_SKIN_NO_SCENE). A
 * joint root is in the scene only when the scene lists it (a root has no
 * ancestor to be listed through). The tree answers each listed node's
 * joint roots once for the whole write, so many scenes, many skinned
 * nodes or big skins cost no product of them. */
static bool add_scene_nodes(gltf2w_ctx *c, const vs_scene *sc, cJSON *obj)
{
    const vs_asset *a = c->asset;
    cJSON *list = cJSON_AddArrayToObject(obj, "nodes");
    if (!list) return false;
    const uint32_t *roots;
    uint32_t count;
    /* Every listed node's joint roots first: computing them takes marks of
     * its own, and moves the results. */
    for (uint32_t i = 0; i < sc->node_count; ++i)
        if (!gltf2w_tree_joint_roots(c->tree, a, sc->nodes[i], &roots, &count))
            return false;
    uint32_t stamp = gltf2w_tree_stamp(c->tree);
    for (uint32_t i = 0; i < sc->node_count; ++i)
        gltf2w_tree_mark(c->tree, sc->nodes[i], stamp);
    size_t added_count = 0, added_cap = 0;
    uint32_t *added = NULL;
    bool ok = true;
    for (uint32_t i = 0; ok && i < sc->node_count; ++i) {
        ok = gltf2w_tree_joint_roots(c->tree, a, sc->nodes[i], &roots, &count);
        for (uint32_t k = 0; ok && k < count; ++k) {
            if (!gltf2w_tree_mark(c->tree, roots[k], stamp)) continue;
            if (added_count == added_cap) {
                size_t cap = added_cap ? 2 * added_cap : 16;
                uint32_t *grown =
                    mem_grow(c->alloc, added, added_cap * sizeof *added,
                             cap * sizeof *added);
                ok = grown != NULL;
                if (!ok) break;
                added = grown;
                added_cap = cap;
            }
            added[added_count++] = roots[k];
        }
    }
    /* The file's order first, then the added roots in node order. */
    if (ok && added_count > 1)
        qsort(added, added_count, sizeof *added, compare_u32);
    for (size_t i = 0; ok && i < sc->node_count + added_count; ++i) {
        uint32_t n =
            i < sc->node_count ? sc->nodes[i] : added[i - sc->node_count];
        cJSON *item = cJSON_CreateNumber(n);
        ok = item != NULL;
        if (ok) cJSON_AddItemToArray(list, item);
    }
    mem_free(c->alloc, added);
    if (ok && sc->node_count + added_count == 0)
        cJSON_DeleteItemFromObject(obj, "nodes");
    return ok;
}

/* The file's scenes as they are. A file without scenes gets one holding
 * every root, made the default, so viewers show something (§3.3: without
 * `scene` a client may render nothing); the mesh instances stay the same
 * (all roots) either way. */
vs_result gltf2w_scenes(gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    cJSON *list = NULL;
    if (a->scene_count > 0) {
        if (a->default_scene >= 0 &&
            !cJSON_AddNumberToObject(c->root, "scene", a->default_scene))
            return gltf2w_oom(c, "scenes");
        if (!(list = cJSON_AddArrayToObject(c->root, "scenes")))
            return gltf2w_oom(c, "scenes");
        for (uint32_t s = 0; s < a->scene_count; ++s) {
            const vs_scene *sc = &a->scenes[s];
            cJSON *obj = cJSON_CreateObject();
            if (!obj) return gltf2w_oom(c, "scenes");
            cJSON_AddItemToArray(list, obj);
            if ((sc->name && sc->name[0] &&
                 !cJSON_AddStringToObject(obj, "name", sc->name)) ||
                !add_scene_nodes(c, sc, obj))
                return gltf2w_oom(c, "scenes");
        }
        return VS_OK;
    }
    uint32_t roots = 0;
    for (uint32_t i = 0; i < a->node_count; ++i)
        roots += a->nodes[i].parent < 0;
    if (roots == 0) return VS_OK;
    cJSON *scene = NULL, *nodes = NULL;
    if (!cJSON_AddNumberToObject(c->root, "scene", 0) ||
        !(list = cJSON_AddArrayToObject(c->root, "scenes")) ||
        !(scene = cJSON_CreateObject()))
        return gltf2w_oom(c, "scenes");
    cJSON_AddItemToArray(list, scene);
    if (!(nodes = cJSON_AddArrayToObject(scene, "nodes")))
        return gltf2w_oom(c, "scenes");
    for (uint32_t i = 0; i < a->node_count; ++i) {
        cJSON *item;
        if (a->nodes[i].parent >= 0) continue;
        if (!(item = cJSON_CreateNumber(i))) return gltf2w_oom(c, "scenes");
        cJSON_AddItemToArray(nodes, item);
    }
    return VS_OK;
}
