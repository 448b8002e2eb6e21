/* SPDX-License-Identifier: MIT */
/* The pose as JSON, built with cJSON: per mesh instance its posed positions
 * and normals (flat arrays, 3 floats per vertex, in accessor order), and per
 * skin the joints' world positions and joint matrices. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "write/mesh_writers.h"
#include "write/object_stream.h"
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

/* One object as JSON: name, node, and its primitives' posed vertices;
 * NULL when out of memory. */
static cJSON *object_json(const posed_object *obj)
{
    cJSON *item = cJSON_CreateObject();
    cJSON *prims = NULL;
    bool ok = item && cJSON_AddStringToObject(item, "name", obj->name) &&
              cJSON_AddNumberToObject(item, "node", obj->node) &&
              (prims = cJSON_AddArrayToObject(item, "primitives"));
    for (uint32_t p = 0; ok && p < obj->primitive_count; ++p) {
        const vs_posed_primitive *posed = &obj->posed[p];
        cJSON *prim = cJSON_CreateObject();
        ok = prim != NULL;
        if (ok) cJSON_AddItemToArray(prims, prim);
        size_t n = 3 * (size_t)posed->vertex_count;
        ok =
            ok && add_floats(prim, "positions", posed->positions, n) &&
            (!posed->normals || add_floats(prim, "normals", posed->normals, n));
    }
    if (ok) return item;
    cJSON_Delete(item);
    return NULL;
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

/* The placeholders that stand for the objects in the printed root: control
 * characters, which cJSON escapes in every string it prints, so the raw
 * ones appear nowhere else. */
#define FIRST_MARK "\x01"
#define SECOND_MARK "\x02"

/* Everything but the objects, with two placeholders in "objects" (when
 * include_objects): the printed root then gives the text before the
 * objects, the separator between two of them, and the text after. */
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
    if (include_objects) {
        cJSON *objects = cJSON_AddArrayToObject(root, "objects");
        cJSON *first = cJSON_CreateRaw(FIRST_MARK);
        if (first) cJSON_AddItemToArray(objects, first);
        cJSON *second = cJSON_CreateRaw(SECOND_MARK);
        if (second) cJSON_AddItemToArray(objects, second);
        if (!objects || !first || !second) return false;
    }
    if (scene->skins) {
        cJSON *skins = cJSON_AddArrayToObject(root, "skins");
        if (!skins) return false;
        for (uint32_t s = 0; s < scene->skin_count; ++s)
            if (!add_skin(skins, &scene->skins[s])) return false;
    }
    return true;
}

/* The text of one object as the whole file prints it: printed inside
 * {"objects": [item]}, which nests it as deep as the file does, so every
 * line is indented as in a whole-file print. Takes the item; malloc'd
 * (cJSON_free), NULL when out of memory. */
static char *print_object(cJSON *item, size_t *out_size)
{
    cJSON *wrapper = cJSON_CreateObject();
    cJSON *array = wrapper ? cJSON_AddArrayToObject(wrapper, "objects") : NULL;
    if (!array) {
        cJSON_Delete(item);
        cJSON_Delete(wrapper);
        return NULL;
    }
    cJSON_AddItemToArray(array, item);
    char *text = cJSON_Print(wrapper);
    cJSON_Delete(wrapper);
    char *open = text ? strchr(text, '[') : NULL;
    char *close = text ? strrchr(text, ']') : NULL;
    if (!open || !close || close < open) {
        cJSON_free(text);
        return NULL;
    }
    *out_size = (size_t)(close - open - 1);
    memmove(text, open + 1, *out_size);
    return text;
}

/* Writes the objects, each built, printed and freed in turn, with `separator`
 * between two of them. */
static vs_result write_objects(FILE *f, const char *path,
                               object_stream *objects, const char *separator,
                               size_t separator_size, vs_error *error)
{
    for (uint32_t o = 0; o < objects->count; ++o) {
        const posed_object *obj;
        vs_result r = object_stream_pose(objects, o, &obj, error);
        if (r != VS_OK) return r;
        cJSON *item = object_json(obj);
        size_t size = 0;
        char *text = item ? print_object(item, &size) : NULL;
        if (!text)
            return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                             "%s: out of memory building the JSON", path);
        if (o) fwrite(separator, 1, separator_size, f);
        fwrite(text, 1, size, f);
        cJSON_free(text);
    }
    return VS_OK;
}

vs_result pose_json_write_objects(const char *path, const posed_scene *scene,
                                  object_stream *objects, vs_error *error)
{
    cJSON *root = cJSON_CreateObject();
    char *text = NULL;
    if (!root || !build(root, scene, objects != NULL) ||
        !(text = cJSON_Print(root))) {
        cJSON_Delete(root);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory building the JSON", path);
    }
    cJSON_Delete(root);
    /* head FIRST_MARK separator SECOND_MARK tail, or all head. */
    size_t head = strlen(text);
    const char *separator = "", *tail = "";
    size_t separator_size = 0;
    char *first = objects ? strstr(text, FIRST_MARK) : NULL;
    char *second = first ? strstr(first, SECOND_MARK) : NULL;
    if (objects && !second) {
        cJSON_free(text);
        return set_error(error, VS_ERROR_INVALID,
                         "%s: the JSON printer lost the objects' place", path);
    }
    if (second) {
        head = (size_t)(first - text);
        separator = first + 1;
        separator_size = (size_t)(second - first - 1);
        tail = second + 1;
    }
    out_file out;
    vs_result r = out_file_open(&out, path, &scene->allocator, error);
    if (r == VS_OK) {
        fwrite(text, 1, head, out.f);
        if (objects)
            r = write_objects(out.f, path, objects, separator, separator_size,
                              error);
    }
    if (r == VS_OK) {
        fputs(tail, out.f);
        fputc('\n', out.f);
        r = out_file_commit(&out, error);
    } else {
        out_file_discard(&out);
    }
    cJSON_free(text);
    return r;
}

vs_result pose_json_write(const char *path, const posed_scene *scene,
                          bool include_objects, vs_error *error)
{
    object_stream objects;
    object_stream_of_scene(&objects, scene);
    return pose_json_write_objects(path, scene,
                                   include_objects ? &objects : NULL, error);
}
