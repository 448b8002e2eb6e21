/* SPDX-License-Identifier: MIT */
/* Scenes that list nodes which are other nodes' children (§3.5.1 wants
 * roots, validator SCENE_NON_ROOT_NODE), repaired to the pose three.js and
 * assimp give where they agree, with a warning. */
#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "load/gltf2/gltf2_internal.h"

#define NO_PARENT (-1)
#define PARENTS (-2) /* two parents: vs_priv_asset_finalize refuses it */

/* What a node's parent chain leads to in the scene at hand, valid while
 * stamp[node] is the scene's stamp. */
enum { LISTED = 1, UNLISTED, WALKING, UNKNOWN };

typedef struct walk {
    int32_t *parent;
    uint32_t *stamp, *path, current;
    uint8_t *state;
    uint64_t steps, limit;
} walk;

/* Whether x or an ancestor of x is listed in the scene: each node is
 * walked once per scene (the answer is kept for the whole path), so the
 * cost is the listed nodes' distinct ancestors, not listed x depth. A cycle
 * or a node with two parents gives UNKNOWN. */
static int reaches_listed(walk *w, int32_t x)
{
    uint32_t n = 0;
    int result;
    for (;;) {
        if (x == NO_PARENT) {
            result = UNLISTED;
            break;
        }
        if (x == PARENTS) {
            result = UNKNOWN;
            break;
        }
        if (w->stamp[x] == w->current) {
            result = w->state[x] == WALKING ? UNKNOWN : w->state[x];
            break;
        }
        w->stamp[x] = w->current;
        w->state[x] = WALKING;
        w->path[n++] = (uint32_t)x;
        ++w->steps;
        x = w->parent[x];
    }
    while (n)
        w->state[w->path[--n]] = (uint8_t)result;
    return result;
}

/* Takes `node` out of its parent's children (the lists are the loader's
 * own until the load returns). */
static void detach(gltf2_ctx *c, walk *w, uint32_t node)
{
    vs_node *p = (vs_node *)&c->asset->nodes[w->parent[node]];
    uint32_t *children = (uint32_t *)p->children, kept = 0;
    for (uint32_t k = 0; k < p->child_count; ++k)
        if (children[k] != node) children[kept++] = children[k];
    p->child_count = kept;
    w->parent[node] = NO_PARENT;
}

/* One scene: a listed child whose parent chain reaches a node the scene
 * also lists is in the scene already, through that node: three.js would
 * move it to the scene root (its parents' transforms lost), assimp would
 * add a second copy there; they disagree, and node.children is what the
 * file says about its place, so the listing is ignored. A listed child
 * whose chain reaches no listed node is shown on its own by both, with its
 * own transform only: it is detached from its parent. */
static vs_result scene(gltf2_ctx *c, walk *w, uint32_t s, vs_scene *sc)
{
    uint32_t *list = (uint32_t *)sc->nodes, kept = 0;
    ++w->current;
    for (uint32_t k = 0; k < sc->node_count; ++k) {
        w->stamp[list[k]] = w->current;
        w->state[list[k]] = LISTED;
    }
    for (uint32_t k = 0; k < sc->node_count; ++k) {
        const uint32_t node = list[k];
        const int32_t parent = w->parent[node];
        int reach = parent >= 0 ? reaches_listed(w, parent) : UNKNOWN;
        if (w->steps > w->limit)
            return set_error(c->error, VS_ERROR_LIMIT,
                             "%s: scenes[%u]: checking which listed nodes "
                             "are roots takes more than %llu steps "
                             "(max_instanced_vertices)",
                             c->src, s, (unsigned long long)w->limit);
        if (reach != LISTED) list[kept++] = node;
        if (reach != LISTED && reach != UNLISTED) continue;
        char where[GLTF2_PATH];
        path_fmt(where, "scenes[%u].nodes[%u]", s, k);
        vs_result r =
            reach == LISTED
                ? asset_warn(c->asset, c->error, where,
                             "listing ignored, the node stays under its "
                             "parent",
                             "node %u is not a root node (an ancestor is "
                             "listed too)",
                             node)
                : asset_warn(c->asset, c->error, where,
                             "detached from its parent, shown with its own "
                             "transform",
                             "node %u is not a root node (child of node %d, "
                             "which the scene does not list)",
                             node, parent);
        if (r != VS_OK) return r;
        if (reach == UNLISTED) detach(c, w, node);
    }
    sc->node_count = kept;
    return VS_OK;
}

vs_result gltf2_scene_roots(gltf2_ctx *c, vs_scene *scenes, uint32_t n)
{
    const vs_asset *a = c->asset;
    const uint32_t nodes = a->node_count ? a->node_count : 1;
    walk w = {.limit = asset_limits(c->asset)->max_instanced_vertices};
    w.parent = mem_alloc(c->io.alloc, nodes * sizeof *w.parent);
    w.stamp = mem_calloc(c->io.alloc, nodes, sizeof *w.stamp);
    w.path = mem_alloc(c->io.alloc, nodes * sizeof *w.path);
    w.state = mem_alloc(c->io.alloc, nodes);
    vs_result r = VS_OK;
    if (!w.parent || !w.stamp || !w.path || !w.state)
        r = set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: scenes: out of memory", c->src);
    for (uint32_t i = 0; r == VS_OK && i < a->node_count; ++i)
        w.parent[i] = NO_PARENT;
    for (uint32_t i = 0; r == VS_OK && i < a->node_count; ++i)
        for (uint32_t k = 0; k < a->nodes[i].child_count; ++k) {
            const uint32_t ch = a->nodes[i].children[k];
            w.parent[ch] = w.parent[ch] == NO_PARENT ? (int32_t)i : PARENTS;
        }
    for (uint32_t s = 0; r == VS_OK && s < n; ++s)
        r = scene(c, &w, s, &scenes[s]);
    mem_free(c->io.alloc, w.parent);
    mem_free(c->io.alloc, w.stamp);
    mem_free(c->io.alloc, w.path);
    mem_free(c->io.alloc, w.state);
    return r;
}
