/* SPDX-License-Identifier: MIT */
/* vs_render_shader_source: the renderer's GLSL ES sources, public so that an
 * engine can build vskin's skinning in its own programs. */
#include <stddef.h>

#include "render/shaders.h"
#include "vskin/vskin_render.h"

const char *vs_render_shader_source(vs_render_shader part)
{
    switch (part) {
    case VS_SHADER_SKIN_VERTEX_DECLARATIONS:
        return skin_vertex_shader;
    case VS_SHADER_SKIN_VERTEX_BLEND:
        return skin_vertex_blend;
    case VS_SHADER_SKIN_VERTEX_MAIN:
        return skin_vertex_main;
    case VS_SHADER_SKIN_FRAGMENT:
        return skin_fragment_shader;
    case VS_SHADER_OVERLAY_VERTEX:
        return overlay_vertex_shader;
    case VS_SHADER_OVERLAY_FRAGMENT:
        return overlay_fragment_shader;
    }
    return NULL;
}
