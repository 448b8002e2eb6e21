/* The AVX2 kernel's stream-chunk function (kernel_soa.h, "Stream chunks")
 * compiled once more for CPUs that also have AVX-512VL: the same 256-bit
 * operations, but the compiler may use the 32 vector registers AVX-512VL
 * adds to 256-bit code. A chunk's transform keeps its 12 matrix entries, 9
 * cofactor entries and the attributes live at once; with 16 registers it
 * spills and its dependent chains leave little to overlap. Measured on the
 * AMD EPYC (Zen 4) of docs/performance.md, positions + normals, 100k
 * vertices, stream order: 1 influence 374 -> 410 Mvert/s, 4 influences 261
 * -> 296. Chosen at run time (isa.c) for VS_ISA_AUTO and VS_ISA_AVX512;
 * VS_ISA_AVX2 keeps the 16-register build, so both stay tested here. */
#include "skin/kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <float.h>
#include <immintrin.h>
#include <math.h>
#include <string.h>

#if defined(__clang__)
#pragma clang attribute push(                                                  \
    __attribute__((target("avx2,fma,avx512f,avx512vl"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2,fma,avx512f,avx512vl")
#endif

#define NAME(x) avx2w_##x
#include "skin/kernel_avx2_ops.h"

#define KERNEL_ONLY_CHUNKS
#include "skin/kernel_soa.h"

void kernel_avx2_wide_transform_chunks(const kernel_io *io, const size_t *vi,
                                       size_t n, unsigned k,
                                       const kernel_chunk_src *src,
                                       size_t lane0)
{
    avx2w_transform_chunks(io, vi, n, k, src, lane0);
}

#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif

#endif
