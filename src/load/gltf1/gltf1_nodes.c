/* SPDX-License-Identifier: MIT */
/* glTF 1.0 nodes: transforms, children and meshes (skins come later, once
 * the hierarchy is known, see gltf1_skins.c). */
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/error.h"
#include "base/xform.h"
#include "load/gltf1/gltf1_internal.h"

/* glTF 1.0 §node: either matrix (default identity) or translation, rotation
 * and scale; when both are present the matrix is the one we keep. */
static vs_result load_transform(gltf1_ctx *c, const cJSON *obj,
                                const char *path, vs_node *node)
{
    bool found;
    vs_result r =
        gltf1_get_floats(c, obj, "matrix", path, 16, node->matrix, &found);
    if (r != VS_OK) return r;
    if (found) {
        node->has_matrix = true;
        xform_decompose(node->matrix, &node->rest_trs);
        return VS_OK;
    }
    xform_trs_identity(&node->rest_trs);
    if ((r = gltf1_get_floats(c, obj, "translation", path, 3,
                              node->rest_trs.translation, &found)) != VS_OK)
        return r;
    if ((r = gltf1_get_floats(c, obj, "rotation", path, 4,
                              node->rest_trs.rotation, &found)) != VS_OK)
        return r;
    if ((r = gltf1_get_floats(c, obj, "scale", path, 3, node->rest_trs.scale,
                              &found)) != VS_OK)
        return r;
    xform_from_trs(&node->rest_trs, node->matrix);
    return VS_OK;
}

/* Several meshes on one node become one vs_mesh holding all their primitives
 * (drawing the meshes one after another is drawing those primitives). */
static vs_result merge_meshes(gltf1_ctx *c, const uint32_t *ids, uint32_t n,
                              const char *path, int32_t *out)
{
    vs_mesh *meshes = (vs_mesh *)c->asset->meshes;
    uint32_t prims = 0;
    size_t name_len = 0;
    for (uint32_t k = 0; k < n; ++k) {
        prims += meshes[ids[k]].primitive_count;
        name_len += strlen(meshes[ids[k]].name) + 1;
    }
    vs_mesh *m = &meshes[c->asset->mesh_count];
    vs_primitive *p =
        vs_priv_asset_calloc(c->asset, prims ? prims : 1, sizeof *p, c->error, path);
    char *name = vs_priv_asset_calloc(c->asset, name_len, 1, c->error, path);
    if (!p || !name) return c->error->code;
    prims = 0;
    /* Appended at a running end: strcat would rescan the name each time. */
    size_t end = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const vs_mesh *src = &meshes[ids[k]];
        memcpy(p + prims, src->primitives, src->primitive_count * sizeof *p);
        prims += src->primitive_count;
        if (k) name[end++] = '+';
        size_t len = strlen(src->name);
        memcpy(name + end, src->name, len);
        end += len;
    }
    name[end] = '\0';
    m->name = name;
    m->primitives = p;
    m->primitive_count = prims;
    *out = (int32_t)c->asset->mesh_count++;
    return VS_OK;
}

static vs_result load_meshes_ref(gltf1_ctx *c, const cJSON *obj,
                                 const char *path, vs_node *node)
{
    node->mesh = -1;
    uint32_t *ids, n;
    vs_result r =
        gltf1_resolve_ids(c, &c->meshes, obj, "meshes", path, &ids, &n);
    if (r != VS_OK || n == 0) return r;
    if (n == 1) {
        node->mesh = (int32_t)ids[0];
        return VS_OK;
    }
    return merge_meshes(c, ids, n, path, &node->mesh);
}

vs_result gltf1_load_nodes(gltf1_ctx *c)
{
    uint32_t n = c->nodes.count;
    if (n > asset_limits(c->asset)->max_nodes)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: nodes: %u nodes exceed the limit of %u", c->src,
                         n, asset_limits(c->asset)->max_nodes);
    if (n == 0) return VS_OK;
    vs_node *nodes =
        vs_priv_asset_calloc(c->asset, n, sizeof *nodes, c->error, "nodes");
    if (!nodes) return c->error->code;
    for (uint32_t i = 0; i < n; ++i) {
        const cJSON *obj = c->nodes.items[i];
        vs_node *node = &nodes[i];
        char path[GLTF1_PATH_SIZE];
        gltf1_path(path, "nodes", obj->string);
        node->parent = -1;
        node->skin = -1;
        node->name = gltf1_name(c, obj, "");
        node->id = vs_priv_asset_strdup(c->asset, obj->string);
        if (!node->name || !node->id)
            return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: %s: out of memory", c->src, path);
        const char *joint_name;
        vs_result r = gltf1_get_string(c, obj, "jointName", path, &joint_name);
        if (r != VS_OK) return r;
        if (joint_name) {
            if (!(node->sid = vs_priv_asset_strdup(c->asset, joint_name)))
                return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                                 "%s: %s: out of memory", c->src, path);
        }
        if ((r = load_transform(c, obj, path, node)) != VS_OK) return r;
        uint32_t *children;
        if ((r = gltf1_resolve_ids(c, &c->nodes, obj, "children", path,
                                   &children, &node->child_count)) != VS_OK)
            return r;
        node->children = children;
        if ((r = load_meshes_ref(c, obj, path, node)) != VS_OK) return r;
    }
    c->asset->nodes = nodes;
    c->asset->node_count = n;
    return VS_OK;
}
