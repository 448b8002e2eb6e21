/* SPDX-License-Identifier: MIT */
/* A headless EGL + OpenGL ES 3 context: Mesa's surfaceless platform
 * (EGL_MESA_platform_surfaceless) with EGL_KHR_surfaceless_context, so no
 * window system is needed; pictures go to an FBO. */
#ifndef VS_RENDER_EGL_CONTEXT_H
#define VS_RENDER_EGL_CONTEXT_H

#include <EGL/egl.h>

#include "vskin/vskin.h"

typedef struct egl_context {
    EGLDisplay display;
    EGLContext context;
} egl_context;

/* Opens the display, binds OpenGL ES and creates a 3.x context, current on
 * the calling thread. On failure everything opened is closed again and the
 * error names the packages that provide EGL on Debian. */
vs_result egl_context_open(egl_context *ctx, vs_error *error);
/* Makes the context current on the calling thread. */
vs_result egl_context_make_current(const egl_context *ctx, vs_error *error);
void egl_context_close(egl_context *ctx);

#endif
