/* SPDX-License-Identifier: MIT */
/* Shared setup for the kernel drivers. */
#include <string.h>

#include "skin/lbs/kernel.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const float kernel_zero_matrix[16];
const float kernel_identity_matrix[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                          0, 0, 1, 0, 0, 0, 0, 1};

static kernel_attr make_attr(const float *in, size_t in_stride, float *out,
                             size_t out_stride, size_t element)
{
    kernel_attr a = {(const unsigned char *)in,
                     in_stride ? in_stride : element,
                     (unsigned char *)out,
                     out_stride ? out_stride : element,
                     false,
                     false,
                     false,
                     false};
    return a;
}

void kernel_io_init(kernel_io *io, const float *in_pos, size_t in_pos_stride,
                    float *out_pos, size_t out_pos_stride, const float *in_nrm,
                    size_t in_nrm_stride, float *out_nrm, size_t out_nrm_stride,
                    const float *in_tan, size_t in_tan_stride, float *out_tan,
                    size_t out_tan_stride, uint32_t tangent_components,
                    bool sequential)
{
    const size_t tc = tangent_components == 3 ? 3 : 4;
    memset(io, 0, sizeof *io);
    io->pos = make_attr(in_pos, in_pos_stride, out_pos, out_pos_stride, 12);
    io->nrm = make_attr(in_nrm, in_nrm_stride, out_nrm, out_nrm_stride, 12);
    io->tan = make_attr(in_tan, in_tan_stride, out_tan, out_tan_stride,
                        tc * sizeof(float));
    kernel_attr *all[3] = {&io->pos, &io->nrm, &io->tan};
    for (int i = 0; i < 3; ++i) {
        all[i]->in_packed = sequential && all[i]->in_step == 12;
        all[i]->out_packed = sequential && all[i]->out_step == 12;
    }
    io->attrs =
        (in_nrm ? KERNEL_NORMALS : 0u) | (in_tan ? KERNEL_TANGENTS : 0u);
    io->tangent_w = tc == 4;
    io->tan.packed4 = sequential && tc == 4 && io->tan.in_step == 16 &&
                      io->tan.out_step == 16;
}

bool kernel_io_streaming(kernel_io *io, uint32_t flags)
{
    const bool on = (flags & VS_SKIN_STREAMING_STORES) != 0;
    io->pos.nt = on && io->pos.out_packed;
    io->nrm.nt = on && (io->attrs & KERNEL_NORMALS) && io->nrm.out_packed;
    return io->pos.nt || io->nrm.nt;
}

void kernel_io_normals(kernel_io *io, uint32_t flags)
{
    if ((flags & VS_SKIN_NORMALS_BY_MATRIX) && (io->attrs & KERNEL_NORMALS))
        io->attrs |= KERNEL_NORMALS_BY_MATRIX;
}

static void attr_at(kernel_attr *a, size_t first)
{
    /* An absent attribute's null pointers stay null. */
    if (a->in) a->in += first * a->in_step;
    if (a->out) a->out += first * a->out_step;
}

void kernel_io_at(const kernel_io *io, size_t first, kernel_io *at)
{
    *at = *io;
    attr_at(&at->pos, first);
    attr_at(&at->nrm, first);
    attr_at(&at->tan, first);
}

/* Attribute a of io (0 position, 1 normal, 2 tangent) and the floats it
 * holds per vertex, 0 when the job has none. */
static const kernel_attr *kept_attr(const kernel_io *io, int a, size_t *floats)
{
    switch (a) {
    case 0:
        *floats = 3;
        return &io->pos;
    case 1:
        *floats = io->attrs & KERNEL_NORMALS ? 3 : 0;
        return &io->nrm;
    default:
        *floats = !(io->attrs & KERNEL_TANGENTS) ? 0 : io->tangent_w ? 4 : 3;
        return &io->tan;
    }
}

void kernel_keep_inputs(const kernel_io *io, const size_t *vi, size_t n,
                        const float *idw, kernel_kept *kept)
{
    kept->count = 0;
    for (size_t i = 0; i < n; ++i) {
        if (idw && idw[i] == 0.0f) continue;
        const size_t k = kept->count++;
        kept->vi[k] = vi[i];
        for (int a = 0; a < 3; ++a) {
            size_t floats;
            const kernel_attr *at = kept_attr(io, a, &floats);
            if (floats)
                memcpy(kept->v[k][a], at->in + vi[i] * at->in_step,
                       floats * sizeof(float));
        }
    }
}

void kernel_write_kept(const kernel_io *io, const kernel_kept *kept)
{
    for (size_t k = 0; k < kept->count; ++k)
        for (int a = 0; a < 3; ++a) {
            size_t floats;
            const kernel_attr *at = kept_attr(io, a, &floats);
            if (floats)
                memcpy(at->out + kept->vi[k] * at->out_step, kept->v[k][a],
                       floats * sizeof(float));
        }
}

void kernel_block_indices(size_t *vi, size_t n)
{
    for (size_t i = 0; i < KERNEL_BLOCK; ++i)
        vi[i] = i < n ? i : n - 1;
}

size_t kernel_job_lead(const float *out_positions, size_t stride,
                       size_t vertex_count)
{
    const uintptr_t at = (uintptr_t)out_positions;
    if ((stride && stride != 3 * sizeof(float)) || at % sizeof(float) ||
        vertex_count < KERNEL_BLOCK)
        return 0;
    /* 12 * v runs through every multiple of 4 modulo 64 as v goes 0..15. */
    size_t v = 0;
    while ((at + v * 3 * sizeof(float)) % 64)
        ++v;
    return v;
}

void kernel_store_fence(void)
{
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

const float *kernel_aligned_palette(const float *palette, uint32_t joint_count,
                                    size_t vertex_count,
                                    kernel_palette_copy *buf)
{
    if (!((uintptr_t)palette & 31) ||
        joint_count > KERNEL_PALETTE_COPY_JOINTS ||
        vertex_count / KERNEL_PALETTE_VERTICES_PER_JOINT < joint_count)
        return palette;
    memcpy(buf->m, palette, (size_t)joint_count * 16 * sizeof *palette);
    return buf->m;
}

const float *kernel_q_palette(const float *palette, uint32_t joint_count,
                              kernel_palette_copy *buf)
{
    if (joint_count > KERNEL_PALETTE_COPY_JOINTS) return NULL;
    /* Four floats at a time (as a plain loop, -O2 left it scalar). */
    const kernel_v4f scale = {1.0f / 65535.0f, 1.0f / 65535.0f, 1.0f / 65535.0f,
                              1.0f / 65535.0f};
    for (size_t i = 0; i < (size_t)joint_count * 16; i += 4) {
        kernel_v4f v;
        memcpy(&v, palette + i, sizeof v);
        v *= scale;
        memcpy(buf->m + i, &v, sizeof v);
    }
    return buf->m;
}
