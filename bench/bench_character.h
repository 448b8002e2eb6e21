/* SPDX-License-Identifier: MIT */
/* A loaded character for the frame and crowd benchmarks. */
#ifndef VS_BENCH_CHARACTER_H
#define VS_BENCH_CHARACTER_H

#include "bench.h"
#include "vskin/vskin_tools.h"

typedef struct bench_character {
    vs_asset *asset;
    char name[48];
    int32_t skinned_node; /* first skinned mesh instance, or -1 */
    uint32_t skin;
} bench_character;

/* path NULL: CesiumMan from the shared assets when present, else the
 * embedded SimpleSkin. */
bool bench_character_load(const char *path, bench_character *out);
/* The synthetic 200-joint tube (vs_synthetic_tube). */
bool bench_character_tube(uint32_t joints, bench_character *out);
void bench_character_free(bench_character *c);

#endif
