/* SPDX-License-Identifier: MIT */
/* The baseline's world pass (pose/world_pass.h) built for AVX: the same
 * operations, VEX encoded ("fma" is not enabled, so no multiply-add is fused
 * and the floats are the SSE2 build's). */
#include "base/target.h"
#include "pose/world_pass.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
VS_TARGET_BEGIN("avx")

void world_pass_avx(const world_pass_args *args)
{
    world_pass_with(args, local_batch_world);
}

VS_TARGET_END
#else
void world_pass_avx(const world_pass_args *args)
{
    world_pass_baseline(args);
}
#endif
