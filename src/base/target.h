/* SPDX-License-Identifier: MIT */
/* A stretch of a file compiled for an instruction set beyond the build's
 * baseline: the forms that run-time dispatch picks (the skinning kernels,
 * the frame's AVX2 and AVX-512 products). GCC's push_options and target
 * pragmas, or Clang's attribute push, from one pair of macros:
 *     VS_TARGET_BEGIN("avx2")  ...functions...  VS_TARGET_END
 * The functions outside the stretch stay baseline code. The ISA string is
 * the compilers' (e.g. "avx2,fma"). On other compilers both are empty,
 * and the files test for GCC or Clang before using them. */
#ifndef VS_BASE_TARGET_H
#define VS_BASE_TARGET_H

#define VS_PRAGMA(text) _Pragma(#text)
#if defined(__clang__)
#define VS_TARGET_BEGIN(isa)                                                   \
    VS_PRAGMA(clang attribute push(__attribute__((target(isa))),               \
                                   apply_to = function))
#define VS_TARGET_END VS_PRAGMA(clang attribute pop)
#elif defined(__GNUC__)
#define VS_TARGET_BEGIN(isa)                                                   \
    VS_PRAGMA(GCC push_options) VS_PRAGMA(GCC target(isa))
#define VS_TARGET_END VS_PRAGMA(GCC pop_options)
#else
#define VS_TARGET_BEGIN(isa)
#define VS_TARGET_END
#endif

#endif
