/* SPDX-License-Identifier: MIT */
/* An LD_PRELOAD module that makes the Nth allocation (malloc, calloc,
 * realloc) of the vskin program fail, counting from main: the dynamic
 * loader and the libraries' constructors allocate before main, outside what
 * the CLI can handle. Other programs (the shell that runs vskin) are left
 * alone. VS_FAIL_AT=N picks the allocation; VS_FAIL_REPORT=PATH receives
 * the number of allocations main made, written at exit. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *p, size_t size);

static long g_count, g_fail_at = -1;
static int g_armed;

static int should_fail(void)
{
    if (!g_armed) return 0;
    return ++g_count == g_fail_at;
}

void *malloc(size_t size)
{
    if (should_fail()) return errno = ENOMEM, NULL;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    if (should_fail()) return errno = ENOMEM, NULL;
    return __libc_calloc(count, size);
}

void *realloc(void *p, size_t size)
{
    if (should_fail()) return errno = ENOMEM, NULL;
    return __libc_realloc(p, size);
}

static void report(void)
{
    const char *path = getenv("VS_FAIL_REPORT");
    g_armed = 0;
    if (!path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "%ld\n", g_count);
    fclose(f);
}

typedef int (*main_fn)(int, char **, char **);
static main_fn g_main;

static int armed_main(int argc, char **argv, char **envp)
{
    const char *name = strrchr(argv[0], '/');
    name = name ? name + 1 : argv[0];
    if (strcmp(name, "vskin") == 0) {
        const char *at = getenv("VS_FAIL_AT");
        g_fail_at = at ? atol(at) : -1;
        atexit(report);
        g_armed = 1;
    }
    return g_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void),
                      void *stack_end)
{
    int (*next)(main_fn, int, char **, void (*)(void), void (*)(void),
                void (*)(void), void *);
    *(void **)&next = dlsym(RTLD_NEXT, "__libc_start_main");
    g_main = main;
    return next(armed_main, argc, argv, init, fini, rtld_fini, stack_end);
}
