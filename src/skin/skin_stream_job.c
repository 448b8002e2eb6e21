/* SPDX-License-Identifier: MIT */
/* Running a prepared skin stream: group by group (one influence count each,
 * so the kernel's blend has a constant count), each group's chunks
 * (kernel_ops.transform_chunks) then its other vertices, block by block. In
 * VS_STREAM_ORDER_SOURCE the block's attribute indices come from the
 * stream's vertex order (gather / scatter); in VS_STREAM_ORDER_STREAM they
 * are consecutive. */
#include <string.h>

#include "base/error.h"
#include "skin/lbs/kernel.h"
#include "skin/skin_stream_internal.h"
#include "skin/skinning_internal.h"

static vs_result check_attr(const char *name, const void *in, size_t in_stride,
                            const void *out, size_t out_stride, size_t element,
                            size_t count, vs_error *error)
{
    if (!in != !out)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: %s: input and output must both be "
                         "set or both be NULL",
                         name);
    if (!in) return VS_OK;
    if ((in_stride && in_stride < element) ||
        (out_stride && out_stride < element))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: %s: stride smaller than one "
                         "element (%zu bytes)",
                         name, element);
    size_t step = in_stride > out_stride ? in_stride : out_stride;
    if (step < element) step = element;
    if (count > SIZE_MAX / step)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: %s: %zu vertices exceed the "
                         "address space",
                         name, count);
    return VS_OK;
}

vs_result vs_skin_stream_job_validate(const vs_skin_stream_job *job,
                                      vs_error *error)
{
    vs_result r;
    if (!job)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: job is NULL");
    if (!job->stream || !job->joint_matrices || !job->in_positions)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: %s: required pointer is NULL",
                         !job->stream           ? "stream"
                         : !job->joint_matrices ? "joint_matrices"
                                                : "in_positions");
    const size_t total = job->stream->vertex_count;
    if (job->first_vertex > total ||
        job->vertex_count > total - job->first_vertex)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: range [%zu, +%zu) exceeds the "
                         "stream's %zu vertices",
                         job->first_vertex, job->vertex_count, total);
    if (job->order != VS_STREAM_ORDER_SOURCE &&
        job->order != VS_STREAM_ORDER_STREAM)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: order: %u is unknown", job->order);
    if (job->tangent_components != 0 && job->tangent_components != 3 &&
        job->tangent_components != 4)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream job: tangent_components: %u is not 3 "
                         "or 4",
                         job->tangent_components);
    if ((r = skin_check_store_flags(job->flags, "skin stream job", error)))
        return r;
    const size_t tan = skin_tangent_bytes(job->tangent_components);
    if ((r = check_attr("positions", job->in_positions,
                        job->in_positions_stride, job->out_positions,
                        job->out_positions_stride, 12, total, error)) ||
        (r = check_attr("normals", job->in_normals, job->in_normals_stride,
                        job->out_normals, job->out_normals_stride, 12, total,
                        error)) ||
        (r = check_attr("tangents", job->in_tangents, job->in_tangents_stride,
                        job->out_tangents, job->out_tangents_stride, tan, total,
                        error)))
        return r;
    return VS_OK;
}

/* Stages influences [first, first + kc) of the n vertices in slots slot..
 * of group k. One function per index and weight type, with kc a constant
 * in each case, so the loop has no per-influence format tests. */
#define STAGE_FN(name, JT, WT, WSCALE)                                         \
    static inline __attribute__((always_inline)) void name##_k(                \
        const JT *joints, const WT *weights, const float *jm, size_t at0,      \
        size_t stride, size_t n, const unsigned kc, kernel_scratch *sc)        \
    {                                                                          \
        for (size_t i = 0; i < n; ++i)                                         \
            KERNEL_UNROLL                                                      \
        for (unsigned j = 0; j < kc; ++j) {                                    \
            const size_t at = at0 + i * stride + j;                            \
            sc->jm[i * kc + j] = jm + (size_t)joints[at] * 16;                 \
            sc->w[i * kc + j] = (float)weights[at] * (WSCALE);                 \
        }                                                                      \
    }                                                                          \
    static void name(const vs_skin_stream *s, const float *jm, size_t at0,     \
                     size_t stride, size_t n, unsigned kc, kernel_scratch *sc) \
    {                                                                          \
        const JT *joints = (const JT *)s->joints;                              \
        const WT *weights = (const WT *)s->weights;                            \
        switch (kc) {                                                          \
        case 1:                                                                \
            name##_k(joints, weights, jm, at0, stride, n, 1, sc);              \
            break;                                                             \
        case 2:                                                                \
            name##_k(joints, weights, jm, at0, stride, n, 2, sc);              \
            break;                                                             \
        case 3:                                                                \
            name##_k(joints, weights, jm, at0, stride, n, 3, sc);              \
            break;                                                             \
        case 4:                                                                \
            name##_k(joints, weights, jm, at0, stride, n, 4, sc);              \
            break;                                                             \
        default:                                                               \
            name##_k(joints, weights, jm, at0, stride, n, kc, sc);             \
            break;                                                             \
        }                                                                      \
    }

STAGE_FN(stage_u8_unorm, uint8_t, uint16_t, 1.0f / 65535.0f)
STAGE_FN(stage_u8_float, uint8_t, float, 1.0f)
STAGE_FN(stage_u16_unorm, uint16_t, uint16_t, 1.0f / 65535.0f)
STAGE_FN(stage_u16_float, uint16_t, float, 1.0f)

typedef void (*stage_fn)(const vs_skin_stream *, const float *, size_t, size_t,
                         size_t, unsigned, kernel_scratch *);

/* Whether the n weights from element at are exactly 1 (a constant count
 * for full blocks). */
static bool weights_are_one(const vs_skin_stream *s, size_t at, size_t n)
{
    const void *w = kernel_element(s->weights, at, skin_stream_weight_size(s));
    return n == KERNEL_BLOCK
               ? kernel_weights_are_one(w, KERNEL_BLOCK, s->unorm16)
               : kernel_weights_are_one(w, n, s->unorm16);
}

/* mp[i] = the palette matrix of influence element at + i, i < n, and the
 * last one's beyond, up to KERNEL_BLOCK. Inlined with n a constant for
 * full blocks, where the loops vectorise (a per-element format test and
 * clamp kept them scalar). */
static inline void point_n(const vs_skin_stream *s, const float *palette,
                           size_t at, size_t n, const float **mp)
{
    if (s->u8_joints) {
        const uint8_t *j = (const uint8_t *)s->joints + at;
        for (size_t i = 0; i < n; ++i)
            mp[i] = palette + (size_t)j[i] * 16;
    } else {
        const uint16_t *j = (const uint16_t *)s->joints + at;
        for (size_t i = 0; i < n; ++i)
            mp[i] = palette + (size_t)j[i] * 16;
    }
    for (size_t i = n; i < KERNEL_BLOCK; ++i)
        mp[i] = mp[n - 1];
}

static void point_block(const vs_skin_stream *s, const float *palette,
                        size_t at, size_t n, const float **mp)
{
    if (n == KERNEL_BLOCK)
        point_n(s, palette, at, KERNEL_BLOCK, mp);
    else
        point_n(s, palette, at, n, mp);
}

/* The attribute indices of stream positions [pos, pos + n): the stream's
 * order (source order, *at = io), or relative ones with *at moved to pos
 * (stream order; written only when vi does not already hold them for a
 * block of n, *held says for how many it does, 0 for none: a block's
 * stores were about a tenth of a one-influence job). vi[n..KERNEL_BLOCK)
 * repeat vi[n - 1]. */
static void block_indices(const vs_skin_stream *s, const kernel_io *io,
                          bool source, size_t pos, size_t n, size_t *vi,
                          size_t *held, kernel_io *at)
{
    if (source) {
        for (size_t i = 0; i < KERNEL_BLOCK; ++i)
            vi[i] = s->order[pos + (i < n ? i : n - 1)];
        *at = *io;
        *held = 0;
        return;
    }
    if (n != *held) {
        kernel_block_indices(vi, n);
        *held = n;
    }
    kernel_io_at(io, pos, at);
}

/* How many of the left chunked vertices, from chunk lane lane0 on, one
 * kernel call takes: at most a block, and cut so that whole chunks come in
 * calls of their own (a range that starts or ends inside a chunk takes
 * that chunk's part alone), which the kernels' packed loop needs. */
static size_t chunk_block(size_t lane0, size_t left)
{
    const size_t head = (KERNEL_CHUNK - lane0 % KERNEL_CHUNK) % KERNEL_CHUNK;
    if (head) return head < left ? head : left;
    if (left >= KERNEL_BLOCK) return KERNEL_BLOCK;
    return left >= KERNEL_CHUNK ? left - left % KERNEL_CHUNK : left;
}

/* Stages lanes [lane0, lane0 + n) of a group's chunks (src, k joints
 * each) as a tail's influences are staged, a zero weight pointing at
 * kernel_zero_matrix. A union chunk's lane has weight 0 for the joints its
 * vertex lacks: where a joint matrix is not finite, 0 x inf would poison
 * the chunk's blend, where the reference skips the influence, so such a
 * job blends them this way. */
static void stage_chunk_lanes(const kernel_chunk_src *src, uint32_t k,
                              size_t lane0, size_t n, kernel_scratch *sc)
{
    for (size_t i = 0; i < n; ++i) {
        const size_t c = (lane0 + i) / KERNEL_CHUNK,
                     lane = (lane0 + i) % KERNEL_CHUNK;
        for (uint32_t j = 0; j < k; ++j) {
            const size_t at = c * k + j;
            const void *wp = kernel_element(
                src->weights, at * KERNEL_CHUNK + lane, src->unorm16 ? 2 : 4);
            const float w =
                src->unorm16 ? (float)*(const uint16_t *)wp * (1.0f / 65535.0f)
                             : *(const float *)wp;
            sc->jm[i * k + j] = w != 0.0f
                                    ? kernel_chunk_joint(src, src->palette, at)
                                    : kernel_zero_matrix;
            sc->w[i * k + j] = w;
        }
    }
}

static stage_fn stage_for(const vs_skin_stream *s)
{
    if (s->u8_joints) return s->unorm16 ? stage_u8_unorm : stage_u8_float;
    return s->unorm16 ? stage_u16_unorm : stage_u16_float;
}

vs_result vs_skin_stream_job_run(const vs_skin_stream_job *job, vs_error *error)
{
    vs_result r = vs_skin_stream_job_validate(job, error);
    if (r != VS_OK) return r;
    const vs_isa isa =
        job->isa == VS_ISA_SCALAR ? VS_ISA_PORTABLE : (vs_isa)job->isa;
    const kernel_ops *ops = kernel_ops_for(isa);
    if (!ops)
        return set_error(error, VS_ERROR_UNSUPPORTED,
                         "skin stream job: isa: %s (%u) is not supported by "
                         "this CPU or build",
                         vs_isa_name(isa), job->isa);
    const vs_skin_stream *s = job->stream;
    kernel_io io;
    kernel_io_init(
        &io, job->in_positions, job->in_positions_stride, job->out_positions,
        job->out_positions_stride, job->in_normals, job->in_normals_stride,
        job->out_normals, job->out_normals_stride, job->in_tangents,
        job->in_tangents_stride, job->out_tangents, job->out_tangents_stride,
        job->tangent_components, job->order == VS_STREAM_ORDER_STREAM);
    kernel_io_normals(&io, job->flags);
    const bool streaming = kernel_io_streaming(&io, job->flags);
    kernel_scratch sc;
    kernel_scratch_clear(&sc);
    kernel_palette_copy copy;
    const float *palette = kernel_aligned_palette(
        job->joint_matrices, s->joint_count, job->vertex_count, &copy);
    /* Chunks of 2 or more influences read their unorm16 weights as
     * integers from a palette scaled by 1 / 65535 (up to 256 joints), in
     * every path that reads them, so that no cut of the range changes a
     * float. Its 16 multiplies per joint save one per influence and step of
     * 8 vertices (docs/design/skinning.md, "The weights' scale in the palette"). */
    kernel_palette_copy q_copy;
    const size_t one_chunks = s->max_k >= 1 ? s->chunk_count[1] : 0;
    const float *palette_q =
        s->unorm16 && s->chunk_influences > one_chunks
            ? kernel_q_palette(job->joint_matrices, s->joint_count, &q_copy)
            : NULL;
    const stage_fn stage = stage_for(s);
    /* Union chunks blend as chunks only where no zero weight can meet a
     * matrix that is not finite (stage_chunk_lanes). The whole job decides,
     * so that no cut of the range changes a float. */
    const bool unions_as_chunks =
        !skin_stream_union_chunks(s) ||
        kernel_palette_finite(job->joint_matrices, s->joint_count);
    const size_t end = job->first_vertex + job->vertex_count;
    /* Stream order visits consecutive vertices: relative indices and the
     * attributes moved to each block (kernel_io_at); source order gathers
     * through the stream's order. */
    const bool source = job->order == VS_STREAM_ORDER_SOURCE;
    size_t held = 0; /* sc.vi holds the relative indices of a block of
                        this many vertices (0: none) */
    for (uint32_t k = 0; k <= s->max_k && job->vertex_count; ++k) {
        /* The group's chunks first, [lo, tail) of it in this range. */
        const size_t tail = skin_stream_tail_start(s, k);
        size_t lo = s->group_start[k], hi = s->group_start[k + 1];
        if (lo < job->first_vertex) lo = job->first_vertex;
        if (hi > end) hi = end;
        const kernel_chunk_src chunks = {
            kernel_element(s->chunk_joints, s->chunk_at[k],
                           skin_stream_joint_size(s)),
            kernel_element(s->chunk_weights, s->chunk_at[k] * KERNEL_CHUNK,
                           skin_stream_weight_size(s)),
            s->u8_joints,
            s->unorm16,
            palette,
            k == 1 && s->unit_chunks1,
            k > 1 ? palette_q : NULL};
        const size_t chunks_end = hi < tail ? hi : tail;
        const size_t unions = skin_stream_union_start(s, k);
        const size_t stop =
            unions_as_chunks || chunks_end < unions ? chunks_end : unions;
        for (size_t pos = lo; pos < stop;) {
            const size_t lane0 = pos - s->group_start[k];
            size_t n = chunk_block(lane0, stop - pos);
            kernel_io at;
            /* In stream order the whole chunks of the range go to the
             * packed loop in one call: cut into blocks, each call would
             * drain the loop's software pipeline and set it up again. */
            const size_t whole = (stop - pos) / KERNEL_CHUNK * KERNEL_CHUNK;
            if (!source && n == KERNEL_BLOCK &&
                kernel_chunks_packed_ok(&io, whole, lane0)) {
                n = whole;
                kernel_io_at(&io, pos, &at);
            } else {
                block_indices(s, &io, source, pos, n, sc.vi, &held, &at);
            }
            ops->transform_chunks(&at, sc.vi, n, k, &chunks, lane0);
            pos += n;
        }
        for (size_t pos = lo > stop ? lo : stop; pos < chunks_end;) {
            const size_t left = chunks_end - pos;
            const size_t n = left < KERNEL_BLOCK ? left : KERNEL_BLOCK;
            kernel_io at;
            block_indices(s, &io, source, pos, n, sc.vi, &held, &at);
            stage_chunk_lanes(&chunks, k, pos - s->group_start[k], n, &sc);
            ops->blend(n, k, sc.jm, sc.w, sc.idw, sc.mat, 0);
            ops->transform(&at, sc.vi, n, sc.mat);
            pos += n;
        }
        if (lo < tail) lo = tail;
        /* An unskinned vertex keeps its input under normalised weights
         * (copied bit for bit, kernel_kept) and collapses to the origin
         * under raw ones, as in the reference. */
        const bool keep = k == 0 && !s->raw;
        const kernel_stream_src src = {s->joints, s->weights, s->u8_joints,
                                       s->unorm16, palette};
        /* Blended blocks of KERNEL_JOB_BLOCK, as in the plain job (kernel.h
         * says why). */
        const size_t step =
            k >= 2 && k <= KERNEL_MAX_STAGED ? KERNEL_JOB_BLOCK : KERNEL_BLOCK;
        for (size_t pos = lo; pos < hi; pos += step) {
            const size_t n = hi - pos < step ? hi - pos : step;
            kernel_io at;
            block_indices(s, &io, source, pos, n, sc.vi, &held, &at);
            const size_t slot = pos - tail;
            const size_t at0 = s->group_data[k] + slot * k;
            if (keep) {
                kernel_kept kept;
                kernel_keep_inputs(&at, sc.vi, n, NULL, &kept);
                kernel_write_kept(&at, &kept);
                continue;
            }
            if (k == 0) {
                /* Raw weights only (keep above): sc.idw stays 0 from
                 * kernel_scratch_clear, so the matrix is zero. */
                ops->blend(n, 0, sc.jm, sc.w, sc.idw, sc.mat, 0);
            } else if (k == 1 && weights_are_one(s, at0, n)) {
                /* One influence of weight exactly 1 (what normalisation
                 * leaves, unless a neighbour too small for unorm16 was
                 * dropped): the vertex takes its joint's own matrix, read
                 * from the palette, with no blend. */
                point_block(s, palette, at0, n, sc.mp);
                ops->transform_pointed(&at, sc.vi, n, sc.mp);
                continue;
            } else if (k <= KERNEL_MAX_STAGED) {
                ops->blend_stream(n, k, &src, at0, sc.mat);
            } else {
                for (uint32_t first = 0; first < k;
                     first += KERNEL_MAX_STAGED) {
                    const unsigned kc = k - first < KERNEL_MAX_STAGED
                                            ? k - first
                                            : KERNEL_MAX_STAGED;
                    stage(s, palette, at0 + first, k, n, kc, &sc);
                    ops->blend(n, kc, sc.jm, sc.w, sc.idw, sc.mat, first > 0);
                }
            }
            ops->transform(&at, sc.vi, n, sc.mat);
        }
    }
    if (streaming) kernel_store_fence();
    return VS_OK;
}
