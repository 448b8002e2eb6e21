/* SPDX-License-Identifier: MIT */
/* The glTF 2.0 loader: checks asset.version, the root's shape and
 * extensionsRequired, loads buffers and checks every accessor, then each
 * object kind into the vs_asset (gltf2_*.c), and ends with vs_priv_asset_finalize for
 * the checks every format shares and the links that need the hierarchy. */
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/warnings.h"
#include "base/alloc.h"
#include "base/error.h"
#include "load/loaders.h"
#include "load/gltf2/gltf2_internal.h"

/* Extensions vskin honours when required: KHR_mesh_quantization widens the
 * component types the accessor code accepts; KHR_xmp_json_ld is metadata;
 * the compression extensions are decoded (gltf2_draco.c, gltf2_meshopt.c),
 * and a build without their decoder refuses where a primitive or bufferView
 * uses them, naming it. */
static const char *const supported_required[] = {
    "KHR_mesh_quantization", "KHR_xmp_json_ld", "KHR_draco_mesh_compression",
    "EXT_meshopt_compression", NULL};

/* Required extensions that change only how a surface is shaded or lit:
 * vskin loads the file and ignores them (a renderer would draw it
 * differently, the pose is the same). Any other unknown required extension
 * may change geometry, skinning or animation (compression, instancing,
 * animation pointers) and is refused. */
static const char *const shading_prefixes[] = {"KHR_materials_", "KHR_texture_",
                                               "EXT_texture_", NULL};
static const char *const shading_required[] = {
    "KHR_techniques_webgl", "KHR_technique_webgl", "KHR_lights_punctual",
    "EXT_lights_image_based", "MSFT_texture_dds", NULL};

static bool supported(const char *name)
{
    for (int i = 0; supported_required[i]; ++i)
        if (strcmp(name, supported_required[i]) == 0) return true;
    return false;
}

static bool shading_only(const char *name)
{
    for (int i = 0; shading_prefixes[i]; ++i)
        if (strncmp(name, shading_prefixes[i], strlen(shading_prefixes[i])) ==
            0)
            return true;
    for (int i = 0; shading_required[i]; ++i)
        if (strcmp(name, shading_required[i]) == 0) return true;
    return false;
}

static bool listed(const cJSON *arr, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (cJSON_IsString(e) && strcmp(e->valuestring, name) == 0) return true;
    }
    return false;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static vs_result check_required(gltf2_ctx *c, const cJSON *req,
                                const char **names, uint32_t nu);

static vs_result check_extensions(gltf2_ctx *c)
{
    const cJSON *used, *req, *e;
    uint32_t nu, nr, i = 0;
    vs_result r;
    if ((r = json_array(c, c->root, "extensionsUsed", "", &used, &nu)) ||
        (r = json_array(c, c->root, "extensionsRequired", "", &req, &nr)))
        return r;
    /* extensionsUsed sorted once (gltf2_check_root made them strings): a
     * scan of it per required name would cost required x used. */
    const char **names = mem_alloc(c->io.alloc, (nu ? nu : 1) * sizeof *names);
    if (!names)
        return set_error(c->error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: extensionsUsed: out of memory", c->src);
    cJSON_ArrayForEach(e, used) names[i++] = e->valuestring;
    qsort(names, nu, sizeof *names, by_string);
    r = check_required(c, req, names, nu);
    mem_free(c->io.alloc, names);
    if (r != VS_OK) return r;
    /* KHR_mesh_quantization widens the component types of vertex attributes
     * and morph deltas; its spec requires it in extensionsRequired, so data
     * that needs it without that promise is refused by the accessor checks. */
    c->quantization = listed(req, "KHR_mesh_quantization");
    /* Required compression has no uncompressed fallback to read instead. */
    c->draco_required = listed(req, "KHR_draco_mesh_compression");
    c->meshopt_required = listed(req, "EXT_meshopt_compression");
    return VS_OK;
}

static vs_result check_required(gltf2_ctx *c, const cJSON *req,
                                const char **names, uint32_t nu)
{
    const cJSON *e;
    uint32_t i = 0;
    cJSON_ArrayForEach(e, req)
    {
        if (!cJSON_IsString(e))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: extensionsRequired[%u]: must be a string",
                             c->src, i);
        if (!bsearch(&e->valuestring, names, nu, sizeof *names, by_string))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: extensionsRequired[%u]: \"%s\" is not in "
                             "extensionsUsed",
                             c->src, i, e->valuestring);
        if (shading_only(e->valuestring)) {
            char where[GLTF2_PATH];
            path_fmt(where, "extensionsRequired[%u]", i);
            vs_result r = asset_warn(c->asset, c->error, where,
                                     "shading is ignored",
                                     "extension \"%s\" is required",
                                     e->valuestring);
            if (r != VS_OK) return r;
        } else if (!supported(e->valuestring))
            return set_error(c->error, VS_ERROR_UNSUPPORTED,
                             "%s: extensionsRequired[%u]: extension \"%s\" is "
                             "not supported",
                             c->src, i, e->valuestring);
        ++i;
    }
    return VS_OK;
}

/* "major.minor" -> numbers; false when the string has another shape. */
static bool parse_version(const char *s, unsigned long *major,
                          unsigned long *minor)
{
    char *end;
    if (*s < '0' || *s > '9') return false;
    *major = strtoul(s, &end, 10);
    if (*end != '.' || end[1] < '0' || end[1] > '9') return false;
    *minor = strtoul(end + 1, &end, 10);
    return *end == '\0';
}

/* §3.2: asset.version is required; a higher minor version stays loadable
 * (forward compatible), a higher major or minVersion does not. */
static vs_result check_asset(gltf2_ctx *c)
{
    const cJSON *asset;
    const char *version, *min, *generator;
    unsigned long major, minor, min_major, min_minor;
    vs_result r = json_object(c, c->root, "asset", "", &asset);
    if (r != VS_OK) return r;
    if (!asset)
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: asset: required object is missing", c->src);
    if ((r = json_string(c, asset, "version", "asset", NULL, &version)) ||
        (r = json_string(c, asset, "minVersion", "asset", NULL, &min)) ||
        (r = json_string(c, asset, "generator", "asset", "", &generator)))
        return r;
    if (!version || !parse_version(version, &major, &minor))
        return set_error(c->error, VS_ERROR_INVALID,
                         "%s: asset.version: %s%s%s is not \"major.minor\"",
                         c->src, version ? "\"" : "",
                         version ? version : "missing", version ? "\"" : "");
    if (major != 2)
        return set_error(c->error, VS_ERROR_UNSUPPORTED,
                         "%s: asset.version: glTF %s is not supported (2.x "
                         "only)",
                         c->src, version);
    if (min) {
        if (!parse_version(min, &min_major, &min_minor))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: asset.minVersion: \"%s\" is not "
                             "\"major.minor\"",
                             c->src, min);
        if (min_major > major || (min_major == major && min_minor > minor))
            return set_error(c->error, VS_ERROR_INVALID,
                             "%s: asset.minVersion: %s is above version %s",
                             c->src, min, version);
        if (min_major != 2 || min_minor > 0)
            return set_error(c->error, VS_ERROR_UNSUPPORTED,
                             "%s: asset.minVersion: glTF %s features are not "
                             "supported",
                             c->src, min);
    }
    c->asset->generator = vs_priv_asset_strdup(c->asset, generator);
    if (!c->asset->generator)
        return set_error(c->error, VS_ERROR_LIMIT,
                         "%s: asset.generator: exceeds the memory limit",
                         c->src);
    return VS_OK;
}

/* Sizes of collections referenced before they are loaded, counted once
 * rather than per reference. */
static uint32_t array_size(const cJSON *root, const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
    return cJSON_IsArray(a) ? (uint32_t)cJSON_GetArraySize(a) : 0;
}

vs_result gltf2_load(vs_asset *asset, const cJSON *root, const uint8_t *bin,
                     size_t bin_size, const char *base_dir, vs_error *error)
{
    gltf2_ctx c = {.asset = asset,
                   .io = loader_io(asset),
                   .root = root,
                   .src = asset->source_name,
                   .error = error};
    asset->format = VS_FORMAT_GLTF2;
    vs_result r;
    if ((r = check_asset(&c)) != VS_OK || (r = gltf2_check_root(&c)) != VS_OK ||
        (r = check_extensions(&c)) != VS_OK)
        return r;
    c.skin_count = array_size(root, "skins");
    c.camera_count = array_size(root, "cameras");
    if ((r = gltf2_index_accessors(&c)) == VS_OK &&
        (r = gltf2_load_buffers(&c, bin, bin_size, base_dir)) == VS_OK &&
        (r = gltf2_check_accessors(&c)) == VS_OK &&
        (r = gltf2_load_images(&c)) == VS_OK &&
        (r = gltf2_load_materials(&c)) == VS_OK &&
        (r = gltf2_load_meshes(&c)) == VS_OK &&
        (r = gltf2_load_nodes(&c)) == VS_OK &&
        (r = gltf2_load_skins(&c)) == VS_OK &&
        (r = gltf2_load_scenes(&c)) == VS_OK)
        r = gltf2_load_animations(&c);
    if (r == VS_OK && (r = vs_priv_asset_finalize(asset, error)) == VS_OK)
        r = gltf2_check_links(&c);
    gltf2_ctx_free(&c);
    return r;
}
