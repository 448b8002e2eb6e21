/* SPDX-License-Identifier: MIT */
/* What the allocator tests share: the C library's allocator wrapped at link
 * time (tests/CMakeLists.txt) so that a test sees vskin call it, and runs
 * of a scenario's steps with a counting allocator (counting_allocator.h),
 * where a step during which the allocator refused must fail with
 * VS_ERROR_OUT_OF_MEMORY and any other step must succeed. */
#ifndef VS_TESTS_ALLOC_CHECK_H
#define VS_TESTS_ALLOC_CHECK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if VS_TEST_WRAP_MALLOC
/* The link renames every call to these in the test and in vskin's objects
 * to the __wrap_ functions below; __real_ ones are the C library's. */
void *__real_malloc(size_t size);
void __real_free(void *ptr);
#define COUNTING_RAW_ALLOC __real_malloc
#define COUNTING_RAW_FREE __real_free
#endif

#if VS_TEST_WRAP_MALLOC
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *ptr, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_posix_memalign(void **out, size_t alignment, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);

/* Calls of the C library's allocator while `watching`. */
static atomic_size_t libc_calls;
static atomic_bool watching;

static inline void note_libc_call(void)
{
    if (atomic_load(&watching)) atomic_fetch_add(&libc_calls, 1);
}

void *__wrap_malloc(size_t size);
void *__wrap_malloc(size_t size)
{
    note_libc_call();
    return __real_malloc(size);
}
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_calloc(size_t count, size_t size)
{
    note_libc_call();
    return __real_calloc(count, size);
}
void *__wrap_realloc(void *ptr, size_t size);
void *__wrap_realloc(void *ptr, size_t size)
{
    note_libc_call();
    return __real_realloc(ptr, size);
}
void __wrap_free(void *ptr);
void __wrap_free(void *ptr)
{
    if (ptr) note_libc_call();
    __real_free(ptr);
}
char *__wrap_strdup(const char *s);
char *__wrap_strdup(const char *s)
{
    note_libc_call();
    return __real_strdup(s);
}
char *__wrap_strndup(const char *s, size_t n);
char *__wrap_strndup(const char *s, size_t n)
{
    note_libc_call();
    return __real_strndup(s, n);
}
int __wrap_posix_memalign(void **out, size_t alignment, size_t size);
int __wrap_posix_memalign(void **out, size_t alignment, size_t size)
{
    note_libc_call();
    return __real_posix_memalign(out, alignment, size);
}
void *__wrap_aligned_alloc(size_t alignment, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    note_libc_call();
    return __real_aligned_alloc(alignment, size);
}

static inline void watch(bool on)
{
    if (on) atomic_store(&libc_calls, 0);
    atomic_store(&watching, on);
}
static inline size_t libc_calls_seen(void)
{
    return atomic_load(&libc_calls);
}
#else
static inline void watch(bool on)
{
    (void)on;
}
static inline size_t libc_calls_seen(void)
{
    return 0;
}
#endif

#include "counting_allocator.h"
#include "test.h"
#include "vskin/vskin.h"

/* What one run of the scenario saw. */
typedef struct run {
    counting *c;
    const char *path;     /* what the run works on, for messages */
    size_t seen_refusals; /* refusals before the current step */
    bool failed;          /* a step failed: the rest did not run */
    int steps;            /* steps that ran */
    /* Refuse the refuse_n-th allocation after arm() (and every one after it
     * with refuse_after); 0: refuse nothing. */
    size_t refuse_n;
    bool refuse_after;
    size_t armed_at; /* the allocator's calls when arm() ran */
} run;

/* From here on the run counts the allocations it may refuse: a scenario
 * arms after the set-up it does not test (loading the asset). */
static inline void arm(run *r)
{
    r->armed_at = atomic_load(&r->c->calls);
    if (r->refuse_n) {
        r->c->fail_at = r->armed_at + r->refuse_n;
        r->c->fail_after = r->refuse_after;
    }
}

/* One step of the scenario: ok is whether it succeeded, code what it
 * returned (VS_ERROR_OUT_OF_MEMORY for a false from a bool call). A step
 * during which the allocator refused must fail with
 * VS_ERROR_OUT_OF_MEMORY; any other step must succeed. */
static inline bool step(run *r, bool ok, vs_result code, const vs_error *err,
                        const char *what)
{
    ++r->steps;
    const size_t refusals = atomic_load(&r->c->refused);
    const bool refused = refusals != r->seen_refusals;
    r->seen_refusals = refusals;
    if (refused) {
        CHECK_MSG(!ok && code == VS_ERROR_OUT_OF_MEMORY,
                  "%s: %s: a refused allocation gave %s (%s)",
                  r->path ? r->path : "default", what, vs_result_string(code),
                  err ? err->message : "");
        if (err && !ok)
            CHECK_MSG(err->message[0] != '\0', "%s: no message", what);
    } else {
        CHECK_MSG(ok, "%s: %s failed: %s", r->path ? r->path : "default", what,
                  err ? err->message : vs_result_string(code));
    }
    if (!ok) r->failed = true;
    return ok;
}

static inline bool step_result(run *r, vs_result code, const vs_error *err,
                               const char *what)
{
    return step(r, code == VS_OK, code, err, what);
}

static inline bool step_bool(run *r, bool ok, const char *what)
{
    return step(r, ok, ok ? VS_OK : VS_ERROR_OUT_OF_MEMORY, NULL, what);
}

/* A scenario: steps run with allocator a, stopping at the first that fails
 * and freeing what it made; ctx is the test's. */
typedef void (*alloc_scenario)(run *r, const vs_allocator *a, void *ctx);

/* A watched run with an allocator that refused nothing: it allocated,
 * freed every block, freed none it did not make, every step succeeded, and
 * vskin called the C library's allocator not once. */
static inline void alloc_check_run(const run *r, const char *name)
{
    counting *c = r->c;
    CHECK_MSG(atomic_load(&c->allocs) > 0, "%s: no allocation", name);
    CHECK_MSG(counting_live(c) == 0, "%s: %zu blocks not freed", name,
              counting_live(c));
    CHECK_MSG(atomic_load(&c->foreign) == 0, "%s: %zu foreign frees", name,
              (size_t)atomic_load(&c->foreign));
    CHECK_MSG(libc_calls_seen() == 0,
              "%s: vskin called the C library's allocator %zu times", name,
              libc_calls_seen());
    CHECK(!r->failed);
}

/* The scenario with a counting allocator that refuses nothing, checked by
 * alloc_check_run. The allocations after arm(). */
static inline size_t alloc_check_clean(const char *name, alloc_scenario fn,
                                       void *ctx)
{
    counting c;
    const vs_allocator a = counting_allocator(&c);
    run r = {.c = &c, .path = name};
    watch(true);
    fn(&r, &a, ctx);
    watch(false);
    alloc_check_run(&r, name);
    return atomic_load(&c.calls) - r.armed_at;
}

/* Refusing the n-th allocation after arm() for every n (once, or from then
 * on): the step that asked fails with VS_ERROR_OUT_OF_MEMORY and nothing
 * leaks; past the total, everything succeeds. */
static inline void alloc_check_refusals(const char *name, alloc_scenario fn,
                                        void *ctx)
{
    const size_t total = alloc_check_clean(name, fn, ctx);
    for (int after = 0; after < 2; ++after)
        for (size_t n = 1; n <= total + 1; ++n) {
            counting c;
            const vs_allocator a = counting_allocator(&c);
            run r = {
                .c = &c, .path = name, .refuse_n = n, .refuse_after = after};
            fn(&r, &a, ctx);
            CHECK_MSG(counting_live(&c) == 0,
                      "%s: refusing allocation %zu: %zu blocks leak", name, n,
                      counting_live(&c));
            CHECK(atomic_load(&c.foreign) == 0);
            if (n <= total)
                CHECK_MSG(r.failed,
                          "%s: refusing allocation %zu of %zu went unnoticed",
                          name, n, total);
            else
                CHECK_MSG(!r.failed && atomic_load(&c.refused) == 0,
                          "%s: %zu allocations did not suffice", name, n);
        }
}

#endif
