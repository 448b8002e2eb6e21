/* SPDX-License-Identifier: MIT */
/* Per-joint bind-space bounds (see joint_bounds.h and docs/bounds.md).
 *
 * Morph targets are covered conservatively: every morph weight an instance
 * can take lies in one asset-wide range [wlo, whi] (0, node and mesh default
 * weights, and every weight animation value; CUBICSPLINE segments widened by
 * the Hermite tangent terms, whose basis functions stay within 4/27), so per
 * vertex the morphed position lies in
 *     p + sum_t [min(wlo*d_t, whi*d_t), max(wlo*d_t, whi*d_t)]   (per axis).
 * That per-vertex box is what goes into the mesh box and, through its corners,
 * into the joint boxes. */
#include "asset/joint_bounds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "asset/influence_sets.h"
#include "asset/weights_rule.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/xform.h"

void bounds_box_empty(bounds_box *b)
{
    for (int k = 0; k < 3; ++k) {
        b->min[k] = INFINITY;
        b->max[k] = -INFINITY;
    }
}

bool bounds_box_is_empty(const bounds_box *b)
{
    return !(b->min[0] <= b->max[0]);
}

void bounds_box_add(bounds_box *b, const float p[3])
{
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2])) return;
    /* Comparisons, not fminf/fmaxf: p is finite, and the libm calls were a
     * third of vs_pose_fast_bounds' time. */
    for (int k = 0; k < 3; ++k) {
        if (p[k] < b->min[k]) b->min[k] = p[k];
        if (p[k] > b->max[k]) b->max[k] = p[k];
    }
}

/* The AABB of an affine image of a box from its centre and half extents
 * (Arvo, Graphics Gems 1990): centre' = M c, half' = |M| h. The same box as
 * transforming the 8 corners, at a fifth of the work. */
void bounds_box_add_transformed(bounds_box *b, const float m[16],
                                const bounds_box *box)
{
    if (bounds_box_is_empty(box)) return;
    float c[3], h[3], lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        c[k] = 0.5f * (box->min[k] + box->max[k]);
        h[k] = 0.5f * (box->max[k] - box->min[k]);
    }
    for (int r = 0; r < 3; ++r) {
        float cr = m[12 + r], hr = 0.0f;
        for (int k = 0; k < 3; ++k) {
            cr += m[4 * k + r] * c[k];
            hr += fabsf(m[4 * k + r]) * h[k];
        }
        lo[r] = cr - hr;
        hi[r] = cr + hr;
    }
    bounds_box_add(b, lo);
    bounds_box_add(b, hi);
}

static void widen(float v, float *lo, float *hi)
{
    if (!isfinite(v)) return;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
}

/* The range of one weights sampler's values (see the top). */
static void sampler_weight_range(const vs_anim_sampler *s, float *lo,
                                 float *hi)
{
    size_t n = (size_t)s->key_count * s->components;
    if (s->interpolation != VS_INTERP_CUBICSPLINE) {
        for (size_t k = 0; k < n; ++k)
            widen(s->values[k], lo, hi);
        return;
    }
    /* Key k: (in-tangent a, value v, out-tangent b), each `components`
     * floats. p(t) = h00 v0 + h10 dt b0 + h01 v1 + h11 dt a1 with |h10|,
     * |h11| <= 4/27. */
    const size_t comps = s->components;
    for (uint32_t k = 0; k < s->key_count; ++k)
        for (size_t j = 0; j < comps; ++j) {
            float v = s->values[(k * 3 + 1) * comps + j];
            widen(v, lo, hi);
            if (k + 1 == s->key_count) continue;
            float dt = s->times[k + 1] - s->times[k];
            float b = s->values[(k * 3 + 2) * comps + j];
            float a = s->values[((k + 1) * 3) * comps + j];
            float v1 = s->values[((k + 1) * 3 + 1) * comps + j];
            float slack = (4.0f / 27.0f) * fabsf(dt) * (fabsf(a) + fabsf(b));
            widen(fminf(v, v1) - slack, lo, hi);
            widen(fmaxf(v, v1) + slack, lo, hi);
        }
}

/* The range every morph weight of the asset stays in (see the top). Each
 * weights sampler is read once however many channels share it: per channel
 * it would cost channels x keys. mark: one entry per sampler of the
 * largest clip, holding the clip's number + 1 once read. */
static void morph_weight_range(const vs_asset *asset, uint32_t *mark,
                               float *lo, float *hi)
{
    *lo = 0.0f;
    *hi = 0.0f;
    for (uint32_t i = 0; i < asset->node_count; ++i)
        for (uint32_t k = 0; k < asset->nodes[i].weight_count; ++k)
            widen(asset->nodes[i].weights[k], lo, hi);
    for (uint32_t m = 0; m < asset->mesh_count; ++m)
        for (uint32_t k = 0; k < asset->meshes[m].weight_count; ++k)
            widen(asset->meshes[m].weights[k], lo, hi);
    for (uint32_t c = 0; c < asset->clip_count; ++c) {
        const vs_clip *clip = &asset->clips[c];
        for (uint32_t ch = 0; ch < clip->channel_count; ++ch) {
            const uint32_t s = clip->channels[ch].sampler;
            if (clip->channels[ch].path != VS_PATH_WEIGHTS || mark[s] == c + 1)
                continue;
            mark[s] = c + 1;
            sampler_weight_range(&clip->samplers[s], lo, hi);
        }
    }
}

/* The box a vertex's morphed position stays in. */
static void vertex_box(const vs_primitive *prim, size_t v, float wlo, float whi,
                       bounds_box *out)
{
    const float *p = prim->positions + v * 3;
    for (int k = 0; k < 3; ++k)
        out->min[k] = out->max[k] = p[k];
    for (uint32_t t = 0; t < prim->target_count; ++t) {
        const float *d = prim->targets[t].positions;
        if (!d) continue;
        for (int k = 0; k < 3; ++k) {
            float a = wlo * d[v * 3 + k], b = whi * d[v * 3 + k];
            out->min[k] += fminf(a, b);
            out->max[k] += fmaxf(a, b);
        }
    }
}

static void add_vertex_box(bounds_box *b, const float *m, const bounds_box *vb)
{
    if (!m) {
        bounds_box_add(b, vb->min);
        bounds_box_add(b, vb->max);
    } else if (memcmp(vb->min, vb->max, sizeof vb->min) == 0) {
        float q[3];
        xform_transform_point(m, vb->min, q);
        bounds_box_add(b, q);
    } else {
        bounds_box_add_transformed(b, m, vb);
    }
}

/* L_j = IBM_j * BSM: the bind-space transform before G(joint_j). */
static float *bind_transforms(vs_asset *asset, const vs_skin *skin,
                              vs_error *error)
{
    float *l = vs_priv_asset_calloc(asset, skin->joint_count, 16 * sizeof(float), error,
                            "joint bounds");
    if (!l) return NULL;
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        float *m = l + 16 * (size_t)j;
        if (skin->inverse_bind_matrices)
            xform_mul(skin->inverse_bind_matrices + 16 * (size_t)j,
                      skin->bind_shape_matrix, m);
        else
            xform_copy(skin->bind_shape_matrix, m);
    }
    return l;
}

/* Subtracted from each least weight: the skinning job's float division may
 * round a weight below the one computed here in double. */
#define WEIGHT_SLACK 1e-6f

/* The ascending distinct joints with a weight > 0 among the vertex's
 * influences; returns how many. */
static uint32_t positive_joints(const float *w, const uint16_t *jt,
                                uint32_t inf, uint16_t *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < inf; ++i) {
        if (!(w[i] > 0.0f)) continue;
        uint32_t k = n;
        while (k > 0 && out[k - 1] > jt[i])
            --k;
        if (k > 0 && out[k - 1] == jt[i]) continue; /* repeated joint */
        memmove(out + k + 1, out + k, (n - k) * sizeof *out);
        out[k] = jt[i];
        ++n;
    }
    return n;
}

/* A copy of n items of `size` bytes owned by the asset (NULL when n is 0). */
static void *keep(vs_asset *asset, const void *src, size_t n, size_t size,
                  bool *ok, vs_error *error)
{
    if (!n || !*ok) return NULL;
    void *dst = vs_priv_asset_calloc(asset, n, size, error, "joint bounds");
    if (dst) memcpy(dst, src, n * size);
    *ok = dst != NULL;
    return dst;
}

/* Moves the sets and the overflow boxes into the asset, and makes each
 * per-joint box the union of that joint's member and overflow boxes. */
static vs_result keep_sets(vs_asset *asset, const influence_sets *sets,
                           const bounds_box *overflow, uint32_t joint_count,
                           bounds_box *joints, prim_bounds *out,
                           vs_error *error)
{
    uint32_t n_over = 0;
    for (uint32_t j = 0; j < joint_count; ++j)
        n_over += !bounds_box_is_empty(&overflow[j]);
    bool ok = true;
    uint16_t *oj = NULL;
    bounds_box *ob = NULL;
    if (n_over) {
        oj = vs_priv_asset_calloc(asset, n_over, sizeof *oj, error, "joint bounds");
        ob = oj ? vs_priv_asset_calloc(asset, n_over, sizeof *ob, error, "joint bounds")
                : NULL;
        ok = ob != NULL;
    }
    for (uint32_t j = 0, k = 0; ok && j < joint_count; ++j)
        if (!bounds_box_is_empty(&overflow[j])) {
            oj[k] = (uint16_t)j;
            ob[k++] = overflow[j];
            joints[j] = overflow[j];
        }
    out->set_start = keep(asset, sets->start, sets->count + 1,
                          sizeof *sets->start, &ok, error);
    out->set_joints =
        keep(asset, sets->joints, sets->len, sizeof *sets->joints, &ok, error);
    out->member_boxes =
        keep(asset, sets->boxes, sets->len, sizeof *sets->boxes, &ok, error);
    out->member_lo =
        keep(asset, sets->lo, sets->len, sizeof *sets->lo, &ok, error);
    out->set_boxes =
        keep(asset, sets->mesh, sets->count, sizeof *sets->mesh, &ok, error);
    if (!ok) return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    out->set_count = sets->count;
    out->overflow_count = n_over;
    out->overflow_joints = oj;
    out->overflow_boxes = ob;
    for (size_t k = 0; k < sets->len; ++k) {
        bounds_box *jb = &joints[sets->joints[k]];
        bounds_box_add(jb, sets->boxes[k].min);
        bounds_box_add(jb, sets->boxes[k].max);
    }
    return VS_OK;
}

/* Sorts the vertices into influence sets (or, past the cap, per-joint
 * overflow boxes), adding each to its set's boxes and least weights. */
static bool gather(const vs_primitive *prim, const float *bind, float wlo,
                   float whi, influence_sets *sets, bounds_box *overflow,
                   uint16_t *members, prim_bounds *out)
{
    const uint32_t inf = prim->influence_count;
    for (size_t v = 0; v < prim->vertex_count; ++v) {
        bounds_box vb;
        vertex_box(prim, v, wlo, whi, &vb);
        const float *w = prim->weights + v * inf;
        const uint16_t *jt = prim->joints + v * inf;
        /* The skinning job's rule (asset/weights_rule.h): an unskinned
         * vertex stays as it is. */
        double sum = 0.0;
        bool negative = false;
        for (uint32_t i = 0; i < inf; ++i) {
            sum += w[i];
            if (w[i] < 0.0f) negative = true;
        }
        if (!weights_sum_skins(sum)) {
            add_vertex_box(&out->unweighted, NULL, &vb);
            continue;
        }
        if (negative) out->not_convex = true;
        uint32_t n = positive_joints(w, jt, inf, members);
        uint32_t set;
        if (!influence_sets_find(sets, members, n, &set)) return false;
        if (set == UINT32_MAX) {
            for (uint32_t m = 0; m < n; ++m)
                add_vertex_box(&overflow[members[m]],
                               bind + 16 * (size_t)members[m], &vb);
            continue;
        }
        add_vertex_box(&sets->mesh[set], NULL, &vb);
        for (uint32_t m = 0; m < n; ++m) {
            size_t k = sets->start[set] + m;
            add_vertex_box(&sets->boxes[k], bind + 16 * (size_t)members[m],
                           &vb);
            /* A repeated joint's weights add up, as in the skinning job. */
            double wj = 0.0;
            for (uint32_t i = 0; i < inf; ++i)
                if (jt[i] == members[m] && w[i] > 0.0f) wj += w[i];
            float lo = (float)(wj / sum) - WEIGHT_SLACK;
            if (lo < sets->lo[k]) sets->lo[k] = lo > 0.0f ? lo : 0.0f;
        }
    }
    return true;
}

static vs_result build_skinned(vs_asset *asset, const vs_primitive *prim,
                               const vs_skin *skin, const float *bind,
                               float wlo, float whi, prim_bounds *out,
                               vs_error *error)
{
    bounds_box *joints = vs_priv_asset_calloc(asset, skin->joint_count, sizeof *joints,
                                      error, "joint bounds");
    if (!joints) return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < skin->joint_count; ++j)
        bounds_box_empty(&joints[j]);
    bounds_box_empty(&out->unweighted);
    out->joint_count = skin->joint_count;
    out->joints = joints;
    /* Load-time scratch, freed before returning. */
    influence_sets sets;
    const vs_allocator *alloc = asset_load_allocator(asset);
    bool ok = influence_sets_init(&sets, alloc);
    bounds_box *overflow =
        mem_calloc(alloc, skin->joint_count, sizeof *overflow);
    uint16_t *members =
        mem_calloc(alloc, prim->influence_count, sizeof *members);
    ok = ok && overflow && members;
    if (ok) {
        for (uint32_t j = 0; j < skin->joint_count; ++j)
            bounds_box_empty(&overflow[j]);
        ok = gather(prim, bind, wlo, whi, &sets, overflow, members, out);
    }
    out->bind = bind;
    vs_result r = ok ? keep_sets(asset, &sets, overflow, skin->joint_count,
                                 joints, out, error)
                     : set_error(error, VS_ERROR_OUT_OF_MEMORY,
                                 "%s: joint bounds: out of memory",
                                 asset->source_name);
    influence_sets_free(&sets);
    mem_free(alloc, overflow);
    mem_free(alloc, members);
    return r;
}

/* The bounds of one mesh as instanced with one skin (NULL: none). */
static vs_result build_pair(vs_asset *asset, const vs_mesh *mesh,
                            const vs_skin *skin, float wlo, float whi,
                            prim_bounds **out, vs_error *error)
{
    prim_bounds *pb = vs_priv_asset_calloc(
        asset, mesh->primitive_count ? mesh->primitive_count : 1, sizeof *pb,
        error, "primitive bounds");
    if (!pb) return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    *out = pb;
    float *bind = NULL;
    for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
        const vs_primitive *prim = &mesh->primitives[p];
        bounds_box_empty(&pb[p].mesh);
        for (size_t v = 0; v < prim->vertex_count; ++v) {
            bounds_box vb;
            vertex_box(prim, v, wlo, whi, &vb);
            add_vertex_box(&pb[p].mesh, NULL, &vb);
        }
        if (!skin || skin->joint_count == 0 || prim->influence_count == 0)
            continue;
        if (!bind && !(bind = bind_transforms(asset, skin, error)))
            return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
        vs_result r =
            build_skinned(asset, prim, skin, bind, wlo, whi, &pb[p], error);
        if (r != VS_OK) return r;
    }
    return VS_OK;
}

static uint64_t mesh_vertices(const vs_mesh *mesh)
{
    uint64_t n = 0;
    for (uint32_t p = 0; p < mesh->primitive_count; ++p)
        n += mesh->primitives[p].vertex_count;
    return n;
}

typedef struct pair_of {
    int32_t mesh, skin;
    uint32_t instance;
} pair_of;

static int by_pair(const void *a, const void *b)
{
    const pair_of *x = a, *y = b;
    if (x->mesh != y->mesh) return x->mesh < y->mesh ? -1 : 1;
    if (x->skin != y->skin) return x->skin < y->skin ? -1 : 1;
    return (x->instance > y->instance) - (x->instance < y->instance);
}

/* Instances of one mesh with one skin have the same bounds (they depend on
 * the mesh, the skin and the asset's morph weight range, not on the node),
 * so each distinct (mesh, skin) pair is built once and shared. The vertices
 * of the distinct pairs are summed and checked against
 * max_instanced_vertices before any is built: that work is the one part of
 * a load that neither the file's size nor the memory budget bounds. */
vs_result joint_bounds_build(vs_asset *asset, vs_error *error)
{
    asset_internal *in = asset->internal_;
    const vs_allocator *tmp = asset_load_allocator(asset);
    const uint32_t n = asset->instance_count;
    in->instance_bounds = vs_priv_asset_calloc(
        asset, n ? n : 1, sizeof *in->instance_bounds, error,
        "instance bounds");
    if (!in->instance_bounds)
        return error ? error->code : VS_ERROR_OUT_OF_MEMORY;
    uint32_t most = 0;
    for (uint32_t c = 0; c < asset->clip_count; ++c)
        if (asset->clips[c].sampler_count > most)
            most = asset->clips[c].sampler_count;
    pair_of *pairs = mem_alloc(tmp, (n ? n : 1) * sizeof *pairs);
    uint32_t *mark = mem_calloc(tmp, most ? most : 1, sizeof *mark);
    if (!pairs || !mark) {
        mem_free(tmp, pairs);
        mem_free(tmp, mark);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: instance bounds: out of memory",
                         asset->source_name);
    }
    for (uint32_t i = 0; i < n; ++i) {
        const vs_node *node = &asset->nodes[asset->instances[i]];
        pairs[i] = (pair_of){node->mesh, node->skin, i};
    }
    qsort(pairs, n, sizeof *pairs, by_pair);
    uint64_t work = 0, distinct = 0;
    for (uint32_t i = 0; i < n; ++i)
        if (i == 0 || pairs[i].mesh != pairs[i - 1].mesh ||
            pairs[i].skin != pairs[i - 1].skin) {
            work += mesh_vertices(&asset->meshes[pairs[i].mesh]);
            ++distinct;
        }
    const uint64_t limit = asset_limits(asset)->max_instanced_vertices;
    vs_result r = VS_OK;
    if (work > limit)
        r = set_error(error, VS_ERROR_LIMIT,
                      "%s: instances: the bounds of %llu distinct mesh and "
                      "skin pairs visit %llu vertices, which exceed the "
                      "limit of %llu (max_instanced_vertices)",
                      asset->source_name, (unsigned long long)distinct,
                      (unsigned long long)work, (unsigned long long)limit);
    float wlo = 0.0f, whi = 0.0f;
    if (r == VS_OK) morph_weight_range(asset, mark, &wlo, &whi);
    prim_bounds *shared = NULL;
    for (uint32_t i = 0; i < n && r == VS_OK; ++i) {
        const pair_of *q = &pairs[i];
        if (i == 0 || q->mesh != q[-1].mesh || q->skin != q[-1].skin) {
            const vs_skin *skin = q->skin >= 0 ? &asset->skins[q->skin] : NULL;
            r = build_pair(asset, &asset->meshes[q->mesh], skin, wlo, whi,
                           &shared, error);
        }
        in->instance_bounds[q->instance] = shared;
    }
    mem_free(tmp, pairs);
    mem_free(tmp, mark);
    return r;
}

const prim_bounds *joint_bounds_get(const vs_asset *asset, uint32_t instance,
                                    uint32_t primitive)
{
    if (!asset || instance >= asset->instance_count) return NULL;
    const asset_internal *in = asset->internal_;
    if (!in->instance_bounds) return NULL;
    const vs_mesh *mesh =
        &asset->meshes[asset->nodes[asset->instances[instance]].mesh];
    if (primitive >= mesh->primitive_count) return NULL;
    return &in->instance_bounds[instance][primitive];
}

bool vs_asset_joint_bounds(const vs_asset *asset, uint32_t instance,
                           uint32_t primitive, uint32_t joint, float out_min[3],
                           float out_max[3])
{
    const prim_bounds *pb = joint_bounds_get(asset, instance, primitive);
    if (!pb || joint >= pb->joint_count ||
        bounds_box_is_empty(&pb->joints[joint]))
        return false;
    memcpy(out_min, pb->joints[joint].min, sizeof pb->joints[joint].min);
    memcpy(out_max, pb->joints[joint].max, sizeof pb->joints[joint].max);
    return true;
}
