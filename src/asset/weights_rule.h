/* SPDX-License-Identifier: MIT */
/* The default weights rule, in one place for every path that applies it
 * (the skinning jobs and kernels, the prepared stream, dual-quaternion
 * skinning, the fast bounds, the glTF 2.0 writer, reweighting): a vertex's
 * weights are divided by their sum, and a vertex whose sum is not a
 * positive finite number (all zero, negative, NaN, infinite) is unskinned
 * and keeps its input as it is. The sum is taken in double, so that float
 * weights whose float sum would overflow still have one. Raw weights
 * (VS_SKIN_RAW_WEIGHTS) are not subject to it. The GPU's vertex shader
 * (render/shaders.c) states the same rule in GLSL, on a float sum. */
#ifndef VS_ASSET_WEIGHTS_RULE_H
#define VS_ASSET_WEIGHTS_RULE_H

#include <float.h>
#include <stdbool.h>

/* Whether weights summing to sum skin their vertex (else it is unskinned).
 * NaN fails both comparisons. */
static inline bool weights_sum_skins(double sum)
{
    return sum > 0.0 && sum <= DBL_MAX;
}

#endif
