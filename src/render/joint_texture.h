/* The texture path for joint matrices: an RGBA32F texture, 4 texels wide and
 * one row per joint; texel (c, j) is column c of joint matrix j, so a shader
 * rebuilds the matrix with four texelFetch calls (docs/gpu.md). Used when the
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

/* Allocates rows x 4 texels (rows <= GL_MAX_TEXTURE_SIZE, checked). */
vs_result joint_texture_create(joint_texture *jt, uint32_t rows,
                               vs_error *error);
/* Writes `count` matrices (16 floats each, column-major) into rows 0..count-1
 * and leaves the texture bound to texture unit 0. */
void joint_texture_upload(const joint_texture *jt, const float *matrices,
                          uint32_t count);
void joint_texture_free(joint_texture *jt);

#endif
