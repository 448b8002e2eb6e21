/* SPDX-License-Identifier: MIT */
/* The number of set bits in a 64-bit word, without a library call. */
#ifndef VS_BASE_BIT_COUNT_H
#define VS_BASE_BIT_COUNT_H

#include <stdint.h>

/* The set bits of x. __builtin_popcountll is one instruction only where
 * the build targets POPCNT, which the library's x86-64 baseline (SSE2)
 * does not; there it becomes a call into libgcc, made once per candidate
 * in the stream's union search. The same count inline: bits summed in
 * pairs, then nibbles, then bytes, the bytes added by one multiply; no
 * call and no branch on any CPU. */
static inline uint32_t bit_count(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

#endif
