/* SPDX-License-Identifier: MIT */
/* Accessor bytes -> plain arrays, for every componentType (glTF 2.0 §3.6.2).
 * Reads are little-endian byte by byte so neither host byte order nor
 * alignment of the buffer matters. */
#include <math.h>
#include <string.h>

#include "format/gltf_common.h"

size_t gltf_component_size(uint32_t component_type)
{
    switch (component_type) {
    case GLTF_BYTE:
    case GLTF_UNSIGNED_BYTE:
        return 1;
    case GLTF_SHORT:
    case GLTF_UNSIGNED_SHORT:
        return 2;
    case GLTF_UNSIGNED_INT:
    case GLTF_FLOAT:
        return 4;
    }
    return 0;
}

/* Rows (= columns) of a matrix element, 0 for scalars and vectors. */
static uint32_t matrix_rows(const gltf_accessor_desc *desc)
{
    if (!desc->is_matrix) return 0;
    switch (desc->components) {
    case 4:
        return 2;
    case 9:
        return 3;
    case 16:
        return 4;
    }
    return 0;
}

/* §3.6.2.4: every matrix column starts on a 4-byte boundary, which pads MAT2
 * of 1-byte components and MAT3 of 1- and 2-byte components. */
static size_t column_bytes(size_t comp, uint32_t rows)
{
    return (comp * rows + 3) & ~(size_t)3;
}

size_t gltf_element_size(const gltf_accessor_desc *desc)
{
    size_t comp = gltf_component_size(desc->component_type);
    uint32_t rows = matrix_rows(desc);
    if (rows) return column_bytes(comp, rows) * rows;
    return comp * desc->components;
}

/* Bytes an element's components span: the element size less the padding
 * after its last matrix column, which nothing reads. The validator measures
 * an accessor the same way (a MAT2 of bytes with count 2 spans 8 + 6). */
static size_t element_span(const gltf_accessor_desc *desc)
{
    size_t comp = gltf_component_size(desc->component_type);
    uint32_t rows = matrix_rows(desc);
    if (!rows) return comp * desc->components;
    return column_bytes(comp, rows) * (rows - 1) + comp * rows;
}

bool gltf_accessor_fits(const gltf_accessor_desc *desc)
{
    size_t elem = gltf_element_size(desc);
    if (elem == 0) return false;
    if (desc->count == 0 || !desc->data) return true;
    size_t stride = desc->stride ? desc->stride : elem;
    size_t span = element_span(desc);
    if (desc->available < span) return false;
    /* (count - 1) * stride + span <= available, without overflow. */
    return (size_t)(desc->count - 1) <= (desc->available - span) / stride;
}

static uint32_t read_le(const uint8_t *p, size_t size)
{
    uint32_t v = 0;
    for (size_t i = 0; i < size; ++i)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* One component as float; §3.11 "normalized" rules for signed types:
 * f = max(c / (2^(n-1) - 1), -1). */
static float component_float(const uint8_t *p, uint32_t type, bool normalized)
{
    switch (type) {
    case GLTF_BYTE: {
        float c = (float)(int8_t)p[0];
        return normalized ? (c / 127.0f < -1.0f ? -1.0f : c / 127.0f) : c;
    }
    case GLTF_UNSIGNED_BYTE:
        return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case GLTF_SHORT: {
        float c = (float)(int16_t)read_le(p, 2);
        return normalized ? (c / 32767.0f < -1.0f ? -1.0f : c / 32767.0f) : c;
    }
    case GLTF_UNSIGNED_SHORT: {
        float c = (float)read_le(p, 2);
        return normalized ? c / 65535.0f : c;
    }
    case GLTF_UNSIGNED_INT: {
        double c = (double)read_le(p, 4);
        return (float)(normalized ? c / 4294967295.0 : c);
    }
    case GLTF_FLOAT: {
        uint32_t bits = read_le(p, 4);
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
    return 0.0f;
}

static uint32_t component_uint(const uint8_t *p, uint32_t type)
{
    switch (type) {
    case GLTF_BYTE:
        return (uint32_t)(int32_t)(int8_t)p[0];
    case GLTF_SHORT:
        return (uint32_t)(int32_t)(int16_t)read_le(p, 2);
    case GLTF_FLOAT: {
        float f = component_float(p, type, false);
        /* Truncate, clamping what uint32 cannot hold (and NaN) to 0. */
        return (f >= 0.0f && f < 4294967296.0f) ? (uint32_t)f : 0u;
    }
    default:
        return read_le(p, gltf_component_size(type));
    }
}

/* Byte offset of component k inside an element (matrix columns padded). */
static size_t component_offset(const gltf_accessor_desc *desc, uint32_t k,
                               size_t comp)
{
    uint32_t rows = matrix_rows(desc);
    if (!rows) return k * comp;
    return (k / rows) * column_bytes(comp, rows) + (k % rows) * comp;
}

/* Every component of desc, in order, into fout as floats (normalized
 * integers mapped as glTF says) or, when fout is NULL, into uout as
 * unsigned integers; zeros when desc has no data (a view-less accessor). */
static void decode(const gltf_accessor_desc *desc, float *fout, uint32_t *uout)
{
    size_t n = (size_t)desc->count * desc->components;
    if (!desc->data) {
        if (fout)
            memset(fout, 0, n * sizeof *fout);
        else
            memset(uout, 0, n * sizeof *uout);
        return;
    }
    size_t comp = gltf_component_size(desc->component_type);
    size_t stride = desc->stride ? desc->stride : gltf_element_size(desc);
    for (uint32_t e = 0; e < desc->count; ++e) {
        const uint8_t *elem = desc->data + (size_t)e * stride;
        for (uint32_t k = 0; k < desc->components; ++k) {
            const uint8_t *p = elem + component_offset(desc, k, comp);
            if (fout)
                *fout++ =
                    component_float(p, desc->component_type, desc->normalized);
            else
                *uout++ = component_uint(p, desc->component_type);
        }
    }
}

void gltf_decode_floats(const gltf_accessor_desc *desc, float *out)
{
    decode(desc, out, NULL);
}

void gltf_decode_uints(const gltf_accessor_desc *desc, uint32_t *out)
{
    decode(desc, NULL, out);
}

bool gltf_ibm_is_affine(const float m[16])
{
    return fabsf(m[3]) <= GLTF_IBM_AFFINE_TOLERANCE &&
           fabsf(m[7]) <= GLTF_IBM_AFFINE_TOLERANCE &&
           fabsf(m[11]) <= GLTF_IBM_AFFINE_TOLERANCE &&
           fabsf(m[15] - 1.0f) <= GLTF_IBM_AFFINE_TOLERANCE;
}
