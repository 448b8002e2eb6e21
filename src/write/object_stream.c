/* SPDX-License-Identifier: MIT */
/* object_stream: a scene's objects, or a pose's mesh instances posed one
 * at a time, for the OBJ, PLY and JSON writers. */
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "write/mesh_writers.h"
#include "write/object_stream.h"

void object_stream_of_scene(object_stream *s, const vs_posed_scene *scene)
{
    *s = (object_stream){.count = scene->object_count, .scene = scene};
}

static const vs_mesh *instance_mesh(const vs_asset *asset, uint32_t i)
{
    return &asset->meshes[asset->nodes[asset->instances[i]].mesh];
}

vs_result object_stream_of_pose(object_stream *s, const vs_pose *pose,
                                const vs_pose_mesh_options *options,
                                vs_error *error)
{
    const vs_asset *asset = vs_pose_asset(pose);
    *s = (object_stream){
        .count = asset->instance_count, .pose = pose, .asset = asset};
    if (options) s->options = *options;
    uint32_t most = 0;
    for (uint32_t i = 0; i < asset->instance_count; ++i)
        if (instance_mesh(asset, i)->primitive_count > most)
            most = instance_mesh(asset, i)->primitive_count;
    s->posed =
        mem_calloc(asset_allocator(asset), most ? most : 1, sizeof *s->posed);
    if (!s->posed)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory posing %u primitives",
                         asset->source_name, most);
    s->posed_capacity = most;
    return VS_OK;
}

/* Frees the vertices of the instance posed last. */
static void release_posed(object_stream *s)
{
    for (uint32_t p = 0; p < s->posed_count; ++p)
        vs_posed_primitive_free(&s->posed[p]);
    s->posed_count = 0;
}

void object_stream_free(object_stream *s)
{
    if (!s->posed) return;
    release_posed(s);
    mem_free(asset_allocator(s->asset), s->posed);
    s->posed = NULL;
}

static void asset_shape(const vs_asset *asset, uint32_t i, char *label,
                        vs_posed_object *out)
{
    uint32_t node = asset->instances[i];
    const vs_mesh *mesh = instance_mesh(asset, i);
    *out = (vs_posed_object){
        .name = vs_node_label(asset, node, label, OBJECT_LABEL_SIZE),
        .node = node,
        .primitive_count = mesh->primitive_count,
        .primitives = mesh->primitives};
}

void object_stream_shape(object_stream *s, uint32_t i, vs_posed_object *out)
{
    if (s->scene) {
        *out = s->scene->objects[i];
        out->posed = NULL;
        return;
    }
    asset_shape(s->asset, i, s->shape_label, out);
}

/* One instance's posed vertices (a position, a normal and a tangent at
 * most per vertex) are held to the load's memory limit, as everything made
 * from the asset is. */
static vs_result check_instance_budget(const vs_asset *asset, uint32_t i,
                                       vs_error *error)
{
    const uint64_t vertex_bytes = (3 + 3 + 4) * sizeof(float);
    const vs_mesh *mesh = instance_mesh(asset, i);
    uint64_t bytes = 0;
    for (uint32_t p = 0; p < mesh->primitive_count; ++p)
        bytes += sizeof(vs_posed_primitive) +
                 (uint64_t)mesh->primitives[p].vertex_count * vertex_bytes;
    uint64_t limit = asset_limits(asset)->max_total_memory;
    if (bytes <= limit) return VS_OK;
    return set_error(error, VS_ERROR_LIMIT,
                     "%s: nodes[%u]: posing this mesh instance needs about "
                     "%llu bytes, above the limit of %llu bytes in all "
                     "(vs_limits.max_total_memory)",
                     asset->source_name, asset->instances[i],
                     (unsigned long long)bytes, (unsigned long long)limit);
}

/* The writers have written the header from the topology: posed vertices
 * that disagree with it would make a file that contradicts itself. */
static vs_result check_posed(const vs_posed_object *obj, vs_error *error)
{
    for (uint32_t p = 0; p < obj->primitive_count; ++p) {
        const vs_primitive *prim = &obj->primitives[p];
        const vs_posed_primitive *posed = &obj->posed[p];
        if (posed->vertex_count != prim->vertex_count ||
            (posed->normals != NULL) != (prim->normals != NULL))
            return set_error(error, VS_ERROR_INVALID,
                             "%s: primitives[%u]: posed vertices do not "
                             "match the primitive's",
                             obj->name, p);
    }
    return VS_OK;
}

vs_result object_stream_pose(object_stream *s, uint32_t i,
                             const vs_posed_object **out, vs_error *error)
{
    if (s->scene) {
        *out = &s->scene->objects[i];
        return VS_OK;
    }
    release_posed(s);
    asset_shape(s->asset, i, s->pose_label, &s->object);
    vs_result r = check_instance_budget(s->asset, i, error);
    for (uint32_t p = 0; r == VS_OK && p < s->object.primitive_count; ++p) {
        r = vs_pose_mesh_primitive(s->pose, s->object.node, p, &s->options,
                                   &s->posed[p], error);
        if (r == VS_OK) s->posed_count = p + 1;
    }
    s->object.posed = s->posed;
    if (r == VS_OK) r = check_posed(&s->object, error);
    if (r != VS_OK) {
        release_posed(s);
        return r;
    }
    *out = &s->object;
    return VS_OK;
}

bool object_stream_normals(object_stream *s)
{
    for (uint32_t o = 0; o < s->count; ++o) {
        vs_posed_object obj;
        if (s->scene) {
            obj = s->scene->objects[o];
        } else {
            object_stream_shape(s, o, &obj);
        }
        for (uint32_t p = 0; p < obj.primitive_count; ++p)
            if (s->scene ? !obj.posed[p].normals : !obj.primitives[p].normals)
                return false;
    }
    return true;
}

vs_result object_stream_check(object_stream *s, vs_error *error)
{
    for (uint32_t o = 0; o < s->count; ++o) {
        vs_posed_object obj;
        if (s->scene)
            obj = s->scene->objects[o];
        else
            object_stream_shape(s, o, &obj);
        vs_result r = primitive_check_indices(&obj, error);
        if (r != VS_OK) return r;
    }
    return VS_OK;
}
