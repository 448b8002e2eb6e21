/* SPDX-License-Identifier: MIT */
/* vs_posed_scene_create: a pose's mesh instances skinned (and its joints,
 * when asked) into the scene the OBJ, PLY and JSON writers take, in one
 * allocation the scene owns; and the names files give nodes. */
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "vskin/vskin_tools.h"
#include "write/object_stream.h"
#include "write/posed_scene.h"

enum { LABEL_SIZE = OBJECT_LABEL_SIZE };

vs_result instance_primitives_budget(const vs_asset *asset, uint64_t frames,
                                     uint32_t *out_count, vs_error *error)
{
    /* Per posed vertex at most a position, a normal and a tangent. */
    const uint64_t vertex_bytes = (3 + 3 + 4) * sizeof(float);
    uint64_t prims = 0, bytes = 0;
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        const vs_mesh *mesh =
            &asset->meshes[asset->nodes[asset->instances[i]].mesh];
        prims += mesh->primitive_count;
        for (uint32_t p = 0; p < mesh->primitive_count; ++p)
            bytes += sizeof(vs_posed_primitive) +
                     (uint64_t)mesh->primitives[p].vertex_count * vertex_bytes;
    }
    uint64_t limit = asset_limits(asset)->max_total_memory;
    if (prims > UINT32_MAX || (frames && bytes > limit / frames))
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: posing %llu mesh instances (%llu primitives) "
                         "%llu time%s at once needs about %llu bytes per "
                         "time, above the limit of %llu bytes in all "
                         "(vs_limits.max_total_memory)",
                         asset->source_name,
                         (unsigned long long)asset->instance_count,
                         (unsigned long long)prims, (unsigned long long)frames,
                         frames == 1 ? "" : "s", (unsigned long long)bytes,
                         (unsigned long long)limit);
    *out_count = (uint32_t)prims;
    return VS_OK;
}

void posed_primitives_free(const vs_allocator *alloc, vs_posed_primitive *posed,
                           uint32_t count)
{
    if (!posed) return;
    for (uint32_t i = 0; i < count; ++i)
        vs_posed_primitive_free(&posed[i]);
    mem_free(alloc, posed);
}

vs_result pose_all_primitives(const vs_pose *pose,
                              const vs_pose_mesh_options *options,
                              vs_posed_primitive **out, uint32_t *count,
                              vs_error *error)
{
    const vs_asset *asset = vs_pose_asset(pose);
    uint32_t total;
    vs_result r = instance_primitives_budget(asset, 1, &total, error);
    if (r != VS_OK) return r;
    const vs_allocator *alloc = asset_allocator(asset);
    vs_posed_primitive *posed =
        mem_calloc(alloc, total ? total : 1, sizeof *posed);
    if (!posed)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory posing %u primitives",
                         asset->source_name, total);
    uint32_t k = 0;
    for (uint32_t i = 0; r == VS_OK && i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; r == VS_OK && p < mesh->primitive_count; ++p)
            r = vs_pose_mesh_primitive(pose, node, p, options, &posed[k++],
                                       error);
    }
    if (r != VS_OK) {
        posed_primitives_free(alloc, posed, total);
        return r;
    }
    *out = posed;
    *count = total;
    return VS_OK;
}

const char *vs_node_label(const vs_asset *asset, uint32_t node, char *buf,
                          size_t size)
{
    if (!asset || node >= asset->node_count) return "";
    /* glTF 1.0 and COLLADA nodes often have only an id, which is what their
     * authoring tools show. */
    const char *name = asset->nodes[node].name;
    if (name && name[0]) return name;
    name = asset->nodes[node].id;
    if (name && name[0]) return name;
    if (!buf || size == 0) return "";
    snprintf(buf, size, "node%u", node);
    return buf;
}

/* The scene and everything it owns. */
typedef struct scene_block {
    vs_posed_scene scene;
    vs_allocator alloc; /* the asset's: every block here comes from it */
    vs_posed_primitive *posed;
    uint32_t posed_count;
    vs_posed_object *objects;
    vs_posed_skin *skins;
    vs_posed_joint *joints;
    float *matrices;
    char *labels; /* LABEL_SIZE bytes per instance, then per joint */
} scene_block;

static void block_free(scene_block *b)
{
    if (!b) return;
    /* A copy: the block that holds it is freed last. */
    const vs_allocator alloc = b->alloc;
    posed_primitives_free(&alloc, b->posed, b->posed_count);
    mem_free(&alloc, b->objects);
    mem_free(&alloc, b->skins);
    mem_free(&alloc, b->joints);
    mem_free(&alloc, b->matrices);
    mem_free(&alloc, b->labels);
    mem_free(&alloc, b);
}

static size_t joint_total(const vs_asset *asset)
{
    size_t n = 0;
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        n += asset->skins[s].joint_count;
    return n;
}

static void fill_objects(scene_block *b, const vs_asset *asset)
{
    vs_posed_primitive *posed = b->posed;
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        b->objects[i] = (vs_posed_object){
            .name = vs_node_label(asset, node, b->labels + LABEL_SIZE * i,
                                  LABEL_SIZE),
            .node = node,
            .primitive_count = mesh->primitive_count,
            .primitives = mesh->primitives,
            .posed = posed};
        posed += mesh->primitive_count;
    }
}

/* Every skin's joints: the matrices the meshes were skinned with (world
 * space, or relative to the skeleton root), and the joints' world
 * positions, which are their world matrices' translations either way. */
static vs_result fill_skins(scene_block *b, const vs_pose *pose,
                            size_t instances, vs_skin_space space,
                            vs_error *error)
{
    const vs_asset *asset = vs_pose_asset(pose);
    char *labels = b->labels + LABEL_SIZE * instances;
    size_t at = 0;
    for (uint32_t k = 0; k < asset->skin_count; ++k) {
        const vs_skin *skin = &asset->skins[k];
        int32_t relative_to = space == VS_SPACE_SKELETON ? skin->skeleton : -1;
        vs_result r = vs_pose_joint_matrices(pose, k, relative_to,
                                             b->matrices + 16 * at, error);
        if (r != VS_OK) return r;
        b->skins[k] = (vs_posed_skin){.skin = k,
                                      .name = skin->name ? skin->name : "",
                                      .joint_count = skin->joint_count,
                                      .joints = b->joints + at,
                                      .joint_matrices = b->matrices + 16 * at};
        for (uint32_t j = 0; j < skin->joint_count; ++j, ++at) {
            vs_posed_joint *pj = &b->joints[at];
            pj->node = skin->joints[j];
            pj->name = vs_node_label(asset, pj->node, labels + LABEL_SIZE * at,
                                     LABEL_SIZE);
            memcpy(pj->world_position, vs_pose_world(pose, pj->node) + 12,
                   sizeof pj->world_position);
        }
    }
    return VS_OK;
}

static void label_scene(vs_posed_scene *scene, const vs_asset *asset,
                        const vs_posed_scene_options *o)
{
    bool clip = o->clip >= 0 && (uint32_t)o->clip < asset->clip_count;
    scene->source = asset->source_name ? asset->source_name : "";
    scene->clip = clip ? o->clip : -1;
    scene->clip_name =
        clip && asset->clips[o->clip].name ? asset->clips[o->clip].name : "";
    scene->time = o->time;
}

vs_result posed_scene_build(const vs_pose *pose,
                            const vs_posed_scene_options *o, bool objects,
                            vs_posed_scene **out_scene, vs_error *error)
{
    *out_scene = NULL;
    const vs_asset *asset = vs_pose_asset(pose);
    bool joints = o->joints || o->joints_only;
    size_t instances = objects ? asset->instance_count : 0;
    size_t joint_count = joints ? joint_total(asset) : 0;
    const vs_allocator *alloc = asset_allocator(asset);
    scene_block *b = mem_calloc(alloc, 1, sizeof *b);
    if (b) {
        b->alloc = *alloc;
        b->objects = mem_calloc(alloc, instances + 1, sizeof *b->objects);
        b->labels =
            mem_alloc(alloc, LABEL_SIZE * (instances + joint_count + 1));
    }
    if (b && joints) {
        b->skins = mem_calloc(alloc, asset->skin_count + 1, sizeof *b->skins);
        b->joints = mem_calloc(alloc, joint_count + 1, sizeof *b->joints);
        b->matrices =
            mem_calloc(alloc, 16 * joint_count + 1, sizeof *b->matrices);
    }
    vs_result r = VS_OK;
    if (!b || !b->objects || !b->labels ||
        (joints && (!b->skins || !b->joints || !b->matrices)))
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                      asset->source_name);
    if (r == VS_OK && objects) {
        r = pose_all_primitives(pose, &o->mesh, &b->posed, &b->posed_count,
                                error);
        if (r == VS_OK) fill_objects(b, asset);
    }
    if (r == VS_OK && joints)
        r = fill_skins(b, pose, instances, o->mesh.space, error);
    if (r != VS_OK) {
        block_free(b);
        return r;
    }
    label_scene(&b->scene, asset, o);
    b->scene.object_count = (uint32_t)instances;
    b->scene.objects = objects ? b->objects : NULL;
    b->scene.skin_count = joints ? asset->skin_count : 0;
    b->scene.skins = b->skins;
    b->scene.allocator = *alloc;
    b->scene.internal_ = b;
    *out_scene = &b->scene;
    return VS_OK;
}

vs_result vs_posed_scene_create(const vs_pose *pose,
                                const vs_posed_scene_options *options,
                                vs_posed_scene **out_scene, vs_error *error)
{
    clear_error(error);
    if (!pose || !out_scene)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_posed_scene_create: pose and out_scene are "
                         "needed");
    vs_posed_scene_options o = {0};
    if (options) o = *options;
    return posed_scene_build(pose, &o, !o.joints_only, out_scene, error);
}

void vs_posed_scene_free(vs_posed_scene *scene)
{
    /* A scene the caller filled has no internal_: nothing of it is ours. */
    if (scene) block_free(scene->internal_);
}
