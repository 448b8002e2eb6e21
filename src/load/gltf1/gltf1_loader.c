/* SPDX-License-Identifier: MIT */
/* glTF 1.0 loader (also the 1.1 draft and KHR_binary_glTF): maps the id
 * dictionaries to dense indices and fills the vs_asset. The object loaders
 * live in gltf1_*.c; this file holds the entry point and scenes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/gltf1/gltf1_internal.h"
#include "load/loaders.h"

vs_result gltf1_load_scenes(gltf1_ctx *c)
{
    uint32_t n = c->scenes.count;
    vs_scene *scenes = NULL;
    if (n) {
        scenes = vs_priv_asset_calloc(c->asset, n, sizeof *scenes, c->error, "scenes");
        if (!scenes) return c->error->code;
    }
    for (uint32_t i = 0; i < n; ++i) {
        const cJSON *obj = c->scenes.items[i];
        char path[GLTF1_PATH_SIZE];
        gltf1_path(path, "scenes", obj->string);
        uint32_t *roots;
        vs_result r = gltf1_resolve_ids(c, &c->nodes, obj, "nodes", path,
                                        &roots, &scenes[i].node_count);
        if (r != VS_OK) return r;
        if (!(scenes[i].name = gltf1_name(c, obj, obj->string)))
            return c->error->code;
        scenes[i].nodes = roots;
    }
    c->asset->scenes = scenes;
    c->asset->scene_count = n;
    /* glTF 1.0 root.scene: "the id of the default scene"; without it every
     * root is shown. */
    const cJSON *scene = cJSON_GetObjectItemCaseSensitive(c->root, "scene");
    if (scene) {
        uint32_t s;
        vs_result r = gltf1_resolve(c, &c->scenes, scene, "scene", &s);
        if (r != VS_OK) return r;
        c->asset->default_scene = (int32_t)s;
    }
    return VS_OK;
}

static vs_result build_dicts(gltf1_ctx *c)
{
    static const struct {
        const char *key, *kind;
        size_t offset;
    } dicts[] = {
        {"buffers", "buffer", offsetof(gltf1_ctx, buffers)},
        {"bufferViews", "bufferView", offsetof(gltf1_ctx, views)},
        {"accessors", "accessor", offsetof(gltf1_ctx, accessors)},
        {"materials", "material", offsetof(gltf1_ctx, materials)},
        {"meshes", "mesh", offsetof(gltf1_ctx, meshes)},
        {"nodes", "node", offsetof(gltf1_ctx, nodes)},
        {"skins", "skin", offsetof(gltf1_ctx, skins)},
        {"animations", "animation", offsetof(gltf1_ctx, animations)},
        {"scenes", "scene", offsetof(gltf1_ctx, scenes)},
    };
    for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; ++i) {
        gltf1_dict *d = (gltf1_dict *)((char *)c + dicts[i].offset);
        vs_result r =
            gltf1_dict_build(c, c->root, dicts[i].key, "", dicts[i].kind, d);
        if (r != VS_OK) return r;
    }
    uint32_t nb = c->buffers.count ? c->buffers.count : 1;
    c->buffer_data = mem_calloc(c->io.alloc, nb, sizeof *c->buffer_data);
    c->buffer_loaded = mem_calloc(c->io.alloc, nb, sizeof *c->buffer_loaded);
    if (!c->buffer_data || !c->buffer_loaded)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: buffers: out of memory", c->src);
    return VS_OK;
}

static vs_result load_all(gltf1_ctx *c)
{
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(c->root, "asset");
    const cJSON *gen = cJSON_GetObjectItemCaseSensitive(info, "generator");
    if (cJSON_IsString(gen) &&
        !(c->asset->generator = vs_priv_asset_strdup(c->asset, gen->valuestring)))
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: asset.generator: out of memory", c->src);
    vs_result r;
    if ((r = build_dicts(c)) != VS_OK) return r;
    if ((r = gltf1_load_materials(c)) != VS_OK) return r;
    if ((r = gltf1_load_meshes(c)) != VS_OK) return r;
    if ((r = gltf1_load_nodes(c)) != VS_OK) return r;
    if ((r = gltf1_load_skins(c)) != VS_OK) return r;
    if ((r = gltf1_load_animations(c)) != VS_OK) return r;
    if ((r = gltf1_load_scenes(c)) != VS_OK) return r;
    return vs_priv_asset_finalize(c->asset, c->error);
}

vs_result gltf1_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error)
{
    vs_error local;
    gltf1_ctx c;
    memset(&c, 0, sizeof c);
    c.asset = asset;
    c.io = loader_io(asset);
    c.src = asset->source_name;
    c.root = root;
    c.bin = bin;
    c.bin_size = bin_size;
    c.base_dir = base_dir;
    c.error = error ? error : &local;
    clear_error(c.error);
    asset->format = VS_FORMAT_GLTF1;
    vs_result r = load_all(&c);
    gltf1_buffers_free(&c);
    gltf1_dict_free(&c, &c.buffers);
    gltf1_dict_free(&c, &c.views);
    gltf1_dict_free(&c, &c.accessors);
    gltf1_dict_free(&c, &c.materials);
    gltf1_dict_free(&c, &c.meshes);
    gltf1_dict_free(&c, &c.nodes);
    gltf1_dict_free(&c, &c.skins);
    gltf1_dict_free(&c, &c.animations);
    gltf1_dict_free(&c, &c.scenes);
    return r;
}
