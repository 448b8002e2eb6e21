/* SPDX-License-Identifier: MIT */
/* Writes to stdout the outputs of plain and stream skinning jobs on inputs
 * built from integers (the same floats on every machine), for
 * scripts/test-arm.sh to compare byte for byte across machines: the
 * portable kernel on an ARM build must give what the SSE2 kernel gives on
 * x86-64 (docs/skinning.md, "Same results on every CPU"). Covers 1, 2, 3, 4
 * and 8 influences; positions alone (the path by one matrix each),
 * positions with normals, and with tangents; normalised, unskinned, tiny
 * and raw weights; normals by the matrix; and the prepared stream.
 * Usage: kernel_bytes portable|sse2|auto > bytes */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vskin/vskin.h>

enum { VERTICES = 5003, JOINTS = 40, ATTR_SETS = 5 };

static uint32_t rng_state = 12345u;

/* A float in [lo, hi] on a grid of 1/65536, from a 32-bit LCG. */
static float grid_float(float lo, float hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)((rng_state >> 8) & 0xFFFF) / 65536.0f;
}

static int fail(const char *what, const vs_error *e)
{
    fprintf(stderr, "kernel_bytes: %s: %s\n", what, e->message);
    return 1;
}

/* Runs the plain job with attribute set `set` into the outputs and writes
 * them (zeroed first, so untouched bytes compare too). */
static int plain_job(vs_skinning_job job, int set, float *op, float *on,
                     float *ot, const float *nrm, const float *tan)
{
    job.out_positions = op;
    job.out_positions_stride = 12;
    if (set >= 1) {
        job.in_normals = nrm, job.in_normals_stride = 12;
        job.out_normals = on, job.out_normals_stride = 12;
    }
    if (set >= 2) {
        job.in_tangents = tan, job.in_tangents_stride = 16;
        job.out_tangents = ot, job.out_tangents_stride = 16;
        job.tangent_components = 4;
    }
    if (set == 3) job.flags = VS_SKIN_RAW_WEIGHTS;
    if (set == 4) job.flags = VS_SKIN_NORMALS_BY_MATRIX;
    memset(op, 0, VERTICES * 12);
    memset(on, 0, VERTICES * 12);
    memset(ot, 0, VERTICES * 16);
    vs_error e;
    if (vs_skinning_job_run(&job, &e) != VS_OK) return fail("plain job", &e);
    fwrite(op, 12, VERTICES, stdout);
    fwrite(on, 12, VERTICES, stdout);
    fwrite(ot, 16, VERTICES, stdout);
    return 0;
}

static int stream_job(const uint16_t *joints, const float *weights, uint32_t k,
                      const float *jm, const float *pos, const float *nrm,
                      float *op, float *on, uint32_t isa)
{
    vs_skin_stream_desc d;
    memset(&d, 0, sizeof d);
    d.vertex_count = VERTICES, d.influence_count = k, d.joint_count = JOINTS;
    d.joints = joints, d.joints_stride = k * 2;
    d.weights = weights, d.weights_stride = k * 4;
    d.weight_format = VS_SKIN_WEIGHTS_UNORM16;
    vs_skin_stream *stream;
    vs_error e;
    if (vs_skin_stream_create(&d, &stream, &e) != VS_OK)
        return fail("stream", &e);
    vs_skin_stream_job job;
    memset(&job, 0, sizeof job);
    job.stream = stream, job.joint_matrices = jm, job.vertex_count = VERTICES;
    job.order = VS_STREAM_ORDER_STREAM;
    job.in_positions = pos, job.out_positions = op;
    job.in_normals = nrm, job.out_normals = on;
    job.isa = isa;
    memset(op, 0, VERTICES * 12);
    memset(on, 0, VERTICES * 12);
    const vs_result r = vs_skin_stream_job_run(&job, &e);
    vs_skin_stream_free(stream);
    if (r != VS_OK) return fail("stream job", &e);
    fwrite(op, 12, VERTICES, stdout);
    fwrite(on, 12, VERTICES, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "auto";
    const uint32_t isa = !strcmp(name, "portable") ? VS_ISA_PORTABLE
                         : !strcmp(name, "sse2")   ? VS_ISA_SSE2
                                                   : VS_ISA_AUTO;
    if (!vs_isa_supported(isa)) {
        fprintf(stderr, "kernel_bytes: this CPU does not run %s\n", name);
        return 1;
    }
    static float jm[JOINTS * 16], pos[VERTICES * 3], nrm[VERTICES * 3],
        tan[VERTICES * 4], op[VERTICES * 3], on[VERTICES * 3], ot[VERTICES * 4];
    for (int j = 0; j < JOINTS; ++j) {
        float *m = jm + 16 * j;
        for (int e = 0; e < 16; ++e)
            m[e] = grid_float(-1, 1);
        m[3] = m[7] = m[11] = 0, m[15] = 1;
    }
    for (int i = 0; i < VERTICES * 3; ++i)
        pos[i] = grid_float(-2, 2), nrm[i] = grid_float(-1, 1);
    for (int i = 0; i < VERTICES * 4; ++i)
        tan[i] = grid_float(-1, 1);
    static const uint32_t ks[] = {1, 2, 3, 4, 8};
    static uint16_t joints[VERTICES * 8];
    static float weights[VERTICES * 8];
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ++ki) {
        const uint32_t k = ks[ki];
        for (int odd = 0; odd < 2; ++odd) {
            for (uint32_t i = 0; i < VERTICES; ++i)
                for (uint32_t q = 0; q < k; ++q) {
                    rng_state = rng_state * 1664525u + 1013904223u;
                    joints[i * k + q] = (uint16_t)((rng_state >> 8) % JOINTS);
                    float w = grid_float(0.01f, 1);
                    if (odd && i % 7 == 0) w = 0; /* unskinned */
                    if (odd && i % 11 == 0 && q == 0) w = 1e-30f;
                    weights[i * k + q] = w;
                }
            vs_skinning_job job;
            memset(&job, 0, sizeof job);
            job.vertex_count = VERTICES, job.influence_count = k;
            job.joint_matrices = jm, job.joint_count = JOINTS;
            job.joints = joints, job.joints_stride = k * 2;
            job.weights = weights, job.weights_stride = k * 4;
            job.in_positions = pos, job.in_positions_stride = 12;
            job.isa = isa;
            for (int set = 0; set < ATTR_SETS; ++set)
                if (plain_job(job, set, op, on, ot, nrm, tan)) return 1;
            if (stream_job(joints, weights, k, jm, pos, nrm, op, on, isa))
                return 1;
        }
    }
    return fflush(stdout) != 0;
}
