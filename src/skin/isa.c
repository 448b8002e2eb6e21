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
        /* The AVX2 kernel, its transforms in 32 registers where AVX-512VL
         * gives them (kernel_avx2_wide.c). */
        const vs_isa best = vs_cpu_best_isa();
        if (best == VS_ISA_AVX2 && kernel_cpu_has_avx512vl())
            return kernel_ops_avx2_wide();
        return kernel_ops_for(best);
    }
    default:
        return NULL;
    }
}

/* AVX2 comes before AVX-512: on the one AVX-512 CPU measured (AMD EPYC,
 * Zen 4, 512-bit ops split in two) the AVX-512 kernel was at best as fast as
 * the AVX2 one, up to 2x slower depending on what ran before it, and it left
 * the SSE code that ran after it about 3x slower.
 * VS_ISA_AVX512 stays available on request (see docs/skinning.md). */
vs_isa vs_cpu_best_isa(void)
{
    static const vs_isa fastest_first[] = {VS_ISA_AVX2, VS_ISA_AVX512,
                                           VS_ISA_SSE2};
    for (size_t i = 0; i < sizeof fastest_first / sizeof *fastest_first; ++i)
        if (kernel_ops_for(fastest_first[i])) return fastest_first[i];
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
