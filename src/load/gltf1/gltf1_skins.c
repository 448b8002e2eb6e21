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
#include "asset/warnings.h"
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

/* A node that carries a jointName, with its place in a depth-first
 * (pre-order) walk of the hierarchy, children in file order: the subtree of
 * node n is the run of places [enter[n], leave[n]). */
typedef struct candidate {
    const char *sid;
    uint32_t order; /* place in the walk, or node index (by_index) */
    uint32_t node;
} candidate;

static int candidate_compare(const void *a, const void *b)
{
    const candidate *x = a, *y = b;
    int d = strcmp(x->sid, y->sid);
    if (d) return d;
    return (x->order > y->order) - (x->order < y->order);
}

/* Every node's jointName sorted twice, once for the whole load: a sort per
 * skin instance would cost instances x nodes. */
typedef struct joint_index {
    uint32_t *enter, *leave;
    candidate *by_place; /* by (sid, place in the walk) */
    candidate *by_index; /* by (sid, node index) */
    uint32_t count;
    uint64_t work; /* jointNames x skeletons resolved so far */
    /* The hierarchy is no forest (a node with two parents, or a cycle):
     * vs_priv_asset_finalize refuses the file, and that is the error to
     * report, so no joint lookup fails before it. */
    bool broken;
} joint_index;

static void joint_index_free(gltf1_ctx *c, joint_index *x)
{
    mem_free(c->io.alloc, x->enter);
    mem_free(c->io.alloc, x->leave);
    mem_free(c->io.alloc, x->by_place);
    mem_free(c->io.alloc, x->by_index);
}

/* The walk from every node without a parent; a node on a cycle is never
 * reached and keeps an empty run (vs_priv_asset_finalize reports the
 * cycle). */
static vs_result joint_index_build(gltf1_ctx *c, joint_index *x)
{
    const vs_asset *asset = c->asset;
    const uint32_t n = asset->node_count, m = n ? n : 1;
    x->enter = mem_alloc(c->io.alloc, m * sizeof *x->enter);
    x->leave = mem_alloc(c->io.alloc, m * sizeof *x->leave);
    x->by_place = mem_alloc(c->io.alloc, m * sizeof *x->by_place);
    x->by_index = mem_alloc(c->io.alloc, m * sizeof *x->by_index);
    bool *child = mem_calloc(c->io.alloc, m, sizeof *child);
    uint32_t *stack = mem_alloc(c->io.alloc, m * sizeof *stack);
    uint32_t *next = mem_calloc(c->io.alloc, m, sizeof *next);
    vs_result r = VS_OK;
    if (!x->enter || !x->leave || !x->by_place || !x->by_index || !child ||
        !stack || !next) {
        r = set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: skins: out of memory", c->src);
        goto done;
    }
    for (uint32_t i = 0; i < n; ++i) {
        x->enter[i] = x->leave[i] = UINT32_MAX;
        for (uint32_t k = 0; k < asset->nodes[i].child_count; ++k) {
            const uint32_t ch = asset->nodes[i].children[k];
            if (ch >= n) continue;
            x->broken |= child[ch];
            child[ch] = true;
        }
    }
    uint32_t place = 0;
    for (uint32_t root = 0; root < n; ++root) {
        if (child[root]) continue;
        uint32_t top = 0;
        x->enter[root] = place++;
        stack[top++] = root;
        while (top) {
            const uint32_t at = stack[top - 1];
            const vs_node *node = &asset->nodes[at];
            if (next[at] == node->child_count) {
                x->leave[at] = place;
                --top;
                continue;
            }
            const uint32_t ch = node->children[next[at]++];
            if (ch >= n || x->enter[ch] != UINT32_MAX) continue;
            x->enter[ch] = place++;
            stack[top++] = ch;
        }
    }
    x->broken |= place != n;
    for (uint32_t i = 0; i < n; ++i) {
        if (!asset->nodes[i].sid) continue;
        x->by_index[x->count] = (candidate){asset->nodes[i].sid, i, i};
        x->by_place[x->count++] =
            (candidate){asset->nodes[i].sid, x->enter[i], i};
    }
    qsort(x->by_index, x->count, sizeof *x->by_index, candidate_compare);
    qsort(x->by_place, x->count, sizeof *x->by_place, candidate_compare);
done:
    mem_free(c->io.alloc, child);
    mem_free(c->io.alloc, stack);
    mem_free(c->io.alloc, next);
    return r;
}

/* The first candidate named sid at or after `order`, or count. */
static uint32_t lower_bound(const candidate *cand, uint32_t count,
                            const char *sid, uint32_t order)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int d = strcmp(cand[mid].sid, sid);
        if (d < 0 || (d == 0 && cand[mid].order < order))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* glTF 1.0: each joint is the node with its jointName in the subtrees of
 * the skeletons, searched in their order (the first found wins), or among
 * every node, first in the file, when there are none. */
static vs_result resolve_joints(gltf1_ctx *c, joint_index *x,
                                const file_skin *fs, const char *skin_id,
                                const uint32_t *roots, uint32_t root_count,
                                const char *path, uint32_t *joints)
{
    const uint64_t cost =
        (uint64_t)fs->joint_count * (root_count ? root_count : 1);
    const uint64_t limit = asset_limits(c->asset)->max_instanced_vertices;
    if (cost > limit || x->work > limit - cost)
        return gltf1_fail(c, VS_ERROR_LIMIT, path,
                          "resolving the jointNames of every skin instance "
                          "takes more than %llu lookups "
                          "(max_instanced_vertices)",
                          (unsigned long long)limit);
    x->work += cost;
    uint32_t k = 0;
    for (const cJSON *e = fs->joint_names->child; e; e = e->next, ++k) {
        const char *sid = e->valuestring;
        int64_t found = -1;
        if (root_count == 0) {
            uint32_t i = lower_bound(x->by_index, x->count, sid, 0);
            if (i < x->count && strcmp(x->by_index[i].sid, sid) == 0)
                found = x->by_index[i].node;
        }
        for (uint32_t r = 0; r < root_count && found < 0; ++r) {
            const uint32_t from = x->enter[roots[r]], to = x->leave[roots[r]];
            if (from == UINT32_MAX) continue;
            uint32_t i = lower_bound(x->by_place, x->count, sid, from);
            if (i < x->count && strcmp(x->by_place[i].sid, sid) == 0 &&
                x->by_place[i].order < to)
                found = x->by_place[i].node;
        }
        if (found < 0 && x->broken) found = 0;
        if (found < 0)
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "skin \"%.*s\" joint \"%.*s\" (jointNames[%u]): "
                              "no node with this jointName %s",
                              GLTF1_ID_SHOWN, skin_id, GLTF1_ID_SHOWN, sid, k,
                              root_count ? "under the skeletons"
                                         : "exists (the node has no "
                                           "skeletons)");
        joints[k] = (uint32_t)found;
    }
    return VS_OK;
}

/* Instance bookkeeping: which file skin and skeleton list a vs_skin came
 * from, so identical instances share one vs_skin; found through a hash
 * table, as a scan of the instances per node would cost nodes x skins. */
typedef struct instance {
    uint32_t file_skin;
    const uint32_t *roots;
    uint32_t root_count;
} instance;

static uint64_t instance_hash(uint32_t s, const uint32_t *roots, uint32_t n)
{
    uint64_t h = 1469598103934665603ull ^ s; /* FNV-1a over the indices */
    for (uint32_t i = 0; i < n; ++i) h = (h ^ roots[i]) * 1099511628211ull;
    return (h ^ n) * 1099511628211ull;
}

/* The slot of (s, roots) in table (size a power of two, entries are
 * instance numbers + 1): the instance's, or the empty one to take. */
static uint32_t *find_instance(uint32_t *table, uint32_t size,
                               const instance *inst, uint32_t s,
                               const uint32_t *roots, uint32_t n)
{
    uint32_t slot = (uint32_t)instance_hash(s, roots, n) & (size - 1);
    for (;; slot = (slot + 1) & (size - 1)) {
        if (!table[slot]) return &table[slot];
        const instance *i = &inst[table[slot] - 1];
        if (i->file_skin == s && i->root_count == n &&
            (n == 0 || memcmp(i->roots, roots, n * sizeof *roots) == 0))
            return &table[slot];
    }
}

/* The file skin node i names into *s (-1 when none), its path into
 * path[GLTF1_PATH_SIZE]. */
static vs_result node_skin(gltf1_ctx *c, uint32_t i, char *path, int32_t *s)
{
    const cJSON *obj = c->nodes.items[i];
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(obj, "skin");
    char field[GLTF1_PATH_SIZE];
    gltf1_path(path, "nodes", obj->string);
    *s = -1;
    if (!ref) return VS_OK;
    gltf1_pathf(field, "%s.skin", path);
    uint32_t found;
    vs_result r = gltf1_resolve(c, &c->skins, ref, field, &found);
    if (r == VS_OK) *s = (int32_t)found;
    return r;
}

static vs_result instantiate(gltf1_ctx *c, const file_skin *files,
                             vs_skin *skins, instance *inst, uint32_t *table,
                             uint32_t table_size, joint_index *x)
{
    vs_node *nodes = (vs_node *)c->asset->nodes;
    for (uint32_t i = 0; i < c->nodes.count; ++i) {
        const cJSON *obj = c->nodes.items[i];
        char path[GLTF1_PATH_SIZE], field[GLTF1_PATH_SIZE];
        int32_t found;
        vs_result r = node_skin(c, i, path, &found);
        if (r != VS_OK) return r;
        if (found < 0) continue;
        gltf1_pathf(field, "%s.skin", path);
        uint32_t s = (uint32_t)found, *roots, root_count;
        if ((r = gltf1_resolve_ids(c, &c->nodes, obj, "skeletons", path, &roots,
                                   &root_count)) != VS_OK)
            return r;
        uint32_t count = c->asset->skin_count;
        uint32_t *slot =
            find_instance(table, table_size, inst, s, roots, root_count);
        if (*slot) {
            nodes[i].skin = (int32_t)(*slot - 1);
            continue;
        }
        const file_skin *fs = &files[s];
        uint32_t *joints =
            vs_priv_asset_calloc(c->asset, fs->joint_count ? fs->joint_count : 1,
                         sizeof *joints, c->error, field);
        if (!joints) return c->error->code;
        gltf1_pathf(field, "%s.%s", path, root_count ? "skeletons" : "skin");
        if ((r = resolve_joints(c, x, fs, c->skins.items[s]->string, roots,
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
        *slot = count + 1;
        nodes[i].skin = (int32_t)count;
        c->asset->skin_count = count + 1;
    }
    return VS_OK;
}

/* A skin no node instantiates never reaches the pose: when it cannot be
 * read (jointNames, bindShapeMatrix, inverse bind matrices), it is dropped
 * with the reason as a warning instead of failing the load. Limits and
 * memory still fail it. */
static vs_result load_unused_skin(gltf1_ctx *c, uint32_t s, file_skin *fs)
{
    vs_result r = load_file_skin(c, s, fs);
    if (r != VS_ERROR_INVALID && r != VS_ERROR_UNSUPPORTED) return r;
    char path[GLTF1_PATH_SIZE], what[VS_ERROR_MESSAGE_SIZE];
    gltf1_path(path, "skins", c->skins.items[s]->string);
    /* The message reads "file: object: what"; the warning names the skin
     * and keeps the object the reason is about. */
    const char *m = c->error->message;
    size_t n = strlen(c->src);
    if (strncmp(m, c->src, n) == 0 && strncmp(m + n, ": ", 2) == 0) m += n + 2;
    snprintf(what, sizeof what, "%s", m);
    clear_error(c->error);
    return asset_warn(c->asset, c->error, path, "unused skin dropped",
                      "no node uses it and it cannot be read (%s)", what);
}

/* Marks in used[] the file skins some node's "skin" names. */
static vs_result mark_used(gltf1_ctx *c, bool *used, uint32_t *users)
{
    *users = 0;
    for (uint32_t i = 0; i < c->nodes.count; ++i) {
        char path[GLTF1_PATH_SIZE];
        int32_t s;
        vs_result r = node_skin(c, i, path, &s);
        if (r != VS_OK) return r;
        if (s < 0) continue;
        used[s] = true;
        ++*users;
    }
    return VS_OK;
}

vs_result gltf1_load_skins(gltf1_ctx *c)
{
    uint32_t users = 0;
    bool *used = mem_calloc(c->io.alloc, c->skins.count ? c->skins.count : 1,
                            sizeof *used);
    if (!used)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: skins: out of memory", c->src);
    vs_result r = mark_used(c, used, &users);
    if (r != VS_OK) {
        mem_free(c->io.alloc, used);
        return r;
    }
    uint32_t nf = c->skins.count, table_size = 2;
    while (table_size < 2 * (uint64_t)users) table_size *= 2;
    file_skin *files = mem_calloc(c->io.alloc, nf ? nf : 1, sizeof *files);
    instance *inst = mem_calloc(c->io.alloc, users ? users : 1, sizeof *inst);
    uint32_t *table = mem_calloc(c->io.alloc, table_size, sizeof *table);
    joint_index x = {0};
    vs_skin *skins = vs_priv_asset_calloc(c->asset, users ? users : 1, sizeof *skins,
                                  c->error, "skins");
    if (!files || !inst || !table) {
        r = set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: skins: out of memory", c->src);
    } else if (!skins) {
        r = c->error->code;
    } else {
        for (uint32_t s = 0; s < nf && r == VS_OK; ++s)
            r = used[s] ? load_file_skin(c, s, &files[s])
                        : load_unused_skin(c, s, &files[s]);
        c->asset->skins = skins;
        c->asset->skin_count = 0;
        if (r == VS_OK && users) r = joint_index_build(c, &x);
        if (r == VS_OK)
            r = instantiate(c, files, skins, inst, table, table_size, &x);
    }
    joint_index_free(c, &x);
    mem_free(c->io.alloc, files);
    mem_free(c->io.alloc, inst);
    mem_free(c->io.alloc, table);
    mem_free(c->io.alloc, used);
    return r;
}
