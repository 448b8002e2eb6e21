/* SPDX-License-Identifier: MIT */
/* glTF 1.0 meshes (materials: gltf1_material.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/error.h"
#include "load/gltf1/gltf1_internal.h"

/* Optional attribute `name` with `components` per element and one element
 * per vertex. *out stays NULL when absent. */
static vs_result attribute_floats(gltf1_ctx *c, const cJSON *attrs,
                                  const char *name, const char *ppath,
                                  uint32_t components, bool float_only,
                                  bool normalized, uint32_t vertex_count,
                                  gltf1_accessor *acc, float **out)
{
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(attrs, name);
    *out = NULL;
    if (!ref) return VS_OK;
    char path[GLTF1_PATH_SIZE];
    gltf1_pathf(path, "%s.attributes.%s", ppath, name);
    vs_result r = gltf1_accessor_get(c, ref, path, acc);
    if (r != VS_OK) return r;
    if (vertex_count != UINT32_MAX && acc->desc.count != vertex_count)
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "accessor \"%.*s\" has %u elements but POSITION "
                          "has %u",
                          GLTF1_ID_SHOWN, acc->id, acc->desc.count,
                          vertex_count);
    return gltf1_accessor_floats(c, acc, path, components, float_only,
                                 normalized, out);
}

/* The attribute of skin set s: "JOINT"/"WEIGHT" are set 0, as is "JOINT_0";
 * later sets are "JOINT_1", ... */
static const cJSON *set_attribute(const cJSON *attrs, const char *base,
                                  uint32_t s, char *name, size_t name_size)
{
    snprintf(name, name_size, "%s_%u", base, s);
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(attrs, name);
    if (!ref && s == 0) {
        snprintf(name, name_size, "%s", base);
        ref = cJSON_GetObjectItemCaseSensitive(attrs, name);
    }
    return ref;
}

/* JOINT/WEIGHT sets into 4 influences per set. JOINT is often FLOAT in glTF
 * 1.0 (the tutorial's shader reads it as vec4), so float indices must be
 * integral and fit uint16; integer indices are taken as they are. */
static vs_result load_skin_sets(gltf1_ctx *c, const cJSON *attrs,
                                const char *ppath, vs_primitive *prim)
{
    char jname[32], wname[32];
    uint32_t sets = 0;
    while (set_attribute(attrs, "JOINT", sets, jname, sizeof jname) ||
           set_attribute(attrs, "WEIGHT", sets, wname, sizeof wname))
        ++sets;
    if (sets == 0) return VS_OK;
    uint32_t nv = prim->vertex_count, ic = 4 * sets;
    uint16_t *joints = vs_priv_asset_calloc(c->asset, (size_t)nv * ic, sizeof *joints,
                                    c->error, ppath);
    float *weights = vs_priv_asset_calloc(c->asset, (size_t)nv * ic, sizeof *weights,
                                  c->error, ppath);
    if (!joints || !weights) return c->error->code;
    for (uint32_t s = 0; s < sets; ++s) {
        const cJSON *jref =
            set_attribute(attrs, "JOINT", s, jname, sizeof jname);
        const cJSON *wref =
            set_attribute(attrs, "WEIGHT", s, wname, sizeof wname);
        if (!jref || !wref)
            return gltf1_fail(c, VS_ERROR_INVALID, ppath,
                              "attributes.%s has no matching %s",
                              jref ? jname : wname, jref ? "WEIGHT" : "JOINT");
        gltf1_accessor ja, wa;
        float *jf, *wf;
        vs_result r = attribute_floats(c, attrs, jname, ppath, 0, false, false,
                                       nv, &ja, &jf);
        if (r != VS_OK) return r;
        char path[GLTF1_PATH_SIZE];
        gltf1_pathf(path, "%s.attributes.%s", ppath, jname);
        uint32_t nc = ja.desc.components;
        if (nc > 4)
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "accessor \"%.*s\" must be SCALAR or VEC2-4",
                              GLTF1_ID_SHOWN, ja.id);
        if (ja.desc.component_type != GLTF_FLOAT &&
            ja.desc.component_type != GLTF_UNSIGNED_BYTE &&
            ja.desc.component_type != GLTF_UNSIGNED_SHORT)
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "accessor \"%.*s\": joint indices must be FLOAT, "
                              "UNSIGNED_BYTE or UNSIGNED_SHORT",
                              GLTF1_ID_SHOWN, ja.id);
        /* Integer weights are normalized (glTF 2.0 §3.7.3.3 made explicit
         * what 1.0 shaders did with such data). */
        if ((r = attribute_floats(c, attrs, wname, ppath, nc, false, true, nv,
                                  &wa, &wf)) != VS_OK)
            return r;
        for (uint32_t v = 0; v < nv; ++v) {
            for (uint32_t k = 0; k < nc; ++k) {
                float j = jf[(size_t)v * nc + k];
                if (!(j >= 0.0f && j <= 65535.0f && j == floorf(j)))
                    return gltf1_fail(c, VS_ERROR_INVALID, path,
                                      "vertex %u: joint index %g is not an "
                                      "integer from 0 to 65535",
                                      v, (double)j);
                joints[(size_t)v * ic + 4 * s + k] = (uint16_t)j;
                weights[(size_t)v * ic + 4 * s + k] = wf[(size_t)v * nc + k];
            }
        }
    }
    prim->influence_count = ic;
    prim->joints = joints;
    prim->weights = weights;
    return VS_OK;
}

static vs_result load_indices(gltf1_ctx *c, const cJSON *p, const char *ppath,
                              vs_primitive *prim)
{
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(p, "indices");
    if (!ref) return VS_OK;
    char path[GLTF1_PATH_SIZE];
    gltf1_pathf(path, "%s.indices", ppath);
    gltf1_accessor acc;
    vs_result r = gltf1_accessor_get(c, ref, path, &acc);
    if (r != VS_OK) return r;
    uint32_t ct = acc.desc.component_type;
    if (acc.desc.components != 1 ||
        (ct != GLTF_UNSIGNED_BYTE && ct != GLTF_UNSIGNED_SHORT &&
         ct != GLTF_UNSIGNED_INT))
        return gltf1_fail(c, VS_ERROR_INVALID, path,
                          "accessor \"%.*s\" must be a SCALAR of unsigned "
                          "integers",
                          GLTF1_ID_SHOWN, acc.id);
    uint32_t *idx = vs_priv_asset_calloc(c->asset, acc.desc.count ? acc.desc.count : 1,
                                 sizeof *idx, c->error, path);
    if (!idx) return c->error->code;
    gltf_decode_uints(&acc.desc, idx);
    for (uint32_t k = 0; k < acc.desc.count; ++k)
        if (idx[k] >= prim->vertex_count)
            return gltf1_fail(c, VS_ERROR_INVALID, path,
                              "index %u (element %u) is out of range (%u "
                              "vertices)",
                              idx[k], k, prim->vertex_count);
    prim->index_count = acc.desc.count;
    prim->indices = idx;
    return VS_OK;
}

static vs_result load_primitive(gltf1_ctx *c, const cJSON *p, const char *ppath,
                                vs_primitive *prim)
{
    if (!cJSON_IsObject(p))
        return gltf1_fail(c, VS_ERROR_INVALID, ppath, "not a JSON object");
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(p, "attributes");
    if (!cJSON_IsObject(attrs))
        return gltf1_fail(c, VS_ERROR_INVALID, ppath,
                          "attributes is missing or not an object");
    if (!cJSON_GetObjectItemCaseSensitive(attrs, "POSITION"))
        return gltf1_fail(c, VS_ERROR_UNSUPPORTED, ppath,
                          "attributes.POSITION is missing");
    gltf1_accessor acc;
    float *f;
    vs_result r = attribute_floats(c, attrs, "POSITION", ppath, 3, true, false,
                                   UINT32_MAX, &acc, &f);
    if (r != VS_OK) return r;
    prim->positions = f;
    prim->vertex_count = acc.desc.count;
    uint32_t nv = prim->vertex_count;
    if ((r = attribute_floats(c, attrs, "NORMAL", ppath, 3, true, false, nv,
                              &acc, &f)) != VS_OK)
        return r;
    prim->normals = f;
    if ((r = attribute_floats(c, attrs, "TEXCOORD_0", ppath, 2, false, true, nv,
                              &acc, &f)) != VS_OK)
        return r;
    prim->texcoords = f;
    if ((r = load_skin_sets(c, attrs, ppath, prim)) != VS_OK) return r;
    if ((r = load_indices(c, p, ppath, prim)) != VS_OK) return r;

    uint64_t mode;
    if ((r = gltf1_get_uint(c, p, "mode", ppath, VS_MODE_TRIANGLES, 6,
                            &mode)) != VS_OK)
        return r;
    prim->mode = (vs_primitive_mode)mode;
    prim->material = -1;
    const cJSON *mat = cJSON_GetObjectItemCaseSensitive(p, "material");
    if (mat) {
        char path[GLTF1_PATH_SIZE];
        gltf1_pathf(path, "%s.material", ppath);
        uint32_t m;
        if ((r = gltf1_resolve(c, &c->materials, mat, path, &m)) != VS_OK)
            return r;
        prim->material = (int32_t)m;
        /* glTF 1.0 techniques read one texture coordinate set. */
        if (c->asset->materials[m].base_color_texture.image >= 0)
            prim->base_color_texcoords = prim->texcoords;
    }
    return VS_OK;
}

/* A node may list several meshes (glTF 1.0 node.meshes) while a vs_node has
 * one: gltf1_load_nodes merges them into an extra vs_mesh, for which room is
 * made here. */
static uint32_t merged_mesh_count(const gltf1_ctx *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->nodes.count; ++i) {
        const cJSON *m =
            cJSON_GetObjectItemCaseSensitive(c->nodes.items[i], "meshes");
        if (cJSON_IsArray(m) && cJSON_GetArraySize(m) > 1) ++n;
    }
    return n;
}

vs_result gltf1_load_meshes(gltf1_ctx *c)
{
    uint32_t total = c->meshes.count + merged_mesh_count(c);
    vs_mesh *meshes = vs_priv_asset_calloc(c->asset, total ? total : 1, sizeof *meshes,
                                   c->error, "meshes");
    if (!meshes) return c->error->code;
    c->asset->meshes = meshes;
    c->asset->mesh_count = c->meshes.count;
    for (uint32_t i = 0; i < c->meshes.count; ++i) {
        const cJSON *mesh = c->meshes.items[i];
        char path[GLTF1_PATH_SIZE];
        gltf1_path(path, "meshes", mesh->string);
        const cJSON *prims;
        vs_result r = gltf1_get_array(c, mesh, "primitives", path, &prims);
        if (r != VS_OK) return r;
        uint32_t n = prims ? (uint32_t)cJSON_GetArraySize(prims) : 0;
        meshes[i].name = gltf1_name(c, mesh, mesh->string);
        vs_primitive *out =
            vs_priv_asset_calloc(c->asset, n ? n : 1, sizeof *out, c->error, path);
        if (!meshes[i].name || !out) return c->error->code;
        uint32_t k = 0;
        for (const cJSON *p = prims ? prims->child : NULL; p;
             p = p->next, ++k) {
            char ppath[GLTF1_PATH_SIZE];
            gltf1_pathf(ppath, "%s.primitives[%u]", path, k);
            if ((r = load_primitive(c, p, ppath, &out[k])) != VS_OK) return r;
        }
        meshes[i].primitives = out;
        meshes[i].primitive_count = n;
    }
    return VS_OK;
}
