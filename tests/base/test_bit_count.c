/* SPDX-License-Identifier: MIT */
/* base/bit_count.h: the count of set bits, checked against a bit-by-bit
 * loop on the edges (0, all ones, single bits, alternating patterns) and
 * on pseudo-random words. */
#include <stdint.h>

#include "base/bit_count.h"
#include "test.h"

static uint32_t slow_count(uint64_t x)
{
    uint32_t n = 0;
    for (int b = 0; b < 64; ++b)
        n += (uint32_t)(x >> b & 1u);
    return n;
}

static void edges_count_right(void)
{
    const uint64_t words[] = {0,
                              ~0ull,
                              0x5555555555555555ull,
                              0xaaaaaaaaaaaaaaaaull,
                              0x8000000000000001ull,
                              0x00000000ffffffffull,
                              0xffffffff00000000ull,
                              0x0f0f0f0f0f0f0f0full,
                              0xff00ff00ff00ff00ull};
    for (size_t i = 0; i < sizeof words / sizeof *words; ++i)
        CHECK_MSG(bit_count(words[i]) == slow_count(words[i]),
                  "%016llx: %u, not %u", (unsigned long long)words[i],
                  bit_count(words[i]), slow_count(words[i]));
    for (int b = 0; b < 64; ++b) {
        CHECK(bit_count(1ull << b) == 1);
        CHECK(bit_count(~(1ull << b)) == 63);
        CHECK(bit_count((1ull << b) - 1) == (uint32_t)b);
    }
}

static void random_words_count_right(void)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 100000; ++i) {
        /* splitmix64 */
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        /* Sparse and dense words too, not only about 32 bits set. */
        const uint64_t w = i % 3 == 0   ? z & (z >> 7)
                           : i % 3 == 1 ? z | (z << 5)
                                        : z;
        if (bit_count(w) != slow_count(w)) {
            CHECK_MSG(0, "%016llx: %u, not %u", (unsigned long long)w,
                      bit_count(w), slow_count(w));
            return;
        }
    }
}

int main(void)
{
    RUN(edges_count_right);
    RUN(random_words_count_right);
    return test_summary();
}
