/* SPDX-License-Identifier: MIT */
/* vs_asset_reweight: what exporters do for 4-influence runtimes. Each
 * vertex keeps its max_influences largest weights (sorted largest first),
 * optionally divided by their sum, and the rest become zero weights on
 * joint 0; the influence count shrinks to the next multiple of 4 (one
 * JOINTS_n/WEIGHTS_n set per 4). The copy owns only what changes. */
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/error.h"
#include "asset/weights_rule.h"
#include "vskin/vskin_tools.h"

static void reweight_vertex(const uint16_t *j, const float *w, uint32_t n,
                            uint32_t keep, bool normalize, uint16_t *oj,
                            float *ow, uint32_t out_n, vs_reweight_stats *st)
{
    bool taken[256] = {false};
    uint32_t kept = 0, dropped = 0;
    float sum = 0;
    /* An unskinned vertex (asset/weights_rule.h) keeps its input: its
     * weights all become 0, which says the same. Keeping its largest
     * positive weights instead would skin it. */
    double total = 0.0;
    for (uint32_t k = 0; k < n; ++k)
        total += w[k];
    if (!weights_sum_skins(total)) keep = 0;
    for (; kept < keep && kept < n; ++kept) {
        int32_t best = -1;
        for (uint32_t k = 0; k < n; ++k)
            if (!taken[k] && (best < 0 || w[k] > w[best])) best = (int32_t)k;
        if (best < 0 || w[best] <= 0) break;
        taken[best] = true;
        oj[kept] = j[best];
        ow[kept] = w[best];
        sum += w[best];
    }
    for (uint32_t k = 0; k < n; ++k)
        if (!taken[k] && w[k] != 0) {
            ++dropped;
            if (w[k] > st->max_dropped_weight) st->max_dropped_weight = w[k];
        }
    if (normalize && sum > 0)
        for (uint32_t k = 0; k < kept; ++k)
            ow[k] /= sum;
    for (uint32_t k = kept; k < out_n; ++k) {
        oj[k] = 0;
        ow[k] = 0;
    }
    if (dropped) {
        st->vertices_changed++;
        st->influences_dropped += dropped;
    }
}

static vs_result reweight_primitive(vs_asset *out, const vs_primitive *in,
                                    vs_primitive *p, uint32_t keep,
                                    bool normalize, vs_reweight_stats *st,
                                    vs_error *error)
{
    *p = *in;
    if (!in->influence_count) return VS_OK;
    uint32_t n = in->influence_count;
    uint32_t out_n = (keep + 3) / 4 * 4;
    if (out_n > n) out_n = n;
    uint16_t *j = vs_priv_asset_calloc(out, (size_t)in->vertex_count * out_n, sizeof *j,
                               error, "reweighted joints");
    float *w = vs_priv_asset_calloc(out, (size_t)in->vertex_count * out_n, sizeof *w,
                            error, "reweighted weights");
    if (!j || !w) return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    for (uint32_t v = 0; v < in->vertex_count; ++v)
        reweight_vertex(in->joints + (size_t)v * n, in->weights + (size_t)v * n,
                        n, keep, normalize, j + (size_t)v * out_n,
                        w + (size_t)v * out_n, out_n, st);
    p->influence_count = out_n;
    p->joints = j;
    p->weights = w;
    return VS_OK;
}

vs_result vs_asset_reweight(const vs_asset *source,
                            const vs_reweight_options *options,
                            vs_asset **out_asset, vs_reweight_stats *stats,
                            vs_error *error)
{
    vs_error local;
    if (!error) error = &local;
    clear_error(error);
    if (!source || !options || !out_asset)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_asset_reweight: NULL argument");
    *out_asset = NULL;
    if (options->max_influences < 1 || options->max_influences > 255)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_asset_reweight: max_influences must be 1..255, "
                         "not %u",
                         options->max_influences);
    vs_reweight_stats st = {0};
    /* The copy is made with the source's allocator. */
    const vs_load_options made = {.allocator = *asset_allocator(source)};
    vs_asset *out = vs_priv_asset_create(source->source_name, &made);
    if (!out)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                         source->source_name);
    const char *name = out->source_name;
    void *internal = out->internal_;
    *out = *source;
    out->source_name = name;
    out->internal_ = internal;
    /* The images stay the source's, read from its folder under its rules
     * (vs_asset_image_bytes). */
    ((asset_internal *)internal)->base_dir =
        ((const asset_internal *)source->internal_)->base_dir;
    ((asset_internal *)internal)->allow_external_paths =
        ((const asset_internal *)source->internal_)->allow_external_paths;
    vs_mesh *meshes = source->mesh_count
                          ? vs_priv_asset_calloc(out, source->mesh_count,
                                         sizeof *meshes, error, "meshes")
                          : NULL;
    vs_result r = source->mesh_count && !meshes ? error->code : VS_OK;
    for (uint32_t m = 0; r == VS_OK && m < source->mesh_count; ++m) {
        const vs_mesh *in = &source->meshes[m];
        meshes[m] = *in;
        vs_primitive *prims =
            in->primitive_count
                ? vs_priv_asset_calloc(out, in->primitive_count, sizeof *prims, error,
                               "primitives")
                : NULL;
        if (in->primitive_count && !prims) {
            r = error->code;
            break;
        }
        for (uint32_t p = 0; r == VS_OK && p < in->primitive_count; ++p) {
            uint32_t n = in->primitives[p].influence_count;
            if (n > 255) {
                r = set_error(error, VS_ERROR_UNSUPPORTED,
                              "%s: meshes[%u].primitives[%u]: %u influences "
                              "per vertex (at most 255 can be reweighted)",
                              source->source_name, m, p, n);
                break;
            }
            r = reweight_primitive(out, &in->primitives[p], &prims[p],
                                   options->max_influences, options->normalize,
                                   &st, error);
        }
        meshes[m].primitives = prims;
    }
    if (r != VS_OK) {
        vs_asset_free(out);
        return r;
    }
    out->meshes = meshes;
    if (stats) *stats = st;
    *out_asset = out;
    return VS_OK;
}
