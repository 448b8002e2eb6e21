/* SPDX-License-Identifier: MIT */
/* Compiling and linking GLSL ES programs with the info log in the error. */
#ifndef VS_RENDER_GL_PROGRAM_H
#define VS_RENDER_GL_PROGRAM_H

#include <GLES3/gl3.h>
#include <stdbool.h>

#include "vskin/vskin.h"

/* Links a program from vertex sources (concatenated in order) and one
 * fragment source. capture: the transform feedback varyings to record
 * interleaved, or NULL. Returns 0 and fills error on failure. */
GLuint gl_program_build(const char *const *vertex_sources, int vertex_count,
                        const char *fragment_source, const char *const *capture,
                        int capture_count, vs_error *error);

/* VS_ERROR_RENDER naming `what` when glGetError reports something. */
vs_result gl_check(const char *what, vs_error *error);

#endif
