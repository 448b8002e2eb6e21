/* SPDX-License-Identifier: MIT */
/* Drawing in the caller's context: a renderer made by
 * vs_renderer_create_in_current_context in a context the test opens draws
 * into the test's own framebuffer exactly the pixels vs_render_pose reads
 * back from a renderer with its own context; vs_render_pose in the
 * caller's context binds the caller's framebuffer again; no current
 * context and the wrong kind of renderer are refused; the public shader
 * sources are the ones the renderer compiles. */
#include <GLES3/gl3.h>

#include "render/egl_context.h"
#include "render/shaders.h"
#include "render_support.h"

#define W 96
#define H 80

static vs_asset *asset;
static vs_pose *pose;

/* A framebuffer of the test's own, RGBA8 + depth, bound. */
static GLuint make_framebuffer(GLuint rb[2])
{
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, W, H);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                              GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
                              GL_RENDERBUFFER, rb[1]);
    return fbo;
}

/* Rows of the bound framebuffer, top row first (as vs_render_pose). */
static void read_top_first(uint8_t *rgba)
{
    uint8_t tmp[W * 4];
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    for (int y = 0; y < H / 2; ++y) {
        memcpy(tmp, rgba + (size_t)y * W * 4, W * 4);
        memcpy(rgba + (size_t)y * W * 4, rgba + (size_t)(H - 1 - y) * W * 4,
               W * 4);
        memcpy(rgba + (size_t)(H - 1 - y) * W * 4, tmp, W * 4);
    }
}

static void same_pixels_as_own_context(void)
{
    static uint8_t expected[W * H * 4], got[W * H * 4], again[W * H * 4];
    vs_error e = {0};
    vs_renderer *own = open_renderer_or_skip(asset);
    CHECK(own != NULL);
    if (!own) return;
    const vs_render_view views[] = {VS_VIEW_SHADED, VS_VIEW_OUTLINE,
                                    VS_VIEW_WEIGHTS};
    egl_context ctx;
    CHECK_MSG(egl_context_open(&ctx, &e) == VS_OK, "%s", e.message);
    vs_renderer *mine = NULL;
    CHECK_MSG(vs_renderer_create_in_current_context(asset, NULL, &mine, &e) ==
                  VS_OK,
              "%s", e.message);
    GLuint rb[2];
    GLuint fbo = make_framebuffer(rb);
    for (size_t v = 0; mine && v < sizeof views / sizeof views[0]; ++v) {
        vs_render_desc d = {.width = W,
                            .height = H,
                            .view = views[v],
                            .skeleton = v == 1,
                            .method = v == 2 ? VS_SKIN_DUAL_QUATERNION
                                             : VS_SKIN_LINEAR};
        CHECK(vs_render_pose(own, pose, &d, expected, &e) == VS_OK);
        CHECK_MSG(egl_context_make_current(&ctx, &e) == VS_OK, "%s", e.message);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        CHECK_MSG(vs_render_pose_to_current_framebuffer(mine, pose, &d, &e) ==
                      VS_OK,
                  "%s", e.message);
        read_top_first(got);
        CHECK_MSG(memcmp(expected, got, sizeof got) == 0,
                  "view %d differs from vs_render_pose", (int)views[v]);
        /* vs_render_pose in the caller's context: same picture, and the
         * caller's framebuffer is bound again. */
        CHECK(vs_render_pose(mine, pose, &d, again, &e) == VS_OK);
        CHECK(memcmp(expected, again, sizeof again) == 0);
        GLint bound = 0;
        glGetIntegerv(GL_FRAMEBUFFER_BINDING, &bound);
        CHECK_MSG((GLuint)bound == fbo, "framebuffer %d bound, not %u", bound,
                  fbo);
    }
    /* Only a renderer made in the caller's context draws into it. */
    CHECK(vs_render_pose_to_current_framebuffer(own, pose, &(vs_render_desc){0},
                                                &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_render_pose_to_current_framebuffer(
              mine, NULL, &(vs_render_desc){0}, &e) == VS_ERROR_ARGUMENT);
    CHECK(egl_context_make_current(&ctx, &e) == VS_OK);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(2, rb);
    vs_renderer_destroy(mine);
    egl_context_close(&ctx);
    vs_renderer_destroy(own);
}

static void no_current_context_is_refused(void)
{
    /* vs_renderer_destroy of a renderer with its own context leaves none
     * current; make sure of it. */
    eglMakeCurrent(eglGetCurrentDisplay(), EGL_NO_SURFACE, EGL_NO_SURFACE,
                   EGL_NO_CONTEXT);
    vs_renderer *r = NULL;
    vs_error e = {0};
    CHECK(vs_renderer_create_in_current_context(asset, NULL, &r, &e) ==
          VS_ERROR_RENDER);
    CHECK(r == NULL);
    CHECK_MSG(strstr(e.message, "no OpenGL context is current") != NULL, "%s",
              e.message);
}

static void shader_sources_are_the_renderers(void)
{
    CHECK(vs_render_shader_source(VS_SHADER_SKIN_VERTEX_DECLARATIONS) ==
          skin_vertex_shader);
    CHECK(vs_render_shader_source(VS_SHADER_SKIN_VERTEX_BLEND) ==
          skin_vertex_blend);
    CHECK(vs_render_shader_source(VS_SHADER_SKIN_VERTEX_MAIN) ==
          skin_vertex_main);
    CHECK(vs_render_shader_source(VS_SHADER_SKIN_FRAGMENT) ==
          skin_fragment_shader);
    CHECK(vs_render_shader_source(VS_SHADER_OVERLAY_VERTEX) ==
          overlay_vertex_shader);
    CHECK(vs_render_shader_source(VS_SHADER_OVERLAY_FRAGMENT) ==
          overlay_fragment_shader);
    CHECK(vs_render_shader_source((vs_render_shader)99) == NULL);
    CHECK(strstr(vs_render_shader_source(VS_SHADER_SKIN_VERTEX_DECLARATIONS),
                 "u_jointMat") != NULL);
}

int main(void)
{
    asset = load_default_asset();
    vs_error e = {0};
    if (!asset || vs_pose_create(asset, &pose, &e) != VS_OK) return 1;
    if (!pose_at(pose, 0, 0.5f)) return 1;
    RUN(shader_sources_are_the_renderers);
    RUN(same_pixels_as_own_context);
    RUN(no_current_context_is_refused);
    vs_pose_free(pose);
    vs_asset_free(asset);
    return test_summary();
}
