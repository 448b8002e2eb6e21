/* SPDX-License-Identifier: MIT */
/* vs_skinning_job_run: the plain job (caller's u16 joints and float weights,
 * any strides) on the fastest kernel, in blocks of KERNEL_JOB_BLOCK,
 * kernel_fused_block or KERNEL_BLOCK vertices.
 * Up to 8 influences the kernel reads the caller's arrays itself
 * (kernel_ops.skin_job, else kernel_ops.blend_job); more are staged here 8 at a
 * time (weights normalised once per vertex by the reference's rule) and
 * accumulated. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "asset/weights_rule.h"
#include "skin/dqs/dqs_kernel.h"
#include "skin/lbs/kernel.h"
#include "skin/skinning_internal.h"

typedef struct job_source {
    const unsigned char *joints, *weights;
    size_t joints_step, weights_step;
} job_source;

/* Weight scale for vertex v (1 / sum, or 1 with raw weights) and whether the
 * vertex is unskinned (identity). Returns false on a joint index out of
 * range. */
static bool vertex_scale(const vs_skinning_job *job, const job_source *src,
                         size_t v, double *scale, float *idw)
{
    const unsigned char *jp = src->joints + v * src->joints_step;
    const unsigned char *wp = src->weights + v * src->weights_step;
    double sum = 0.0;
    uint16_t bad = 0;
    for (uint32_t i = 0; i < job->influence_count; ++i) {
        uint16_t joint;
        float w;
        memcpy(&joint, jp + i * sizeof joint, sizeof joint);
        memcpy(&w, wp + i * sizeof w, sizeof w);
        bad |= joint >= job->joint_count;
        sum += w;
    }
    *scale = 1.0;
    *idw = 0.0f;
    if (!(job->flags & VS_SKIN_RAW_WEIGHTS)) {
        if (!weights_sum_skins(sum)) {
            *scale = 0.0;
            *idw = 1.0f;
        } else {
            *scale = 1.0 / sum;
        }
    }
    return !bad;
}

/* Influences [first, first + k) of n vertices into the scratch. */
static void stage_chunk(const vs_skinning_job *job, const job_source *src,
                        size_t base, size_t n, uint32_t first, unsigned k,
                        const double *scale, kernel_scratch *s)
{
    for (size_t i = 0; i < n; ++i) {
        const unsigned char *jp =
            src->joints + (base + i) * src->joints_step + first * 2;
        const unsigned char *wp =
            src->weights + (base + i) * src->weights_step + first * 4;
        for (unsigned j = 0; j < k; ++j) {
            uint16_t joint;
            float w;
            memcpy(&joint, jp + j * sizeof joint, sizeof joint);
            memcpy(&w, wp + j * sizeof w, sizeof w);
            /* scale 0: unskinned vertex; its weights (NaN ones too) count
             * for nothing. */
            const float ws = scale[i] != 0.0 ? (float)(w * scale[i]) : 0.0f;
            s->w[i * k + j] = ws;
            s->jm[i * k + j] = ws != 0.0f
                                   ? job->joint_matrices + (size_t)joint * 16
                                   : kernel_zero_matrix;
        }
    }
}

/* A block of at most KERNEL_JOB_BLOCK vertices blended (blend_job) and
 * transformed, its unskinned vertices kept. False on a bad joint index,
 * with nothing written. */
static bool two_passes(const kernel_ops *ops, const kernel_job_src *small,
                       const kernel_io *io, size_t base, size_t n,
                       kernel_scratch *s, kernel_kept *kept)
{
    const int r = ops->blend_job(small, base, n, s->mat, s->mp, s->idw);
    if (KERNEL_RESULT(r) == KERNEL_BAD_INDEX) return false;
    if (r & KERNEL_UNSKINNED) kernel_keep_inputs(io, s->vi, n, s->idw, kept);
    if (KERNEL_RESULT(r) == KERNEL_JOINTS)
        ops->transform_joints(
            io, s->vi, n, small->palette,
            (const uint16_t *)(const void *)(small->joints +
                                             base * small->joints_step));
    else if (KERNEL_RESULT(r) == KERNEL_POINTED)
        ops->transform_pointed(io, s->vi, n, s->mp);
    else
        ops->transform(io, s->vi, n, s->mat);
    if (r & KERNEL_UNSKINNED) kernel_write_kept(io, kept);
    return true;
}

/* count elements of size bytes, step bytes apart from p, asked into the
 * cache: every line they cover where they lie close, else each element's
 * first and last byte (a far stride would otherwise ask for every line
 * between them). A hint: no fault, no result changes. */
static void prefetch_elements(const unsigned char *p, size_t step, size_t size,
                              size_t count)
{
    if (step <= 64) {
        const size_t bytes = (count - 1) * step + size;
        for (size_t o = 0; o < bytes; o += 64)
            __builtin_prefetch(p + o);
        __builtin_prefetch(p + bytes - 1);
        return;
    }
    for (size_t i = 0; i < count; ++i) {
        __builtin_prefetch(p + i * step);
        __builtin_prefetch(p + i * step + size - 1);
    }
}

/* The joint indices and weights of vertices first .. first + count - 1
 * (count >= 1) asked into the cache. A block's kernel reads its influences
 * first, in one short burst (index and weight checks, weight sums) before
 * its attributes; asked for one block ahead, they arrive while the block
 * before runs, where the burst otherwise waited on memory at every block
 * start. */
static void prefetch_influences(const job_source *src, size_t inf, size_t first,
                                size_t count)
{
    prefetch_elements(src->joints + first * src->joints_step, src->joints_step,
                      inf * sizeof(uint16_t), count);
    prefetch_elements(src->weights + first * src->weights_step,
                      src->weights_step, inf * sizeof(float), count);
}

/* Whether every joint matrix is finite. Only worth scanning when the job has
 * at least as many vertices as joints. */
static bool palette_is_finite(const vs_skinning_job *job)
{
    return job->vertex_count >= job->joint_count &&
           kernel_palette_finite(job->joint_matrices, job->joint_count);
}

static vs_result run_blocks(const vs_skinning_job *job, const kernel_ops *ops,
                            const kernel_io *io_all, vs_error *error)
{
    const size_t inf = job->influence_count;
    job_source src = {
        (const unsigned char *)job->joints, (const unsigned char *)job->weights,
        job->joints_stride ? job->joints_stride : inf * sizeof(uint16_t),
        job->weights_stride ? job->weights_stride : inf * sizeof(float)};
    kernel_scratch s;
    kernel_scratch_clear(&s);
    kernel_kept kept; /* written before it is read, in blocks that need it */
    double scale[KERNEL_BLOCK];
    const kernel_job_src small = {src.joints,
                                  src.weights,
                                  src.joints_step,
                                  src.weights_step,
                                  job->joint_matrices,
                                  job->joint_count,
                                  (unsigned)inf,
                                  (job->flags & VS_SKIN_RAW_WEIGHTS) != 0,
                                  inf <= KERNEL_MAX_STAGED &&
                                      palette_is_finite(job)};

    /* Where the kernel blends, blocks of KERNEL_JOB_BLOCK, or of
     * kernel_fused_block where its skin_job may blend in the transform
     * (kernel.h says why); one influence with normalised weights (pointed,
     * no blend) and the staged path take whole blocks. */
    const bool pointed = inf == 1 && !small.raw;
    const bool fused = ops->skin_job && inf >= 2 && inf <= KERNEL_MAX_STAGED &&
                       !small.raw && small.finite_palette;
    const size_t step = pointed || inf > KERNEL_MAX_STAGED ? KERNEL_BLOCK
                        : fused ? kernel_fused_block((unsigned)inf)
                                : KERNEL_JOB_BLOCK;
    /* The lead first (kernel_job_lead), then whole blocks from a line. */
    const size_t lead = skinning_job_lead(job);
    size_t indexed = step; /* the block size s.vi holds */
    kernel_block_indices(s.vi, step);
    for (size_t base = 0, n; base < job->vertex_count; base += n) {
        const size_t left = job->vertex_count - base;
        const size_t want = base == 0 && lead ? lead : step;
        n = left < want ? left : want;
        if (n != indexed) kernel_block_indices(s.vi, indexed = n);
        kernel_io at;
        kernel_io_at(io_all, base, &at);
        if (n < left)
            prefetch_influences(&src, inf, base + n,
                                left - n < step ? left - n : step);
        if (inf <= KERNEL_MAX_STAGED) {
            /* A bad joint index: the reference finishes from this block,
             * so the error and what was written before it are exactly its
             * own. */
            if (fused) {
                const int f = ops->skin_job(&small, &at, s.vi, base, n);
                if (f == KERNEL_BAD_INDEX)
                    return skinning_job_reference_from(job, base, error);
                if (f == KERNEL_BLENDED) continue;
            }
            if (!fused || n <= KERNEL_JOB_BLOCK) {
                if (!two_passes(ops, &small, &at, base, n, &s, &kept))
                    return skinning_job_reference_from(job, base, error);
                continue;
            }
            /* A fused block that skin_job declined: blend_job takes at most
             * KERNEL_JOB_BLOCK vertices. */
            for (size_t sub = 0; sub < n; sub += KERNEL_JOB_BLOCK) {
                const size_t m =
                    n - sub < KERNEL_JOB_BLOCK ? n - sub : KERNEL_JOB_BLOCK;
                kernel_block_indices(s.vi, m);
                kernel_io_at(io_all, base + sub, &at);
                if (!two_passes(ops, &small, &at, base + sub, m, &s, &kept))
                    return skinning_job_reference_from(job, base + sub, error);
            }
            kernel_block_indices(s.vi, n);
            continue;
        }
        const kernel_io *io = &at;
        bool ok = true, any_unskinned = false;
        for (size_t i = 0; i < n; ++i) {
            ok &= vertex_scale(job, &src, base + i, &scale[i], &s.idw[i]);
            any_unskinned |= s.idw[i] != 0.0f;
        }
        /* A bad joint index: the reference finishes from this block, so the
         * error and what was written before it are exactly its own. */
        if (!ok) return skinning_job_reference_from(job, base, error);
        for (uint32_t first = 0; first < job->influence_count;
             first += KERNEL_MAX_STAGED) {
            const uint32_t rest = job->influence_count - first;
            const unsigned k =
                rest < KERNEL_MAX_STAGED ? rest : KERNEL_MAX_STAGED;
            stage_chunk(job, &src, base, n, first, k, scale, &s);
            ops->blend(n, k, s.jm, s.w, s.idw, s.mat, first > 0);
        }
        if (any_unskinned) kernel_keep_inputs(io, s.vi, n, s.idw, &kept);
        ops->transform(io, s.vi, n, s.mat);
        if (any_unskinned) kernel_write_kept(io, &kept);
    }
    return VS_OK;
}

/* The kernel path: the attribute streams set up once, the blocks run, and
 * streamed stores ordered before the job returns. */
static vs_result run_fast(const vs_skinning_job *job, const kernel_ops *ops,
                          vs_error *error)
{
    kernel_io io;
    kernel_io_init(&io, job->in_positions, job->in_positions_stride,
                   job->out_positions, job->out_positions_stride,
                   job->in_normals, job->in_normals_stride, job->out_normals,
                   job->out_normals_stride, job->in_tangents,
                   job->in_tangents_stride, job->out_tangents,
                   job->out_tangents_stride, job->tangent_components, true);
    kernel_io_normals(&io, job->flags);
    const bool streaming =
        kernel_io_streaming(&io, skinning_job_store_flags(job));
    kernel_palette_copy copy;
    vs_skinning_job aligned = *job;
    aligned.joint_matrices = kernel_aligned_palette(
        job->joint_matrices, job->joint_count, job->vertex_count, &copy);
    const vs_result r = run_blocks(&aligned, ops, &io, error);
    if (streaming) kernel_store_fence();
    return r;
}

size_t skinning_job_bytes(const vs_skinning_job *job)
{
    size_t per = (size_t)job->influence_count *
                 (sizeof *job->joints + sizeof *job->weights);
    per += 2 * 3 * sizeof(float) * (1u + (job->in_normals != NULL));
    if (job->in_tangents)
        per += 2 * skin_tangent_bytes(job->tangent_components);
    return job->vertex_count > SIZE_MAX / per ? SIZE_MAX
                                              : job->vertex_count * per;
}

uint32_t skinning_job_store_flags(const vs_skinning_job *job)
{
    if (job->flags & SKIN_STORE_FLAGS) return job->flags;
    return job->flags | (skinning_job_bytes(job) >= VS_SKIN_STREAMING_AUTO_BYTES
                             ? VS_SKIN_STREAMING_STORES
                             : VS_SKIN_CACHED_STORES);
}

size_t skinning_job_lead(const vs_skinning_job *job)
{
    if (job->isa == VS_ISA_SCALAR || job->method == VS_SKIN_DUAL_QUATERNION)
        return 0;
    return kernel_job_lead(job->out_positions, job->out_positions_stride,
                           job->vertex_count);
}

/* The DQS kernels (dqs_kernel.c) come in plain C, SSE2 and AVX2+FMA; an
 * AVX-512 request (already checked against the CPU) takes the AVX2 one. */
static dqs_isa dqs_isa_for(vs_isa isa)
{
    switch (isa) {
    case VS_ISA_PORTABLE:
        return DQS_ISA_SCALAR;
    case VS_ISA_SSE2:
        return DQS_ISA_SSE2;
    case VS_ISA_AVX2:
    case VS_ISA_AVX512:
        return DQS_ISA_AVX2;
    default:
        return DQS_ISA_AUTO;
    }
}

vs_result vs_skinning_job_run(const vs_skinning_job *job, vs_error *error)
{
    vs_result r = vs_skinning_job_validate(job, error);
    if (r != VS_OK) return r;
    if (job->isa == VS_ISA_SCALAR)
        return skinning_job_reference_from(job, 0, error);
    const kernel_ops *ops = kernel_ops_for((vs_isa)job->isa);
    if (!ops)
        return set_error(error, VS_ERROR_UNSUPPORTED,
                         "skinning job: isa: %s (%u) is not supported by this "
                         "CPU or build",
                         vs_isa_name((vs_isa)job->isa), job->isa);
    if (job->method == VS_SKIN_DUAL_QUATERNION)
        return dqs_kernel_run(job, dqs_isa_for((vs_isa)job->isa), error);
    return run_fast(job, ops, error);
}
