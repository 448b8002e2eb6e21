/* SPDX-License-Identifier: MIT */
/* vs_crowd_streams: the prepared form of every crowd slot of an asset. */
#include <string.h>

#include "asset/asset_internal.h"
#include "base/alloc.h"
#include "base/error.h"
#include "skin/crowd_streams_internal.h"

void vs_crowd_streams_free(vs_crowd_streams *streams)
{
    if (!streams) return;
    const vs_allocator alloc = streams->alloc;
    for (uint32_t k = 0; k < streams->slot_count; ++k) {
        vs_skin_stream_free(streams->slots[k].stream);
        mem_free(&alloc, streams->slots[k].positions);
        mem_free(&alloc, streams->slots[k].normals);
    }
    mem_free(&alloc, streams->slots);
    mem_free(&alloc, streams);
}

/* n vertices of 3 floats from src into stream order: out[s] = src[order[s]]. */
static float *permuted(const vs_allocator *alloc, const float *src,
                       const uint32_t *order, size_t n)
{
    float *out = mem_alloc(alloc, n * 3 * sizeof *out);
    if (!out) return NULL;
    for (size_t s = 0; s < n; ++s)
        memcpy(out + 3 * s, src + 3 * (size_t)order[s], 3 * sizeof *out);
    return out;
}

static vs_result prepare_slot(const vs_crowd_streams_desc *desc,
                              const vs_crowd_slot *slot, crowd_stream_slot *out,
                              vs_error *error)
{
    const vs_asset *asset = desc->asset;
    const vs_node *node = &asset->nodes[slot->node];
    const vs_primitive *prim =
        &asset->meshes[node->mesh].primitives[slot->primitive];
    const vs_skin_stream_desc sd = {
        .vertex_count = prim->vertex_count,
        .influence_count = prim->influence_count,
        .joint_count = asset->skins[node->skin].joint_count,
        .joints = prim->joints,
        .weights = prim->weights,
        .flags = desc->flags & VS_SKIN_RAW_WEIGHTS,
        .weight_format = desc->weight_format,
        .allocator = *asset_allocator(asset),
    };
    vs_error inner = {0};
    if (vs_skin_stream_create(&sd, &out->stream, &inner) != VS_OK)
        return set_error(error, inner.code,
                         "%s: meshes[%d].primitives[%u]: crowd streams: %s",
                         asset->source_name, node->mesh, slot->primitive,
                         inner.message);
    const uint32_t *order = vs_skin_stream_vertex_order(out->stream);
    const vs_allocator *alloc = &sd.allocator;
    out->positions =
        permuted(alloc, prim->positions, order, prim->vertex_count);
    if (slot->normals_offset != SIZE_MAX)
        out->normals =
            permuted(alloc, prim->normals, order, prim->vertex_count);
    if (!out->positions || (slot->normals_offset != SIZE_MAX && !out->normals))
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: meshes[%d].primitives[%u]: crowd streams: out "
                         "of memory for %u vertices",
                         asset->source_name, node->mesh, slot->primitive,
                         prim->vertex_count);
    return VS_OK;
}

vs_result vs_crowd_streams_create(const vs_crowd_streams_desc *desc,
                                  vs_crowd_streams **out_streams,
                                  vs_error *error)
{
    if (out_streams) *out_streams = NULL;
    if (!desc || !desc->asset || !out_streams)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_crowd_streams_create: desc, desc->asset and "
                         "out_streams must not be NULL");
    if (desc->weight_format != VS_SKIN_WEIGHTS_UNORM16 &&
        desc->weight_format != VS_SKIN_WEIGHTS_FLOAT)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: crowd streams: unknown weight format %u",
                         desc->asset->source_name,
                         (unsigned)desc->weight_format);
    /* A normals flag here would be silently lost: the streams hold
     * weights, the crowd job skins the normals. */
    if (desc->flags & VS_SKIN_NORMALS_BY_MATRIX)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: crowd streams: flags: VS_SKIN_NORMALS_BY_MATRIX "
                         "belongs to the crowd job (vs_crowd_job), not the "
                         "streams' desc",
                         desc->asset->source_name);
    uint32_t count = 0;
    vs_result r = vs_crowd_layout(desc->asset, desc->normals, NULL, 0, &count,
                                  NULL, error);
    if (r != VS_OK) return r;
    const vs_allocator *alloc = asset_allocator(desc->asset);
    vs_crowd_streams *s = mem_calloc(alloc, 1, sizeof *s);
    vs_crowd_slot *layout =
        mem_calloc(alloc, count ? count : 1, sizeof *layout);
    if (s) {
        s->alloc = *alloc;
        s->slots = mem_calloc(alloc, count ? count : 1, sizeof *s->slots);
    }
    if (!s || !layout || !s->slots) {
        mem_free(alloc, layout);
        vs_crowd_streams_free(s);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: crowd streams: out of memory for %u slots",
                         desc->asset->source_name, count);
    }
    s->asset = desc->asset;
    s->normals = desc->normals;
    s->flags = desc->flags & VS_SKIN_RAW_WEIGHTS;
    s->slot_count = count;
    r = vs_crowd_layout(desc->asset, desc->normals, layout, count, NULL, NULL,
                        error);
    for (uint32_t k = 0; r == VS_OK && k < count; ++k)
        r = prepare_slot(desc, &layout[k], &s->slots[k], error);
    mem_free(alloc, layout);
    if (r != VS_OK) {
        vs_crowd_streams_free(s);
        return r;
    }
    *out_streams = s;
    return VS_OK;
}

uint32_t vs_crowd_streams_slot_count(const vs_crowd_streams *streams)
{
    return streams ? streams->slot_count : 0;
}

const uint32_t *vs_crowd_streams_vertex_order(const vs_crowd_streams *streams,
                                              uint32_t slot)
{
    if (!streams || slot >= streams->slot_count) return NULL;
    return vs_skin_stream_vertex_order(streams->slots[slot].stream);
}
