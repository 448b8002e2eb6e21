/* SPDX-License-Identifier: MIT */
/* Comparing vs_validate_file with the Khronos glTF-Validator's expected
 * reports (X.report.json beside each case X): for every expected message in
 * scope, our report must hold an issue with the same code at the same
 * object.
 *
 * Scope (the categories vskin validates: skins, nodes, accessors and
 * animations): expected messages of severity error (0) or warning (1) whose
 * code starts with ACCESSOR_, ANIMATION_, NODE_ or SKIN_, plus
 * INVALID_IBM_ACCESSOR_COUNT (the validator's one skin code without the
 * SKIN_ prefix). Infos and hints (UNUSED_OBJECT, NODE_EMPTY, ...) are out of
 * scope, and so are schema codes (TYPE_MISMATCH, UNRESOLVED_REFERENCE, ...)
 * and buffer, bufferView, GLB, image, material, camera and mesh codes: for
 * those the loader's refusal is reported as one LOAD_FAILED error.
 *
 * Matching: the same code, and the same JSON pointer or one pointer a
 * prefix of the other at a '/' boundary. The relaxation exists because the
 * validator itself is inconsistent for ACCESSOR_TOO_LONG
 * ("/accessors/2/byteOffset" in one file, "/accessors/0" for an accessor
 * with a byteOffset in another); vskin always names the accessor.
 *
 * Known gaps: codes listed in known_gaps[] are counted apart, with the
 * reason; the list is empty (every in-scope message matched when this was
 * written). */
#ifndef VS_TESTS_VALIDATE_SUITE_H
#define VS_TESTS_VALIDATE_SUITE_H

#include <cjson/cJSON.h>
#include <dirent.h>

#include "test.h"
#include "tools/cli_run.h"
#include "vskin/vskin.h"
#include "vskin/vskin_tools.h"

typedef struct known_gap {
    const char *code;
    const char *reason;
} known_gap;

static const known_gap known_gaps[] = {{NULL, NULL}};

typedef struct suite_stats {
    int files, expected, matched, gaps, loader_rejected;
} suite_stats;

static bool in_scope(const char *code, int severity)
{
    if (severity > 1) return false;
    static const char *const prefixes[] = {"ACCESSOR_", "ANIMATION_", "NODE_",
                                           "SKIN_"};
    for (size_t i = 0; i < 4; ++i)
        if (strncmp(code, prefixes[i], strlen(prefixes[i])) == 0) return true;
    return strcmp(code, "INVALID_IBM_ACCESSOR_COUNT") == 0;
}

/* a == b, or one is a prefix of the other followed by '/'. */
static bool same_object(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > lb) {
        const char *t = a;
        a = b;
        b = t;
        size_t tl = la;
        la = lb;
        lb = tl;
    }
    return strncmp(a, b, la) == 0 && (la == lb || b[la] == '/');
}

static const char *gap_reason(const char *code)
{
    for (size_t i = 0; known_gaps[i].code; ++i)
        if (strcmp(known_gaps[i].code, code) == 0) return known_gaps[i].reason;
    return NULL;
}

static void compare_case(const char *asset, const char *report_path,
                         suite_stats *st)
{
    char *text = cli_slurp(report_path);
    cJSON *expected = text ? cJSON_Parse(text) : NULL;
    free(text);
    CHECK_MSG(expected != NULL, "%s: cannot read", report_path);
    if (!expected) return;
    vs_validation_report *rep = NULL;
    vs_error err;
    vs_result r = vs_validate_file(asset, NULL, &rep, &err);
    CHECK_MSG(r == VS_OK, "%s: %s", asset, err.message);
    st->files++;
    if (rep) {
        /* A file the loader refuses always has an error issue. */
        CHECK_MSG(rep->loaded || rep->counts[VS_SEVERITY_ERROR] > 0,
                  "%s: not loaded but no error", asset);
        st->loader_rejected += !rep->loaded;
    }
    const cJSON *issues = cJSON_GetObjectItem(expected, "issues");
    const cJSON *messages = cJSON_GetObjectItem(issues, "messages"), *m;
    cJSON_ArrayForEach(m, messages)
    {
        const cJSON *code = cJSON_GetObjectItem(m, "code");
        const cJSON *sev = cJSON_GetObjectItem(m, "severity");
        const cJSON *ptr = cJSON_GetObjectItem(m, "pointer");
        if (!cJSON_IsString(code) || !cJSON_IsNumber(sev) ||
            !in_scope(code->valuestring, sev->valueint))
            continue;
        const char *pointer = cJSON_IsString(ptr) ? ptr->valuestring : "";
        st->expected++;
        bool found = false;
        for (uint32_t i = 0; rep && !found && i < rep->issue_count; ++i)
            found = strcmp(rep->issues[i].code, code->valuestring) == 0 &&
                    same_object(rep->issues[i].pointer, pointer);
        const char *gap = found ? NULL : gap_reason(code->valuestring);
        if (found)
            st->matched++;
        else if (gap) {
            st->gaps++;
            printf("known gap: %s %s %s (%s)\n", asset, code->valuestring,
                   pointer, gap);
        }
        CHECK_MSG(found || gap, "%s: expected %s at %s is missing", asset,
                  code->valuestring, pointer);
    }
    vs_validation_report_free(rep);
    cJSON_Delete(expected);
}

/* Every X.report.json under dir (recursively), compared with X. */
static void compare_tree(const char *dir, suite_stats *st)
{
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "%s: cannot open", dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode)) {
            compare_tree(path, st);
            continue;
        }
        size_t n = strlen(path), suffix = strlen(".report.json");
        if (n <= suffix || strcmp(path + n - suffix, ".report.json") != 0)
            continue;
        char asset[1024];
        snprintf(asset, sizeof asset, "%.*s", (int)(n - suffix), path);
        compare_case(asset, path, st);
    }
    closedir(d);
}

static void print_stats(const char *what, const suite_stats *st)
{
    printf("%s: %d files (%d refused by the loader), %d expected issues in "
           "scope, %d matched, %d known gaps\n",
           what, st->files, st->loader_rejected, st->expected, st->matched,
           st->gaps);
}

#endif
