/* SPDX-License-Identifier: MIT */
/* base/alloc.h: NULL and the zero allocator are the C library's; a set one
 * gets every call; calloc zeroes and refuses overflow; grow keeps the
 * contents and leaves the block alone when refused; strdup copies; a
 * misaligned block is handed back; a half-set allocator is refused with a
 * message naming the field; the arena takes its blocks from its
 * allocator. */
#include <stdalign.h>
#include <stdint.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "counting_allocator.h"
#include "test.h"

static void test_default_is_the_c_library(void)
{
    const vs_allocator zero = {0};
    const vs_allocator *kinds[2] = {NULL, &zero};
    for (int k = 0; k < 2; ++k) {
        unsigned char *p = mem_calloc(kinds[k], 4, 8);
        CHECK(p && (uintptr_t)p % alignof(max_align_t) == 0);
        for (int i = 0; p && i < 32; ++i)
            CHECK(p[i] == 0);
        p = mem_grow(kinds[k], p, 32, 64);
        CHECK(p != NULL);
        mem_free(kinds[k], p);
        mem_free(kinds[k], NULL);
        CHECK(mem_allocator_valid(kinds[k]));
    }
}

static void test_set_allocator_gets_every_call(void)
{
    counting c;
    const vs_allocator a = counting_allocator(&c);
    unsigned char *p = mem_calloc(&a, 3, 5);
    CHECK(p && atomic_load(&c.allocs) == 1);
    for (int i = 0; p && i < 15; ++i)
        CHECK(p[i] == 0);
    memcpy(p, "abcdefghijklmno", 15);
    unsigned char *q = mem_grow(&a, p, 15, 40);
    CHECK(q && memcmp(q, "abcdefghijklmno", 15) == 0);
    CHECK(atomic_load(&c.allocs) == 2 && atomic_load(&c.frees) == 1);
    c.fail_at = atomic_load(&c.calls) + 1;
    CHECK(mem_grow(&a, q, 40, 80) == NULL);
    CHECK(memcmp(q, "abcdefghijklmno", 15) == 0); /* still q's */
    c.fail_at = 0;
    CHECK(mem_calloc(&a, SIZE_MAX / 2, 4) == NULL);
    char *s = mem_strdup(&a, "vskin");
    CHECK(s && strcmp(s, "vskin") == 0);
    char *t = mem_strndup(&a, "vskin", 2);
    CHECK(t && strcmp(t, "vs") == 0);
    mem_free(&a, s);
    mem_free(&a, t);
    mem_free(&a, q);
    CHECK(counting_live(&c) == 0 && atomic_load(&c.foreign) == 0);
}

static void test_misaligned_blocks_are_handed_back(void)
{
    counting c;
    const vs_allocator a = counting_allocator(&c);
    c.misalign = 4;
    CHECK(mem_alloc(&a, 16) == NULL);
    CHECK(atomic_load(&c.allocs) == 1 && counting_live(&c) == 0);
}

static void test_half_set_allocator_is_refused(void)
{
    counting c;
    vs_allocator a = counting_allocator(&c);
    a.alloc = NULL;
    CHECK(!mem_allocator_valid(&a));
    vs_error err = {0};
    CHECK(mem_check_allocator(&a, "f", "options->allocator", &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(strcmp(err.message, "f: options->allocator: alloc and free must "
                              "both be set or both be NULL") == 0);
}

static void test_arena_blocks_come_from_its_allocator(void)
{
    counting c;
    const vs_allocator a = counting_allocator(&c);
    arena ar;
    arena_init(&ar, 0, &a);
    for (int i = 0; i < 100; ++i) {
        float *f = arena_alloc(&ar, 1000, sizeof *f);
        CHECK(f && f[999] == 0.0f && (uintptr_t)f % 16 == 0);
    }
    CHECK(atomic_load(&c.allocs) > 1);
    arena_free(&ar);
    CHECK(counting_live(&c) == 0);
}

int main(void)
{
    RUN(test_default_is_the_c_library);
    RUN(test_set_allocator_gets_every_call);
    RUN(test_misaligned_blocks_are_handed_back);
    RUN(test_half_set_allocator_is_refused);
    RUN(test_arena_blocks_come_from_its_allocator);
    return test_summary();
}
