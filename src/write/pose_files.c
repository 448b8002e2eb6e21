/* SPDX-License-Identifier: MIT */
/* The public entry points for posed meshes (vskin_tools.h): the format of a
 * path, a scene checked and handed to the OBJ, PLY or JSON writer, and a
 * pose written in one call. */
#include <string.h>
#include <strings.h>

#include "base/alloc.h"
#include "base/error.h"
#include "vskin/vskin_tools.h"
#include "write/mesh_writers.h"
#include "write/object_stream.h"
#include "write/posed_scene.h"

vs_posed_format vs_posed_format_of(const char *path)
{
    if (!path) return VS_POSED_FORMAT_AUTO;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot) return VS_POSED_FORMAT_AUTO;
    if (strcasecmp(dot, ".obj") == 0) return VS_POSED_FORMAT_OBJ;
    if (strcasecmp(dot, ".ply") == 0) return VS_POSED_FORMAT_PLY;
    if (strcasecmp(dot, ".json") == 0) return VS_POSED_FORMAT_JSON;
    return VS_POSED_FORMAT_AUTO;
}

/* The writers follow every pointer the scene has: refuse the ones a caller
 * left NULL where data is promised. */
static vs_result check_scene(const vs_posed_scene *scene, vs_error *error)
{
    if (scene->object_count && !scene->objects)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_write_posed_scene: %u objects but no array",
                         scene->object_count);
    for (uint32_t o = 0; o < scene->object_count; ++o) {
        const vs_posed_object *obj = &scene->objects[o];
        bool ok = obj->name && (obj->primitive_count == 0 ||
                                (obj->primitives && obj->posed));
        for (uint32_t p = 0; ok && p < obj->primitive_count; ++p)
            ok = obj->posed[p].positions || obj->posed[p].vertex_count == 0;
        if (!ok)
            return set_error(error, VS_ERROR_ARGUMENT,
                             "vs_write_posed_scene: objects[%u]: a name, "
                             "primitives and posed positions are needed",
                             o);
    }
    return VS_OK;
}

vs_result vs_write_posed_scene(const vs_posed_scene *scene, const char *path,
                               vs_posed_format format, vs_error *error)
{
    clear_error(error);
    if (!scene || !path || !path[0])
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_write_posed_scene: a scene and a path are "
                         "needed");
    vs_result r = check_scene(scene, error);
    if (r == VS_OK)
        r = mem_check_allocator(&scene->allocator, "vs_write_posed_scene",
                                "scene->allocator", error);
    if (r != VS_OK) return r;
    /* Absent labels are written as empty ones. */
    vs_posed_scene s = *scene;
    if (!s.source) s.source = "";
    if (!s.clip_name) s.clip_name = "";
    switch (format == VS_POSED_FORMAT_AUTO ? vs_posed_format_of(path)
                                           : format) {
    case VS_POSED_FORMAT_OBJ:
        return obj_write(path, &s, error);
    case VS_POSED_FORMAT_PLY:
        return ply_write(path, &s, error);
    case VS_POSED_FORMAT_JSON:
        return pose_json_write(path, &s, s.objects != NULL, error);
    default:
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: unknown extension (use .obj, .ply or .json)",
                         path);
    }
}

vs_result vs_write_pose(const vs_pose *pose, const char *path,
                        const vs_posed_scene_options *options, vs_error *error)
{
    clear_error(error);
    if (!pose || !path || !path[0])
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_write_pose: a pose and a path are needed");
    vs_posed_format format = vs_posed_format_of(path);
    if (format == VS_POSED_FORMAT_AUTO)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: unknown extension (use .obj, .ply or .json)",
                         path);
    vs_posed_scene_options o = {0};
    if (options) o = *options;
    if ((o.joints || o.joints_only) && format != VS_POSED_FORMAT_JSON)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: OBJ and PLY hold no joints (write .json)", path);
    /* The scene holds the labels and joints; the mesh instances are posed
     * one at a time as they are written, so that memory holds one
     * instance's vertices however often the asset instances a mesh. */
    vs_posed_scene *scene = NULL;
    vs_result r = posed_scene_build(pose, &o, false, &scene, error);
    object_stream objects = {0};
    bool stream = r == VS_OK && !o.joints_only;
    if (stream) r = object_stream_of_pose(&objects, pose, &o.mesh, error);
    if (r == VS_OK) {
        switch (format) {
        case VS_POSED_FORMAT_OBJ:
            r = obj_write_objects(path, scene, &objects, error);
            break;
        case VS_POSED_FORMAT_PLY:
            r = ply_write_objects(path, scene, &objects, error);
            break;
        default:
            r = pose_json_write_objects(path, scene, stream ? &objects : NULL,
                                        error);
            break;
        }
    }
    if (stream) object_stream_free(&objects);
    vs_posed_scene_free(scene);
    return r;
}
