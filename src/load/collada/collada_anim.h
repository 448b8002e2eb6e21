/* SPDX-License-Identifier: MIT */
/* Internal to the COLLADA animation import (collada_anim_*.c): parsed curves,
 * resolved channels and the context they share. The pipeline is
 *   <library_animations> -> anim_channel (curve + transform element it
 *   drives) -> per clip and node: stack evaluated at sample times ->
 *   decomposed into LINEAR/STEP T, R, S samplers (vs_clip).
 * Everything here lives in a temporary arena (ctx->c->tmp) freed when the
 * import ends; only the clips are allocated in the asset. See
 * docs/collada-animation.md. */
#ifndef VS_LOAD_COLLADA_COLLADA_ANIM_H
#define VS_LOAD_COLLADA_COLLADA_ANIM_H

#include <stdbool.h>
#include <stdint.h>

#include "load/collada/collada_internal.h"
#include "load/collada/collada_loader.h"

/* Extra samples per second between keys wherever linear interpolation of
 * the decomposed T/R/S is not exact (curved segments, rotations). */
#define COLLADA_ANIM_SAMPLE_RATE 30.0
/* Most samples one node of one clip may get, keys and extra samples
 * together (about 9 hours at 30 Hz): bounds work and memory on bad times. */
#define COLLADA_ANIM_MAX_SAMPLES 1000000u

/* Interpolation of the segment that starts at a key. HERMITE segments are
 * stored as their equivalent Bezier control points (ANIM_CUBIC); CARDINAL
 * and BSPLINE segments are evaluated from the neighbouring key values with
 * their basis matrices (collada_anim_curve.c). */
typedef enum anim_interp {
    ANIM_LINEAR = 0,
    ANIM_STEP,
    ANIM_CUBIC,
    ANIM_CARDINAL,
    ANIM_BSPLINE
} anim_interp;

/* One sampler: key_count keys of `components` values each. */
typedef struct anim_curve {
    uint32_t key_count;
    uint32_t components;
    const float *times;    /* key_count, strictly increasing */
    const float *values;   /* key_count * components */
    const uint8_t *interp; /* key_count anim_interp values */
    /* For cubic segments, per key and component: in control point (time,
     * value) then out control point (time, value), absolute; NULL when no
     * segment is cubic. */
    const float *control;
    bool all_step;  /* every segment is STEP (or there is one key) */
    bool any_cubic; /* some segment is a cubic of any of the four kinds */
} anim_curve;

/* A <channel> resolved to the transform element values it drives, or to
 * the weights of a <morph> (then node_count is 0 and morph is set). */
typedef struct anim_channel {
    const xmlNode *element; /* the <channel> */
    const xmlNode *morph;   /* the <morph> whose weights it drives, or NULL */
    const float *weights;   /* that morph's MORPH_WEIGHT values */
    uint32_t weight_count;  /* and their count (its target count) */
    uint32_t node;          /* runtime node index (the first, see below) */
    /* Every runtime node with the target id: ctx->node_ids[node_first ..
     * node_first + node_count) (more than one for <instance_node> copies). */
    uint32_t node_first, node_count;
    uint32_t xform; /* index in the node's stack */
    uint32_t first; /* first value of the element (or weight) written */
    uint32_t count; /* values written per key (= curve.components) */
    anim_curve curve;
} anim_channel;

/* The import's state. ctx->c is a collada_ctx made for the import, so the
 * loader's XML helpers, id index and <source> reading (collada_loader.h)
 * serve it too. */
typedef struct anim_ctx {
    collada_ctx *c;
    const collada_node_stack *stacks; /* c->asset->node_count of them */
    /* The loader's mesh instances: where each morph is shown. */
    const collada_instance *instances;
    uint32_t instance_count;
    /* Every <morph> with its MORPH_WEIGHT values once read, sorted by
     * element (collada_anim_morph.c), so each is read once however many
     * channels drive it. */
    struct anim_morph_weights *morphs;
    uint32_t morph_count;
    bool morphs_indexed;
    collada_key *node_ids;            /* runtime nodes by <node id> */
    uint32_t node_id_count;
    anim_channel *channels;
    uint32_t channel_count;
} anim_ctx;

/* A channel (index into ctx->channels) of one runtime node, or of one
 * morph (node unused). */
typedef struct anim_ref {
    uint32_t node, index;
} anim_ref;

/* Builds ctx->node_ids. */
vs_result anim_index_nodes(anim_ctx *ctx);
/* The runtime nodes whose <node id> is the first len bytes of id: their
 * count, and *first their first index in ctx->node_ids. */
uint32_t anim_find_nodes(const anim_ctx *ctx, const char *id, size_t len,
                         uint32_t *first);

/* Reads the <sampler> a channel points at into a curve. */
vs_result anim_sampler_curve(anim_ctx *ctx, const xmlNode *channel,
                             const xmlNode *sampler, anim_curve *curve);
/* Resolves a channel target to node / element / values; *skip is set for a
 * target that moves nothing vskin poses (no node in the scenes, or not a
 * transform element of the node), with a warning where the target is a
 * flaw of the file. */
vs_result anim_resolve_target(anim_ctx *ctx, const xmlNode *channel,
                              anim_channel *out, bool *skip);

/* Value of a curve at time t (components floats). Holds the first / last
 * key outside the key range. */
void anim_curve_eval(const anim_curve *curve, double t, float *out);
/* The parameter s in [0,1] where the Bezier x(s) with controls x0..x3
 * (x0 <= x <= x3) reaches x: Newton steps kept inside a bisection bracket.
 * Exposed for tests. */
double anim_bezier_solve(double x0, double x1, double x2, double x3, double x);

/* Resolves a channel whose target addresses the weights of a <morph>
 * ("weightsSourceId(i)", "arrayId(i)" or "controllerId/sid(i)", without
 * (i) for all of them); *is_morph is false, and nothing else is set, for
 * any other target. */
vs_result anim_morph_target(anim_ctx *ctx, const xmlNode *channel,
                            anim_channel *out, bool *is_morph);

/* Sorted, distinct sample times of the channels g[0..n) within [start,
 * end]: their key times, a time just before each jump unless step_out,
 * and, when dense, uniform samples at COLLADA_ANIM_SAMPLE_RATE between. */
vs_result anim_sample_times(anim_ctx *ctx, const anim_ref *g, uint32_t n,
                            double start, double end, bool step_out, bool dense,
                            float **out, uint32_t *count);

/* The VS_PATH_WEIGHTS channels of one clip (channels selected by use): one
 * sampler per animated <morph>, one channel per node showing that morph;
 * the arrays live in ctx->c->tmp, the samplers' data in the asset. Their
 * channels refer to samplers from sampler_base on. */
vs_result anim_bake_weights(anim_ctx *ctx, const bool *use, double start,
                            double end, uint32_t sampler_base,
                            vs_anim_channel **ch, uint32_t *ch_count,
                            vs_anim_sampler **smp, uint32_t *smp_count);

/* Parses every <channel> under <library_animations> into ctx->channels. */
vs_result anim_parse_library(anim_ctx *ctx);

/* Builds one vs_clip from the channels selected by `use` (channel_count
 * flags), sampled within [start, end] (use -inf / +inf for the whole
 * range). */
vs_result anim_bake_clip(anim_ctx *ctx, const bool *use, double start,
                         double end, vs_clip *out);

#endif
