/* SPDX-License-Identifier: MIT */
/* Whether the library's AVX-512 forms are the faster ones on this CPU: the
 * one rule behind the skinning kernel's choice (vs_cpu_best_isa) and the
 * frame's AVX-512 products (pose/world_pass_avx512.c, base/affine_avx512.c).
 * True where the CPU runs AVX-512F and AVX-512VL (the OS saving the
 * registers: __builtin_cpu_supports checks it) and is
 * - an AMD CPU after family 19h (Zen 5 on, whose units are 512 bits wide).
 *   On Zen 4 (family 19h, 512-bit operations split in two) the skinning
 *   kernel measured at best as fast as the AVX2 one, up to 2x slower
 *   depending on what ran before it, and left the SSE code run after it
 *   about 3x slower;
 * - an Intel CPU with AVX-512 BF16 and VBMI2, which together mark the
 *   server cores from Sapphire Rapids on (Cooper Lake has BF16 without
 *   VBMI2, Ice Lake VBMI2 without BF16). There it measured faster and left
 *   SSE code run after it as fast. Intel's older AVX-512 cores, with their
 *   deeper frequency drops under 512-bit work, are not measured and keep
 *   AVX2.
 * Every AVX-512 form gives its baseline's floats, so this changes speed
 * only. libgcc's cached CPU model answers, not a cpuid per call (a VM exit
 * in a guest). False on other CPUs and compilers. */
#ifndef VS_BASE_CPU_AVX512_H
#define VS_BASE_CPU_AVX512_H

#include <stdbool.h>

/* Whether the CPU runs AVX-512F and VL code at all (the OS saving the
 * registers): what picks the skinning kernels' 32-register builds
 * (kernel_avx2_wide.c), and what the tests ask before running the AVX-512
 * forms on a CPU where they are not preferred. */
static inline bool cpu_avx512(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

static inline bool cpu_avx512_preferred(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    if (!cpu_avx512()) return false;
    if (__builtin_cpu_is("intel"))
        return __builtin_cpu_supports("avx512bf16") &&
               __builtin_cpu_supports("avx512vbmi2");
    return __builtin_cpu_is("amd") && !__builtin_cpu_is("amdfam10h") &&
           !__builtin_cpu_is("amdfam15h") && !__builtin_cpu_is("amdfam17h") &&
           !__builtin_cpu_is("amdfam19h");
#else
    return false;
#endif
}

#endif
