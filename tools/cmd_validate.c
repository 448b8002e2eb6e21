/* SPDX-License-Identifier: MIT */
/* `vskin validate FILE [--json] [--max-influences N] [--strict]`: skin,
 * node, accessor and animation problems with a severity and an object path;
 * exit 0 without errors (1 with --strict and warnings), 1 with errors, 2 on
 * usage errors. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_json.h"
#include "commands.h"
#include "vskin/vskin_tools.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin validate FILE [--json] [--max-influences N] "
            "[--strict]\n\n"
            "Reports skin, node, accessor and animation problems of a glTF "
            "2.0, glTF 1.0\nor COLLADA file, each with a severity and an "
            "object path (a JSON pointer).\nCodes follow the Khronos "
            "glTF-Validator where one matches (docs/validate.md).\n\n"
            "  --json              one JSON object on stdout (for pipelines)\n"
            "  --max-influences N  more non-zero weights per vertex is a "
            "warning (default 4)\n"
            "  --strict            exit 1 on warnings too\n"
            "  --help              this text\n\n"
            "Exit status: 0 no errors, 1 errors (or warnings with --strict), "
            "2 usage.\n");
}

static bool parse_count(const char *text, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || v < 1 || v > 255) return false;
    *out = (uint32_t)v;
    return true;
}

static void print_text(const vs_validation_report *r)
{
    for (uint32_t i = 0; i < r->issue_count; ++i) {
        const vs_validation_issue *is = &r->issues[i];
        printf("%s: %s %s %s: %s\n", CLI_TEXT(r->source_name),
               vs_severity_string(is->severity), is->code,
               is->pointer[0] ? CLI_TEXT(is->pointer) : "/",
               CLI_TEXT(is->message));
    }
    printf("%s: %u errors, %u warnings, %u infos, %u hints%s\n",
           CLI_TEXT(r->source_name),
           r->counts[0], r->counts[1], r->counts[2], r->counts[3],
           r->loaded ? "" : " (vskin cannot load it)");
}

static bool print_json(const vs_validation_report *r)
{
    cli_json_begin();
    cJSON *root = cJSON_CreateObject(), *issues = cJSON_CreateArray();
    bool ok = root && issues;
    if (ok) {
        cJSON_AddItemToObject(root, "issues", issues);
        cJSON_AddStringToObject(root, "file", r->source_name);
        cJSON_AddBoolToObject(root, "loaded", r->loaded);
        cJSON_AddNumberToObject(root, "numErrors", r->counts[0]);
        cJSON_AddNumberToObject(root, "numWarnings", r->counts[1]);
        cJSON_AddNumberToObject(root, "numInfos", r->counts[2]);
        cJSON_AddNumberToObject(root, "numHints", r->counts[3]);
    } else {
        cJSON_Delete(issues);
    }
    for (uint32_t i = 0; ok && i < r->issue_count; ++i) {
        const vs_validation_issue *is = &r->issues[i];
        cJSON *o = cJSON_CreateObject();
        ok = o && cJSON_AddStringToObject(o, "code", is->code) &&
             cJSON_AddStringToObject(o, "severity",
                                     vs_severity_string(is->severity)) &&
             cJSON_AddStringToObject(o, "pointer", is->pointer) &&
             cJSON_AddStringToObject(o, "message", is->message);
        if (o) cJSON_AddItemToArray(issues, o);
    }
    char *text = cli_json_print(ok ? root : NULL);
    bool printed = text && puts(text) >= 0 && fflush(stdout) == 0;
    cJSON_free(text);
    cJSON_Delete(root);
    return printed;
}

int cmd_validate(int argc, char **argv)
{
    const char *file = NULL;
    bool json = false, strict = false;
    vs_validate_options opts = {0};
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--json") == 0) {
            json = true;
        } else if (strcmp(arg, "--strict") == 0) {
            strict = true;
        } else if (strcmp(arg, "--max-influences") == 0) {
            if (i + 1 >= argc ||
                !parse_count(argv[i + 1], &opts.max_influences)) {
                cli_error("validate", "--max-influences needs a number 1..255");
                return 2;
            }
            ++i;
        } else if (arg[0] == '-' && arg[1]) {
            return cli_unknown("validate", arg);
        } else if (file) {
            cli_error("validate", "one FILE only ('%s' and '%s')", file, arg);
            return 2;
        } else {
            file = arg;
        }
    }
    if (!file) {
        cli_error("validate", "FILE is required");
        return 2;
    }
    vs_validation_report *report = NULL;
    vs_error error;
    vs_result r = vs_validate_file(file, &opts, &report, &error);
    if (r != VS_OK) {
        cli_error("validate", "%s", error.message);
        return 1;
    }
    bool printed = json ? print_json(report) : (print_text(report), true);
    int status = report->counts[VS_SEVERITY_ERROR] ||
                         (strict && report->counts[VS_SEVERITY_WARNING])
                     ? 1
                     : 0;
    vs_validation_report_free(report);
    if (!printed) {
        cli_error("validate", "out of memory writing JSON");
        return 1;
    }
    return status;
}
