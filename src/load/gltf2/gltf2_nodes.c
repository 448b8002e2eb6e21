/* SPDX-License-Identifier: MIT */
/* glTF 2.0 nodes (§3.5) and scenes (§3.5.1). The hierarchy checks (cycles,
 * two parents, scene roots) are vs_priv_asset_finalize's; here each node's own
 * properties are read and range-checked. */
#include <math.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/xform.h"
#include "load/gltf2/gltf2_internal.h"

/* An array of node indices copied into the asset (children, scene nodes). */
static vs_result node_list(gltf2_ctx *c, const cJSON *obj, const char *key,
                           const char *path, uint32_t *count,
                           const uint32_t **out)
{
    const cJSON *arr;
    uint32_t n;
    vs_result r = json_array(c, obj, key, path, &arr, &n);
    *count = 0;
    *out = NULL;
    if (r != VS_OK || n == 0) return r;
    char where[GLTF2_PATH];
    path_fmt(where, "%s.%s", path, key);
    uint32_t *list = vs_priv_asset_calloc(c->asset, n, sizeof *list, c->error, where);
    if (!list) return c->error ? c->error->code : VS_ERROR_LIMIT;
    uint32_t i = 0;
    const cJSON *e;
    marks_begin(c);
    cJSON_ArrayForEach(e, arr)
    {
        path_fmt(where, "%s.%s[%u]", path, key, i);
        if ((r = json_index_value(c, e, where, c->node_count, &list[i])) !=
            VS_OK)
            return r;
        /* Schema: uniqueItems. */
        if (marks_test_set(c, list[i], 1))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s: node %u is listed twice", c->src, where,
                             list[i]);
        ++i;
    }
    *count = n;
    *out = list;
    return VS_OK;
}

static vs_result load_transform(gltf2_ctx *c, const cJSON *obj,
                                const char *path, vs_node *node)
{
    bool has_m, has_t, has_r, has_s;
    vs_result r;
    xform_trs_identity(&node->rest_trs);
    xform_identity(node->matrix);
    if ((r = json_floats(c, obj, "matrix", path, node->matrix, 16, &has_m)) ||
        (r = json_floats(c, obj, "translation", path,
                         node->rest_trs.translation, 3, &has_t)) ||
        (r = json_floats(c, obj, "rotation", path, node->rest_trs.rotation, 4,
                         &has_r)) ||
        (r = json_floats(c, obj, "scale", path, node->rest_trs.scale, 3,
                         &has_s)))
        return r;
    /* §3.5.2: a node has either a matrix or TRS properties, not both.
     * Readers that take such a file (three.js, assimp) use the matrix. */
    if (has_m && (has_t || has_r || has_s) &&
        (r = asset_warn(c->asset, c->error, path,
                        "the matrix is used, translation/rotation/scale "
                        "ignored",
                        "has both matrix and translation/rotation/"
                        "scale")) != VS_OK)
        return r;
    if (has_m) {
        node->has_matrix = true;
        xform_trs_identity(&node->rest_trs);
        xform_decompose(node->matrix, &node->rest_trs);
    } else {
        float *q = node->rest_trs.rotation;
        float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        /* §3.5.2: rotation is a unit quaternion; the tolerance forgives
         * exporters that round to a few digits. A longer or shorter one
         * still names one rotation, which normalising recovers; a zero one
         * names none. */
        if (!(len > 1e-6f))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: %s.rotation: quaternion has no length, so "
                             "it names no rotation",
                             c->src, path);
        if (fabsf(len - 1.0f) > 1e-3f) {
            char where[GLTF2_PATH];
            path_fmt(where, "%s.rotation", path);
            if ((r = asset_warn(c->asset, c->error, where, "normalised",
                                "quaternion is not unit length (%g)",
                                (double)len)) != VS_OK)
                return r;
            for (int k = 0; k < 4; ++k) q[k] /= len;
        }
        xform_from_trs(&node->rest_trs, node->matrix);
    }
    return VS_OK;
}

static vs_result load_node(gltf2_ctx *c, const cJSON *obj, uint32_t i,
                           vs_node *node)
{
    char path[GLTF2_PATH];
    path_fmt(path, "nodes[%u]", i);
    vs_result r = json_element_object(c, obj, path);
    if (r != VS_OK) return r;
    if ((r = json_name(c, obj, path, &node->name)) != VS_OK ||
        (r = load_transform(c, obj, path, node)) != VS_OK ||
        (r = node_list(c, obj, "children", path, &node->child_count,
                       &node->children)) != VS_OK ||
        (r = json_index(c, obj, "mesh", path, c->asset->mesh_count, false,
                        &node->mesh)) != VS_OK ||
        (r = json_index(c, obj, "skin", path, c->skin_count, false,
                        &node->skin)) != VS_OK)
        return r;
    /* Cameras are not loaded, but a dangling reference still marks a
     * broken file (validator UNRESOLVED_REFERENCE). */
    int32_t camera;
    if ((r = json_index(c, obj, "camera", path, c->camera_count,
                        false, &camera)) != VS_OK)
        return r;
    if (node->skin >= 0 && node->mesh < 0)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: %s.skin: a node with a skin must have a mesh",
                         c->src, path);
    const cJSON *w;
    uint32_t n;
    if ((r = json_array(c, obj, "weights", path, &w, &n)) != VS_OK) return r;
    if (n) {
        float *weights = vs_priv_asset_calloc(c->asset, n, sizeof *weights, c->error,
                                      path);
        if (!weights) return c->error ? c->error->code : VS_ERROR_LIMIT;
        if ((r = json_floats(c, obj, "weights", path, weights, n, NULL)))
            return r;
        node->weights = weights;
        node->weight_count = n;
    }
    return VS_OK;
}

vs_result gltf2_load_nodes(gltf2_ctx *c)
{
    const cJSON *arr;
    uint32_t n;
    vs_result r = json_array(c, c->root, "nodes", "", &arr, &n);
    if (r != VS_OK) return r;
    if (n > asset_limits(c->asset)->max_nodes)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: nodes: %u nodes exceed the limit of %u", c->src,
                         n, asset_limits(c->asset)->max_nodes);
    c->node_count = n;
    if ((r = marks_alloc(c)) != VS_OK || n == 0) return r;
    vs_node *nodes = vs_priv_asset_calloc(c->asset, n, sizeof *nodes, c->error,
                                  "nodes");
    if (!nodes) return c->error ? c->error->code : VS_ERROR_LIMIT;
    uint32_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if ((r = load_node(c, e, i, &nodes[i])) != VS_OK) return r;
        ++i;
    }
    c->asset->nodes = nodes;
    c->asset->node_count = n;
    return VS_OK;
}

vs_result gltf2_load_scenes(gltf2_ctx *c)
{
    const cJSON *arr;
    uint32_t n;
    vs_result r = json_array(c, c->root, "scenes", "", &arr, &n);
    if (r != VS_OK) return r;
    if (n) {
        vs_scene *scenes = vs_priv_asset_calloc(c->asset, n, sizeof *scenes, c->error,
                                        "scenes");
        if (!scenes) return c->error ? c->error->code : VS_ERROR_LIMIT;
        uint32_t i = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, arr)
        {
            char path[GLTF2_PATH];
            path_fmt(path, "scenes[%u]", i);
            vs_scene *s = &scenes[i++];
            if ((r = json_element_object(c, e, path)) != VS_OK ||
                (r = json_name(c, e, path, &s->name)) != VS_OK ||
                (r = node_list(c, e, "nodes", path, &s->node_count,
                               &s->nodes)) != VS_OK)
                return r;
        }
        if ((r = gltf2_scene_roots(c, scenes, n)) != VS_OK) return r;
        c->asset->scenes = scenes;
        c->asset->scene_count = n;
    }
    /* §3.5.1: "scene" names the default scene; without it any scene may be
     * shown, we take the first. */
    int32_t scene = -1;
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(c->root, "scene");
    /* A "scene" in a file without scenes (their list was removed) can only
     * mean all of it: every root is shown, as without "scene". Where there
     * are scenes, one it does not name could be any of them: refused. */
    if (named && n == 0) {
        if ((r = asset_warn(c->asset, c->error, "scene",
                            "every root node is shown",
                            "names a scene but the file has none")) != VS_OK)
            return r;
    } else if ((r = json_index(c, c->root, "scene", "", n, false, &scene)) !=
               VS_OK) {
        return r;
    }
    c->asset->default_scene = scene >= 0 ? scene : (n ? 0 : -1);
    return VS_OK;
}
