/* SPDX-License-Identifier: MIT */
/* Turning a primitive's mode and indices into the elements the writers
 * emit. glTF 2.0 §3.7.2.1 defines how strips and fans unroll; COLLADA and
 * glTF 1.0 primitives are loaded into the same modes. */
#include "base/error.h"
#include "write/mesh_writers.h"

uint32_t primitive_element_count(const vs_primitive *prim)
{
    return prim->indices ? prim->index_count : prim->vertex_count;
}

uint32_t primitive_element(const vs_primitive *prim, uint32_t i)
{
    return prim->indices ? prim->indices[i] : i;
}

uint32_t primitive_triangle_count(const vs_primitive *prim)
{
    uint32_t n = primitive_element_count(prim);
    switch (prim->mode) {
    case VS_MODE_TRIANGLES:
        return n / 3;
    case VS_MODE_TRIANGLE_STRIP:
    case VS_MODE_TRIANGLE_FAN:
        return n >= 3 ? n - 2 : 0;
    default:
        return 0;
    }
}

void primitive_triangle(const vs_primitive *prim, uint32_t t, uint32_t out[3])
{
    uint32_t e[3];
    switch (prim->mode) {
    case VS_MODE_TRIANGLE_STRIP:
        /* p_i = {v_i, v_{i+(1+i%2)}, v_{i+(2-i%2)}}: odd triangles swap
         * their last two vertices so every face keeps the strip's winding. */
        e[0] = t;
        e[1] = t + 1 + t % 2;
        e[2] = t + 2 - t % 2;
        break;
    case VS_MODE_TRIANGLE_FAN:
        /* p_i = {v_{i+1}, v_{i+2}, v_0} */
        e[0] = t + 1;
        e[1] = t + 2;
        e[2] = 0;
        break;
    default:
        e[0] = 3 * t;
        e[1] = 3 * t + 1;
        e[2] = 3 * t + 2;
        break;
    }
    for (int k = 0; k < 3; ++k)
        out[k] = primitive_element(prim, e[k]);
}

vs_result primitive_check_indices(const posed_object *object, vs_error *error)
{
    for (uint32_t p = 0; p < object->primitive_count; ++p) {
        const vs_primitive *prim = &object->primitives[p];
        if (object->posed &&
            object->posed[p].vertex_count != prim->vertex_count)
            return set_error(error, VS_ERROR_ARGUMENT,
                             "%s: primitives[%u]: %u posed vertices for a "
                             "primitive of %u",
                             object->name, p, object->posed[p].vertex_count,
                             prim->vertex_count);
        if (!prim->indices) continue;
        for (uint32_t i = 0; i < prim->index_count; ++i)
            if (prim->indices[i] >= prim->vertex_count)
                return set_error(error, VS_ERROR_INVALID,
                                 "%s: primitives[%u].indices[%u]: index %u "
                                 "is not below the vertex count %u",
                                 object->name, p, i, prim->indices[i],
                                 prim->vertex_count);
    }
    return VS_OK;
}
