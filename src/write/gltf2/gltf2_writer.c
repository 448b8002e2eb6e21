/* SPDX-License-Identifier: MIT */
/* gltf2_write_file: builds the glTF 2.0 document from a vs_asset (the
 * gltf2_writer_*.c parts) and hands it to gltf2_writer_file.c to write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asset/asset_internal.h"
#include "base/error.h"
#include "write/gltf2/gltf2_writer.h"

bool gltf2_path_is_glb(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && strcasecmp(path + n - 4, ".glb") == 0;
}

/* The asset object (§5.4): version 2.0, and who wrote it from what. */
static bool asset_info(gltf2w_ctx *c)
{
    static const char *formats[] = {"unknown", "glTF 2.0", "glTF 1.0",
                                    "COLLADA"};
    cJSON *info = cJSON_AddObjectToObject(c->root, "asset");
    if (!info || !cJSON_AddStringToObject(info, "version", "2.0") ||
        !cJSON_AddStringToObject(info, "generator",
                                 "vskin " VS_VERSION_STRING " convert"))
        return false;
    /* The source's generator is worth keeping for provenance; extras is
     * the place glTF reserves for application data (§3.12). */
    const vs_asset *a = c->asset;
    unsigned f = a->format <= VS_FORMAT_COLLADA ? (unsigned)a->format : 0;
    cJSON *extras = cJSON_AddObjectToObject(info, "extras");
    return extras &&
           cJSON_AddStringToObject(extras, "sourceFormat", formats[f]) &&
           (!a->generator || !a->generator[0] ||
            cJSON_AddStringToObject(extras, "sourceGenerator", a->generator));
}

/* Attaches a top-level array when it has elements (empty arrays are
 * invalid, §5: minItems 1), else frees it. */
static bool attach(cJSON *root, const char *key, cJSON *array)
{
    if (cJSON_GetArraySize(array) == 0) {
        cJSON_Delete(array);
        return true;
    }
    return cJSON_AddItemToObject(root, key, array);
}

/* The first null under item (gltf2w_number's mark of a value that is not a
 * finite number; the writer writes no other null), its JSON pointer into
 * `where`. */
static bool find_null(const cJSON *item, char *where, size_t size)
{
    if (cJSON_IsNull(item)) return true;
    int index = 0;
    for (const cJSON *child = item->child; child; child = child->next) {
        size_t len = strlen(where);
        if (cJSON_IsObject(item))
            snprintf(where + len, size - len, "/%s", child->string);
        else
            snprintf(where + len, size - len, "/%d", index);
        if (find_null(child, where, size)) return true;
        where[len] = '\0';
        ++index;
    }
    return false;
}

static vs_result check_finite(gltf2w_ctx *c)
{
    char where[256] = "";
    if (!find_null(c->root, where, sizeof where)) return VS_OK;
    return set_error(c->error, VS_ERROR_INVALID,
                     "%s: %s would be a value that is not a finite number",
                     c->path, where);
}

static vs_result build(gltf2w_ctx *c, bool keep_axes)
{
    if (!asset_info(c)) return gltf2w_oom(c, "asset");
    c->animated = gltf2w_animated_nodes(c);
    if (!c->animated) return gltf2w_oom(c, "nodes");
    c->tree = gltf2w_tree_build(c->asset, c->alloc);
    if (!c->tree || !gltf2w_plan_joints(c)) return gltf2w_oom(c, "nodes");
    gltf2w_setup_correction(c, keep_axes);
    vs_result r = gltf2w_scenes(c);
    if (r == VS_OK) r = gltf2w_nodes(c);
    if (r == VS_OK) r = gltf2w_meshes(c);
    if (r == VS_OK) r = gltf2w_materials(c);
    if (r == VS_OK) r = gltf2w_skins(c);
    if (r == VS_OK) r = gltf2w_animations(c);
    if (r == VS_OK) r = check_finite(c);
    return r;
}

vs_result gltf2_write_file(const vs_asset *asset, const char *path,
                           const gltf2_write_options *options,
                           gltf2_write_report *report, vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    clear_error(error);
    if (!asset || !path || !path[0])
        return set_error(error, VS_ERROR_ARGUMENT,
                         "gltf2_write_file: asset and path must be given");
    gltf2_write_options opts = {0};
    if (options) opts = *options;
    bool glb = gltf2_path_is_glb(path);
    if (glb && opts.embed)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: embedding applies to .gltf output (a .glb "
                         "already holds its buffer)",
                         path);
    gltf2_write_report rep = {0};
    gltf2w_ctx c = {.asset = asset,
                    .alloc = asset_allocator(asset),
                    .path = path,
                    .error = error,
                    .report = &rep};
    c.root = cJSON_CreateObject();
    c.views = cJSON_CreateArray();
    c.accessors = cJSON_CreateArray();
    vs_result r;
    if (!c.root || !c.views || !c.accessors) {
        cJSON_Delete(c.views);
        cJSON_Delete(c.accessors);
        r = gltf2w_oom(&c, "the document");
    } else {
        r = build(&c, opts.keep_axes);
        cJSON *views = c.views, *accessors = c.accessors;
        c.views = c.accessors = NULL;
        if (!attach(c.root, "accessors", accessors) ||
            !attach(c.root, "bufferViews", views)) {
            if (r == VS_OK) r = gltf2w_oom(&c, "the document");
        }
        if (r == VS_OK) r = gltf2w_emit(&c, glb, opts.embed);
    }
    cJSON_Delete(c.root);
    mem_free(c.alloc, c.bin);
    mem_free(c.alloc, c.animated);
    gltf2w_tree_free(c.tree);
    mem_free(c.alloc, c.joint_out);
    mem_free(c.alloc, c.joint_at);
    mem_free(c.alloc, c.stand_in_parent);
    mem_free(c.alloc, c.stand_in_slot);
    mem_free(c.alloc, c.stand_in_first);
    mem_free(c.alloc, c.stand_in_next);
    if (report) *report = rep;
    return r;
}
