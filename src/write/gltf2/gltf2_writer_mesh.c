/* SPDX-License-Identifier: MIT */
/* Meshes and materials. Each vs_primitive becomes one glTF primitive with
 * POSITION (with the min/max §3.7.2.1 requires), NORMAL, TANGENT,
 * TEXCOORD_0 (and TEXCOORD_1 when its material's texture reads another
 * set), COLOR_0, every JOINTS_n/WEIGHTS_n set, indices and morph targets
 * (whose POSITION also carries min/max, §3.7.2.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "write/gltf2/gltf2_writer.h"
#include "format/gltf_common.h"

#define ARRAY_BUFFER 34962
#define ELEMENT_ARRAY_BUFFER 34963

static bool add_index(cJSON *obj, const char *key, int32_t value)
{
    return cJSON_AddNumberToObject(obj, key, value) != NULL;
}

/* indices as UNSIGNED_SHORT when every index fits below 65535, else
 * UNSIGNED_INT: the largest value of the type is reserved for primitive
 * restart and must not occur (§3.7.2.1). */
static int32_t indices(gltf2w_ctx *c, const vs_primitive *p)
{
    uint32_t max = 0;
    for (uint32_t i = 0; i < p->index_count; ++i)
        if (p->indices[i] > max) max = p->indices[i];
    uint32_t type = max < 65535 ? GLTF_UNSIGNED_SHORT : GLTF_UNSIGNED_INT;
    return gltf2w_uints(c, p->indices, p->index_count, 1, "SCALAR", type,
                        ELEMENT_ARRAY_BUFFER);
}

/* Morph targets: the same attributes as the base where the base has them
 * (a target attribute without its base attribute is invalid, §3.7.2.2). */
static vs_result targets(gltf2w_ctx *c, const vs_primitive *p, bool normals,
                         bool tangents, cJSON *prim)
{
    cJSON *list = cJSON_AddArrayToObject(prim, "targets");
    if (!list) return gltf2w_oom(c, "morph targets");
    for (uint32_t t = 0; t < p->target_count; ++t) {
        const vs_morph_target *mt = &p->targets[t];
        cJSON *obj = cJSON_CreateObject();
        if (!obj) return gltf2w_oom(c, "morph targets");
        cJSON_AddItemToArray(list, obj);
        int32_t acc;
        if (mt->positions ||
            (!(normals && mt->normals) && !(tangents && mt->tangents))) {
            /* A target with nothing to say still keeps its place (weights
             * are matched by position): zero POSITION deltas. */
            const float *pos = mt->positions;
            float *zeros = NULL;
            if (!pos) {
                zeros = mem_calloc(c->alloc, (size_t)p->vertex_count * 3,
                                   sizeof *zeros);
                if (!zeros) return gltf2w_oom(c, "morph targets");
                pos = zeros;
            }
            acc = gltf2w_floats(c, pos, p->vertex_count, 3, "VEC3",
                                ARRAY_BUFFER, true);
            mem_free(c->alloc, zeros);
            if (acc < 0) return c->error->code;
            if (!add_index(obj, "POSITION", acc))
                return gltf2w_oom(c, "morph targets");
        }
        if (normals && mt->normals) {
            acc = gltf2w_floats(c, mt->normals, p->vertex_count, 3, "VEC3",
                                ARRAY_BUFFER, false);
            if (acc < 0) return c->error->code;
            if (!add_index(obj, "NORMAL", acc))
                return gltf2w_oom(c, "morph targets");
        }
        if (tangents && mt->tangents) {
            acc = gltf2w_floats(c, mt->tangents, p->vertex_count, 3, "VEC3",
                                ARRAY_BUFFER, false);
            if (acc < 0) return c->error->code;
            if (!add_index(obj, "TANGENT", acc))
                return gltf2w_oom(c, "morph targets");
        }
    }
    return VS_OK;
}

/* TEXCOORD_0, and TEXCOORD_1 for a material texture that reads another
 * set (gltf2w_texcoord_set). Sets are numbered from 0 without gaps
 * (§3.7.2.1), so a primitive with only that set gets it as both. */
static vs_result texcoords(gltf2w_ctx *c, const vs_primitive *p, cJSON *attrs)
{
    const vs_asset *a = c->asset;
    const float *other = NULL;
    if (p->material >= 0 && (uint32_t)p->material < a->material_count &&
        gltf2w_texcoord_set(&a->materials[p->material].base_color_texture))
        other = p->base_color_texcoords;
    const float *first = p->texcoords ? p->texcoords : other;
    if (!first) return VS_OK;
    int32_t acc = gltf2w_floats(c, first, p->vertex_count, 2, "VEC2",
                                ARRAY_BUFFER, false);
    if (acc < 0) return c->error->code;
    if (!add_index(attrs, "TEXCOORD_0", acc)) return gltf2w_oom(c, "meshes");
    if (!other) return VS_OK;
    if (other != first) {
        acc = gltf2w_floats(c, other, p->vertex_count, 2, "VEC2", ARRAY_BUFFER,
                            false);
        if (acc < 0) return c->error->code;
    }
    if (!add_index(attrs, "TEXCOORD_1", acc)) return gltf2w_oom(c, "meshes");
    return VS_OK;
}

/* COLOR_0 as FLOAT RGBA, each component clamped to [0, 1]: the validator
 * refuses float colours outside it (ACCESSOR_NON_CLAMPED). Vertices changed
 * are counted; a value that is not a number is left for gltf2w_floats to
 * refuse. */
static int32_t colors(gltf2w_ctx *c, const vs_primitive *p)
{
    size_t n = (size_t)p->vertex_count * 4;
    float *clamped = NULL;
    for (size_t v = 0; v < n; v += 4) {
        bool outside = false;
        for (size_t k = v; k < v + 4; ++k)
            outside |= p->colors[k] < 0.0f || p->colors[k] > 1.0f;
        if (!outside) continue;
        if (!clamped) {
            clamped = mem_alloc(c->alloc, n * sizeof *clamped);
            if (!clamped) {
                gltf2w_oom(c, "meshes");
                return -1;
            }
            memcpy(clamped, p->colors, n * sizeof *clamped);
        }
        for (size_t k = v; k < v + 4; ++k)
            clamped[k] = clamped[k] < 0.0f   ? 0.0f
                         : clamped[k] > 1.0f ? 1.0f
                                             : clamped[k];
        c->report->clamped_colors++;
    }
    int32_t acc = gltf2w_floats(c, clamped ? clamped : p->colors,
                                p->vertex_count, 4, "VEC4", ARRAY_BUFFER,
                                false);
    mem_free(c->alloc, clamped);
    return acc;
}

static vs_result primitive(gltf2w_ctx *c, uint32_t m, uint32_t k, cJSON *prim)
{
    const vs_primitive *p = &c->asset->meshes[m].primitives[k];
    if (p->vertex_count == 0)
        /* glTF accessors hold at least one element (accessor.count >= 1). */
        return set_error(c->error, VS_ERROR_UNSUPPORTED,
                         "%s: meshes[%u].primitives[%u]: a primitive without "
                         "vertices cannot be written as glTF 2.0",
                         c->asset->source_name, m, k);
    cJSON *attrs = cJSON_AddObjectToObject(prim, "attributes");
    if (!attrs) return gltf2w_oom(c, "meshes");
    int32_t acc = gltf2w_floats(c, p->positions, p->vertex_count, 3, "VEC3",
                                ARRAY_BUFFER, true);
    if (acc < 0) return c->error->code;
    if (!add_index(attrs, "POSITION", acc)) return gltf2w_oom(c, "meshes");
    bool normals = false, tangents = false;
    if (p->normals) {
        acc = gltf2w_normals(c, p);
        if (acc == -1) return c->error->code;
        normals = acc >= 0;
        if (normals && !add_index(attrs, "NORMAL", acc))
            return gltf2w_oom(c, "meshes");
    }
    if (p->tangents) {
        acc = gltf2w_tangents(c, p);
        if (acc == -1) return c->error->code;
        tangents = acc >= 0;
        if (tangents && !add_index(attrs, "TANGENT", acc))
            return gltf2w_oom(c, "meshes");
    }
    vs_result r = texcoords(c, p, attrs);
    if (r != VS_OK) return r;
    if (p->colors) {
        acc = colors(c, p);
        if (acc < 0) return c->error->code;
        if (!add_index(attrs, "COLOR_0", acc)) return gltf2w_oom(c, "meshes");
    }
    if (p->influence_count >= 4 && p->joints && p->weights) {
        r = gltf2w_influences(c, p, attrs);
        if (r != VS_OK) return r;
    }
    if (p->index_count > 0) {
        acc = indices(c, p);
        if (acc < 0) return c->error->code;
        if (!add_index(prim, "indices", acc)) return gltf2w_oom(c, "meshes");
    }
    if (p->material >= 0 && !add_index(prim, "material", p->material))
        return gltf2w_oom(c, "meshes");
    if (p->mode != VS_MODE_TRIANGLES && !add_index(prim, "mode", p->mode))
        return gltf2w_oom(c, "meshes");
    if (p->target_count > 0) return targets(c, p, normals, tangents, prim);
    return VS_OK;
}

vs_result gltf2w_meshes(gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    if (a->mesh_count == 0) return VS_OK;
    cJSON *meshes = cJSON_AddArrayToObject(c->root, "meshes");
    if (!meshes) return gltf2w_oom(c, "meshes");
    for (uint32_t m = 0; m < a->mesh_count; ++m) {
        const vs_mesh *mesh = &a->meshes[m];
        cJSON *obj = cJSON_CreateObject();
        if (!obj) return gltf2w_oom(c, "meshes");
        cJSON_AddItemToArray(meshes, obj);
        if (mesh->name && mesh->name[0] &&
            !cJSON_AddStringToObject(obj, "name", mesh->name))
            return gltf2w_oom(c, "meshes");
        if (mesh->primitive_count == 0)
            return set_error(c->error, VS_ERROR_UNSUPPORTED,
                             "%s: meshes[%u]: a mesh without primitives "
                             "cannot be written as glTF 2.0",
                             a->source_name, m);
        cJSON *prims = cJSON_AddArrayToObject(obj, "primitives");
        if (!prims) return gltf2w_oom(c, "meshes");
        for (uint32_t k = 0; k < mesh->primitive_count; ++k) {
            cJSON *prim = cJSON_CreateObject();
            if (!prim) return gltf2w_oom(c, "meshes");
            cJSON_AddItemToArray(prims, prim);
            vs_result r = primitive(c, m, k, prim);
            if (r != VS_OK) return r;
        }
        /* mesh.weights has one entry per morph target (§3.7.2.2). */
        if (mesh->weight_count > 0 &&
            mesh->weight_count == mesh->primitives[0].target_count &&
            !gltf2w_add_floats(obj, "weights", mesh->weights,
                               mesh->weight_count))
            return gltf2w_oom(c, "meshes");
    }
    return VS_OK;
}

/* alphaMode, alphaCutoff (only with MASK, §5.19.3) and doubleSided, each
 * left out at its default (a mode outside the enum too: the loaders make
 * none). False when out of memory. */
static bool alpha_and_sides(const vs_material *mat, cJSON *obj)
{
    static const char *modes[] = {"OPAQUE", "MASK", "BLEND"};
    if (mat->alpha_mode != VS_ALPHA_OPAQUE &&
        mat->alpha_mode <= VS_ALPHA_BLEND &&
        !cJSON_AddStringToObject(obj, "alphaMode", modes[mat->alpha_mode]))
        return false;
    if (mat->alpha_mode == VS_ALPHA_MASK && mat->alpha_cutoff != 0.5f) {
        cJSON *cutoff = gltf2w_number(mat->alpha_cutoff);
        if (!cutoff || !cJSON_AddItemToObject(obj, "alphaCutoff", cutoff))
            return false;
    }
    return !mat->double_sided ||
           cJSON_AddBoolToObject(obj, "doubleSided", true) != NULL;
}

static vs_result material(gltf2w_ctx *c, uint32_t m, int32_t texture,
                          cJSON *obj)
{
    const vs_asset *a = c->asset;
    const vs_material *mat = &a->materials[m];
    if (mat->name && mat->name[0] &&
        !cJSON_AddStringToObject(obj, "name", mat->name))
        return gltf2w_oom(c, "materials");
    cJSON *pbr = cJSON_AddObjectToObject(obj, "pbrMetallicRoughness");
    if (!pbr) return gltf2w_oom(c, "materials");
    /* baseColorFactor components lie in [0, 1] (§5.19.1); COLLADA
     * colours may exceed it. */
    float color[4];
    bool is_default = true;
    for (int k = 0; k < 4; ++k) {
        float v = mat->base_color[k];
        color[k] = isnan(v) ? 1.0f : v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
        is_default &= color[k] == 1.0f;
    }
    if (!is_default && !gltf2w_add_floats(pbr, "baseColorFactor", color, 4))
        return gltf2w_oom(c, "materials");
    if (texture >= 0 &&
        !gltf2w_texture_info(c, &mat->base_color_texture, texture, pbr))
        return gltf2w_oom(c, "materials");
    /* glTF 1.0 and COLLADA colours are diffuse (Lambert/Phong)
     * colours: a dielectric keeps them looking as authored, where the
     * glTF default metallicFactor 1 would turn them into dark metal. */
    if (a->format != VS_FORMAT_GLTF2 &&
        !cJSON_AddNumberToObject(pbr, "metallicFactor", 0))
        return gltf2w_oom(c, "materials");
    if (!alpha_and_sides(mat, obj)) return gltf2w_oom(c, "materials");
    return VS_OK;
}

vs_result gltf2w_materials(gltf2w_ctx *c)
{
    const vs_asset *a = c->asset;
    if (a->material_count == 0) return VS_OK;
    int32_t *tex = mem_alloc(c->alloc, a->material_count * sizeof *tex);
    if (!tex) return gltf2w_oom(c, "materials");
    vs_result r = gltf2w_textures(c, tex);
    cJSON *list = NULL;
    if (r == VS_OK && !(list = cJSON_AddArrayToObject(c->root, "materials")))
        r = gltf2w_oom(c, "materials");
    for (uint32_t m = 0; r == VS_OK && m < a->material_count; ++m) {
        cJSON *obj = cJSON_CreateObject();
        if (!obj) {
            r = gltf2w_oom(c, "materials");
            break;
        }
        cJSON_AddItemToArray(list, obj);
        r = material(c, m, tex[m], obj);
    }
    mem_free(c->alloc, tex);
    return r;
}
