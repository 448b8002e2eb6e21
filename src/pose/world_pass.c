/* SPDX-License-Identifier: MIT */
/* The world pass (pose/world_pass.h) built for the library's baseline. */
#include "pose/world_pass.h"

void world_pass_baseline(const world_pass_args *args)
{
    world_pass_with(args, local_batch_world);
}
