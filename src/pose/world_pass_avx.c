/* SPDX-License-Identifier: MIT */
/* The baseline's world pass (pose/world_pass.h) built for AVX: the same
 * operations, VEX encoded ("fma" is not enabled, so no multiply-add is fused
 * and the floats are the SSE2 build's). */
#include "pose/world_pass.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx"))),                   \
                             apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx")
#endif

void world_pass_avx(const world_pass_args *args)
{
    world_pass_with(args, local_batch_world);
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
void world_pass_avx(const world_pass_args *args)
{
    world_pass_with(args, local_batch_world);
}
#endif
