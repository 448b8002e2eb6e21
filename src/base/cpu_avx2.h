/* SPDX-License-Identifier: MIT */
/* Whether the CPU runs AVX2 code (__builtin_cpu_supports, which also checks
 * that the OS saves the wide registers): the one test behind the library's
 * AVX2 forms outside the skinning kernels (base/affine_avx2.c,
 * pose/rotation_batch_avx2.c), which use no FMA. False on other CPUs and
 * compilers, where those forms are not built. */
#ifndef VS_BASE_CPU_AVX2_H
#define VS_BASE_CPU_AVX2_H

#include <stdbool.h>

static inline bool cpu_avx2(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

#endif
