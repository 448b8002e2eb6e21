/* SPDX-License-Identifier: MIT */
/* Load warnings: recorded in the asset's arena as they come, published as
 * one array when the load ends (asset/warnings.h). */
#include "asset/warnings.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "asset/asset_internal.h"

typedef struct warning_entry {
    vs_warning warning;
    struct warning_entry *next;
} warning_entry;

static asset_internal *internal_of(const vs_asset *asset)
{
    return (asset_internal *)asset->internal_;
}

bool asset_strict(const vs_asset *asset)
{
    return internal_of(asset)->strict;
}

static vs_result out_of_memory(vs_asset *asset, vs_error *error,
                               const char *object)
{
    asset_internal *in = internal_of(asset);
    if (arena_over_limit(&in->arena, VS_ERROR_MESSAGE_SIZE, 1))
        return set_error(error, VS_ERROR_LIMIT,
                         "%s: %s: a warning would exceed the memory limit "
                         "(max_total_memory)",
                         asset->source_name, object);
    return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                     "%s: %s: out of memory recording a warning",
                     asset->source_name, object);
}

vs_result asset_warn(vs_asset *asset, vs_error *error, const char *object,
                     const char *action, const char *fmt, ...)
{
    asset_internal *in = internal_of(asset);
    char what[VS_ERROR_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (in->strict)
        return set_error(error, VS_ERROR_INVALID,
                         "%s%s%s: %s (refused by a strict load; otherwise: "
                         "%s)",
                         asset->source_name, object[0] ? ": " : "", object,
                         what, action);
    /* The last kept slot is the count of those left out, so at most
     * VS_MAX_WARNINGS - 1 are kept as they are. */
    if (in->warnings_kept >= VS_MAX_WARNINGS - 1) {
        ++in->warnings_left_out;
        return VS_OK;
    }
    warning_entry *entry = arena_alloc(&in->arena, 1, sizeof *entry);
    char message[2 * VS_ERROR_MESSAGE_SIZE];
    snprintf(message, sizeof message, "%s: %s", what, action);
    if (entry) {
        entry->warning.object = arena_strdup(&in->arena, object);
        entry->warning.message = arena_strdup(&in->arena, message);
    }
    if (!entry || !entry->warning.object || !entry->warning.message)
        return out_of_memory(asset, error, object);
    if (in->warnings_tail)
        in->warnings_tail->next = entry;
    else
        in->warnings_head = entry;
    in->warnings_tail = entry;
    ++in->warnings_kept;
    return VS_OK;
}

const char *asset_refusal_text(const vs_asset *asset, const vs_error *error)
{
    const char *msg = error ? error->message : "";
    size_t n = strlen(asset->source_name);
    if (strncmp(msg, asset->source_name, n) == 0 &&
        strncmp(msg + n, ": ", 2) == 0)
        msg += n + 2;
    return msg;
}

vs_result asset_publish_warnings(vs_asset *asset, vs_error *error)
{
    asset_internal *in = internal_of(asset);
    uint32_t count = in->warnings_kept + (in->warnings_left_out > 0);
    if (count == 0) return VS_OK;
    vs_warning *list = arena_alloc(&in->arena, count, sizeof *list);
    if (!list) return out_of_memory(asset, error, "");
    uint32_t i = 0;
    for (const warning_entry *e = in->warnings_head; e; e = e->next)
        list[i++] = e->warning;
    if (in->warnings_left_out > 0) {
        char message[128];
        snprintf(message, sizeof message,
                 "%llu more warning%s left out (at most %u are kept)",
                 (unsigned long long)in->warnings_left_out,
                 in->warnings_left_out == 1 ? " was" : "s were",
                 (unsigned)VS_MAX_WARNINGS);
        list[i].object = "";
        list[i].message = arena_strdup(&in->arena, message);
        if (!list[i].message) return out_of_memory(asset, error, "");
    }
    asset->warning_count = count;
    asset->warnings = list;
    return VS_OK;
}
