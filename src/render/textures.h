/* SPDX-License-Identifier: MIT */
/* The asset's images as GL textures, each read (vs_asset_image_bytes),
 * decoded and uploaded on first use, so that a renderer that never draws
 * the textured view never reads a picture. A picture that cannot be read
 * or decoded is a warning (vs_renderer_warnings) and the material's factor
 * colour alone is drawn; it is not tried again. */
#ifndef VS_RENDER_TEXTURES_H
#define VS_RENDER_TEXTURES_H

#include <GLES3/gl3.h>
#include <stdbool.h>

#include "base/error.h"
#include "vskin/vskin.h"

/* A texture's state: not tried yet, uploaded, or failed (warned once). */
typedef enum texture_state {
    TEX_UNTRIED = 0,
    TEX_READY,
    TEX_FAILED
} texture_state;

typedef struct texture_entry {
    texture_state state;
    GLuint texture;
} texture_entry;

/* One warning's storage (vs_warning points into it). */
typedef struct render_warning {
    char object[48];
    char message[1280]; /* room for a vs_error message and more */
} render_warning;

typedef struct texture_cache {
    const vs_asset *asset;
    const vs_allocator *alloc; /* the asset's: entries, pixels, warnings */
    vs_file_reader reader;     /* vs_renderer_options.file_reader */
    texture_entry *entries;    /* image_count of them */
    bool *material_warned;     /* material_count: warned of a missing set */
    /* At most one warning per image plus one per material (a texture
     * coordinate set the primitive lacks), so the list is bounded by the
     * asset. */
    render_warning *store;
    vs_warning *warnings;
    uint32_t warning_count, warning_cap;
} texture_cache;

/* Allocates the (empty) cache; nothing is read. */
vs_result texture_cache_init(texture_cache *tc, const vs_asset *asset,
                             const vs_allocator *alloc,
                             const vs_file_reader *reader, vs_error *error);
/* The GL texture of images[image], loaded on first use; 0 when it failed
 * (then or before). Binds nothing it does not load. */
GLuint texture_cache_get(texture_cache *tc, uint32_t image);
/* Warns, once per material, that a primitive lacks the TEXCOORD_n set
 * its material's texture reads. */
void texture_cache_warn_texcoords(texture_cache *tc, uint32_t material);
/* Records a warning (dropped when the list is full). */
void texture_cache_warn(texture_cache *tc, const char *object, const char *fmt,
                        ...) VS_PRINTF(3, 4);
/* Deletes the textures (context current) and frees the cache. */
void texture_cache_free(texture_cache *tc, bool delete_gl);

#endif
