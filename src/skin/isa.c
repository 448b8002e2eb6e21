/* SPDX-License-Identifier: MIT */
/* Run-time kernel choice: one binary carries every kernel and asks the CPU
 * (cpuid through __builtin_cpu_supports, which also checks that the OS saves
 * the wide registers) which ones it can run. */
#include "skin/lbs/kernel.h"

static bool cpu_has(vs_isa isa)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    switch (isa) {
    case VS_ISA_SSE2:
        return __builtin_cpu_supports("sse2");
    case VS_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case VS_ISA_AVX512:
        return __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    default:
        return false;
    }
#else
    (void)isa;
    return false;
#endif
}

bool kernel_cpu_has_avx512vl(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

bool vs_isa_supported(vs_isa isa)
{
    switch (isa) {
    case VS_ISA_AUTO:
    case VS_ISA_SCALAR:
    case VS_ISA_PORTABLE:
        return true;
    case VS_ISA_SSE2:
    case VS_ISA_AVX2:
    case VS_ISA_AVX512:
        return kernel_ops_for(isa) != NULL;
    default:
        return false;
    }
}

const kernel_ops *kernel_ops_for(vs_isa isa)
{
    switch (isa) {
    case VS_ISA_PORTABLE:
        return kernel_ops_portable();
    case VS_ISA_SSE2:
        return cpu_has(isa) ? kernel_ops_sse2() : NULL;
    case VS_ISA_AVX2:
        return cpu_has(isa) ? kernel_ops_avx2() : NULL;
    case VS_ISA_AVX512:
        return cpu_has(isa) ? kernel_ops_avx512() : NULL;
    case VS_ISA_AUTO: {
        /* The best ISA's kernel; the AVX2 one with its transforms in 32
         * registers where AVX-512VL gives them (kernel_avx2_wide.c). */
        const vs_isa best = vs_cpu_best_isa();
        if (best == VS_ISA_AVX2 && kernel_cpu_has_avx512vl())
            return kernel_ops_avx2_wide();
        return kernel_ops_for(best);
    }
    default:
        return NULL;
    }
}

/* Whether the AVX-512 kernel is the faster one on this CPU, with
 * AVX-512VL:
 * - an AMD CPU after family 19h (Zen 5 on, whose units are 512 bits wide).
 *   On Zen 4 (family 19h, 512-bit operations split in two) it measured at
 *   best as fast as the AVX2 kernel, up to 2x slower depending on what ran
 *   before it, and left the SSE code run after it about 3x slower;
 * - an Intel CPU with AVX-512 BF16 and VBMI2, which together mark the
 *   server cores from Sapphire Rapids on (Cooper Lake has BF16 without
 *   VBMI2, Ice Lake VBMI2 without BF16). There it measured faster with
 *   every influence count and left SSE code run after it as fast. Intel's
 *   older AVX-512 cores, with their deeper frequency drops under 512-bit
 *   work, are not measured and keep AVX2.
 * Both kernels give the same floats (test_simd_kernels), so this choice
 * changes speed only. libgcc's cached CPU model answers, not a cpuid per
 * call (a VM exit in a guest). */
static bool avx512_is_faster(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    if (!kernel_cpu_has_avx512vl()) return false;
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

/* AVX2 comes before AVX-512 except where AVX-512 measured faster
 * (avx512_is_faster). VS_ISA_AVX512 stays available on request (see
 * docs/skinning.md). */
vs_isa vs_cpu_best_isa(void)
{
    static const vs_isa avx2_first[] = {VS_ISA_AVX2, VS_ISA_AVX512,
                                        VS_ISA_SSE2},
                        avx512_first[] = {VS_ISA_AVX512, VS_ISA_AVX2,
                                          VS_ISA_SSE2};
    const vs_isa *order = avx512_is_faster() ? avx512_first : avx2_first;
    for (size_t i = 0; i < sizeof avx2_first / sizeof *avx2_first; ++i)
        if (kernel_ops_for(order[i])) return order[i];
    return VS_ISA_PORTABLE;
}

const char *vs_isa_name(vs_isa isa)
{
    switch (isa) {
    case VS_ISA_AUTO:
        return "auto";
    case VS_ISA_SCALAR:
        return "scalar";
    case VS_ISA_PORTABLE:
        return "portable";
    case VS_ISA_SSE2:
        return "sse2";
    case VS_ISA_AVX2:
        return "avx2";
    case VS_ISA_AVX512:
        return "avx512";
    default:
        return "?";
    }
}
