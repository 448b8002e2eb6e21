/* SPDX-License-Identifier: MIT */
/* The SIMD skinning kernels' internal interface. A range of vertices is cut
 * into blocks of at most KERNEL_BLOCK vertices; for each block a driver
 * (skinning_job_fast.c, skin_stream_job.c) hands the kernel its influences,
 * the ISA's kernel blends the per-vertex matrices (influence count a
 * compile-time constant) and transforms the block structure-of-arrays
 * (which attributes exist: chosen once per block, never per vertex). */
#ifndef VS_SKIN_LBS_KERNEL_H
#define VS_SKIN_LBS_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "asset/weights_rule.h"
#include "vskin/vskin.h"

/* Helpers of the hot loop: inlined even where the compiler's size
 * heuristics would rather not (a call per 4 vertices is too dear there). */
#define KERNEL_INLINE static inline __attribute__((always_inline))

/* Fully unrolls a loop over a constant influence count (GCC's -O2 does not
 * on its own). Clang unrolls such short constant loops by itself, and its
 * forced "#pragma unroll" turns into a -Wpass-failed error (with -Werror)
 * where the same loop body is also instantiated with a run-time count. */
#if defined(__clang__)
#define KERNEL_UNROLL
#elif defined(__GNUC__)
#define KERNEL_UNROLL _Pragma("GCC unroll 8")
#else
#define KERNEL_UNROLL
#endif

/* What a kernel's per-vertex blend (NAME(blend_vertex), inlined, the mode a
 * constant) writes to its 4x4: */
enum {
    BLEND_SET,             /* idw * I + sum w * J */
    BLEND_ACCUMULATE,      /* out + sum w * J */
    BLEND_SCALED,          /* scale * sum w * J */
    BLEND_SCALED_IDENTITY, /* scale * sum w * J + idw * I */
    BLEND_PLAIN,           /* sum w * J */
};

/* Influences from which the FMA kernels blend a vertex's matrix on two
 * chains (even and odd influences, summed at the end), so that each waits
 * on half the FMAs; below it on one chain, whose saved add per vertex
 * counts for more than its latency. Every FMA kernel keeps the same rule,
 * so they give the same floats. */
#define BLEND_CHAINS 4

/* Vertices per block: a multiple of the widest kernel's 16 lanes, and large
 * enough that the per-block work (the plain job's checks of a block's
 * indices and weights, calls, dispatch) is spread thin (docs/design/rejected.md
 * has the block sizes tried), while the scratch stays in L1. Where the
 * plain job and the stream blend 2 or more influences, KERNEL_JOB_BLOCK
 * instead. */
#define KERNEL_BLOCK 128
#define KERNEL_MAX_STAGED 8 /* influences staged per blend call */
/* Vertices per block where the plain job (kernel_ops.blend_job) and the
 * stream's per-vertex path blend (2 to KERNEL_MAX_STAGED
 * influences; in the plain job also one with raw weights): a multiple of
 * the widest kernel's 16 lanes.
 * The blend pass reads only the joints and weights, the transform pass only
 * the vertices; out of the caches (a million vertices), shorter turns
 * between the two keep both streams' loads going, where whole blocks left
 * each stream idle through the other's pass; in the caches, every block
 * more costs its own checks, calls and pipeline start (docs/design/rejected.md
 * has the sizes measured). One influence with normalised weights has no
 * blend pass to speak of (KERNEL_POINTED) and keeps whole blocks. */
#define KERNEL_JOB_BLOCK 48

/* Vertices per block where a kernel's skin_job may blend 2 or 3
 * influences in the transform: with no blend pass there are no turns
 * between two passes' streams to keep short, and the per-block work
 * (checks, calls, the pipeline's start) is spread over twice the vertices.
 * With 4 influences the longer block gained in the caches what it lost out
 * of them, with 8 it lost in both, so they keep KERNEL_JOB_BLOCK
 * (docs/design/rejected.md has the sizes measured). */
#define KERNEL_FUSED_BLOCK 96
static inline size_t kernel_fused_block(unsigned k)
{
    return k <= 3 ? KERNEL_FUSED_BLOCK : KERNEL_JOB_BLOCK;
}

/* Where a parallel job's vertex ranges start: a common multiple of every
 * block size, so that a range's blocks are exactly the serial run's. */
#define KERNEL_RANGE_ALIGN 384
_Static_assert(KERNEL_RANGE_ALIGN % KERNEL_BLOCK == 0 &&
                   KERNEL_RANGE_ALIGN % KERNEL_JOB_BLOCK == 0 &&
                   KERNEL_RANGE_ALIGN % KERNEL_FUSED_BLOCK == 0 &&
                   KERNEL_FUSED_BLOCK % KERNEL_JOB_BLOCK == 0,
               "parallel ranges must start on every block size");

/* One attribute: input and output base pointers and byte steps. */
typedef struct kernel_attr {
    const unsigned char *in;
    size_t in_step;
    unsigned char *out;
    size_t out_step;
    /* Vertices are visited in increasing consecutive order and this side is
     * 3 tightly packed floats: 4 vertices are 3 aligned-free 16-byte moves. */
    bool in_packed, out_packed;
    /* Vertices are visited in increasing consecutive order, both sides are
     * 4 tightly packed floats and the 4th is copied (tangents with their
     * handedness w): 4 vertices are 4 16-byte loads, and 4 16-byte stores
     * that carry the input's w along. */
    bool packed4;
    /* out_packed and the job asked for non-temporal stores: full blocks
     * whose output is 16-byte aligned are streamed (kernel_store_fence
     * after the job). */
    bool nt;
} kernel_attr;

/* Which attributes a job skins and how (the kernel specialises on
 * KERNEL_NORMALS and KERNEL_TANGENTS, so no step tests them).
 * KERNEL_NORMALS_BY_MATRIX comes only with KERNEL_NORMALS: normals by the
 * blended 3x3 itself, as tangents (VS_SKIN_NORMALS_BY_MATRIX), instead of
 * sign(det) * cofactor; a branch per step, not a specialisation. */
enum {
    KERNEL_NORMALS = 1u << 0,
    KERNEL_TANGENTS = 1u << 1,
    KERNEL_NORMALS_BY_MATRIX = 1u << 2
};

typedef struct kernel_io {
    kernel_attr pos, nrm, tan;
    unsigned attrs;     /* KERNEL_NORMALS | KERNEL_TANGENTS | ..._BY_MATRIX */
    unsigned tangent_w; /* 1: copy the tangent's 4th component */
} kernel_io;

/* One block: n vertices (1..width), each at attribute index vi[i]. The
 * staged influences are jm[i * k + j] / w[i * k + j]; idw[i] is the weight
 * of the identity matrix (1 for an unskinned vertex under normalised
 * weights, else 0). mat holds KERNEL_BLOCK 4x4 column-major matrices,
 * 64-byte aligned, of which the bottom rows are ignored. */
/* One group of a prepared stream, read directly by the kernel's blend:
 * influences at element at0 + i * k + j of joints (u8 or u16) and weights
 * (unorm16 or float). */
typedef struct kernel_stream_src {
    const void *joints, *weights;
    bool u8_joints, unorm16;
    const float *palette; /* joint matrices */
} kernel_stream_src;

/* The plain job's influences as the caller stores them: k u16 joints and k
 * float weights per vertex at any byte step. */
typedef struct kernel_job_src {
    const unsigned char *joints, *weights;
    size_t joints_step, weights_step;
    const float *palette;
    uint32_t joint_count;
    unsigned k;          /* 1..KERNEL_MAX_STAGED */
    bool raw;            /* VS_SKIN_RAW_WEIGHTS */
    bool finite_palette; /* every joint matrix finite: zero weights may
                            multiply theirs */
} kernel_job_src;

/* Vertices per chunk of a prepared stream: KERNEL_CHUNK consecutive stream
 * positions whose vertices share their joints (the same k joints, in the
 * same order), so that their blended matrices are built lane by lane, from
 * broadcast joint matrix entries, with no per-vertex matrix and no
 * transpose. */
#define KERNEL_CHUNK 8

/* A stream group's chunks, read directly by the kernel: chunk c's k joints
 * at element c * k of joints (u8 or u16), the weight of its slot j and lane
 * l at element (c * k + j) * KERNEL_CHUNK + l of weights (unorm16 or float),
 * which hold KERNEL_CHUNK_PAD elements more than the chunks use (a kernel
 * wider than a chunk reads past its last lane). */
#define KERNEL_CHUNK_PAD 16

typedef struct kernel_chunk_src {
    const void *joints, *weights;
    bool u8_joints, unorm16;
    const float *palette; /* joint matrices */
    /* One influence whose chunk weights are all known to be exactly 1
     * (vs_skin_stream.unit_chunks1): no test per chunk. */
    bool unit;
    /* The palette times 1 / 65535 (kernel_q_palette), or NULL: with it,
     * every path reads this group's unorm16 chunk weights as the integers
     * they are, their scale already in the joints' matrices. The job sets
     * it for groups of 2 or more influences only: a one-influence chunk
     * whose weights are 1 uses its joint's matrix as it is. */
    const float *palette_q;
} kernel_chunk_src;

/* Whether the n weights at w (unorm16 or float) are all exactly 1: what
 * normalising one influence leaves, so its joint's matrix is used as it is.
 * Inlined with n a constant, the loops vectorise. */
static inline __attribute__((always_inline)) bool
kernel_weights_are_one(const void *w, size_t n, bool unorm16)
{
    unsigned other = 0;
    if (unorm16)
        for (size_t i = 0; i < n; ++i)
            other |= ((const uint16_t *)w)[i] != 65535u;
    else
        for (size_t i = 0; i < n; ++i)
            other |= ((const float *)w)[i] != 1.0f;
    return !other;
}

/* A packed attribute (3 floats) with cached stores, the flags constants
 * for the compiler once inlined (the stream's packed chunk loop). */
static inline __attribute__((always_inline)) void
kernel_packed_attr(kernel_attr *a)
{
    a->in_packed = a->out_packed = true;
    a->in_step = a->out_step = 12; /* what packed means */
    a->nt = false;
}

/* Moves a present attribute's pointers on by count vertices. */
static inline __attribute__((always_inline)) void
kernel_attr_advance(kernel_attr *a, size_t count)
{
    a->in += count * a->in_step;
    a->out += count * a->out_step;
}

/* Whether a transform of vertices that each take one matrix as it is
 * (transform_joints, transform_pointed) may take the kernels'
 * positions-by-matrix path (kernel_positions_dispatch.h): positions alone,
 * packed on both sides, cached stores. */
static inline bool kernel_positions_by_matrix_ok(const kernel_io *io)
{
    return io->attrs == 0 && io->pos.in_packed && io->pos.out_packed &&
           !io->pos.nt;
}

/* Whether n vertices of a stream group's chunks from lane lane0 on are
 * whole chunks whose every skinned attribute is packed on both sides (3
 * floats, or 4 for tangents with w) with cached stores: what the kernels'
 * packed chunk loop takes, in a call of any length (transform_chunks). */
static inline bool kernel_chunks_packed_ok(const kernel_io *io, size_t n,
                                           size_t lane0)
{
    if (lane0 % KERNEL_CHUNK || n % KERNEL_CHUNK) return false;
    const kernel_attr *all[3] = {&io->pos, &io->nrm, &io->tan};
    const bool on[3] = {true, (io->attrs & KERNEL_NORMALS) != 0,
                        (io->attrs & KERNEL_TANGENTS) != 0};
    for (int a = 0; a < 3; ++a) {
        if (!on[a]) continue;
        const bool packed =
            (all[a]->in_packed && all[a]->out_packed) || all[a]->packed4;
        if (!packed || all[a]->nt) return false;
    }
    return true;
}

/* Element at of an array of size-byte elements (u8 / u16 joints, unorm16 /
 * float weights) whose type is chosen at run time. */
static inline const void *kernel_element(const void *base, size_t at,
                                         size_t size)
{
    return (const unsigned char *)base + at * size;
}

/* The matrix in palette (src's palette or palette_q) of the joint at
 * element at of a stream group's chunk joints. */
static inline __attribute__((always_inline)) const float *
kernel_chunk_joint(const kernel_chunk_src *src, const float *palette, size_t at)
{
    const size_t joint = src->u8_joints ? ((const uint8_t *)src->joints)[at]
                                        : ((const uint16_t *)src->joints)[at];
    return palette + 16 * joint;
}

/* Chunk c of a stream group (k joints): its joints' matrices in palette
 * into jm and its weights (returned); *unit = one influence whose weights
 * are all exactly 1 (its joint's matrix is used as it is). */
static inline __attribute__((always_inline)) const void *
kernel_chunk_fetch(const kernel_chunk_src *src, const float *palette, size_t c,
                   unsigned k, const bool unorm16, const float **jm, bool *unit)
{
    KERNEL_UNROLL
    for (unsigned j = 0; j < k; ++j)
        jm[j] = kernel_chunk_joint(src, palette, c * k + j);
    const void *w =
        kernel_element(src->weights, c * k * KERNEL_CHUNK, unorm16 ? 2 : 4);
    *unit = k == 1 &&
            (src->unit || kernel_weights_are_one(w, KERNEL_CHUNK, unorm16));
    return w;
}

enum { KERNEL_BAD_INDEX, KERNEL_BLENDED, KERNEL_POINTED, KERNEL_JOINTS };
/* Or'ed into KERNEL_BLENDED / KERNEL_POINTED: the block has an unskinned
 * vertex, marked by idw[i] = 1 (kernel_keep_inputs). */
#define KERNEL_UNSKINNED 4
#define KERNEL_RESULT(r) ((r)&3)
/* kernel_ops.skin_job leaves the block to blend_job and transform. */
#define KERNEL_DECLINED 8

typedef struct kernel_ops {
    unsigned width; /* vertices per step: a divisor of KERNEL_BLOCK */
    /* mat[i] = (accumulate ? mat[i] : idw[i] * I) + sum_j w * J. k is
     * 0..KERNEL_MAX_STAGED; idw is read only when accumulate is 0. */
    void (*blend)(size_t n, unsigned k, const float *const *jm, const float *w,
                  const float *idw, float *mat, int accumulate);
    /* Transforms n vertices, vertex i by the 4x4 at mat + 16 * i; lanes
     * n..width-1 read matrices there too (readable, finite or not) but
     * their results are not stored. vi[n..KERNEL_BLOCK) repeat vi[n - 1]. */
    void (*transform)(const kernel_io *io, const size_t *vi, size_t n,
                      const float *mat);
    /* The same with vertex i's matrix at mp[i] (any alignment). A second
     * function rather than a test in the first: the contiguous one's code
     * stays as compact as it was (one function for both was slower). */
    void (*transform_pointed)(const kernel_io *io, const size_t *vi, size_t n,
                              const float *const *mp);
    /* The same with vertex i's matrix at palette + 16 * joints[i], for a
     * whole block (n = KERNEL_BLOCK): what blend_job's KERNEL_JOINTS asks
     * for. */
    void (*transform_joints)(const kernel_io *io, const size_t *vi, size_t n,
                             const float *palette, const uint16_t *joints);
    /* mat[i] = sum_j w * J for n vertices of a stream group with k
     * (1..KERNEL_MAX_STAGED) influences each, without staging (a group of
     * k >= 1 influences has no identity term). */
    void (*blend_stream)(size_t n, unsigned k, const kernel_stream_src *src,
                         size_t at0, float *mat);
    /* Blends vertices [base, base + n) of a plain job, normalising weights
     * by the reference's rule; n is at most KERNEL_JOB_BLOCK, or
     * KERNEL_BLOCK for one influence with normalised weights. Returns
     * KERNEL_BLENDED (matrices in mat), KERNEL_POINTED (one influence, whose
     * normalised weight is 1: mp[i] points at vertex i's palette matrix,
     * nothing copied; mp[n..) repeat mp[n - 1]), KERNEL_JOINTS (the same
     * for a whole block whose joints are the caller's packed u16 array and
     * whose vertices are all skinned: mp is not written, the transform reads
     * the joints itself, transform_joints) or KERNEL_BAD_INDEX (a
     * joint index out of range; nothing outside the palette is read). Where
     * some vertex is unskinned (its weights sum to 0, less, or not a finite
     * number), the result has KERNEL_UNSKINNED too and idw[i] (i < n) is 1
     * for those vertices and 0 for the others; otherwise idw is not
     * written. */
    int (*blend_job)(const kernel_job_src *src, size_t base, size_t n,
                     float *mat, const float **mp, float *idw);
    /* Blends and transforms n vertices of a stream group's chunks of k
     * (1..KERNEL_MAX_STAGED) influences, vertex i at vi[i], the first one
     * lane `lane0` of the chunks counted from src's first (lane0 /
     * KERNEL_CHUNK is its chunk). vi[n..KERNEL_BLOCK) repeat vi[n - 1].
     * n is at most KERNEL_BLOCK, except where kernel_chunks_packed_ok(io,
     * n, lane0) holds and vi is 0, 1, 2, ... (stream order): then any
     * length, and vi is not read. */
    void (*transform_chunks)(const kernel_io *io, const size_t *vi, size_t n,
                             unsigned k, const kernel_chunk_src *src,
                             size_t lane0);
    /* Optional (NULL where a kernel has none): blend_job and transform in
     * one pass for the vertices [base, base + n) of a plain job, n at most
     * kernel_fused_block(src->k), vertex i at vi[i], each vertex's matrix
     * blended in registers where the transform loads it, never stored. Returns
     * KERNEL_BLENDED (done), KERNEL_BAD_INDEX (as blend_job; nothing written)
     * or KERNEL_DECLINED (nothing written: a case it does not take, which
     * blend_job and transform do). */
    int (*skin_job)(const kernel_job_src *src, const kernel_io *io,
                    const size_t *vi, size_t base, size_t n);
} kernel_ops;

/* NULL when the ISA is not compiled in or the CPU lacks it. */
const kernel_ops *kernel_ops_for(vs_isa isa);

const kernel_ops *kernel_ops_portable(void);
const kernel_ops *kernel_ops_sse2(void);
const kernel_ops *kernel_ops_avx2(void);
const kernel_ops *kernel_ops_avx512(void);

/* The AVX2 kernel's transform_chunks, which the AVX-512 kernel uses too: a
 * chunk is 8 vertices, half of a 512-bit step (run 16 lanes wide with 8
 * of them idle, it was slower than AVX2). The _wide
 * build is the same code with AVX-512VL's 32 registers
 * (kernel_avx2_wide.c), for CPUs that have it. */
void kernel_avx2_transform_chunks(const kernel_io *io, const size_t *vi,
                                  size_t n, unsigned k,
                                  const kernel_chunk_src *src, size_t lane0);
void kernel_avx2_wide_transform_chunks(const kernel_io *io, const size_t *vi,
                                       size_t n, unsigned k,
                                       const kernel_chunk_src *src,
                                       size_t lane0);
/* The _wide build's transforms and one-influence blend pass
 * (kernel_avx2_wide.c). */
void kernel_avx2_wide_transform(const kernel_io *io, const size_t *vi, size_t n,
                                const float *mat);
void kernel_avx2_wide_transform_pointed(const kernel_io *io, const size_t *vi,
                                        size_t n, const float *const *mp);
void kernel_avx2_wide_transform_joints(const kernel_io *io, const size_t *vi,
                                       size_t n, const float *palette,
                                       const uint16_t *joints);
int kernel_avx2_wide_blend_job(const kernel_job_src *src, size_t base, size_t n,
                               float *mat, const float **mp, float *idw);
/* kernel_ops_avx2() with the _wide build's transforms, chunks and
 * one-influence blend pass: what VS_ISA_AUTO runs when AVX2 is the best ISA
 * and the CPU has AVX-512VL. */
const kernel_ops *kernel_ops_avx2_wide(void);

/* The attribute streams of a job (strides 0 = packed). */
void kernel_io_init(kernel_io *io, const float *in_pos, size_t in_pos_stride,
                    float *out_pos, size_t out_pos_stride, const float *in_nrm,
                    size_t in_nrm_stride, float *out_nrm, size_t out_nrm_stride,
                    const float *in_tan, size_t in_tan_stride, float *out_tan,
                    size_t out_tan_stride, uint32_t tangent_components,
                    bool sequential);

/* Turns on non-temporal stores for the packed outputs of io when flags
 * (vs_skin_flags) hold VS_SKIN_STREAMING_STORES. Returns whether any output
 * streams. */
bool kernel_io_streaming(kernel_io *io, uint32_t flags);

/* Sets KERNEL_NORMALS_BY_MATRIX in io->attrs when the job has normals and
 * flags (vs_skin_flags) hold VS_SKIN_NORMALS_BY_MATRIX. */
void kernel_io_normals(kernel_io *io, uint32_t flags);

/* io with every attribute's pointers moved to vertex `first`, so that a
 * block of consecutive vertices can be visited through relative indices
 * (kernel_block_indices, written once) instead of absolute ones written
 * for every block: 64 stores per block, about a tenth of a one-influence
 * job. */
void kernel_io_at(const kernel_io *io, size_t first, kernel_io *at);

/* vi[i] = i for i < n and n - 1 beyond, up to KERNEL_BLOCK: the relative
 * indices of a block of n consecutive vertices. */
void kernel_block_indices(size_t *vi, size_t n);

/* The vertices (0 to 15) a plain job of vertex_count vertices runs as a
 * short block of their own before its full blocks, so that every block
 * after them, and each 16-vertex step in it, begins where the packed
 * output positions (stride 0 or 12) begin a 64-byte line. malloc gives 16
 * bytes of alignment: there each of the widest kernel's 64-byte loads and
 * stores of packed attributes would straddle two lines. 0 for other
 * strides, addresses that are not a multiple of 4 and jobs of fewer than
 * KERNEL_BLOCK vertices. The other attributes gain where they share the
 * positions' alignment, as arrays from one allocator often do. A parallel
 * job starts its ranges after the lead (skinning_parallel.c), so that its
 * blocks stay the serial run's. */
size_t kernel_job_lead(const float *out_positions, size_t stride,
                       size_t vertex_count);

/* Orders the non-temporal stores before anything after it (sfence on x86);
 * a job that streamed calls it before returning. */
void kernel_store_fence(void);

/* Joint matrices whose address is not a multiple of 32 bytes (malloc gives
 * 16) make the AVX2 blend's 32-byte loads straddle cache lines, which slows
 * it down. A job with at least KERNEL_PALETTE_VERTICES_PER_JOINT
 * vertices per joint and at most KERNEL_PALETTE_COPY_JOINTS joints reads an
 * aligned copy instead (kernel_aligned_palette). */
#define KERNEL_PALETTE_COPY_JOINTS 256u
#define KERNEL_PALETTE_VERTICES_PER_JOINT 8u

typedef struct kernel_palette_copy {
    _Alignas(64) float m[KERNEL_PALETTE_COPY_JOINTS * 16];
} kernel_palette_copy;

/* The palette a job should read: palette itself, or its copy in *buf when
 * it is misaligned and the job is large enough for the copy to pay. */
const float *kernel_aligned_palette(const float *palette, uint32_t joint_count,
                                    size_t vertex_count,
                                    kernel_palette_copy *buf);

/* palette times 1 / 65535 in *buf (kernel_chunk_src.palette_q), or NULL
 * for more than KERNEL_PALETTE_COPY_JOINTS joints. */
const float *kernel_q_palette(const float *palette, uint32_t joint_count,
                              kernel_palette_copy *buf);

/* The inputs of a block's unskinned vertices. Such a vertex keeps its
 * input position, normal and tangent bit for bit: transformed by the
 * identity, -0 would become +0 and the normal and tangent would be
 * normalised again, and a job skinning in place has overwritten its inputs
 * by the time the transform is done. So they are saved before the
 * transform (kernel_keep_inputs) and written over its outputs after it
 * (kernel_write_kept); blocks without one skip both. */
typedef struct kernel_kept {
    size_t count;
    size_t vi[KERNEL_BLOCK];
    float v[KERNEL_BLOCK][3][4]; /* position, normal, tangent */
} kernel_kept;

/* Saves the inputs of the vertices vi[i] (i < n) whose idw[i] is not 0, or
 * of all n when idw is NULL. */
void kernel_keep_inputs(const kernel_io *io, const size_t *vi, size_t n,
                        const float *idw, kernel_kept *kept);
/* Writes the saved inputs to the outputs of their vertices. */
void kernel_write_kept(const kernel_io *io, const kernel_kept *kept);

/* Block scratch: staged influences, vertex indices, blended matrices. */
typedef struct kernel_scratch {
    _Alignas(64) float mat[KERNEL_BLOCK * 16];
    const float *jm[KERNEL_BLOCK * KERNEL_MAX_STAGED];
    float w[KERNEL_BLOCK * KERNEL_MAX_STAGED];
    float idw[KERNEL_BLOCK];
    size_t vi[KERNEL_BLOCK];
    const float *mp[KERNEL_BLOCK];
} kernel_scratch;

/* Zeroes what of the scratch is read before a block writes it: the
 * matrices (a short last block's padding lanes read some; any values will
 * do, zero keeps them defined) and the identity weights (a zero-influence
 * block of raw weights reads them). Everything else is written before it is
 * read, and zeroing all of it per call weighed on small jobs. */
static inline void kernel_scratch_clear(kernel_scratch *s)
{
    memset(s->mat, 0, sizeof s->mat);
    memset(s->idw, 0, sizeof s->idw);
}

/* Four floats / int32 lanes as GCC and Clang vector extensions: plain
 * arithmetic and comparisons (-1 / 0 lanes) that each kernel's compiler
 * maps onto its own ISA (16 bytes: SSE2 has no wider registers, and a
 * wider vector there is split into scalar code). */
typedef float kernel_v4f __attribute__((vector_size(16)));
typedef int32_t kernel_v4i __attribute__((vector_size(16)));

/* Where a kernel's load_mat finds vertex i's matrix (how, a constant once
 * inlined, so the contiguous loads keep one base register and constant
 * offsets): */
enum {
    MATS_BLOCK,   /* mat + 16 * i */
    MATS_POINTED, /* mp[i] */
    /* palette + 16 * joints[i]: one influence whose weights all normalise
     * to 1, read straight from the caller's joints; writing each vertex's
     * pointer first and reading it back weighs on a job that does little
     * else per vertex (positions alone, most of all). */
    MATS_JOINTS,
    /* MATS_FUSED + k: scale[i] * sum_j w[i * k + j] * the matrix of joint
     * joints[i * k + j] (or at byte offset off[i * k + j] of the palette,
     * as the kernel's fused_reads_joints(k) says), blended where it is
     * loaded (kernel_ops.skin_job; only kernels that have one know it). */
    MATS_FUSED
};
typedef struct kernel_mats {
    const float *mat;
    const float *const *mp;
    const float *palette;
    const uint16_t *joints;
    const uint32_t *off;
    const float *w, *scale;
} kernel_mats;

static inline __attribute__((always_inline)) const float *
kernel_mat_at(kernel_mats m, const int how, int i)
{
    return how == MATS_POINTED  ? m.mp[i]
           : how == MATS_JOINTS ? m.palette + 16 * (size_t)m.joints[i]
                                : m.mat + i * 16;
}

/* A 4x4 of zeros: what a zero-weight influence points at, so that it adds
 * nothing even when its joint matrix holds NaN (as the reference skips it). */
extern const float kernel_zero_matrix[16];
/* n vertices' k elements of size bytes each (u16 joints, float weights)
 * at byte step `step` from p, as one packed array: p itself when it already
 * is one (step k * size, p aligned for the type), else copied into buf. */
static inline __attribute__((always_inline)) const void *
kernel_packed_block(const unsigned char *p, size_t step, size_t size,
                    unsigned k, size_t n, void *buf)
{
    if (step == k * size && !((uintptr_t)p % size)) return p;
    for (size_t i = 0; i < n; ++i)
        memcpy((unsigned char *)buf + i * k * size, p + i * step, k * size);
    return buf;
}

/* Vertices [base, base + n) of a plain job's influences (k each) as packed
 * arrays: the caller's own where they already are, else copies in jbuf and
 * wbuf. */
static inline __attribute__((always_inline)) void
kernel_job_influences(const kernel_job_src *src, size_t base, size_t n,
                      const unsigned k, uint16_t *jbuf, float *wbuf,
                      const uint16_t **joints, const float **w)
{
    *joints = (const uint16_t *)kernel_packed_block(
        src->joints + base * src->joints_step, src->joints_step, sizeof *jbuf,
        k, n, jbuf);
    *w = (const float *)kernel_packed_block(
        src->weights + base * src->weights_step, src->weights_step,
        sizeof *wbuf, k, n, wbuf);
}

/* Whether all count joint matrices are finite: only then may a zero
 * weight multiply its joint's matrix (0 x inf or NaN would poison the
 * blend, where the reference skips the influence). */
static inline bool kernel_palette_finite(const float *palette, uint32_t count)
{
    float acc = 0.0f;
    for (size_t i = 0; i < (size_t)count * 16; ++i)
        acc += palette[i] * 0.0f; /* NaN or inf makes acc NaN */
    return acc == 0.0f;
}

/* The 4x4 identity: an unskinned vertex's matrix. */
extern const float kernel_identity_matrix[16];

#endif
