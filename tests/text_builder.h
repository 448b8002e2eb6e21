/* SPDX-License-Identifier: MIT */
/* A growing string for tests that write documents of any size (the
 * complexity tests' 1x, 4x, 16x inputs). */
#ifndef VS_TESTS_TEXT_BUILDER_H
#define VS_TESTS_TEXT_BUILDER_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct text {
    char *s;
    size_t len, cap;
} text;

/* Appends printf-style; aborts when memory runs out (a test cannot go on). */
static inline void put(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL,
                          t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (t->s && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = (t->cap + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) abort();
    }
}

#endif
