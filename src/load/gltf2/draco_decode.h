/* SPDX-License-Identifier: MIT */
/* A C interface to libdraco's mesh decoder (draco_decode.cpp), for
 * KHR_draco_mesh_compression: the caller names each attribute by its Draco
 * unique id and gives arrays it allocated for the counts the glTF accessors
 * declare, so that what is kept comes from vskin's allocator and the work
 * is bounded by the load limits before anything is decoded. */
#ifndef VS_LOAD_GLTF2_DRACO_DECODE_H
#define VS_LOAD_GLTF2_DRACO_DECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One attribute to decode: `out` holds vertex_count * components values of
 * component_type (a glTF componentType, 5120..5126), packed. */
typedef struct draco_attribute_out {
    uint32_t unique_id;
    uint32_t component_type;
    uint32_t components;
    void *out;
} draco_attribute_out;

/* Decodes the Draco mesh in data[0..size) into indices (index_count
 * values, three per face) and each attribute's array. Fails, writing why
 * into why[why_size] (a phrase without the file or object), when the bytes
 * are no Draco mesh, when its point or face count differs from vertex_count
 * or index_count / 3, when an id names no attribute or an attribute has
 * another number of components, or when the decoder runs out of memory.
 * Returns 0 on success. Never throws. */
int draco_decode_mesh(const uint8_t *data, size_t size, uint32_t vertex_count,
                      uint32_t index_count, uint32_t *indices,
                      const draco_attribute_out *attributes,
                      uint32_t attribute_count, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
