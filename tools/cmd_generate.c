/* SPDX-License-Identifier: MIT */
/* `vskin generate tube`: writes a synthetic skinned tube (vs_synthetic_tube)
 * as .glb, so scale tests and benchmarks need no downloads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_common.h"
#include "commands.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin generate tube --joints N --vertices M "
            "[--influences K]\n                      [--segments S] "
            "[--length L] -o OUT.glb [--force]\n\n"
            "Writes a skinned tube: a chain of N joints along +Y, rings of S "
            "vertices\n(M rounded up to whole rings), each vertex on its K "
            "nearest joints\n(weights summing to 1), and a clip \"bend\" "
            "(2 s) that bends the chain.\n\n"
            "  --joints N       1..1001 (default 16)\n"
            "  --vertices M     1..67108864 (default 1024)\n"
            "  --influences K   1..8 (default 4)\n"
            "  --segments S     vertices per ring, 3..1024 (default 16)\n"
            "  --length L       metres (default 1)\n"
            "  -o OUT.glb       the file to write\n"
            "  --force          overwrite OUT when it exists\n"
            "  --help           this text\n");
}

static bool parse_u32(const char *text, uint32_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

int cmd_generate(int argc, char **argv)
{
    vs_synthetic_tube_desc d = {
        .joint_count = 16, .vertex_count = 1024, .influence_count = 4};
    const char *out = NULL;
    bool force = false, tube = false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        }
        uint32_t *field = NULL;
        if (strcmp(arg, "tube") == 0) {
            tube = true;
            continue;
        } else if (strcmp(arg, "--force") == 0) {
            force = true;
            continue;
        } else if (strcmp(arg, "--joints") == 0) {
            field = &d.joint_count;
        } else if (strcmp(arg, "--vertices") == 0) {
            field = &d.vertex_count;
        } else if (strcmp(arg, "--influences") == 0) {
            field = &d.influence_count;
        } else if (strcmp(arg, "--segments") == 0) {
            field = &d.segments;
        } else if (strcmp(arg, "--length") != 0 && strcmp(arg, "-o") != 0 &&
                   strcmp(arg, "--output") != 0) {
            return cli_unknown("generate", arg);
        }
        if (i + 1 >= argc) {
            cli_error("generate", "%s needs a value", arg);
            return 2;
        }
        const char *value = argv[++i];
        if (field) {
            if (!parse_u32(value, field)) {
                cli_error("generate", "%s %s: not a whole number", arg, value);
                return 2;
            }
        } else if (strcmp(arg, "--length") == 0) {
            char *end = NULL;
            d.length = strtof(value, &end);
            if (end == value || *end || !(d.length > 0.0f)) {
                cli_error("generate", "--length %s: not a positive number",
                          value);
                return 2;
            }
        } else {
            out = value;
        }
    }
    if (!tube) {
        cli_error("generate",
                  "say what to generate: 'vskin generate tube ...'");
        return 2;
    }
    if (!out || !cli_has_ext(out, ".glb")) {
        cli_error("generate", "-o OUT.glb is required");
        return 2;
    }
    struct stat st;
    if (!force && stat(out, &st) == 0) {
        cli_error("generate", "%s exists (use --force to overwrite)", out);
        return 1;
    }
    void *glb = NULL;
    size_t size = 0;
    vs_error err;
    if (vs_synthetic_tube(&d, &glb, &size, &err) != VS_OK) {
        cli_error("generate", "%s", err.message);
        return err.code == VS_ERROR_ARGUMENT ? 2 : 1;
    }
    /* Beside and renamed: a failed write leaves an existing OUT whole. */
    int status = 0;
    if (vs_write_bytes(glb, size, out, NULL, &err) != VS_OK) {
        cli_error("generate", "%s", err.message);
        status = 1;
    }
    free(glb);
    if (status == 0)
        printf("wrote %s: %u joints, %u vertices, %u influences, %zu bytes\n",
               out, d.joint_count, vs_synthetic_tube_vertex_count(&d),
               d.influence_count, size);
    return status;
}
