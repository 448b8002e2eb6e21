/* SPDX-License-Identifier: MIT */
/* Run-time kernel choice: one binary carries every kernel and asks the CPU
 * (cpuid through __builtin_cpu_supports, which also checks that the OS saves
 * the wide registers) which ones it can run. */
#include "base/cpu_avx512.h"
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
        if (best == VS_ISA_AVX2 && cpu_avx512()) return kernel_ops_avx2_wide();
        return kernel_ops_for(best);
    }
    default:
        return NULL;
    }
}

/* AVX2 comes before AVX-512 except where AVX-512 measured faster
 * (cpu_avx512_preferred, base/cpu_avx512.h; both kernels give the same
 * floats, test_simd_kernels). VS_ISA_AVX512 stays available on request (see
 * docs/skinning.md). */
vs_isa vs_cpu_best_isa(void)
{
    static const vs_isa avx2_first[] = {VS_ISA_AVX2, VS_ISA_AVX512,
                                        VS_ISA_SSE2},
                        avx512_first[] = {VS_ISA_AVX512, VS_ISA_AVX2,
                                          VS_ISA_SSE2};
    const vs_isa *order = cpu_avx512_preferred() ? avx512_first : avx2_first;
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
