/* SPDX-License-Identifier: MIT */
/* `vskin info --json`: the text report's content as one JSON object, built
 * with cJSON. Every add is checked: a failed allocation makes the whole
 * print fail rather than print a partial object. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cli_common.h"
#include "cli_json.h"
#include "info.h"

/* A JSON number that prints as the shortest decimal reading back as
 * `value` (%.9g round-trips any float; cJSON prints the double it reads
 * back with those same digits); null for NaN and infinities. */
static cJSON *json_float(float value)
{
    if (!isfinite(value)) return cJSON_CreateNull();
    char text[32];
    snprintf(text, sizeof text, "%.9g", (double)value);
    return cJSON_CreateNumber(strtod(text, NULL));
}

static const char *str(const char *s)
{
    return s ? s : "";
}

static bool add_nodes(cJSON *root, const vs_asset *asset)
{
    cJSON *nodes = cJSON_AddArrayToObject(root, "nodes");
    if (!nodes) return false;
    for (uint32_t n = 0; n < asset->node_count; ++n) {
        const vs_node *node = &asset->nodes[n];
        cJSON *o = cJSON_CreateObject();
        if (!o) return false;
        cJSON_AddItemToArray(nodes, o);
        if (!cJSON_AddStringToObject(o, "name", str(node->name)) ||
            !cJSON_AddNumberToObject(o, "parent", node->parent) ||
            !cJSON_AddNumberToObject(o, "mesh", node->mesh) ||
            !cJSON_AddNumberToObject(o, "skin", node->skin))
            return false;
    }
    return true;
}

static bool add_meshes(cJSON *root, const vs_asset *asset)
{
    cJSON *meshes = cJSON_AddArrayToObject(root, "meshes");
    if (!meshes) return false;
    for (uint32_t m = 0; m < asset->mesh_count; ++m) {
        const vs_mesh *mesh = &asset->meshes[m];
        cJSON *o = cJSON_CreateObject(), *prims;
        if (!o) return false;
        cJSON_AddItemToArray(meshes, o);
        if (!cJSON_AddStringToObject(o, "name", str(mesh->name)) ||
            !(prims = cJSON_AddArrayToObject(o, "primitives")))
            return false;
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            const vs_primitive *prim = &mesh->primitives[p];
            cJSON *po = cJSON_CreateObject();
            if (!po) return false;
            cJSON_AddItemToArray(prims, po);
            if (!cJSON_AddStringToObject(po, "mode",
                                         info_mode_name(prim->mode)) ||
                !cJSON_AddNumberToObject(po, "vertices", prim->vertex_count) ||
                !cJSON_AddNumberToObject(po, "indices", prim->index_count) ||
                !cJSON_AddNumberToObject(po, "influence_sets",
                                         prim->influence_count / 4) ||
                !cJSON_AddNumberToObject(po, "morph_targets",
                                         prim->target_count) ||
                !cJSON_AddBoolToObject(po, "normals", prim->normals != NULL))
                return false;
        }
    }
    return true;
}

static bool add_skin(cJSON *skins, const vs_asset *asset, uint32_t s)
{
    const vs_skin *skin = &asset->skins[s];
    cJSON *o = cJSON_CreateObject(), *joints;
    if (!o) return false;
    cJSON_AddItemToArray(skins, o);
    if (!cJSON_AddStringToObject(o, "name", str(skin->name)) ||
        !cJSON_AddStringToObject(o, "inverse_bind_matrices",
                                 info_ibm_state(skin)) ||
        !cJSON_AddNumberToObject(o, "skeleton", skin->skeleton) ||
        !(joints = cJSON_AddArrayToObject(o, "joints")))
        return false;
    int32_t *parents = info_joint_parents(asset, skin);
    if (!parents) return false;
    bool ok = true;
    for (uint32_t j = 0; ok && j < skin->joint_count; ++j) {
        char buf[32];
        cJSON *jo = cJSON_CreateObject();
        ok = jo != NULL;
        if (!ok) break;
        cJSON_AddItemToArray(joints, jo);
        /* parent_joint: index in this skin's joints, -1 for a root. */
        ok = cJSON_AddNumberToObject(jo, "node", skin->joints[j]) &&
             cJSON_AddStringToObject(
                 jo, "name",
                 vs_node_label(asset, skin->joints[j], buf, sizeof buf)) &&
             cJSON_AddNumberToObject(jo, "parent_joint", parents[j]);
    }
    free(parents);
    return ok;
}

static bool add_clips(cJSON *root, const vs_asset *asset)
{
    cJSON *clips = cJSON_AddArrayToObject(root, "clips");
    if (!clips) return false;
    for (uint32_t c = 0; c < asset->clip_count; ++c) {
        const vs_clip *clip = &asset->clips[c];
        cJSON *o = cJSON_CreateObject();
        if (!o) return false;
        cJSON_AddItemToArray(clips, o);
        cJSON *start = json_float(clip->start), *end = json_float(clip->end),
              *duration = json_float(clip->end - clip->start);
        if (start) cJSON_AddItemToObject(o, "start", start);
        if (end) cJSON_AddItemToObject(o, "end", end);
        if (duration) cJSON_AddItemToObject(o, "duration", duration);
        if (!start || !end || !duration ||
            !cJSON_AddNumberToObject(o, "index", c) ||
            !cJSON_AddStringToObject(o, "name", str(clip->name)) ||
            !cJSON_AddNumberToObject(o, "channels", clip->channel_count))
            return false;
    }
    return true;
}

/* What the load repaired (also printed on stderr unless --quiet), as
 * {object, message} objects. */
static bool add_warnings(cJSON *root, const vs_asset *asset)
{
    cJSON *list = cJSON_AddArrayToObject(root, "warnings");
    if (!list) return false;
    for (uint32_t i = 0; i < asset->warning_count; ++i) {
        cJSON *o = cJSON_CreateObject();
        if (!o) return false;
        cJSON_AddItemToArray(list, o);
        if (!cJSON_AddStringToObject(o, "object", asset->warnings[i].object) ||
            !cJSON_AddStringToObject(o, "message",
                                     asset->warnings[i].message))
            return false;
    }
    return true;
}

static bool build(cJSON *root, const vs_asset *asset)
{
    cJSON *scenes, *skins;
    if (!cJSON_AddStringToObject(root, "file", asset->source_name) ||
        !cJSON_AddStringToObject(root, "format",
                                 info_format_name(asset->format)) ||
        !cJSON_AddStringToObject(root, "generator", str(asset->generator)) ||
        !cJSON_AddStringToObject(root, "up_axis",
                                 info_up_axis_name(asset->up_axis)))
        return false;
    cJSON *unit = json_float(asset->unit_meters);
    if (!unit) return false;
    cJSON_AddItemToObject(root, "unit_meters", unit);
    if (!cJSON_AddNumberToObject(root, "default_scene", asset->default_scene) ||
        !(scenes = cJSON_AddArrayToObject(root, "scenes")))
        return false;
    for (uint32_t s = 0; s < asset->scene_count; ++s) {
        const vs_scene *scene = &asset->scenes[s];
        cJSON *o = cJSON_CreateObject(), *roots;
        if (!o) return false;
        cJSON_AddItemToArray(scenes, o);
        if (!cJSON_AddStringToObject(o, "name", str(scene->name)) ||
            !(roots = cJSON_AddArrayToObject(o, "nodes")))
            return false;
        for (uint32_t n = 0; n < scene->node_count; ++n) {
            cJSON *v = cJSON_CreateNumber(scene->nodes[n]);
            if (!v) return false;
            cJSON_AddItemToArray(roots, v);
        }
    }
    if (!add_nodes(root, asset) || !add_meshes(root, asset)) return false;
    cJSON *instances = cJSON_AddArrayToObject(root, "instances");
    if (!instances) return false;
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        cJSON *v = cJSON_CreateNumber(asset->instances[i]);
        if (!v) return false;
        cJSON_AddItemToArray(instances, v);
    }
    if (!(skins = cJSON_AddArrayToObject(root, "skins"))) return false;
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        if (!add_skin(skins, asset, s)) return false;
    return add_clips(root, asset) && add_warnings(root, asset);
}

bool info_print_json(const vs_asset *asset)
{
    cli_json_begin();
    cJSON *root = cJSON_CreateObject();
    char *text = cli_json_print(root && build(root, asset) ? root : NULL);
    cJSON_Delete(root);
    bool printed = text && puts(text) >= 0 && fflush(stdout) == 0;
    cJSON_free(text);
    return printed;
}
