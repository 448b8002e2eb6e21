/* SPDX-License-Identifier: MIT */
/* Lazily loaded GL textures of the asset's images (textures.h). */
#include "render/textures.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/alloc.h"
#include "base/error.h"
#include "render/image_decode.h"

/* Pictures beyond this many pixels are refused before decoding: a
 * character's texture is far smaller, and a hostile header must not make
 * the renderer allocate gigabytes. */
#define MAX_TEXTURE_PIXELS (8192ull * 8192ull)

vs_result texture_cache_init(texture_cache *tc, const vs_asset *asset,
                             const vs_allocator *alloc,
                             const vs_file_reader *reader, vs_error *error)
{
    *tc = (texture_cache){.asset = asset, .alloc = alloc};
    if (reader) tc->reader = *reader;
    uint32_t n = asset->image_count;
    tc->warning_cap = n + asset->material_count;
    tc->entries = mem_calloc(alloc, n + 1, sizeof *tc->entries);
    tc->material_warned = mem_calloc(alloc, asset->material_count + 1,
                                     sizeof *tc->material_warned);
    tc->store = mem_calloc(alloc, tc->warning_cap + 1, sizeof *tc->store);
    tc->warnings = mem_calloc(alloc, tc->warning_cap + 1, sizeof *tc->warnings);
    if (!tc->entries || !tc->material_warned || !tc->store || !tc->warnings) {
        texture_cache_free(tc, false);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for %u images", asset->source_name,
                         n);
    }
    return VS_OK;
}

void texture_cache_warn(texture_cache *tc, const char *object, const char *fmt,
                        ...)
{
    if (tc->warning_count >= tc->warning_cap) return;
    render_warning *w = &tc->store[tc->warning_count];
    snprintf(w->object, sizeof w->object, "%s", object);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->message, sizeof w->message, fmt, ap);
    va_end(ap);
    tc->warnings[tc->warning_count++] =
        (vs_warning){.object = w->object, .message = w->message};
}

void texture_cache_warn_texcoords(texture_cache *tc, uint32_t material)
{
    if (material >= tc->asset->material_count || tc->material_warned[material])
        return;
    tc->material_warned[material] = true;
    char object[48];
    snprintf(object, sizeof object, "materials[%u]", material);
    texture_cache_warn(
        tc, object,
        "%s: a primitive lacks TEXCOORD_%u, which the base "
        "colour texture reads: the factor colour is drawn",
        tc->asset->source_name,
        tc->asset->materials[material].base_color_texture.texcoord);
}

static GLuint upload(uint32_t w, uint32_t h, const uint8_t *rgba)
{
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, (GLsizei)w, (GLsizei)h, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, rgba);
    /* Mipmaps always, so that any minFilter a sampler names is complete. */
    glGenerateMipmap(GL_TEXTURE_2D);
    glActiveTexture(GL_TEXTURE0);
    if (glGetError() != GL_NO_ERROR) {
        glDeleteTextures(1, &tex);
        return 0;
    }
    return tex;
}

GLuint texture_cache_get(texture_cache *tc, uint32_t image)
{
    if (image >= tc->asset->image_count) return 0;
    texture_entry *e = &tc->entries[image];
    if (e->state == TEX_READY) return e->texture;
    if (e->state == TEX_FAILED) return 0;
    e->state = TEX_FAILED;
    char object[48];
    snprintf(object, sizeof object, "images[%u]", image);
    const uint8_t *bytes = NULL;
    size_t size = 0;
    vs_error err = {VS_OK, ""};
    vs_result r = vs_asset_image_bytes(tc->asset, image, &tc->reader, &bytes,
                                       &size, &err);
    if (r != VS_OK) {
        texture_cache_warn(tc, object, "%s: the factor colour is drawn",
                           err.message);
        return 0;
    }
    GLint max_side = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_side);
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    r = image_decode_rgba(bytes, size, tc->alloc, MAX_TEXTURE_PIXELS,
                          max_side > 0 ? (uint32_t)max_side : 0, &w, &h, &rgba,
                          &err);
    vs_asset_image_bytes_free(tc->asset, image, bytes, size);
    if (r != VS_OK) {
        texture_cache_warn(tc, object, "%s: %s: the factor colour is drawn",
                           tc->asset->source_name, err.message);
        return 0;
    }
    GLuint tex = upload(w, h, rgba);
    mem_free(tc->alloc, rgba);
    if (!tex) {
        texture_cache_warn(tc, object,
                           "GL refused the texture: the factor colour is "
                           "drawn");
        return 0;
    }
    e->texture = tex;
    e->state = TEX_READY;
    return tex;
}

void texture_cache_free(texture_cache *tc, bool delete_gl)
{
    if (tc->entries && delete_gl)
        for (uint32_t i = 0; i < tc->asset->image_count; ++i)
            if (tc->entries[i].texture)
                glDeleteTextures(1, &tc->entries[i].texture);
    mem_free(tc->alloc, tc->entries);
    mem_free(tc->alloc, tc->material_warned);
    mem_free(tc->alloc, tc->store);
    mem_free(tc->alloc, tc->warnings);
    *tc = (texture_cache){0};
}
