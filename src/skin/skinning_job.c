/* SPDX-License-Identifier: MIT */
/* The scalar reference skinning job (ozz-style: every buffer with its byte
 * stride, validate then run, no allocation). Clarity and exactness come
 * before speed: SIMD kernels are tested against this one.
 *
 * Buffers are read and written through memcpy, so only the alignment of the
 * element type's bytes is never assumed: any byte stride works, including
 * interleaved layouts whose stride is not a multiple of 4. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "asset/weights_rule.h"
#include "skin/dqs/dqs_kernel.h"
#include "skin/dqs/dqs_reference.h"
#include "skin/skinning_internal.h"
#include "skin/skinning_reference.h"
#include "skin/lbs/vertex_transform.h"
#include "vskin/vskin.h"

static size_t stride_or_packed(size_t stride, size_t element)
{
    return stride ? stride : element;
}

/* A present buffer needs a stride of 0 (packed) or at least one element, and
 * vertex_count strides must be addressable. */
static vs_result check_buffer(const vs_skinning_job *job, const char *name,
                              size_t stride, size_t element, vs_error *error)
{
    if (stride != 0 && stride < element)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skinning job: %s_stride: %zu bytes is smaller than "
                         "one element (%zu bytes)",
                         name, stride, element);
    size_t step = stride_or_packed(stride, element);
    if (job->vertex_count > SIZE_MAX / step)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skinning job: %s: %zu vertices of %zu bytes exceed "
                         "the address space",
                         name, job->vertex_count, step);
    return VS_OK;
}

static vs_result require(const void *p, const char *name, vs_error *error)
{
    if (p) return VS_OK;
    return set_error(error, VS_ERROR_ARGUMENT,
                     "skinning job: %s: required buffer is NULL", name);
}

/* Optional streams come in pairs: an input without an output would be
 * silently dropped, an output without an input would be left unwritten. */
static vs_result check_pair(const void *in, const void *out, const char *what,
                            vs_error *error)
{
    if (!in == !out) return VS_OK;
    return set_error(error, VS_ERROR_ARGUMENT,
                     "skinning job: %s_%s: set without in/out counterpart "
                     "%s_%s",
                     in ? "in" : "out", what, in ? "out" : "in", what);
}

vs_result skin_check_store_flags(uint32_t flags, const char *what,
                                 vs_error *error)
{
    if ((flags & SKIN_STORE_FLAGS) != SKIN_STORE_FLAGS) return VS_OK;
    return set_error(error, VS_ERROR_ARGUMENT,
                     "%s: flags: VS_SKIN_STREAMING_STORES and "
                     "VS_SKIN_CACHED_STORES ask for opposite stores",
                     what);
}

vs_result vs_skinning_job_validate(const vs_skinning_job *job, vs_error *error)
{
    vs_result r;
    if (!job)
        return set_error(error, VS_ERROR_ARGUMENT, "skinning job: job is NULL");
    if (job->influence_count < 1)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skinning job: influence_count: must be at least 1");
    if (job->joint_count < 1)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skinning job: joint_count: must be at least 1");
    if (job->tangent_components != 0 && job->tangent_components != 3 &&
        job->tangent_components != 4)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skinning job: tangent_components: %u is not 3 or 4",
                         job->tangent_components);
    if (job->method != VS_SKIN_LINEAR && job->method != VS_SKIN_DUAL_QUATERNION)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skinning job: method: %d is not VS_SKIN_LINEAR or "
                         "VS_SKIN_DUAL_QUATERNION",
                         (int)job->method);
    /* Dual quaternions have their own normal rule (vs_skin_method's page);
     * a flag that would change nothing there is refused, not ignored. */
    if (job->method == VS_SKIN_DUAL_QUATERNION &&
        (job->flags & VS_SKIN_NORMALS_BY_MATRIX))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skinning job: flags: VS_SKIN_NORMALS_BY_MATRIX "
                         "applies to VS_SKIN_LINEAR only, not "
                         "VS_SKIN_DUAL_QUATERNION");
    if ((r = skin_check_store_flags(job->flags, "skinning job", error)))
        return r;
    /* DQS reads only the dual quaternions when the caller gives them. */
    const bool dq_given =
        job->method == VS_SKIN_DUAL_QUATERNION && job->joint_dual_quaternions;
    if ((!dq_given &&
         (r = require(job->joint_matrices, "joint_matrices", error))) ||
        (r = require(job->joints, "joints", error)) ||
        (r = require(job->weights, "weights", error)) ||
        (r = require(job->in_positions, "in_positions", error)) ||
        (r = require(job->out_positions, "out_positions", error)) ||
        (r = check_pair(job->in_normals, job->out_normals, "normals", error)) ||
        (r = check_pair(job->in_tangents, job->out_tangents, "tangents",
                        error)))
        return r;

    const size_t inf = job->influence_count;
    const size_t tangent = skin_tangent_bytes(job->tangent_components);
    if ((r = check_buffer(job, "joints", job->joints_stride,
                          inf * sizeof(uint16_t), error)) ||
        (r = check_buffer(job, "weights", job->weights_stride,
                          inf * sizeof(float), error)) ||
        (r = check_buffer(job, "in_positions", job->in_positions_stride,
                          3 * sizeof(float), error)) ||
        (r = check_buffer(job, "out_positions", job->out_positions_stride,
                          3 * sizeof(float), error)))
        return r;
    if (job->in_normals &&
        ((r = check_buffer(job, "in_normals", job->in_normals_stride,
                           3 * sizeof(float), error)) ||
         (r = check_buffer(job, "out_normals", job->out_normals_stride,
                           3 * sizeof(float), error))))
        return r;
    if (job->in_tangents &&
        ((r = check_buffer(job, "in_tangents", job->in_tangents_stride, tangent,
                           error)) ||
         (r = check_buffer(job, "out_tangents", job->out_tangents_stride,
                           tangent, error))))
        return r;
    return VS_OK;
}

/* A stream: base pointer and the byte step between vertices. */
typedef struct stream {
    const unsigned char *in;
    size_t in_step;
    unsigned char *out;
    size_t out_step;
} stream;

static stream make_stream(const float *in, size_t in_stride, float *out,
                          size_t out_stride, size_t element)
{
    stream s = {(const unsigned char *)in, stride_or_packed(in_stride, element),
                (unsigned char *)out, stride_or_packed(out_stride, element)};
    return s;
}

/* skinMat = sum_i w_i * J[joint_i] (linear), or the DQS blend of the same
 * weights when dj is set (dqs_reference.c). Every joint index is checked before
 * the vertex is written, so an out-of-range index stops the job with vertices
 * [0, v) written and nothing after. Default weights rule (as three.js and
 * Babylon.js): w_i / sum(w); a sum that is not a positive finite number means
 * "not skinned": *unskinned is set and x is left alone, the vertex keeps its
 * input bit for bit. With VS_SKIN_RAW_WEIGHTS the stored weights are used as
 * they are, so a zero sum gives the zero matrix and the vertex collapses to
 * the origin. */
static vs_result blend_vertex(const vs_skinning_job *job, dq_joints *dj,
                              size_t v, const unsigned char *joints,
                              const unsigned char *weights, vertex_xform *x,
                              bool *unskinned, vs_error *error)
{
    *unskinned = false;
    double sum = 0.0;
    for (uint32_t i = 0; i < job->influence_count; ++i) {
        uint16_t joint;
        float w;
        memcpy(&joint, joints + i * sizeof joint, sizeof joint);
        memcpy(&w, weights + i * sizeof w, sizeof w);
        if (joint >= job->joint_count)
            return set_error(error, VS_ERROR_INVALID,
                             "skinning job: joints: vertex %zu influence %u "
                             "uses joint %u but there are %u joint matrices",
                             v, i, joint, job->joint_count);
        sum += w;
    }
    double divisor = 1.0;
    if (!(job->flags & VS_SKIN_RAW_WEIGHTS)) {
        if (!weights_sum_skins(sum)) {
            *unskinned = true;
            return VS_OK;
        }
        divisor = sum;
    }
    if (dj) {
        dqs_blend_vertex(dj, job->influence_count, joints, weights, divisor, x);
        return VS_OK;
    }
    vertex_xform_zero(x);
    for (uint32_t i = 0; i < job->influence_count; ++i) {
        uint16_t joint;
        float w;
        memcpy(&joint, joints + i * sizeof joint, sizeof joint);
        memcpy(&w, weights + i * sizeof w, sizeof w);
        /* A zero weight contributes nothing, even from a NaN matrix. */
        if (w == 0.0f) continue;
        vertex_xform_add(x, job->joint_matrices + (size_t)joint * 16,
                         (double)w / divisor);
    }
    return VS_OK;
}

static void store3(unsigned char *dst, const float v[3])
{
    memcpy(dst, v, 3 * sizeof(float));
}

/* Vertex v's input copied to its output: n floats, read before written, so
 * that skinning in place (the same buffer in and out) stays exact. */
static void keep_input(const stream *s, size_t v, size_t n)
{
    float in[4];
    memcpy(in, s->in + v * s->in_step, n * sizeof(float));
    memcpy(s->out + v * s->out_step, in, n * sizeof(float));
}

vs_result vs_skinning_job_run_reference(const vs_skinning_job *job,
                                        vs_error *error)
{
    vs_result r = vs_skinning_job_validate(job, error);
    if (r != VS_OK) return r;
    return skinning_job_reference_from(job, 0, error);
}

vs_result skinning_job_reference(const vs_skinning_job *job, vs_error *error)
{
    return skinning_job_reference_from(job, 0, error);
}

vs_result skinning_job_reference_from(const vs_skinning_job *job, size_t first,
                                      vs_error *error)
{
    vs_result r;
    const size_t inf = job->influence_count;
    const size_t tc = job->tangent_components == 3 ? 3 : 4;
    const unsigned char *joints = (const unsigned char *)job->joints;
    const unsigned char *weights = (const unsigned char *)job->weights;
    const size_t joints_step =
        stride_or_packed(job->joints_stride, inf * sizeof(uint16_t));
    const size_t weights_step =
        stride_or_packed(job->weights_stride, inf * sizeof(float));
    stream pos = make_stream(job->in_positions, job->in_positions_stride,
                             job->out_positions, job->out_positions_stride,
                             3 * sizeof(float));
    stream nrm =
        make_stream(job->in_normals, job->in_normals_stride, job->out_normals,
                    job->out_normals_stride, 3 * sizeof(float));
    stream tan = make_stream(job->in_tangents, job->in_tangents_stride,
                             job->out_tangents, job->out_tangents_stride,
                             tc * sizeof(float));

    /* About 10 KB of stack for DQS: the per-run joint conversion cache. */
    dq_joints dq_storage, *dj = NULL;
    if (job->method == VS_SKIN_DUAL_QUATERNION) {
        dq_joints_init(&dq_storage, job);
        dj = &dq_storage;
    }

    for (size_t v = first; v < job->vertex_count; ++v) {
        vertex_xform x;
        bool unskinned;
        r = blend_vertex(job, dj, v, joints + v * joints_step,
                         weights + v * weights_step, &x, &unskinned, error);
        if (r != VS_OK) return r;
        if (unskinned) {
            keep_input(&pos, v, 3);
            if (nrm.in) keep_input(&nrm, v, 3);
            if (tan.in) keep_input(&tan, v, tc);
            continue;
        }

        float in[4], out[3];
        double d[3];
        memcpy(in, pos.in + v * pos.in_step, 3 * sizeof(float));
        vertex_xform_point(&x, in, d);
        for (int k = 0; k < 3; ++k)
            out[k] = (float)d[k];
        store3(pos.out + v * pos.out_step, out);

        if (nrm.in) {
            memcpy(in, nrm.in + v * nrm.in_step, 3 * sizeof(float));
            if (job->flags & VS_SKIN_NORMALS_BY_MATRIX) {
                vertex_xform_vector(&x, in, d);
            } else {
                normal_matrix n;
                vertex_xform_normal_matrix(&x, &n);
                normal_matrix_apply(&n, in, d);
            }
            normalize_to_float(d, out);
            store3(nrm.out + v * nrm.out_step, out);
        }
        if (tan.in) {
            /* Tangents follow the surface like edges do, so they take the
             * 3x3 part itself; w (bitangent handedness) is copied. */
            memcpy(in, tan.in + v * tan.in_step, tc * sizeof(float));
            vertex_xform_vector(&x, in, d);
            normalize_to_float(d, out);
            store3(tan.out + v * tan.out_step, out);
            if (tc == 4)
                memcpy(tan.out + v * tan.out_step + 3 * sizeof(float), &in[3],
                       sizeof(float));
        }
    }
    return VS_OK;
}
