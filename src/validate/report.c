/* SPDX-License-Identifier: MIT */
/* Building a vs_validation_report: a growing array of issues whose strings
 * the report owns, capped at max_issues so that a file with a million bad
 * vertices gives a bounded report. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate_internal.h"
#include "vskin/vskin_tools.h"

#define DEFAULT_MAX_ISSUES 10000u

/* The public report and the allocator that vs_validation_report_free gives
 * its blocks back to (internal_ points at alloc). */
typedef struct report_block {
    vs_validation_report report;
    vs_allocator alloc;
} report_block;

vd_report *vd_report_create(const char *source_name, const vs_allocator *alloc)
{
    vd_report *r = mem_calloc(alloc, 1, sizeof *r);
    report_block *block = mem_calloc(alloc, 1, sizeof *block);
    char *name = mem_strdup(alloc, source_name);
    if (!r || !block || !name) {
        mem_free(alloc, r);
        mem_free(alloc, block);
        mem_free(alloc, name);
        return NULL;
    }
    if (alloc) r->alloc = block->alloc = *alloc;
    block->report.source_name = name;
    block->report.internal_ = &block->alloc;
    r->report = &block->report;
    r->max_issues = DEFAULT_MAX_ISSUES;
    return r;
}

static void push(vd_report *r, vs_severity sev, const char *code,
                 const char *pointer, const char *message)
{
    vs_validation_report *rep = r->report;
    if (rep->issue_count == r->capacity) {
        uint32_t cap = r->capacity ? r->capacity * 2 : 16;
        vs_validation_issue *n =
            mem_grow(&r->alloc, (void *)rep->issues,
                     (size_t)r->capacity * sizeof *n, (size_t)cap * sizeof *n);
        if (!n) {
            r->oom = true;
            return;
        }
        rep->issues = n;
        r->capacity = cap;
    }
    const vs_allocator *a = &r->alloc;
    vs_validation_issue is = {mem_strdup(a, code), sev, mem_strdup(a, pointer),
                              mem_strdup(a, message)};
    if (!is.code || !is.pointer || !is.message) {
        mem_free(a, (void *)is.code);
        mem_free(a, (void *)is.pointer);
        mem_free(a, (void *)is.message);
        r->oom = true;
        return;
    }
    ((vs_validation_issue *)rep->issues)[rep->issue_count++] = is;
    rep->counts[sev]++;
}

void vd_issue(vd_report *r, vs_severity sev, const char *code,
              const char *pointer, const char *fmt, ...)
{
    if (r->oom) return;
    if (r->report->issue_count >= r->max_issues) {
        r->dropped++;
        /* Severities still count, so the exit status stays right. */
        r->report->counts[sev]++;
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    push(r, sev, code, pointer, msg);
}

void vd_join(char *out, size_t size, const char *base, const char *suffix)
{
    snprintf(out, size, "%s%s", base, suffix);
}

bool vd_has(const vd_report *r, const char *code, const char *pointer)
{
    const vs_validation_report *rep = r->report;
    for (uint32_t i = 0; i < rep->issue_count; ++i)
        if (strcmp(rep->issues[i].code, code) == 0 &&
            strcmp(rep->issues[i].pointer, pointer) == 0)
            return true;
    return false;
}

vs_validation_report *vd_report_finish(vd_report *r)
{
    if (r->dropped) {
        char msg[128];
        snprintf(msg, sizeof msg, "%u more issues were left out (limit %u)",
                 r->dropped, r->max_issues);
        push(r, VS_SEVERITY_INFO, "VALIDATION_TRUNCATED", "", msg);
    }
    if (r->oom) {
        vd_report_discard(r);
        return NULL;
    }
    vs_validation_report *rep = r->report;
    mem_free(&r->alloc, r);
    return rep;
}

void vd_report_discard(vd_report *r)
{
    if (!r) return;
    vs_validation_report_free(r->report);
    mem_free(&r->alloc, r);
}

void vs_validation_report_free(vs_validation_report *report)
{
    if (!report) return;
    /* A copy: the block that holds the allocator is freed last. */
    const vs_allocator a = *(const vs_allocator *)report->internal_;
    for (uint32_t i = 0; i < report->issue_count; ++i) {
        mem_free(&a, (void *)report->issues[i].code);
        mem_free(&a, (void *)report->issues[i].pointer);
        mem_free(&a, (void *)report->issues[i].message);
    }
    mem_free(&a, (void *)report->issues);
    mem_free(&a, (void *)report->source_name);
    mem_free(&a, report); /* the report_block, whose first member it is */
}

const char *vs_severity_string(vs_severity severity)
{
    switch (severity) {
    case VS_SEVERITY_ERROR:
        return "error";
    case VS_SEVERITY_WARNING:
        return "warning";
    case VS_SEVERITY_INFO:
        return "info";
    case VS_SEVERITY_HINT:
        return "hint";
    }
    return "unknown";
}

vd_options vd_options_resolve(const vs_validate_options *o)
{
    vd_options r = {4, 1e-3f, false};
    if (o && o->max_influences) r.max_influences = o->max_influences;
    if (o && o->weight_tolerance > 0) r.weight_tolerance = o->weight_tolerance;
    return r;
}
