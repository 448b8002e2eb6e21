/* SPDX-License-Identifier: MIT */
/* A small glTF file that instances one big mesh many times: what the pose
 * writers' memory tests pose, since posing every instance at once would
 * cost the sum while the file costs almost nothing. */
#ifndef VS_TESTS_WRITE_INSTANCED_GLTF_H
#define VS_TESTS_WRITE_INSTANCED_GLTF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* `instances` nodes, all in the scene, that all instance one mesh of
 * `vertices` points from an accessor without a bufferView (zeros that cost
 * no byte of the file); malloc'd, NULL when out of memory. */
static inline char *instanced_gltf(uint32_t instances, uint32_t vertices)
{
    size_t cap = 512 + (size_t)instances * 24;
    char *json = malloc(cap);
    if (!json) return NULL;
    int n = snprintf(json, cap,
                     "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,"
                     "\"scenes\":[{\"nodes\":[");
    for (uint32_t i = 0; i < instances; ++i)
        n += snprintf(json + n, cap - (size_t)n, i ? ",%u" : "%u", i);
    n += snprintf(json + n, cap - (size_t)n, "]}],\"nodes\":[");
    for (uint32_t i = 0; i < instances; ++i)
        n += snprintf(json + n, cap - (size_t)n,
                      i ? ",{\"mesh\":0}" : "{\"mesh\":0}");
    snprintf(json + n, cap - (size_t)n,
             "],\"meshes\":[{\"primitives\":[{\"attributes\":{"
             "\"POSITION\":0},\"mode\":0}]}],\"accessors\":[{"
             "\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\","
             "\"min\":[0,0,0],\"max\":[0,0,0]}]}",
             vertices);
    return json;
}

#endif
