/* SPDX-License-Identifier: MIT */
/* Joint data as an RGBA32F texture, one row per joint (joint_texture.h). */
#include "render/joint_texture.h"

#include "base/error.h"
#include "render/gl_program.h"

vs_result joint_texture_create(joint_texture *jt, uint32_t rows,
                               vs_error *error)
{
    *jt = (joint_texture){0};
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    if (rows == 0 || rows > (uint32_t)max_size)
        return set_error(error, VS_ERROR_LIMIT,
                         "GL: %u joints need a joint texture of %u rows but "
                         "GL_MAX_TEXTURE_SIZE is %d",
                         rows, rows, max_size);
    glGenTextures(1, &jt->texture);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, jt->texture);
    /* Float textures are not filterable in GLES 3.0; texelFetch ignores
     * filtering, but the texture must still be "complete": NEAREST, 1 level. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, JOINT_TEXTURE_WIDTH,
                   (GLsizei)rows);
    jt->rows = rows;
    vs_result r = gl_check("creating the joint texture", error);
    if (r != VS_OK) joint_texture_free(jt);
    return r;
}

void joint_texture_upload(const joint_texture *jt, const float *data,
                          uint32_t texels, uint32_t count)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, jt->texture);
    if (count == 0) return;
    /* Column-major float[16] is already 4 RGBA texels in column order, and
     * the DQS layout is 5 vec4s; rows are packed (texels * 16 bytes). */
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, (GLsizei)texels, (GLsizei)count,
                    GL_RGBA, GL_FLOAT, data);
}

void joint_texture_free(joint_texture *jt)
{
    if (jt->texture) glDeleteTextures(1, &jt->texture);
    *jt = (joint_texture){0};
}
