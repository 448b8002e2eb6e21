/* SPDX-License-Identifier: MIT */
/* vskin — the command-line tool. */
#include <stdio.h>
#include <string.h>

#include "cli_json.h"
#include "commands.h"
#include "vskin/vskin.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"info", cmd_info, "describe scenes, nodes, meshes, skins and clips"},
    {"pose", cmd_pose, "pose and skin at given times; write OBJ, PLY or JSON"},
    {"render", cmd_render, "render a frame (PNG) or a clip (GIF) with OpenGL ES"},
    {"view", cmd_view, "look at the asset in a window: orbit, play, scrub, views"},
    {"joints", cmd_joints, "joint matrices as JSON or the shader's RGBA32F rows"},
    {"convert", cmd_convert, "convert glTF 1.0 / COLLADA / glTF 2.0 to glTF 2.0"},
    {"validate", cmd_validate, "report skin, node, accessor, animation problems"},
    {"reweight", cmd_reweight, "keep N largest weights per vertex; write glTF 2.0"},
    {"bake", cmd_bake, "bake a pose or a clip to static glTF/OBJ, morphs or VAT"},
    {"generate", cmd_generate, "write a synthetic skinned tube (.glb) of any size"},
    {"bench", cmd_bench, "measure skinning, memory bandwidth and pose throughput"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "vskin %s — skeletal vertex skinning for glTF and COLLADA\n\n"
            "usage: vskin COMMAND [FILE] [options]   (no FILE: the embedded "
            "SimpleSkin)\n\ncommands:\n",
            VS_VERSION_STRING);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'vskin COMMAND --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
    cli_json_watch();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("vskin %s\n", VS_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "vskin: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
