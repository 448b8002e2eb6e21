/* SPDX-License-Identifier: MIT */
/* Every kernel the CPU runs (portable, SSE2, AVX2, AVX-512, auto) against
 * the scalar reference on random meshes: 1-8 and 12 influences, odd vertex
 * counts, joint counts on both sides of the u8 limit, raw and normalised
 * weights, unweighted vertices, packed buffers and interleaved ones at odd,
 * unaligned offsets and strides, normals by either rule. ISAs this CPU
 * lacks are reported skipped and must answer VS_ERROR_UNSUPPORTED. */
#include <float.h>
#include <stdint.h>

#include "skin/random_mesh.h"
#include "test.h"
#include "vskin/vskin.h"

static const vs_isa fast_isas[] = {VS_ISA_PORTABLE, VS_ISA_SSE2, VS_ISA_AVX2,
                                   VS_ISA_AVX512, VS_ISA_AUTO};
#define FAST_ISA_COUNT (sizeof fast_isas / sizeof *fast_isas)

enum { WITH_NORMALS = 1, WITH_TANGENTS = 2, TANGENT3 = 4 };

/* Interleaved layouts: in record of 61 bytes, out record of 53 bytes, both
 * starting 3 bytes past an allocation, so no float is 4-byte aligned. */
enum {
    IN_STRIDE = 61,
    IN_POS = 1,
    IN_NRM = 14,
    IN_TAN = 27,
    OUT_STRIDE = 53,
    OUT_POS = 2,
    OUT_NRM = 15,
    OUT_TAN = 29,
    SKEW = 3,
    GUARD = 0xAB
};

typedef struct mesh {
    size_t count;
    uint32_t k, joint_count;
    float *jm;
    uint16_t *joints;
    float *weights;
    float *pos, *nrm, *tan; /* packed: 3, 3, 4 per vertex */
} mesh;

static mesh make_mesh(size_t count, uint32_t k, uint32_t joint_count)
{
    mesh m = {count, k, joint_count, NULL, NULL, NULL, NULL, NULL, NULL};
    m.jm = malloc(joint_count * 16 * sizeof(float));
    m.joints = malloc((count * k + 1) * sizeof(uint16_t));
    m.weights = malloc((count * k + 1) * sizeof(float));
    m.pos = malloc((count * 3 + 1) * sizeof(float));
    m.nrm = malloc((count * 3 + 1) * sizeof(float));
    m.tan = malloc((count * 4 + 1) * sizeof(float));
    for (uint32_t j = 0; j < joint_count; ++j)
        random_joint_matrix(m.jm + j * 16);
    random_influences(count, k, joint_count, m.joints, m.weights);
    for (size_t i = 0; i < count * 3; ++i) {
        m.pos[i] = rng_float(-3, 3);
        m.nrm[i] = rng_float(-1, 1);
    }
    for (size_t v = 0; v < count; ++v) {
        for (int c = 0; c < 3; ++c)
            m.tan[v * 4 + c] = rng_float(-1, 1);
        m.tan[v * 4 + 3] = rng_u32() % 2 ? 1.0f : -1.0f;
    }
    return m;
}

static void free_mesh(mesh *m)
{
    free(m->jm);
    free(m->joints);
    free(m->weights);
    free(m->pos);
    free(m->nrm);
    free(m->tan);
}

/* A job over the whole mesh: its influences and packed input positions,
 * positions out to out_positions, nothing else set. */
static vs_skinning_job mesh_job(const mesh *m, float *out_positions)
{
    return (vs_skinning_job){.vertex_count = m->count,
                             .influence_count = m->k,
                             .joint_matrices = m->jm,
                             .joint_count = m->joint_count,
                             .joints = m->joints,
                             .weights = m->weights,
                             .in_positions = m->pos,
                             .out_positions = out_positions};
}

/* The reference on packed buffers. */
static void run_reference(const mesh *m, unsigned attrs, uint32_t flags,
                          float *pos, float *nrm, float *tan)
{
    vs_skinning_job job = mesh_job(m, pos);
    job.in_normals = attrs & WITH_NORMALS ? m->nrm : NULL;
    job.out_normals = attrs & WITH_NORMALS ? nrm : NULL;
    job.in_tangents = attrs & WITH_TANGENTS ? m->tan : NULL;
    job.in_tangents_stride = 16;
    job.out_tangents = attrs & WITH_TANGENTS ? tan : NULL;
    job.out_tangents_stride = 16;
    job.tangent_components = attrs & TANGENT3 ? 3 : 4;
    job.flags = flags;
    vs_error err;
    CHECK_MSG(vs_skinning_job_run_reference(&job, &err) == VS_OK, "%s",
              err.message);
}

static int compare3(const char *what, const unsigned char *out, size_t stride,
                    const float *ref, size_t ref_stride, size_t count,
                    size_t comps)
{
    for (size_t v = 0; v < count; ++v)
        for (size_t c = 0; c < comps; ++c) {
            float a = get_float(out + v * stride + c * 4);
            float b = ref[v * ref_stride + c];
            if (!close_to_reference(a, b)) {
                fprintf(stderr, "  %s vertex %zu comp %zu: %.9g vs ref %.9g\n",
                        what, v, c, a, b);
                return 0;
            }
        }
    return 1;
}

/* Bytes of the interleaved output that no attribute covers stay GUARD. */
static int guard_intact(const unsigned char *out, size_t count, unsigned attrs)
{
    const size_t tan_end = OUT_TAN + (attrs & TANGENT3 ? 12 : 16);
    for (size_t v = 0; v < count; ++v)
        for (size_t b = 0; b < OUT_STRIDE; ++b) {
            int used =
                (b >= OUT_POS && b < OUT_POS + 12) ||
                (attrs & WITH_NORMALS && b >= OUT_NRM && b < OUT_NRM + 12) ||
                (attrs & WITH_TANGENTS && b >= OUT_TAN && b < tan_end);
            if (!used && out[v * OUT_STRIDE + b] != GUARD) return 0;
        }
    return 1;
}

static int run_one(const mesh *m, vs_isa isa, unsigned attrs, uint32_t flags,
                   int interleaved, const float *rpos, const float *rnrm,
                   const float *rtan)
{
    const size_t n = m->count;
    const uint32_t tc = attrs & TANGENT3 ? 3 : 4;
    unsigned char *in = malloc(n * IN_STRIDE + SKEW + 1);
    unsigned char *out = malloc(n * OUT_STRIDE + SKEW + 1);
    memset(out, GUARD, n * OUT_STRIDE + SKEW + 1);
    unsigned char *ib = in + SKEW, *ob = out + SKEW;
    for (size_t v = 0; v < n; ++v) {
        put_floats(ib + v * IN_STRIDE + IN_POS, m->pos + v * 3, 3);
        put_floats(ib + v * IN_STRIDE + IN_NRM, m->nrm + v * 3, 3);
        put_floats(ib + v * IN_STRIDE + IN_TAN, m->tan + v * 4, 4);
    }
    /* Packed outputs: positions, normals, tangents in three tight arrays
     * carved from the same (skewed) block. */
    float *ppos = malloc((n * 10 + 1) * sizeof(float));
    vs_skinning_job job = {.vertex_count = n,
                           .influence_count = m->k,
                           .joint_matrices = m->jm,
                           .joint_count = m->joint_count,
                           .joints = m->joints,
                           .weights = m->weights,
                           .tangent_components = tc,
                           .flags = flags,
                           .isa = isa};
    if (interleaved) {
        job.in_positions = (const float *)(void *)(ib + IN_POS);
        job.in_positions_stride = IN_STRIDE;
        job.out_positions = (float *)(void *)(ob + OUT_POS);
        job.out_positions_stride = OUT_STRIDE;
        if (attrs & WITH_NORMALS) {
            job.in_normals = (const float *)(void *)(ib + IN_NRM);
            job.in_normals_stride = IN_STRIDE;
            job.out_normals = (float *)(void *)(ob + OUT_NRM);
            job.out_normals_stride = OUT_STRIDE;
        }
        if (attrs & WITH_TANGENTS) {
            job.in_tangents = (const float *)(void *)(ib + IN_TAN);
            job.in_tangents_stride = IN_STRIDE;
            job.out_tangents = (float *)(void *)(ob + OUT_TAN);
            job.out_tangents_stride = OUT_STRIDE;
        }
    } else {
        job.in_positions = m->pos;
        job.out_positions = ppos;
        if (attrs & WITH_NORMALS) {
            job.in_normals = m->nrm;
            job.out_normals = ppos + n * 3;
        }
        if (attrs & WITH_TANGENTS) {
            job.in_tangents = m->tan;
            job.in_tangents_stride = 16;
            job.out_tangents = ppos + n * 6;
            job.out_tangents_stride = tc * 4;
        }
    }
    vs_error err;
    int ok = vs_skinning_job_run(&job, &err) == VS_OK;
    if (!ok) fprintf(stderr, "  run failed: %s\n", err.message);
    const unsigned char *op = (const unsigned char *)job.out_positions;
    size_t ps = interleaved ? OUT_STRIDE : 12;
    ok = ok && compare3("position", op, ps, rpos, 3, n, 3);
    if (ok && (attrs & WITH_NORMALS))
        ok = compare3("normal", (const unsigned char *)job.out_normals,
                      interleaved ? OUT_STRIDE : 12, rnrm, 3, n, 3);
    if (ok && (attrs & WITH_TANGENTS))
        ok = compare3("tangent", (const unsigned char *)job.out_tangents,
                      interleaved ? OUT_STRIDE : tc * 4, rtan, 4, n, tc);
    if (ok && interleaved) ok = guard_intact(ob, n, attrs);
    free(in);
    free(out);
    free(ppos);
    return ok;
}

static void every_kernel_matches_the_reference(void)
{
    static const size_t counts[] = {0, 1, 3, 7, 1001};
    static const uint32_t ks[] = {1, 2, 3, 4, 5, 6, 7, 8, 12};
    static const uint32_t joint_counts[] = {1, 256, 257, 1000};
    static const unsigned attr_sets[] = {0, WITH_NORMALS,
                                         WITH_NORMALS | WITH_TANGENTS,
                                         WITH_TANGENTS | TANGENT3};
    unsigned combo = 0;
    for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ++ci)
        for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ++ki, ++combo) {
            random_mirror = combo % 3 == 1;
            mesh m = make_mesh(counts[ci], ks[ki], joint_counts[combo % 4]);
            const size_t n = m.count;
            float *rpos = malloc((n * 3 + 1) * sizeof(float));
            float *rnrm = malloc((n * 3 + 1) * sizeof(float));
            float *rtan = malloc((n * 4 + 1) * sizeof(float));
            /* Raw weights or not, each with the stores chosen by size (all
             * cached at these counts) and forced to stream (aligned and
             * unaligned packed outputs both occur below); normals by the
             * matrix, with the random joints' non-uniform scales and
             * mirrors, plain and with both other flags. */
            static const uint32_t flag_sets[] = {
                0,
                VS_SKIN_RAW_WEIGHTS,
                VS_SKIN_STREAMING_STORES,
                VS_SKIN_RAW_WEIGHTS | VS_SKIN_STREAMING_STORES,
                VS_SKIN_NORMALS_BY_MATRIX,
                VS_SKIN_NORMALS_BY_MATRIX | VS_SKIN_RAW_WEIGHTS |
                    VS_SKIN_STREAMING_STORES};
            const size_t flag_count = sizeof flag_sets / sizeof *flag_sets;
            for (size_t ai = 0; ai < 4; ++ai)
                for (size_t fi = 0; fi < flag_count; ++fi) {
                    const uint32_t flags = flag_sets[fi];
                    unsigned attrs = attr_sets[ai];
                    run_reference(&m, attrs, flags, rpos, rnrm, rtan);
                    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
                        if (!vs_isa_supported(fast_isas[ii])) continue;
                        for (int il = 0; il < 2; ++il)
                            CHECK_MSG(run_one(&m, fast_isas[ii], attrs, flags,
                                              il, rpos, rnrm, rtan),
                                      "isa %s, %zu vertices, %u influences, "
                                      "%u joints, attrs %u, flags %u, "
                                      "interleaved %d",
                                      vs_isa_name(fast_isas[ii]), n, m.k,
                                      m.joint_count, attrs, flags, il);
                    }
                }
            free(rpos);
            free(rnrm);
            free(rtan);
            free_mesh(&m);
        }
}

static void unsupported_isas_are_refused(void)
{
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii)
        printf("  isa %-8s %s\n", vs_isa_name(fast_isas[ii]),
               vs_isa_supported(fast_isas[ii]) ? "tested" : "skipped (CPU)");
    printf("  best: %s\n", vs_isa_name(vs_cpu_best_isa()));
    CHECK(vs_isa_supported(vs_cpu_best_isa()));
    CHECK(strcmp(vs_isa_name(VS_ISA_AVX2), "avx2") == 0);
    CHECK(strcmp(vs_isa_name((vs_isa)99), "?") == 0);

    const float jm[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const uint16_t joints[1] = {0};
    const float weights[1] = {1}, pos[3] = {1, 2, 3};
    float out[3];
    vs_skinning_job job = {.vertex_count = 1,
                           .influence_count = 1,
                           .joint_matrices = jm,
                           .joint_count = 1,
                           .joints = joints,
                           .weights = weights,
                           .in_positions = pos,
                           .out_positions = out,
                           .isa = 99};
    vs_error err;
    CHECK(vs_skinning_job_run(&job, &err) == VS_ERROR_UNSUPPORTED);
    CHECK(strstr(err.message, "isa") != NULL);
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
        job.isa = fast_isas[ii];
        vs_result want =
            vs_isa_supported(fast_isas[ii]) ? VS_OK : VS_ERROR_UNSUPPORTED;
        CHECK(vs_skinning_job_run(&job, NULL) == want);
    }
}

/* A joint index out of range, behind a zero weight: every kernel gives the
 * reference's error and leaves exactly the reference's vertices written
 * (those before the bad index's block). With 4 influences the index is in
 * the second block of 48; with 2 in the second block of 96
 * (kernel_fused_block), which is shorter than that; with 8 in the second,
 * partial block of 48, where the blend in the transform reads the joints
 * four per load and the first pass only checks them. */
static void bad_joint_index_matches_the_reference_k(uint32_t k, size_t n,
                                                    size_t bad)
{
    mesh m = make_mesh(n, k, 10);
    m.joints[bad * k + 1] = 10;
    m.weights[bad * k + 1] = 0.0f; /* checked even with a zero weight */
    float *ref = calloc(n * 3, sizeof *ref), *out = malloc(n * 12);
    vs_skinning_job job = mesh_job(&m, ref);
    vs_error ref_err, err;
    CHECK(vs_skinning_job_run_reference(&job, &ref_err) == VS_ERROR_INVALID);
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
        if (!vs_isa_supported(fast_isas[ii])) continue;
        memset(out, 0, n * 12);
        job.out_positions = out;
        job.isa = fast_isas[ii];
        CHECK(vs_skinning_job_run(&job, &err) == VS_ERROR_INVALID);
        CHECK(strcmp(err.message, ref_err.message) == 0);
        int same = 1;
        for (size_t i = 0; i < n * 3; ++i)
            same &= close_to_reference(out[i], ref[i]);
        CHECK_MSG(same, "isa %s, %u influences", vs_isa_name(fast_isas[ii]), k);
    }
    free(ref);
    free(out);
    free_mesh(&m);
}

static void bad_joint_index_matches_the_reference(void)
{
    bad_joint_index_matches_the_reference_k(4, 100, 57);
    bad_joint_index_matches_the_reference_k(2, 170, 150);
    bad_joint_index_matches_the_reference_k(8, 75, 70);
}

/* A zero weight adds nothing even from a NaN joint matrix (as the
 * reference); an unweighted vertex keeps its position. */
static void zero_weights_ignore_nan_matrices(void)
{
    float jm[32];
    random_joint_matrix(jm);
    for (int i = 0; i < 16; ++i)
        jm[16 + i] = NAN;
    const uint16_t joints[10] = {0, 1, 0, 1, 1, 1, 0, 1, 0, 1};
    const float weights[10] = {1, 0, 0.5f, 0, 0, 0, 2, 0, 0, 0};
    const float pos[15] = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, 0, 1, 0};
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
        if (!vs_isa_supported(fast_isas[ii])) continue;
        float out[15], ref[15];
        vs_skinning_job job = {.vertex_count = 5,
                               .influence_count = 2,
                               .joint_matrices = jm,
                               .joint_count = 2,
                               .joints = joints,
                               .weights = weights,
                               .in_positions = pos,
                               .out_positions = ref};
        CHECK(vs_skinning_job_run_reference(&job, NULL) == VS_OK);
        job.out_positions = out;
        job.isa = fast_isas[ii];
        CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
        for (int i = 0; i < 15; ++i)
            CHECK(close_to_reference(out[i], ref[i]));
        CHECK_NEAR(out[12], 0.0, 1e-6); /* vertex 4: unweighted */
        CHECK_NEAR(out[13], 1.0, 1e-6);
        CHECK_NEAR(out[14], 0.0, 1e-6);
    }
}

/* Weights the kernels' fast path hands to their careful one, each in a
 * different block among ordinary vertices: a negative weight, a NaN one,
 * a float sum beyond FLT_MAX (finite in double), sums too small for a
 * finite float reciprocal, an all-zero vertex (identity), and a sum that is
 * 0 in float but not in double (a negative weight); the last, an
 * all-zero vertex again, in a block shorter than the others. Every kernel
 * matches the reference, positions and normals, with 2, 3, 4 and 8
 * influences (2, 4 and 8 are the counts whose full blocks an ISA may sum,
 * and check, in one pass of its own: KERNEL_JOB_SUMS_FULL). */
static void odd_weight_sums_match_the_reference_k(uint32_t k)
{
    enum { ODD_N = 550 };
    mesh m = make_mesh(ODD_N, k, 20);
    static const struct {
        size_t v;
        float w[3];
    } odd[] = {{5, {-0.5f, 1.0f, 0.7f}},      {70, {NAN, 1.0f, 0.0f}},
               {130, {3e38f, 3e38f, 1.0f}},   {200, {1e-40f, 3e-40f, 0.0f}},
               {260, {0.0f, 0.0f, 0.0f}},     {330, {1e-45f, 0.0f, 0.0f}},
               {399, {2e-39f, 1e-39f, 0.0f}}, {450, {1.0f, 1e-8f, -1.0f}},
               {530, {0.0f, 0.0f, 0.0f}}};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; ++i)
        for (uint32_t j = 0; j < k; ++j)
            m.weights[odd[i].v * k + j] = j < 3 ? odd[i].w[j] : 0.0f;
    /* Vertex 450's weights 1 and -1, scaled by 1 / 1e-8, nearly cancel:
     * in float each scaled product keeps a rounding error near 1e8 * 2^-24,
     * which the test tolerates only against a result of the scale's size.
     * So they name two joints whose difference keeps the result that large
     * (the identity, and twice it moved by (10, 10, 10): positions 1e8 *
     * (p + 10), p within [-3, 3]), with entries whose scaled products are
     * exact. With joints drawn at random, a component whose two terms
     * cancelled failed or passed by the draw. */
    static const float twice[16] = {2, 0, 0, 0, 0,  2,  0,  0,
                                    0, 0, 2, 0, 10, 10, 10, 1},
                       once[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                   0, 0, 1, 0, 0, 0, 0, 1};
    memcpy(m.jm + 16 * 18, twice, sizeof twice);
    memcpy(m.jm + 16 * 19, once, sizeof once);
    if (k >= 3) {
        m.joints[450 * k] = 18;
        m.joints[450 * k + 2] = 19;
    }
    float *ref_pos = malloc(ODD_N * 12), *ref_nrm = malloc(ODD_N * 12);
    float *pos = malloc(ODD_N * 12), *nrm = malloc(ODD_N * 12);
    vs_skinning_job job = mesh_job(&m, ref_pos);
    job.in_normals = m.nrm;
    job.out_normals = ref_nrm;
    CHECK(vs_skinning_job_run_reference(&job, NULL) == VS_OK);
    job.out_positions = pos;
    job.out_normals = nrm;
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
        if (!vs_isa_supported(fast_isas[ii])) continue;
        job.isa = fast_isas[ii];
        CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < ODD_N * 3; ++i)
            if (!close_to_reference(pos[i], ref_pos[i]) ||
                !close_to_reference(nrm[i], ref_nrm[i]))
                first = bad++ ? first : i / 3;
        CHECK_MSG(bad == 0,
                  "isa %s, %u influences: %zu components differ, first at "
                  "vertex %zu",
                  vs_isa_name(fast_isas[ii]), k, bad, first);
    }
    free(ref_pos);
    free(ref_nrm);
    free(pos);
    free(nrm);
    free_mesh(&m);
}

static void odd_weight_sums_match_the_reference(void)
{
    static const uint32_t counts[] = {2, 3, 4, 8};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; ++i)
        odd_weight_sums_match_the_reference_k(counts[i]);
}

/* One influence takes its joint's matrix or, for a weight that is not
 * positive and finite, the identity: every such weight in full blocks and
 * in the last partial one, positions and normals as the reference; and a
 * bad index (behind a zero weight, in the partial block) fails as the
 * reference does, with its vertices written before it. */
static void one_influence_odd_weights_match_the_reference(void)
{
    enum { N = 200 };
    mesh m = make_mesh(N, 1, 12);
    static const struct {
        size_t v;
        float w;
    } odd[] = {{3, -0.5f},    {64, NAN},    {65, INFINITY}, {66, -INFINITY},
               {100, 0.0f},   {101, -0.0f}, {127, 1e-45f},  {150, FLT_MAX},
               {191, 3e-39f}, {192, 0.0f},  {193, NAN},     {198, 7.0f},
               {199, -1e-30f}};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; ++i)
        m.weights[odd[i].v] = odd[i].w;
    float *ref_pos = malloc(N * 12), *ref_nrm = malloc(N * 12);
    float *pos = malloc(N * 12), *nrm = malloc(N * 12);
    vs_skinning_job job = mesh_job(&m, ref_pos);
    job.in_normals = m.nrm;
    job.out_normals = ref_nrm;
    for (int bad_index = 0; bad_index < 2; ++bad_index) {
        if (bad_index) {
            m.joints[195] = 12;
            m.weights[195] = 0.0f;
        }
        vs_error ref_err, err;
        memset(ref_pos, 0, N * 12);
        memset(ref_nrm, 0, N * 12);
        const vs_result want = vs_skinning_job_run_reference(&job, &ref_err);
        CHECK(want == (bad_index ? VS_ERROR_INVALID : VS_OK));
        vs_skinning_job fast = job;
        fast.out_positions = pos;
        fast.out_normals = nrm;
        for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
            if (!vs_isa_supported(fast_isas[ii])) continue;
            memset(pos, 0, N * 12);
            memset(nrm, 0, N * 12);
            fast.isa = fast_isas[ii];
            CHECK(vs_skinning_job_run(&fast, &err) == want);
            if (bad_index) CHECK(strcmp(err.message, ref_err.message) == 0);
            size_t bad = 0, first = 0;
            for (size_t i = 0; i < N * 3; ++i)
                if (!close_to_reference(pos[i], ref_pos[i]) ||
                    !close_to_reference(nrm[i], ref_nrm[i]))
                    first = bad++ ? first : i / 3;
            CHECK_MSG(bad == 0,
                      "isa %s, bad index %d: %zu components differ, first at "
                      "vertex %zu",
                      vs_isa_name(fast_isas[ii]), bad_index, bad, first);
        }
    }
    free(ref_pos);
    free(ref_nrm);
    free(pos);
    free(nrm);
    free_mesh(&m);
}

/* In place (docs/skinning.md: the same pointer and stride for in and out):
 * every kernel, positions alone and with normals and tangents, packed and
 * interleaved, equals the reference run on separate buffers. */
static void in_place_matches_the_reference(void)
{
    enum { N = 300 };
    mesh m = make_mesh(N, 3, 17);
    float *ref_pos = malloc(N * 12), *ref_nrm = malloc(N * 12),
          *ref_tan = malloc(N * 16);
    /* Interleaved: position, normal, tangent per 40-byte vertex. */
    float *inter = malloc(N * 40), *packed = malloc(N * 12 * 2 + N * 16);
    for (int attrs = 0; attrs < 3; ++attrs) {
        vs_skinning_job job = mesh_job(&m, ref_pos);
        if (attrs >= 1) job.in_normals = m.nrm, job.out_normals = ref_nrm;
        if (attrs >= 2) job.in_tangents = m.tan, job.out_tangents = ref_tan;
        CHECK(vs_skinning_job_run_reference(&job, NULL) == VS_OK);
        for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
            if (!vs_isa_supported(fast_isas[ii])) continue;
            for (int layout = 0; layout < 2; ++layout) {
                vs_skinning_job in = job;
                in.isa = fast_isas[ii];
                float *pos, *nrm, *tan;
                size_t step;
                if (layout == 0) {
                    pos = packed, nrm = packed + N * 3, tan = packed + N * 6;
                    step = 0;
                } else {
                    pos = inter, nrm = inter + 3, tan = inter + 6;
                    step = 40;
                }
                for (size_t v = 0; v < N; ++v) {
                    const size_t at = step ? v * 10 : v * 3;
                    const size_t tat = step ? v * 10 : v * 4;
                    memcpy(pos + at, m.pos + v * 3, 12);
                    memcpy(nrm + at, m.nrm + v * 3, 12);
                    memcpy(tan + tat, m.tan + v * 4, 16);
                }
                in.in_positions = in.out_positions = pos;
                in.in_positions_stride = in.out_positions_stride = step;
                if (attrs >= 1) {
                    in.in_normals = in.out_normals = nrm;
                    in.in_normals_stride = in.out_normals_stride = step;
                }
                if (attrs >= 2) {
                    in.in_tangents = in.out_tangents = tan;
                    in.in_tangents_stride = in.out_tangents_stride = step;
                }
                CHECK(vs_skinning_job_run(&in, NULL) == VS_OK);
                size_t bad = 0;
                for (size_t v = 0; v < N; ++v) {
                    const size_t at = step ? v * 10 : v * 3;
                    const size_t tat = step ? v * 10 : v * 4;
                    for (int c = 0; c < 3; ++c) {
                        bad += !close_to_reference(pos[at + c],
                                                   ref_pos[v * 3 + c]);
                        if (attrs >= 1)
                            bad += !close_to_reference(nrm[at + c],
                                                       ref_nrm[v * 3 + c]);
                        if (attrs >= 2)
                            bad += !close_to_reference(tan[tat + c],
                                                       ref_tan[v * 4 + c]);
                    }
                }
                CHECK_MSG(bad == 0,
                          "isa %s, attributes %d, layout %d: %zu components "
                          "differ",
                          vs_isa_name(fast_isas[ii]), attrs, layout, bad);
            }
        }
    }
    free(ref_pos);
    free(ref_nrm);
    free(ref_tan);
    free(inter);
    free(packed);
    free_mesh(&m);
}

/* The joint matrices at every 4-byte offset in a 64-byte line: large jobs
 * read an aligned copy of a misaligned palette (kernel_aligned_palette),
 * which must give exactly the results of the palette read in place. */
static void misaligned_palettes_give_the_same_results(void)
{
    enum { N = 3000, J = 40 };
    mesh m = make_mesh(N, 4, J);
    float *base = aligned_alloc(64, (J * 16 + 16) * sizeof(float));
    float *want = malloc(N * 12), *got = malloc(N * 12);
    float *want_n = malloc(N * 12), *got_n = malloc(N * 12);
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
        if (!vs_isa_supported(fast_isas[ii])) continue;
        for (int off = 0; off < 16; ++off) {
            memcpy(base + off, m.jm, J * 16 * sizeof(float));
            vs_skinning_job job = mesh_job(&m, off ? got : want);
            job.joint_matrices = base + off;
            job.in_normals = m.nrm;
            job.out_normals = off ? got_n : want_n;
            job.isa = fast_isas[ii];
            CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
            if (off)
                CHECK_MSG(!memcmp(got, want, N * 12) &&
                              !memcmp(got_n, want_n, N * 12),
                          "isa %s, palette at +%d bytes",
                          vs_isa_name(fast_isas[ii]), off * 4);
        }
    }
    free(base);
    free(want);
    free(got);
    free(want_n);
    free(got_n);
    free_mesh(&m);
}

/* Joints and weights at odd byte strides (copied into a packed block by the
 * kernels) give exactly the packed arrays' results, over full blocks. */
static void strided_influences_give_the_same_results(void)
{
    enum { N = 1000, K = 4, JS = 13, WS = 23 };
    mesh m = make_mesh(N, K, 30);
    unsigned char *jb = malloc(N * JS + 1), *wb = malloc(N * WS + 1);
    for (size_t v = 0; v < N; ++v) {
        memcpy(jb + 1 + v * JS, m.joints + v * K, K * sizeof(uint16_t));
        memcpy(wb + 1 + v * WS, m.weights + v * K, K * sizeof(float));
    }
    float *want = malloc(N * 12), *got = malloc(N * 12);
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
        if (!vs_isa_supported(fast_isas[ii])) continue;
        vs_skinning_job job = mesh_job(&m, want);
        job.isa = fast_isas[ii];
        CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
        job.joints = (const uint16_t *)(const void *)(jb + 1);
        job.joints_stride = JS;
        job.weights = (const float *)(const void *)(wb + 1);
        job.weights_stride = WS;
        job.out_positions = got;
        CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
        CHECK_MSG(!memcmp(got, want, N * 12), "isa %s",
                  vs_isa_name(fast_isas[ii]));
    }
    free(jb);
    free(wb);
    free(want);
    free(got);
    free_mesh(&m);
}

/* One influence whose weights all normalise to 1, over whole blocks of
 * skinned vertices with packed joints: the kernels read each vertex's
 * matrix from its joint index directly (no pointer per vertex). Against
 * the reference with many joints (so a wrong joint shows), every attribute
 * set and rule, packed and interleaved outputs; with one unskinned vertex
 * in a block (that block points per vertex instead); and bit for bit the
 * same floats as the strided joints, which always point per vertex. */
static void one_influence_whole_blocks_match_the_reference(void)
{
    enum { N = 1000, JS = 6 };
    static const uint32_t joint_counts[] = {64, 1000};
    static const unsigned attr_sets[] = {0, WITH_NORMALS,
                                         WITH_NORMALS | WITH_TANGENTS};
    static const uint32_t flag_sets[] = {0, VS_SKIN_NORMALS_BY_MATRIX,
                                         VS_SKIN_STREAMING_STORES};
    float *rpos = malloc((N * 3 + 1) * sizeof(float));
    float *rnrm = malloc((N * 3 + 1) * sizeof(float));
    float *rtan = malloc((N * 4 + 1) * sizeof(float));
    for (size_t ji = 0; ji < 2; ++ji)
        for (int unskinned = 0; unskinned < 2; ++unskinned) {
            mesh m = make_mesh(N, 1, joint_counts[ji]);
            for (size_t v = 0; v < N; ++v)
                m.weights[v] = rng_float(0.01f, 2);
            if (unskinned) m.weights[3 * 128 + 5] = 0.0f;
            for (size_t ai = 0; ai < 3; ++ai)
                for (size_t fi = 0; fi < 3; ++fi) {
                    run_reference(&m, attr_sets[ai], flag_sets[fi], rpos, rnrm,
                                  rtan);
                    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
                        if (!vs_isa_supported(fast_isas[ii])) continue;
                        for (int il = 0; il < 2; ++il)
                            CHECK_MSG(run_one(&m, fast_isas[ii], attr_sets[ai],
                                              flag_sets[fi], il, rpos, rnrm,
                                              rtan),
                                      "isa %s, %u joints, unskinned %d, attrs "
                                      "%u, flags %u, interleaved %d",
                                      vs_isa_name(fast_isas[ii]),
                                      m.joint_count, unskinned, attr_sets[ai],
                                      flag_sets[fi], il);
                    }
                }
            unsigned char *jb = malloc(N * JS + 1);
            for (size_t v = 0; v < N; ++v)
                memcpy(jb + 1 + v * JS, m.joints + v, sizeof(uint16_t));
            float *want = malloc(N * 24), *got = malloc(N * 24);
            for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
                if (!vs_isa_supported(fast_isas[ii])) continue;
                vs_skinning_job job = mesh_job(&m, want);
                job.in_normals = m.nrm;
                job.out_normals = want + N * 3;
                job.isa = fast_isas[ii];
                CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
                job.joints = (const uint16_t *)(const void *)(jb + 1);
                job.joints_stride = JS;
                job.out_positions = got;
                job.out_normals = got + N * 3;
                CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
                CHECK_MSG(!memcmp(got, want, N * 24), "isa %s, %u joints",
                          vs_isa_name(fast_isas[ii]), m.joint_count);
            }
            free(jb);
            free(want);
            free(got);
            free_mesh(&m);
        }
    free(rpos);
    free(rnrm);
    free(rtan);
}

/* Some vertices of m given weights that every blend mode and path meets:
 * all zero (unskinned: the identity term), negative or tiny sums (the
 * vertex-by-vertex path), one weight 0 (its joint's matrix skipped where
 * the palette is not finite). */
static void odd_weights(mesh *m)
{
    for (size_t v = 0; v < m->count; ++v) {
        float *w = m->weights + v * m->k;
        if (v % 97 == 5)
            for (uint32_t j = 0; j < m->k; ++j)
                w[j] = 0.0f;
        else if (v % 89 == 7)
            w[0] = -0.25f;
        else if (v % 83 == 11)
            for (uint32_t j = 0; j < m->k; ++j)
                w[j] = 1e-39f;
        else if (v % 7 == 3)
            w[m->k - 1] = 0.0f;
    }
}

/* Runs the whole mesh on isa into out (positions, then normals with attrs
 * >= 1, then tangents with attrs >= 2, N floats apart per component). */
static void run_into(const mesh *m, vs_isa isa, int attrs, bool raw, float *out)
{
    const size_t n = m->count;
    memset(out, 0, n * 10 * sizeof(float));
    vs_skinning_job job = mesh_job(m, out);
    if (attrs >= 1) {
        job.in_normals = m->nrm;
        job.out_normals = out + 3 * n;
    }
    if (attrs >= 2) {
        job.in_tangents = m->tan;
        job.out_tangents = out + 6 * n;
        job.tangent_components = 4;
    }
    job.flags = raw ? VS_SKIN_RAW_WEIGHTS : 0;
    job.isa = isa;
    CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
}

/* Counts a job whose bytes differ from want's in *differing; true for the
 * first such job, which the caller describes. */
static bool first_difference(const void *want, const void *got, size_t bytes,
                             int *differing)
{
    return memcmp(want, got, bytes) && !(*differing)++;
}

/* How many jobs on the kernels others give other bytes than on base, for
 * 1-8 and 12 influences, every attribute set, normalised and raw weights,
 * every blend mode (unskinned vertices, odd sums), every vertex skinned,
 * and a palette with a NaN matrix behind zero weights. Kernels the CPU
 * lacks are skipped. */
static int jobs_differing_from(vs_isa base, const vs_isa *others,
                               size_t other_count)
{
    static const uint32_t ks[] = {1, 2, 3, 4, 5, 6, 7, 8, 12};
    enum { N = 2011 };
    float *want = malloc(N * 10 * sizeof(float)),
          *got = malloc(N * 10 * sizeof(float));
    int differing = 0;
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ++ki)
        for (int weights = 0; weights < 4; ++weights) {
            mesh m = make_mesh(N, ks[ki], 40);
            if (weights == 1 || weights == 2) odd_weights(&m);
            if (weights == 2) m.jm[16 * 3 + 5] = NAN;
            /* Every vertex skinned: under normalised weights no block
             * declines the blend in the transform, and with one influence
             * whole blocks are transformed straight from the caller's
             * joints. */
            if (weights == 3)
                for (size_t i = 0; i < N * (size_t)ks[ki]; ++i)
                    m.weights[i] = rng_float(0.01f, 1);
            for (int attrs = 0; attrs < 3; ++attrs)
                for (int raw = 0; raw < 2; ++raw) {
                    run_into(&m, base, attrs, raw, want);
                    for (size_t oi = 0; oi < other_count; ++oi) {
                        if (!vs_isa_supported(others[oi])) continue;
                        run_into(&m, others[oi], attrs, raw, got);
                        if (first_difference(want, got, N * 10 * sizeof(float),
                                             &differing))
                            fprintf(stderr,
                                    "  first: isa %s against %s, %u "
                                    "influences, weights %d, attrs %d, raw "
                                    "%d\n",
                                    vs_isa_name(others[oi]), vs_isa_name(base),
                                    ks[ki], weights, attrs, raw);
                    }
                }
            free_mesh(&m);
        }
    free(want);
    free(got);
    return differing;
}

/* The kernels with FMA give the same floats: VS_ISA_AUTO on a CPU with
 * AVX-512VL runs the AVX2 kernel built with 32 registers (transforms,
 * stream chunks, the one-influence blend pass), the same operations as
 * VS_ISA_AVX2's 16-register build; VS_ISA_AVX512 runs them 16 lanes wide in
 * the same order (the blend's two FMA chains, the weight sums, the normal's
 * sign flip). */
static void fma_kernels_give_the_avx2_floats(void)
{
    if (!vs_isa_supported(VS_ISA_AVX2)) {
        printf("  (no AVX2 on this CPU: nothing to compare)\n");
        return;
    }
    static const vs_isa others[] = {VS_ISA_AUTO, VS_ISA_AVX512};
    const int differing = jobs_differing_from(VS_ISA_AVX2, others, 2);
    CHECK_MSG(differing == 0, "%d jobs differ from AVX2's floats", differing);
}

/* The kernels without FMA give the same floats: the portable kernel (the
 * one CPUs without a kernel of their own run) does the SSE2 kernel's
 * operations in its order, lane for lane, so on x86 the SSE2 kernel vouches
 * for what the portable one computes elsewhere. */
static void portable_kernel_gives_the_sse2_floats(void)
{
    if (!vs_isa_supported(VS_ISA_SSE2)) {
        printf("  (no SSE2 kernel on this CPU: nothing to compare)\n");
        return;
    }
    static const vs_isa others[] = {VS_ISA_PORTABLE};
    const int differing = jobs_differing_from(VS_ISA_SSE2, others, 1);
    CHECK_MSG(differing == 0, "%d jobs differ from SSE2's floats", differing);
}

/* Positions alone by one matrix each (one influence, normalised weights)
 * and packed on both sides take a path of their own in every kernel
 * (vertex by vertex, no transposes); it gives the floats of the
 * structure-of-arrays steps, which positions in an
 * interleaved record (not packed) take. Checked with every vertex skinned
 * (whole blocks from the caller's joints), with odd weights (blocks of
 * pointers to the matrices, unskinned vertices kept) and in place, for
 * vertex counts that end a block on every remainder of 16. */
static void packed_positions_keep_the_steps_floats(void)
{
    enum { STRIDE = 5 }; /* floats per interleaved record */
    static const vs_isa isas[] = {VS_ISA_PORTABLE, VS_ISA_SSE2, VS_ISA_AVX2,
                                  VS_ISA_AVX512, VS_ISA_AUTO};
    int differing = 0;
    for (size_t n = 300; n < 316; ++n)
        for (int weights = 0; weights < 2; ++weights) {
            mesh m = make_mesh(n, 1, 70);
            for (size_t v = 0; v < n; ++v)
                m.weights[v] = rng_float(0.01f, 2);
            if (weights) odd_weights(&m);
            float *inter = malloc(n * STRIDE * sizeof(float));
            float *want = malloc(n * 3 * sizeof(float));
            float *got = malloc(n * 3 * sizeof(float));
            for (size_t ii = 0; ii < sizeof isas / sizeof *isas; ++ii) {
                if (!vs_isa_supported(isas[ii])) continue;
                vs_skinning_job job = mesh_job(&m, inter);
                job.out_positions_stride = STRIDE * sizeof(float);
                job.isa = isas[ii];
                CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
                for (size_t v = 0; v < n; ++v)
                    memcpy(want + 3 * v, inter + STRIDE * v, 12);
                job = mesh_job(&m, got);
                job.isa = isas[ii];
                CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
                if (first_difference(want, got, n * 12, &differing))
                    fprintf(stderr,
                            "  first: isa %s, %zu vertices, weights %d\n",
                            vs_isa_name(isas[ii]), n, weights);
                memcpy(got, m.pos, n * 12); /* in place */
                job.in_positions = got;
                CHECK(vs_skinning_job_run(&job, NULL) == VS_OK);
                if (first_difference(want, got, n * 12, &differing))
                    fprintf(stderr,
                            "  first: isa %s, %zu vertices, weights %d, in "
                            "place\n",
                            vs_isa_name(isas[ii]), n, weights);
            }
            free(inter);
            free(want);
            free(got);
            free_mesh(&m);
        }
    CHECK_MSG(differing == 0, "%d jobs differ from the steps' floats",
              differing);
}

/* m's positions and normals on isa into out (positions, then normals 3 *
 * m->count floats on), on ctx's threads where ctx is set. */
static void run_with_normals(const mesh *m, vs_isa isa, vs_context *ctx,
                             float *out)
{
    vs_skinning_job job = mesh_job(m, out);
    job.in_normals = m->nrm;
    job.out_normals = out + 3 * m->count;
    job.isa = isa;
    CHECK((ctx ? vs_skinning_job_run_parallel(ctx, &job, NULL)
               : vs_skinning_job_run(&job, NULL)) == VS_OK);
}

/* The plain job runs a short first block until its packed output positions
 * start a 64-byte line (kernel_job_lead), so its blocks' bounds move with
 * the outputs' address. Every kernel gives the same floats at each of the
 * 16 float offsets in a line, whole and split over two threads (which
 * start their ranges after the lead), for 1 to 8 influences, with odd
 * weights: unskinned vertices (fused blocks declined), a negative weight
 * and tiny sums (careful blocks). The weights move with the outputs: the
 * careful blocks blend from the caller's weights, which need only be
 * float-aligned (a wider load of them is what UBSan reports). */
static void output_address_keeps_the_floats(void)
{
    enum { N = 5000, FLOATS = 6 * N + 16, MOST_INFLUENCES = 8 };
    static const uint32_t ks[] = {1, 2, 3, 4, MOST_INFLUENCES};
    float *buf = aligned_alloc(64, FLOATS * sizeof(float));
    float *wbuf = aligned_alloc(64, (MOST_INFLUENCES * N + 16) * sizeof(float));
    float *want = malloc(6 * N * sizeof(float));
    vs_context *ctx = NULL;
    const vs_context_options two = {.thread_count = 2};
    CHECK(vs_context_create(&two, &ctx, NULL) == VS_OK);
    int differing = 0;
    for (size_t ii = 0; ii < FAST_ISA_COUNT; ++ii) {
        if (!vs_isa_supported(fast_isas[ii])) continue;
        for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ++ki)
            for (int odd = 0; odd < 2; ++odd) {
                mesh m = make_mesh(N, ks[ki], 40);
                if (odd) odd_weights(&m);
                /* Every float offset, serially then on the two threads,
                 * against the first (aligned, serial) run. */
                for (int run = 0; run < 32; ++run) {
                    const int off = run / 2, parallel = run % 2;
                    float *out = buf + off;
                    memset(buf, 0, FLOATS * sizeof(float));
                    mesh moved = m;
                    moved.weights = wbuf + off;
                    if (!parallel) /* the two runs at off share them */
                        memcpy(moved.weights, m.weights,
                               N * ks[ki] * sizeof(float));
                    run_with_normals(&moved, fast_isas[ii],
                                     parallel ? ctx : NULL, out);
                    if (!run)
                        memcpy(want, out, 6 * N * sizeof(float));
                    else if (first_difference(want, out, 6 * N * sizeof(float),
                                              &differing))
                        fprintf(stderr,
                                "  first: isa %s, %u influences, odd %d, "
                                "+%d floats, parallel %d\n",
                                vs_isa_name(fast_isas[ii]), ks[ki], odd, off,
                                parallel);
                }
                free_mesh(&m);
            }
    }
    CHECK_MSG(differing == 0, "%d jobs differ from the aligned run", differing);
    vs_context_free(ctx);
    free(buf);
    free(wbuf);
    free(want);
}

int main(void)
{
    RUN(unsupported_isas_are_refused);
    RUN(every_kernel_matches_the_reference);
    RUN(bad_joint_index_matches_the_reference);
    RUN(zero_weights_ignore_nan_matrices);
    RUN(odd_weight_sums_match_the_reference);
    RUN(one_influence_odd_weights_match_the_reference);
    RUN(in_place_matches_the_reference);
    RUN(misaligned_palettes_give_the_same_results);
    RUN(strided_influences_give_the_same_results);
    RUN(one_influence_whole_blocks_match_the_reference);
    RUN(fma_kernels_give_the_avx2_floats);
    RUN(portable_kernel_gives_the_sse2_floats);
    RUN(packed_positions_keep_the_steps_floats);
    RUN(output_address_keeps_the_floats);
    return test_summary();
}
