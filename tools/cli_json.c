/* SPDX-License-Identifier: MIT */
/* The watch over cJSON's allocations (cli_json.h). */
#include "cli_json.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

/* Atomic: the hooks serve every cJSON call in the process, the library's
 * parsing included, whichever thread makes it. */
static atomic_bool g_failed;

static void *watched_malloc(size_t size)
{
    void *p = malloc(size);
    if (!p) atomic_store(&g_failed, true);
    return p;
}

void cli_json_watch(void)
{
    cJSON_Hooks hooks = {watched_malloc, free};
    cJSON_InitHooks(&hooks);
}

void cli_json_begin(void)
{
    atomic_store(&g_failed, false);
}

char *cli_json_print(const cJSON *root)
{
    char *text = root && !atomic_load(&g_failed) ? cJSON_Print(root) : NULL;
    if (text && !atomic_load(&g_failed)) return text;
    cJSON_free(text);
    return NULL;
}
