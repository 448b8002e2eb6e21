/* SPDX-License-Identifier: MIT */
/* The pose as JSON, built with cJSON: per mesh instance its posed positions
 * and normals (flat arrays, 3 floats per vertex, in accessor order), and per
 * skin the joints' world positions and joint matrices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "write/mesh_writers.h"
#include "write/write_file.h"

cJSON *json_float(float value)
{
    if (!isfinite(value)) return cJSON_CreateNull();
    /* %.9g round-trips any float; reading it back as a double gives the
     * double that cJSON's %1.15g prints as those same short digits. */
    char text[32];
    snprintf(text, sizeof text, "%.9g", (double)value);
    return cJSON_CreateNumber(strtod(text, NULL));
}

/* Adds an array of n floats to parent under key; false when out of memory. */
static bool add_floats(cJSON *parent, const char *key, const float *v, size_t n)
{
    cJSON *array = cJSON_AddArrayToObject(parent, key);
    if (!array) return false;
    for (size_t i = 0; i < n; ++i) {
        cJSON *item = json_float(v[i]);
        if (!item) return false;
        cJSON_AddItemToArray(array, item);
    }
    return true;
}

static bool add_objects(cJSON *root, const posed_scene *scene)
{
    cJSON *objects = cJSON_AddArrayToObject(root, "objects");
    if (!objects) return false;
    for (uint32_t o = 0; o < scene->object_count; ++o) {
        const posed_object *obj = &scene->objects[o];
        cJSON *item = cJSON_CreateObject();
        if (!item) return false;
        cJSON_AddItemToArray(objects, item);
        cJSON *prims;
        if (!cJSON_AddStringToObject(item, "name", obj->name) ||
            !cJSON_AddNumberToObject(item, "node", obj->node) ||
            !(prims = cJSON_AddArrayToObject(item, "primitives")))
            return false;
        for (uint32_t p = 0; p < obj->primitive_count; ++p) {
            const vs_posed_primitive *posed = &obj->posed[p];
            cJSON *prim = cJSON_CreateObject();
            if (!prim) return false;
            cJSON_AddItemToArray(prims, prim);
            size_t n = 3 * (size_t)posed->vertex_count;
            if (!add_floats(prim, "positions", posed->positions, n))
                return false;
            if (posed->normals &&
                !add_floats(prim, "normals", posed->normals, n))
                return false;
        }
    }
    return true;
}

static bool add_skin(cJSON *skins, const posed_skin *skin)
{
    cJSON *item = cJSON_CreateObject();
    if (!item) return false;
    cJSON_AddItemToArray(skins, item);
    cJSON *joints, *matrices;
    if (!cJSON_AddNumberToObject(item, "skin", skin->skin) ||
        !cJSON_AddStringToObject(item, "name", skin->name) ||
        !(joints = cJSON_AddArrayToObject(item, "joints")) ||
        !(matrices = cJSON_AddArrayToObject(item, "joint_matrices")))
        return false;
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        const posed_joint *joint = &skin->joints[j];
        cJSON *ji = cJSON_CreateObject();
        if (!ji) return false;
        cJSON_AddItemToArray(joints, ji);
        if (!cJSON_AddNumberToObject(ji, "node", joint->node) ||
            !cJSON_AddStringToObject(ji, "name", joint->name) ||
            !add_floats(ji, "world_position", joint->world_position, 3))
            return false;
        /* Column-major, as glTF stores matrices. */
        cJSON *m = cJSON_CreateArray();
        if (!m) return false;
        cJSON_AddItemToArray(matrices, m);
        for (int k = 0; k < 16; ++k) {
            cJSON *v = json_float(skin->joint_matrices[16 * (size_t)j + k]);
            if (!v) return false;
            cJSON_AddItemToArray(m, v);
        }
    }
    return true;
}

static bool build(cJSON *root, const posed_scene *scene, bool include_objects)
{
    if (!cJSON_AddStringToObject(root, "source", scene->source)) return false;
    if (scene->clip >= 0) {
        if (!cJSON_AddNumberToObject(root, "clip", scene->clip) ||
            !cJSON_AddStringToObject(root, "clip_name", scene->clip_name))
            return false;
    } else if (!cJSON_AddNullToObject(root, "clip")) {
        return false;
    }
    /* Adding under a key copies the key, which can fail: the item is then
     * not in the tree and would be missing from the file. */
    cJSON *time = json_float(scene->time);
    if (!time) return false;
    if (!cJSON_AddItemToObject(root, "time", time)) {
        cJSON_Delete(time);
        return false;
    }
    if (include_objects && !add_objects(root, scene)) return false;
    if (scene->skins) {
        cJSON *skins = cJSON_AddArrayToObject(root, "skins");
        if (!skins) return false;
        for (uint32_t s = 0; s < scene->skin_count; ++s)
            if (!add_skin(skins, &scene->skins[s])) return false;
    }
    return true;
}

vs_result pose_json_write(const char *path, const posed_scene *scene,
                          bool include_objects, vs_error *error)
{
    cJSON *root = cJSON_CreateObject();
    char *text = NULL;
    if (!root || !build(root, scene, include_objects) ||
        !(text = cJSON_Print(root))) {
        cJSON_Delete(root);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory building the JSON", path);
    }
    cJSON_Delete(root);
    out_file out;
    file_part parts[] = {{text, strlen(text)}, {"\n", 1}};
    vs_result r =
        write_file_parts(&out, path, &scene->allocator, parts, 2, error);
    if (r == VS_OK) r = out_file_commit(&out, error);
    cJSON_free(text);
    return r;
}
