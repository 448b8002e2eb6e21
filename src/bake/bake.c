/* SPDX-License-Identifier: MIT */
/* One pose as a static asset (bake/bake.h). The baked asset has one root node
 * per mesh instance (identity transform: the vertices are already in world
 * space), one mesh per instance whose primitives carry the posed attributes,
 * and the source's materials, up axis and unit (so the glTF writer turns
 * COLLADA axes into Y-up metres as for `vskin convert`). */
#include "bake/bake.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "bake/bake_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "write/posed_scene.h"

vs_result bake_check_meshes(const vs_asset *asset, vs_error *error)
{
    if (asset->instance_count > 0) return VS_OK;
    return set_error(error, VS_ERROR_NOT_FOUND,
                     "%s: nothing to bake: no mesh instance in the default "
                     "scene",
                     asset->source_name);
}

vs_result bake_pose_frame(vs_pose *pose, uint32_t clip, float time,
                          const vs_pose_mesh_options *options,
                          vs_posed_primitive **out, uint32_t *count,
                          vs_error *error)
{
    vs_pose_reset(pose);
    vs_result r = vs_pose_sample(pose, clip, time, VS_TIME_CLAMP, error);
    if (r != VS_OK) return r;
    vs_pose_update_world(pose);
    return pose_all_primitives(pose, options, out, count, error);
}

float *bake_copy_floats(vs_asset *a, const float *src, size_t n,
                        vs_error *error)
{
    if (!src) return NULL;
    float *f = vs_priv_asset_calloc(a, n ? n : 1, sizeof *f, error, "baked vertices");
    if (f) memcpy(f, src, n * sizeof *f);
    return f;
}

/* What a primitive's surface needs besides its posed attributes: the
 * texture coordinates (set 0, and the set the material's texture reads
 * where that is another) and the vertex colours, which tint the base
 * colour. */
static bool bake_copy_surface(vs_asset *a, const vs_primitive *sp,
                              vs_primitive *dp, vs_error *error)
{
    const size_t n = sp->vertex_count;
    if (sp->texcoords &&
        !(dp->texcoords = bake_copy_floats(a, sp->texcoords, n * 2, error)))
        return false;
    if (sp->base_color_texcoords == sp->texcoords)
        dp->base_color_texcoords = dp->texcoords;
    else if (sp->base_color_texcoords &&
             !(dp->base_color_texcoords = bake_copy_floats(
                   a, sp->base_color_texcoords, n * 2, error)))
        return false;
    if (sp->colors &&
        !(dp->colors = bake_copy_floats(a, sp->colors, n * 4, error)))
        return false;
    return true;
}

/* The source's images, for the materials' textures: embedded bytes are
 * copied, and a URI is kept with the folder and the path rule it resolves
 * under, so that the writer reads (or, unreadable, leaves out and counts)
 * each one as it does for the source. */
static bool bake_copy_images(const vs_asset *src, vs_asset *a,
                             vs_error *error)
{
    if (!src->image_count) return true;
    vs_image *images =
        vs_priv_asset_calloc(a, src->image_count, sizeof *images, error, "images");
    if (!images) return false;
    const asset_internal *from = src->internal_;
    asset_internal *to = a->internal_;
    to->allow_external_paths = from->allow_external_paths;
    if (from->base_dir &&
        !(to->base_dir = vs_priv_asset_strdup(a, from->base_dir)))
        return false;
    for (uint32_t i = 0; i < src->image_count; ++i) {
        const vs_image *si = &src->images[i];
        vs_image *di = &images[i];
        if (!(di->name = vs_priv_asset_strdup(a, si->name ? si->name : "")) ||
            !(di->mime_type = vs_priv_asset_strdup(
                  a, si->mime_type ? si->mime_type : "")) ||
            (si->uri && !(di->uri = vs_priv_asset_strdup(a, si->uri))))
            return false;
        if (si->uri || !si->data) continue;
        uint8_t *bytes = vs_priv_asset_calloc(a, si->size ? si->size : 1, 1,
                                              error, "image bytes");
        if (!bytes) return false;
        memcpy(bytes, si->data, si->size);
        di->data = bytes;
        di->size = si->size;
    }
    a->images = images;
    a->image_count = src->image_count;
    return true;
}

/* Materials and their images, then per instance a node and a mesh whose
 * primitives copy the source topology and surface; the posed attributes
 * are set by the caller. */
vs_result bake_skeleton_asset(const vs_asset *src, vs_asset **out,
                              vs_error *error)
{
    vs_result r = bake_check_meshes(src, error);
    if (r != VS_OK) return r;
    /* The baked asset is made with the source's allocator. */
    const vs_load_options made = {.allocator = *asset_allocator(src)};
    vs_asset *a = vs_priv_asset_create(src->source_name, &made);
    if (!a)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory baking", src->source_name);
    a->format = VS_FORMAT_GLTF2;
    a->generator = "vskin bake";
    a->up_axis = src->up_axis;
    a->unit_meters = src->unit_meters;
    const uint32_t n = src->instance_count;
    vs_material *mats = NULL;
    vs_node *nodes = vs_priv_asset_calloc(a, n ? n : 1, sizeof *nodes, error, "nodes");
    vs_mesh *meshes =
        vs_priv_asset_calloc(a, n ? n : 1, sizeof *meshes, error, "meshes");
    vs_scene *scene = vs_priv_asset_calloc(a, 1, sizeof *scene, error, "scene");
    uint32_t *roots = vs_priv_asset_calloc(a, n ? n : 1, sizeof *roots, error, "scene");
    bool ok = nodes && meshes && scene && roots;
    ok = ok && bake_copy_images(src, a, error);
    if (ok && src->material_count) {
        mats = vs_priv_asset_calloc(a, src->material_count, sizeof *mats, error,
                            "materials");
        ok = mats != NULL;
        for (uint32_t m = 0; ok && m < src->material_count; ++m) {
            mats[m] = src->materials[m];
            ok = (mats[m].name = vs_priv_asset_strdup(a, src->materials[m].name
                                                     ? src->materials[m].name
                                                     : "")) != NULL;
        }
    }
    for (uint32_t i = 0; ok && i < n; ++i) {
        const vs_node *sn = &src->nodes[src->instances[i]];
        const vs_mesh *sm = &src->meshes[sn->mesh];
        vs_node *node = &nodes[i];
        node->name = vs_priv_asset_strdup(a, sn->name);
        node->mesh = (int32_t)i;
        node->skin = -1;
        node->rest_trs.rotation[3] = 1.0f;
        for (int k = 0; k < 3; ++k)
            node->rest_trs.scale[k] = 1.0f;
        roots[i] = i;
        vs_mesh *mesh = &meshes[i];
        mesh->name = vs_priv_asset_strdup(a, sm->name ? sm->name : "");
        vs_primitive *prims =
            vs_priv_asset_calloc(a, sm->primitive_count ? sm->primitive_count : 1,
                         sizeof *prims, error, "primitives");
        ok = node->name && mesh->name && prims;
        mesh->primitives = prims;
        mesh->primitive_count = sm->primitive_count;
        for (uint32_t p = 0; ok && p < sm->primitive_count; ++p) {
            const vs_primitive *sp = &sm->primitives[p];
            vs_primitive *dp = &prims[p];
            dp->mode = sp->mode;
            dp->vertex_count = sp->vertex_count;
            dp->material = sp->material;
            dp->index_count = sp->index_count;
            ok = bake_copy_surface(a, sp, dp, error);
            if (ok && sp->index_count) {
                uint32_t *idx = vs_priv_asset_calloc(a, sp->index_count, sizeof *idx,
                                             error, "indices");
                ok = idx != NULL;
                if (ok) memcpy(idx, sp->indices, sp->index_count * sizeof *idx);
                dp->indices = idx;
            }
        }
    }
    if (!ok) {
        vs_asset_free(a);
        return error && error->code != VS_OK
                   ? error->code
                   : set_error(error, VS_ERROR_OUT_OF_MEMORY,
                               "%s: out of memory baking", src->source_name);
    }
    scene->name = "baked";
    scene->node_count = n;
    scene->nodes = roots;
    a->nodes = nodes;
    a->node_count = n;
    a->meshes = meshes;
    a->mesh_count = n;
    a->materials = mats;
    a->material_count = src->material_count;
    a->scenes = scene;
    a->scene_count = 1;
    a->default_scene = 0;
    *out = a;
    return VS_OK;
}

vs_primitive *bake_primitive(vs_asset *baked, uint32_t flat_index)
{
    for (uint32_t m = 0; m < baked->mesh_count; ++m) {
        if (flat_index < baked->meshes[m].primitive_count)
            return (vs_primitive *)&baked->meshes[m].primitives[flat_index];
        flat_index -= baked->meshes[m].primitive_count;
    }
    return NULL;
}

vs_result bake_pose(const vs_pose *pose, const vs_pose_mesh_options *options,
                    vs_asset **out, vs_error *error)
{
    if (!pose || !out)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_bake_pose: pose and out_asset must not be NULL");
    *out = NULL;
    const vs_asset *src = vs_pose_asset(pose);
    vs_posed_primitive *posed = NULL;
    uint32_t count = 0;
    vs_result r = pose_all_primitives(pose, options, &posed, &count, error);
    if (r != VS_OK) return r;
    vs_asset *a = NULL;
    r = bake_skeleton_asset(src, &a, error);
    for (uint32_t k = 0; r == VS_OK && k < count; ++k) {
        vs_primitive *dp = bake_primitive(a, k);
        const vs_posed_primitive *pp = &posed[k];
        size_t n = pp->vertex_count;
        dp->positions = bake_copy_floats(a, pp->positions, n * 3, error);
        dp->normals = bake_copy_floats(a, pp->normals, n * 3, error);
        dp->tangents = bake_copy_floats(a, pp->tangents, n * 4, error);
        if (!dp->positions || (pp->normals && !dp->normals) ||
            (pp->tangents && !dp->tangents))
            r = error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    }
    posed_primitives_free(asset_allocator(src), posed, count);
    if (r == VS_OK) r = vs_priv_asset_finalize(a, error);
    if (r != VS_OK) {
        vs_asset_free(a);
        return r;
    }
    *out = a;
    return VS_OK;
}
