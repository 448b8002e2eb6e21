/* SPDX-License-Identifier: MIT */
/* The overlay's textured quad (view_overlay.h). */
#include "view_overlay.h"

#include <GLES3/gl3.h>

#include "cli_common.h"

/* The quad's corners come from gl_VertexID, so no vertex buffer is needed;
 * the viewport places it, one texel a pixel. Texture row 0 is the
 * picture's top row, drawn at the viewport's top. */
static const char vertex_source[] =
    "#version 300 es\n"
    "out vec2 uv;\n"
    "void main() {\n"
    "    vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
    "    uv = vec2(c.x, 1.0 - c.y);\n"
    "    gl_Position = vec4(c * 2.0 - 1.0, 0.0, 1.0);\n"
    "}\n";
static const char fragment_source[] =
    "#version 300 es\n"
    "precision mediump float;\n"
    "uniform sampler2D picture;\n"
    "in vec2 uv;\n"
    "out vec4 color;\n"
    "void main() { color = texture(picture, uv); }\n";

static GLuint compile(GLenum kind, const char *source)
{
    GLuint shader = glCreateShader(kind);
    glShaderSource(shader, 1, &source, NULL);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        cli_error("view", "the text overlay's shader does not compile: %s",
                  log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

static bool create(view_overlay *o)
{
    GLuint vs = compile(GL_VERTEX_SHADER, vertex_source);
    GLuint fs = vs ? compile(GL_FRAGMENT_SHADER, fragment_source) : 0;
    if (!fs) {
        if (vs) glDeleteShader(vs);
        return false;
    }
    o->program = glCreateProgram();
    glAttachShader(o->program, vs);
    glAttachShader(o->program, fs);
    glLinkProgram(o->program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(o->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        cli_error("view", "the text overlay's program does not link");
        glDeleteProgram(o->program);
        o->program = 0;
        return false;
    }
    glGenTextures(1, &o->texture);
    glGenVertexArrays(1, &o->vao);
    return true;
}

/* The state the quad changes, as it was before. */
typedef struct saved_state {
    GLint program, vao, texture, active_texture, framebuffer, unpack,
        row_length;
    GLint viewport[4];
    GLint blend_src_rgb, blend_dst_rgb, blend_src_alpha, blend_dst_alpha;
    GLint blend_eq_rgb, blend_eq_alpha;
    GLboolean blend, depth, cull, scissor, stencil, depth_mask;
} saved_state;

static void save(saved_state *s)
{
    glGetIntegerv(GL_CURRENT_PROGRAM, &s->program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &s->vao);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &s->active_texture);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &s->texture);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s->framebuffer);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &s->unpack);
    glGetIntegerv(GL_UNPACK_ROW_LENGTH, &s->row_length);
    glGetIntegerv(GL_VIEWPORT, s->viewport);
    glGetIntegerv(GL_BLEND_SRC_RGB, &s->blend_src_rgb);
    glGetIntegerv(GL_BLEND_DST_RGB, &s->blend_dst_rgb);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &s->blend_src_alpha);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &s->blend_dst_alpha);
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &s->blend_eq_rgb);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &s->blend_eq_alpha);
    s->blend = glIsEnabled(GL_BLEND);
    s->depth = glIsEnabled(GL_DEPTH_TEST);
    s->cull = glIsEnabled(GL_CULL_FACE);
    s->scissor = glIsEnabled(GL_SCISSOR_TEST);
    s->stencil = glIsEnabled(GL_STENCIL_TEST);
    glGetBooleanv(GL_DEPTH_WRITEMASK, &s->depth_mask);
}

static void enable(GLenum cap, GLboolean on)
{
    if (on)
        glEnable(cap);
    else
        glDisable(cap);
}

static void restore(const saved_state *s)
{
    glUseProgram((GLuint)s->program);
    glBindVertexArray((GLuint)s->vao);
    glBindTexture(GL_TEXTURE_2D, (GLuint)s->texture);
    glActiveTexture((GLenum)s->active_texture);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)s->framebuffer);
    glPixelStorei(GL_UNPACK_ALIGNMENT, s->unpack);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, s->row_length);
    glViewport(s->viewport[0], s->viewport[1], s->viewport[2], s->viewport[3]);
    glBlendFuncSeparate((GLenum)s->blend_src_rgb, (GLenum)s->blend_dst_rgb,
                        (GLenum)s->blend_src_alpha, (GLenum)s->blend_dst_alpha);
    glBlendEquationSeparate((GLenum)s->blend_eq_rgb, (GLenum)s->blend_eq_alpha);
    enable(GL_BLEND, s->blend);
    enable(GL_DEPTH_TEST, s->depth);
    enable(GL_CULL_FACE, s->cull);
    enable(GL_SCISSOR_TEST, s->scissor);
    enable(GL_STENCIL_TEST, s->stencil);
    glDepthMask(s->depth_mask);
}

bool view_overlay_draw(view_overlay *o, const uint8_t *rgba, int width,
                       int height, int x, int y, int framebuffer_height)
{
    if (o->failed) return false;
    if (width <= 0 || height <= 0) return true;
    if (!o->program && !create(o)) {
        o->failed = true;
        return false;
    }
    /* A picture wider or taller than the driver's textures (a huge window
     * on a small GPU) is cut to them; its rows keep their stride. */
    GLint max_size = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
    int stride = width;
    if (max_size > 0 && width > max_size) width = max_size;
    if (max_size > 0 && height > max_size) height = max_size;
    saved_state s;
    save(&s);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, o->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, stride);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, rgba);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glUseProgram(o->program);
    glUniform1i(glGetUniformLocation(o->program, "picture"), 0);
    glBindVertexArray(o->vao);
    /* GL's rows count from the bottom. */
    glViewport(x, framebuffer_height - y - height, width, height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_STENCIL_TEST);
    glDepthMask(GL_FALSE);
    glEnable(GL_BLEND);
    /* The screenshot keeps the frame's own alpha, as `vskin render` has
     * it: only the colour is blended. */
    glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    restore(&s);
    return true;
}

void view_overlay_release(view_overlay *o)
{
    if (o->program) glDeleteProgram(o->program);
    if (o->texture) glDeleteTextures(1, &o->texture);
    if (o->vao) glDeleteVertexArrays(1, &o->vao);
    *o = (view_overlay){0};
}
