/* SPDX-License-Identifier: MIT */
/* The headless EGL + OpenGL ES 3 context on Mesa's surfaceless platform
 * (egl_context.h). */
#include "render/egl_context.h"

#include <EGL/eglext.h>
#include <string.h>

#include "base/error.h"

#define EGL_HINT "install libegl-mesa0 and libgl1-mesa-dri (Mesa's llvmpipe)"

static bool has_extension(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

static vs_result fail(egl_context *ctx, vs_error *error, const char *what)
{
    EGLint code = eglGetError();
    egl_context_close(ctx);
    if (code == EGL_SUCCESS)
        return set_error(error, VS_ERROR_RENDER, "EGL: %s; " EGL_HINT, what);
    return set_error(error, VS_ERROR_RENDER,
                     "EGL: %s (EGL error 0x%04x); " EGL_HINT, what,
                     (unsigned)code);
}

vs_result egl_context_open(egl_context *ctx, vs_error *error)
{
    ctx->display = EGL_NO_DISPLAY;
    ctx->context = EGL_NO_CONTEXT;
    /* Client extensions are queried on EGL_NO_DISPLAY
     * (EGL_EXT_client_extensions). */
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_extension(client, "EGL_MESA_platform_surfaceless"))
        return fail(ctx, error, "the surfaceless platform is not available");
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress(
            "eglGetPlatformDisplayEXT");
    if (!get_display)
        return fail(ctx, error, "eglGetPlatformDisplayEXT is missing");
    ctx->display =
        get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (ctx->display == EGL_NO_DISPLAY)
        return fail(ctx, error, "no display could be opened");
    EGLint major = 0, minor = 0;
    if (!eglInitialize(ctx->display, &major, &minor)) {
        ctx->display = EGL_NO_DISPLAY;
        return fail(ctx, error, "eglInitialize failed");
    }
    const char *ext = eglQueryString(ctx->display, EGL_EXTENSIONS);
    if (!has_extension(ext, "EGL_KHR_surfaceless_context") ||
        !has_extension(ext, "EGL_KHR_no_config_context"))
        return fail(ctx, error,
                    "EGL_KHR_surfaceless_context / no_config_context missing");
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        return fail(ctx, error, "OpenGL ES is not supported");
    /* No config: we never draw to an EGL surface, only to our own FBO. */
    const EGLint attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    ctx->context = eglCreateContext(ctx->display, EGL_NO_CONFIG_KHR,
                                    EGL_NO_CONTEXT, attribs);
    if (ctx->context == EGL_NO_CONTEXT)
        return fail(ctx, error, "no OpenGL ES 3 context could be created");
    if (!eglMakeCurrent(ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                        ctx->context))
        return fail(ctx, error, "eglMakeCurrent failed");
    return VS_OK;
}

vs_result egl_context_make_current(const egl_context *ctx, vs_error *error)
{
    if (eglGetCurrentContext() == ctx->context) return VS_OK;
    if (!eglMakeCurrent(ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                        ctx->context))
        return set_error(error, VS_ERROR_RENDER,
                         "EGL: eglMakeCurrent failed (EGL error 0x%04x)",
                         (unsigned)eglGetError());
    return VS_OK;
}

void egl_context_close(egl_context *ctx)
{
    if (ctx->display != EGL_NO_DISPLAY) {
        if (eglGetCurrentContext() == ctx->context)
            eglMakeCurrent(ctx->display, EGL_NO_SURFACE, EGL_NO_SURFACE,
                           EGL_NO_CONTEXT);
        if (ctx->context != EGL_NO_CONTEXT)
            eglDestroyContext(ctx->display, ctx->context);
        /* eglTerminate would also end other renderers' use of the shared
         * default display (EGL displays are per process), so it is not
         * called; EGL releases the display at exit. */
        eglReleaseThread();
    }
    ctx->display = EGL_NO_DISPLAY;
    ctx->context = EGL_NO_CONTEXT;
}
