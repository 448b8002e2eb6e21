/* SPDX-License-Identifier: MIT */
/* Compiling and linking GLSL ES programs, the info log in the error
 * (gl_program.h). */
#include "render/gl_program.h"

#include "base/error.h"

static GLuint compile(GLenum type, const char *const *sources, int count,
                      vs_error *error)
{
    GLuint shader = glCreateShader(type);
    if (!shader) {
        set_error(error, VS_ERROR_RENDER, "GL: glCreateShader failed");
        return 0;
    }
    glShaderSource(shader, count, sources, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok) return shader;
    char log[512] = "";
    glGetShaderInfoLog(shader, (GLsizei)sizeof log, NULL, log);
    glDeleteShader(shader);
    set_error(error, VS_ERROR_RENDER, "GL: the %s shader does not compile: %s",
              type == GL_VERTEX_SHADER ? "vertex" : "fragment", log);
    return 0;
}

GLuint gl_program_build(const char *const *vertex_sources, int vertex_count,
                        const char *fragment_source, const char *const *capture,
                        int capture_count, vs_error *error)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vertex_sources, vertex_count, error);
    if (!vs) return 0;
    GLuint fs = compile(GL_FRAGMENT_SHADER, &fragment_source, 1, error);
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    /* Varyings must be named before linking (GLES 3.0 §2.15.2). */
    if (capture && capture_count > 0)
        glTransformFeedbackVaryings(program, capture_count, capture,
                                    GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (ok) return program;
    char log[512] = "";
    glGetProgramInfoLog(program, (GLsizei)sizeof log, NULL, log);
    glDeleteProgram(program);
    set_error(error, VS_ERROR_RENDER, "GL: the program does not link: %s", log);
    return 0;
}

vs_result gl_check(const char *what, vs_error *error)
{
    GLenum e = glGetError();
    if (e == GL_NO_ERROR) return VS_OK;
    /* Drain the remaining flags so the next check starts clean. */
    for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
    }
    return set_error(error, VS_ERROR_RENDER, "GL: %s failed (GL error 0x%04x)",
                     what, (unsigned)e);
}
