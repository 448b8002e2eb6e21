/* SPDX-License-Identifier: MIT */
/* JSON the commands print or write is whole or not at all. cJSON reports a
 * failed allocation only through the return value of the call that made
 * it, and a key or value silently missing from output that exits 0 is a
 * wrong answer; so the CLI watches cJSON's allocations and refuses to emit
 * a document built while one failed. */
#ifndef VS_TOOLS_CLI_JSON_H
#define VS_TOOLS_CLI_JSON_H

#include <cjson/cJSON.h>

/* Routes cJSON's allocations through the watch; main calls it once, before
 * any cJSON use. cJSON's hooks are process-wide: this is the program's
 * choice, which the library never makes. */
void cli_json_watch(void);

/* Starts a document: forgets failures seen before. */
void cli_json_begin(void);

/* The text of root, built since cli_json_begin; NULL when root is NULL or
 * any cJSON allocation failed since cli_json_begin (the caller reports it).
 * Free the text with cJSON_free. */
char *cli_json_print(const cJSON *root);

#endif
