/* SPDX-License-Identifier: MIT */
/* glTF 1.0 skins. A file skin names its joints (skin.jointNames); which nodes
 * they are is decided per instance: glTF 1.0 §node.skeletons "the ids of
 * skeleton nodes. Each node defines a subtree, which has a jointName of the
 * corresponding element in the referenced skin.jointNames". So every distinct
 * (skin, skeletons) pair becomes one vs_skin with joints as node indices.
 *
 * The joint matrices need no conversion: glTF 1.0 skins in object space,
 * J_j = G(meshNode)^-1 * G(joint_j) * IBM_j * BSM, and the mesh node's own
 * transform is applied after, so world = G(joint_j) * IBM_j * BSM: what the
 * runtime computes from vs_skin with IBM and BSM kept apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/xform.h"
#include "load/gltf1/gltf1_internal.h"

typedef struct file_skin {
    const char *name;
    const cJSON *joint_names; /* array of strings */
    uint32_t joint_count;
    const float *ibm; /* 16 per joint */
    float bsm[16];
} file_skin;

static vs_result load_file_skin(gltf1_ctx *c, uint32_t s, file_skin *fs)
{
    const cJSON *obj = c->skins.items[s];
    char path[GLTF1_PATH_SIZE], field[GLTF1_PATH_SIZE];
    gltf1_path(path, "skins", obj->string);
    if (!(fs->name = gltf1_name(c, obj, obj->string))) return c->error->code;
    bool found;
    vs_result r =
        gltf1_get_floats(c, obj, "bindShapeMatrix", path, 16, fs->bsm, &found);
    if (r != VS_OK) return r;
    if (!found) xform_identity(fs->bsm);
    if ((r = gltf1_get_array(c, obj, "jointNames", path, &fs->joint_names)) !=
        VS_OK)
        return r;
    if (!fs->joint_names)
        return gltf1_fail(c, VS_ERROR_INVALID, path, "jointNames is missing");
    fs->joint_count = (uint32_t)cJSON_GetArraySize(fs->joint_names);
    uint32_t k = 0;
    for (const cJSON *e = fs->joint_names->child; e; e = e->next, ++k)
        if (!cJSON_IsString(e))
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "jointNames[%u] is not a string", k);
    if (fs->joint_count > asset_limits(c->asset)->max_joints)
        return gltf1_fail(c, VS_ERROR_LIMIT, path,
                          "%u joints exceed the limit of %u", fs->joint_count,
                          asset_limits(c->asset)->max_joints);

    const cJSON *ref =
        cJSON_GetObjectItemCaseSensitive(obj, "inverseBindMatrices");
    float *ibm;
    if (ref) {
        gltf1_pathf(field, "%s.inverseBindMatrices", path);
        gltf1_accessor acc;
        if ((r = gltf1_accessor_get(c, ref, field, &acc)) != VS_OK) return r;
        if ((r = gltf1_accessor_floats(c, &acc, field, 16, true, false,
                                       &ibm)) != VS_OK)
            return r;
        if (acc.desc.count != fs->joint_count)
            return gltf1_fail(c, VS_ERROR_INVALID, field,
                              "accessor \"%.*s\" has %u elements but the "
                              "skin has %u joints",
                              GLTF1_ID_SHOWN, acc.id, acc.desc.count,
                              fs->joint_count);
    } else {
        /* Absent inverse bind matrices are identities (as in glTF 2.0). */
        ibm = vs_priv_asset_calloc(c->asset, fs->joint_count ? fs->joint_count : 1,
                           16 * sizeof *ibm, c->error, path);
        if (!ibm) return c->error->code;
        for (uint32_t j = 0; j < fs->joint_count; ++j)
            xform_identity(ibm + 16 * j);
    }
    fs->ibm = ibm;
    return VS_OK;
}

/* A node that carries a jointName, ranked by its order of discovery so that
 * the first node found wins when a name repeats. */
typedef struct candidate {
    const char *sid;
    uint32_t rank;
    uint32_t node;
} candidate;

static int candidate_compare(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    int d = strcmp(x->sid, y->sid);
    if (d) return d;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Depth-first (pre-order) over the subtrees of the skeleton roots, or over
 * every node when there are none. `seen` and `stack` hold node_count
 * entries; `seen` also stops cycles, which vs_priv_asset_finalize reports later. */
static uint32_t collect_candidates(const vs_asset *asset, const uint32_t *roots,
                                   uint32_t root_count, bool *seen,
                                   uint32_t *stack, candidate *out)
{
    uint32_t count = 0;
    if (root_count == 0) {
        for (uint32_t i = 0; i < asset->node_count; ++i)
            if (asset->nodes[i].sid) {
                out[count] = (candidate){asset->nodes[i].sid, count, i};
                ++count;
            }
        return count;
    }
    for (uint32_t r = 0; r < root_count; ++r) {
        uint32_t top = 0;
        if (!seen[roots[r]]) {
            seen[roots[r]] = true;
            stack[top++] = roots[r];
        }
        while (top) {
            uint32_t n = stack[--top];
            const vs_node *node = &asset->nodes[n];
            if (node->sid) {
                out[count] = (candidate){node->sid, count, n};
                ++count;
            }
            /* Push in reverse so children are visited in file order. */
            for (uint32_t k = node->child_count; k-- > 0;) {
                uint32_t ch = node->children[k];
                if (!seen[ch]) {
                    seen[ch] = true;
                    stack[top++] = ch;
                }
            }
        }
    }
    return count;
}

static vs_result resolve_joints(gltf1_ctx *c, const file_skin *fs,
                                const char *skin_id, const uint32_t *roots,
                                uint32_t root_count, const char *path,
                                uint32_t *joints)
{
    uint32_t n = c->asset->node_count;
    bool *seen = mem_calloc(c->io.alloc, n ? n : 1, sizeof *seen);
    uint32_t *stack = mem_alloc(c->io.alloc, (n ? n : 1) * sizeof *stack);
    candidate *cand = mem_alloc(c->io.alloc, (n ? n : 1) * sizeof *cand);
    vs_result r = VS_OK;
    if (!seen || !stack || !cand) {
        r = gltf1_fail(c, VS_ERROR_OUT_OF_MEMORY, path, "out of memory");
        goto done;
    }
    uint32_t count =
        collect_candidates(c->asset, roots, root_count, seen, stack, cand);
    qsort(cand, count, sizeof *cand, candidate_compare);
    uint32_t k = 0;
    for (const cJSON *e = fs->joint_names->child; e; e = e->next, ++k) {
        /* Lower bound: the first candidate with this name. */
        uint32_t lo = 0, hi = count;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (strcmp(cand[mid].sid, e->valuestring) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == count || strcmp(cand[lo].sid, e->valuestring) != 0) {
            r = gltf1_fail(c, VS_ERROR_INVALID, path,
                           "skin \"%.*s\" joint \"%.*s\" (jointNames[%u]): no "
                           "node with this jointName %s",
                           GLTF1_ID_SHOWN, skin_id, GLTF1_ID_SHOWN,
                           e->valuestring, k,
                           root_count ? "under the skeletons"
                                      : "exists (the node has no skeletons)");
            goto done;
        }
        joints[k] = cand[lo].node;
    }
done:
    mem_free(c->io.alloc, seen);
    mem_free(c->io.alloc, stack);
    mem_free(c->io.alloc, cand);
    return r;
}

/* Instance bookkeeping: which file skin and skeleton list a vs_skin came
 * from, so identical instances share one vs_skin. */
typedef struct instance {
    uint32_t file_skin;
    const uint32_t *roots;
    uint32_t root_count;
} instance;

static int32_t find_instance(const instance *inst, uint32_t count, uint32_t s,
                             const uint32_t *roots, uint32_t n)
{
    for (uint32_t i = 0; i < count; ++i)
        if (inst[i].file_skin == s && inst[i].root_count == n &&
            (n == 0 || memcmp(inst[i].roots, roots, n * sizeof *roots) == 0))
            return (int32_t)i;
    return -1;
}

static vs_result instantiate(gltf1_ctx *c, const file_skin *files,
                             vs_skin *skins, instance *inst)
{
    vs_node *nodes = (vs_node *)c->asset->nodes;
    for (uint32_t i = 0; i < c->nodes.count; ++i) {
        const cJSON *obj = c->nodes.items[i];
        const cJSON *ref = cJSON_GetObjectItemCaseSensitive(obj, "skin");
        if (!ref) continue;
        char path[GLTF1_PATH_SIZE], field[GLTF1_PATH_SIZE];
        gltf1_path(path, "nodes", obj->string);
        gltf1_pathf(field, "%s.skin", path);
        uint32_t s, *roots, root_count;
        vs_result r = gltf1_resolve(c, &c->skins, ref, field, &s);
        if (r != VS_OK) return r;
        if ((r = gltf1_resolve_ids(c, &c->nodes, obj, "skeletons", path, &roots,
                                   &root_count)) != VS_OK)
            return r;
        uint32_t count = c->asset->skin_count;
        int32_t found = find_instance(inst, count, s, roots, root_count);
        if (found >= 0) {
            nodes[i].skin = found;
            continue;
        }
        const file_skin *fs = &files[s];
        uint32_t *joints =
            vs_priv_asset_calloc(c->asset, fs->joint_count ? fs->joint_count : 1,
                         sizeof *joints, c->error, field);
        if (!joints) return c->error->code;
        gltf1_pathf(field, "%s.%s", path, root_count ? "skeletons" : "skin");
        if ((r = resolve_joints(c, fs, c->skins.items[s]->string, roots,
                                root_count, field, joints)) != VS_OK)
            return r;
        vs_skin *skin = &skins[count];
        skin->name = fs->name;
        skin->joint_count = fs->joint_count;
        skin->joints = joints;
        skin->inverse_bind_matrices = fs->ibm;
        xform_copy(fs->bsm, skin->bind_shape_matrix);
        skin->skeleton = root_count ? (int32_t)roots[0] : -1;
        inst[count] = (instance){s, roots, root_count};
        nodes[i].skin = (int32_t)count;
        c->asset->skin_count = count + 1;
    }
    return VS_OK;
}

vs_result gltf1_load_skins(gltf1_ctx *c)
{
    uint32_t users = 0;
    for (uint32_t i = 0; i < c->nodes.count; ++i)
        if (cJSON_GetObjectItemCaseSensitive(c->nodes.items[i], "skin"))
            ++users;
    uint32_t nf = c->skins.count;
    file_skin *files = mem_calloc(c->io.alloc, nf ? nf : 1, sizeof *files);
    instance *inst = mem_calloc(c->io.alloc, users ? users : 1, sizeof *inst);
    vs_skin *skins = vs_priv_asset_calloc(c->asset, users ? users : 1, sizeof *skins,
                                  c->error, "skins");
    vs_result r = VS_OK;
    if (!files || !inst) {
        r = set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: skins: out of memory", c->src);
    } else if (!skins) {
        r = c->error->code;
    } else {
        for (uint32_t s = 0; s < nf && r == VS_OK; ++s)
            r = load_file_skin(c, s, &files[s]);
        c->asset->skins = skins;
        c->asset->skin_count = 0;
        if (r == VS_OK) r = instantiate(c, files, skins, inst);
    }
    mem_free(c->io.alloc, files);
    mem_free(c->io.alloc, inst);
    return r;
}
