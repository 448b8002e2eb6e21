/* SPDX-License-Identifier: MIT */
/* glTF 2.0 rules that concern the file as a whole rather than one object:
 * the shape of the root (§5.1 schema: collections are arrays, extension
 * lists hold unique strings, root extensions are objects) and, once vs_priv_asset_finalize has linked
 * the hierarchy, the links between objects that the hierarchy decides
 * (node weights vs morph targets, skin.skeleton as the joints' root). */
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/subtree_runs.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "load/gltf2/gltf2_internal.h"

#define FAIL(...) set_error(c->error, VS_ERROR_INVALID, __VA_ARGS__)

static const char *const collections[] = {
    "accessors", "animations", "buffers", "bufferViews", "cameras",
    "images",    "materials",  "meshes",  "nodes",       "samplers",
    "scenes",    "skins",      "textures", NULL};

typedef struct named {
    const char *name;
    int index;
} named;

static int by_name_index(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->index > y->index) - (x->index < y->index);
}

/* Schema: an array of unique strings. Sorted once, so that the check costs
 * n log n, not a comparison of every pair; the message names the first
 * repeat in file order. */
static vs_result check_names(gltf2_ctx *c, const char *key)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(c->root, key);
    if (!arr) return VS_OK;
    if (!cJSON_IsArray(arr))
        return FAIL("%s: %s: must be an array of strings", c->src, key);
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e))
            return FAIL("%s: %s[%d]: must be a string", c->src, key, n);
        ++n;
    }
    named *all = mem_alloc(c->io.alloc, (size_t)(n ? n : 1) * sizeof *all);
    if (!all)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: %s: out of memory", c->src, key);
    n = 0;
    cJSON_ArrayForEach(e, arr)
    {
        all[n] = (named){e->valuestring, n};
        ++n;
    }
    qsort(all, (size_t)n, sizeof *all, by_name_index);
    int repeat = -1;
    const char *name = NULL;
    for (int i = 1; i < n; ++i)
        if (strcmp(all[i - 1].name, all[i].name) == 0 &&
            (repeat < 0 || all[i].index < repeat)) {
            repeat = all[i].index;
            name = all[i].name;
        }
    mem_free(c->io.alloc, all);
    if (repeat >= 0)
        return FAIL("%s: %s[%d]: \"%s\" is listed twice", c->src, key, repeat,
                    name);
    return VS_OK;
}

vs_result gltf2_check_root(gltf2_ctx *c)
{
    for (int i = 0; collections[i]; ++i) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(c->root,
                                                          collections[i]);
        /* The schema also wants minItems 1, but an empty collection just
         * means no objects, which loads correctly; some exporters write
         * them. A collection of another JSON type is no glTF. */
        if (v && !cJSON_IsArray(v))
            return FAIL("%s: %s: must be an array", c->src, collections[i]);
    }
    vs_result r;
    if ((r = check_names(c, "extensionsUsed")) != VS_OK ||
        (r = check_names(c, "extensionsRequired")) != VS_OK)
        return r;
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(c->root, "extensions");
    if (ext && !cJSON_IsObject(ext))
        return FAIL("%s: extensions: must be an object", c->src);
    const cJSON *e;
    cJSON_ArrayForEach(e, ext)
    {
        if (!cJSON_IsObject(e))
            return FAIL("%s: extensions.%s: must be an object", c->src,
                        e->string);
    }
    return VS_OK;
}

static vs_result check_skeletons(gltf2_ctx *c)
{
    const vs_asset *a = c->asset;
    bool any = false;
    for (uint32_t s = 0; s < a->skin_count; ++s) any |= a->skins[s].skeleton >= 0;
    if (!any) return VS_OK;
    /* Subtree runs: a walk up per joint would cost joints x depth. */
    const uint32_t n = a->node_count ? a->node_count : 1;
    uint32_t *pre = mem_alloc(c->io.alloc, n * sizeof *pre);
    uint32_t *size = mem_alloc(c->io.alloc, n * sizeof *size);
    uint32_t *next = mem_alloc(c->io.alloc, n * sizeof *next);
    vs_result r = VS_OK;
    if (!pre || !size || !next)
        r = set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                      "%s: skins: out of memory", c->src);
    else
        asset_subtree_runs(a, pre, size, next);
    for (uint32_t s = 0; r == VS_OK && s < a->skin_count; ++s) {
        /* The loader owns the skins until the load returns. */
        vs_skin *skin = (vs_skin *)&a->skins[s];
        if (skin->skeleton < 0) continue;
        const uint32_t root = (uint32_t)skin->skeleton;
        /* §5.26 skin.skeleton: "the node used as a skeleton root", so it is
         * an ancestor of (or one of) every joint. Joints without any common
         * root are allowed: world-space skinning does not need one. The
         * skeleton never enters the glTF 2.0 skinning equation (joint
         * world matrices times inverse binds), so one that is no root of
         * the joints is dropped and the pose is what three.js and assimp
         * give. */
        for (uint32_t j = 0; j < skin->joint_count; ++j) {
            if (!asset_subtree_contains(pre, size, root, skin->joints[j])) {
                char where[GLTF2_PATH];
                path_fmt(where, "skins[%u].skeleton", s);
                r = asset_warn(c->asset, c->error, where, "skeleton ignored",
                               "node %d is not an ancestor of joint %u "
                               "(node %u)",
                               skin->skeleton, j, skin->joints[j]);
                skin->skeleton = -1;
                break;
            }
        }
    }
    mem_free(c->io.alloc, pre);
    mem_free(c->io.alloc, size);
    mem_free(c->io.alloc, next);
    return r;
}

vs_result gltf2_check_links(gltf2_ctx *c)
{
    const vs_asset *a = c->asset;
    for (uint32_t i = 0; i < a->node_count; ++i) {
        const vs_node *n = &a->nodes[i];
        if (!n->weight_count) continue;
        /* §3.7.2.2 / §5.25: node.weights overrides mesh.weights and needs a
         * mesh whose primitives have exactly that many targets; posing would
         * otherwise pair weights with the wrong targets. */
        if (n->mesh < 0)
            return FAIL("%s: nodes[%u].weights: the node has no mesh",
                        c->src, i);
        uint32_t targets = a->meshes[n->mesh].primitives[0].target_count;
        if (n->weight_count != targets)
            return FAIL("%s: nodes[%u].weights: %u weights but meshes[%d] "
                        "has %u morph targets",
                        c->src, i, n->weight_count, n->mesh, targets);
    }
    return check_skeletons(c);
}
