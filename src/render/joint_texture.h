/* SPDX-License-Identifier: MIT */
/* The texture path for joint data: an RGBA32F texture, one row per joint.
 * Linear skinning: texel (c, j) is column c of joint matrix j, so a shader
 * rebuilds the matrix with four texelFetch calls. DQS: texels 0..4 of row j
 * are joint j's VS_DQ_JOINT_FLOATS (real, dual, S columns). The texture is
 * JOINT_TEXTURE_WIDTH texels wide to hold either (docs/gpu.md). Used when the
 * uniform array would not fit GL_MAX_VERTEX_UNIFORM_VECTORS. */
#ifndef VS_RENDER_JOINT_TEXTURE_H
#define VS_RENDER_JOINT_TEXTURE_H

#include <GLES3/gl3.h>
#include <stdint.h>

#include "vskin/vskin.h"

typedef struct joint_texture {
    GLuint texture;
    uint32_t rows; /* joints it can hold */
} joint_texture;

#define JOINT_TEXTURE_WIDTH 5

/* Allocates rows x JOINT_TEXTURE_WIDTH texels (rows <= GL_MAX_TEXTURE_SIZE,
 * checked). */
vs_result joint_texture_create(joint_texture *jt, uint32_t rows,
                               vs_error *error);
/* Writes `count` joints of `texels` RGBA texels each (4: column-major
 * matrices, 5: DQS data) into rows 0..count-1 and leaves the texture bound
 * to texture unit 0. */
void joint_texture_upload(const joint_texture *jt, const float *data,
                          uint32_t texels, uint32_t count);
void joint_texture_free(joint_texture *jt);

#endif
