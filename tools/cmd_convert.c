/* SPDX-License-Identifier: MIT */
/* `vskin convert`: writes any loaded asset (glTF 1.0, COLLADA, glTF 2.0) as
 * glTF 2.0: .gltf + .bin, .gltf with an embedded buffer, or .glb. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin convert [FILE] -o OUT.gltf|OUT.glb [--embed] "
            "[--force]\n                     [--keep-axes]\n\n"
            "Writes FILE (glTF 2.0, glTF 1.0 or COLLADA; default: the "
            "embedded SimpleSkin)\nas glTF 2.0: meshes, materials, skins, "
            "animations, nodes and scenes.\nglTF 1.0 / COLLADA bind shape "
            "matrices are folded into the inverse bind\nmatrices; COLLADA "
            "Z-up / X-up and units become Y-up metres.\n\n"
            "  -o OUT        .gltf writes OUT and its buffer as OUT's name "
            "with .bin;\n                .glb writes one binary file\n"
            "  --embed       .gltf only: the buffer as a base64 data: URI "
            "inside OUT\n"
            "  --force       overwrite OUT (and its .bin) when they exist\n"
            "  --keep-axes   keep the source's up axis and unit (no "
            "correction)\n"
            CLI_LOAD_OPTIONS_HELP
            "  --help        this text\n");
}

typedef struct convert_args {
    cli_options common;
    const char *out;
    bool embed, force, keep_axes;
} convert_args;

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, convert_args *args)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--embed") == 0) {
            args->embed = true;
        } else if (strcmp(arg, "--force") == 0) {
            args->force = true;
        } else if (strcmp(arg, "--keep-axes") == 0) {
            args->keep_axes = true;
        } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("convert", "%s needs a value", arg);
                return 2;
            }
            args->out = argv[++i];
        } else {
            int r = cli_parse_common("convert", argc, argv, &i, false,
                                     &args->common);
            if (r < 0) return 2;
            if (r == 0) return cli_unknown("convert", arg);
        }
    }
    if (!args->out) {
        cli_error("convert", "-o OUT.gltf or -o OUT.glb is required");
        return 2;
    }
    bool gltf = cli_has_ext(args->out, ".gltf");
    if (!gltf && !cli_has_ext(args->out, ".glb")) {
        cli_error("convert", "-o %s: unknown extension (use .gltf or .glb)",
                  args->out);
        return 2;
    }
    if (args->embed && !gltf) {
        cli_error("convert",
                  "--embed applies to .gltf output (%s already holds its "
                  "buffer)",
                  args->out);
        return 2;
    }
    return -1;
}

static bool may_write(const convert_args *args, const char *path)
{
    return cli_may_write("convert", args->common.file, path, args->force);
}

static void warn(const char *what, uint32_t count)
{
    if (count) fprintf(stderr, "vskin convert: warning: %u %s\n", count, what);
}

static void report(const vs_gltf_write_report *r)
{
    warn("normals were not unit length and were normalized",
         r->renormalized_normals);
    warn("primitives had zero-length normals; their NORMAL was left out",
         r->dropped_normals);
    warn("tangents were not unit length (or w not +-1) and were normalized",
         r->renormalized_tangents);
    warn("primitives had zero-length tangents; their TANGENT was left out",
         r->dropped_tangents);
    warn("rotations were not unit quaternions and were normalized",
         r->normalized_rotations);
    /* The runtime divides by the sum too, so default poses are unchanged;
     * --raw-weights poses of the output differ from the source's. */
    warn("vertices had weights that do not sum to 1; they were divided by "
         "their sum",
         r->unnormalized_weights);
    warn("images could not be read, or are neither PNG nor JPEG, and were "
         "left out with their textures (their materials keep their colour)",
         r->dropped_images);
    warn("vertices had a colour (COLOR_0) outside [0, 1]; it was clamped",
         r->clamped_colors);
}

static int run(const convert_args *args)
{
    char *bin = NULL;
    bool separate_bin = !args->embed && !cli_has_ext(args->out, ".glb");
    if (separate_bin && !(bin = vs_gltf_bin_path(args->out, NULL))) {
        cli_error("convert", "out of memory");
        return 1;
    }
    /* Both outputs are checked before anything is loaded or written. */
    bool ok = may_write(args, args->out) && (!bin || may_write(args, bin));
    vs_asset *asset = NULL;
    if (ok) ok = cli_load("convert", &args->common, &asset);
    /* Again once loaded: the outputs may be none of the buffers read. */
    ok = ok && may_write(args, args->out) && (!bin || may_write(args, bin));
    if (ok) {
        vs_gltf_write_options opts = {.embed = args->embed,
                                      .keep_axes = args->keep_axes};
        vs_gltf_write_report rep;
        vs_error error;
        vs_result r = vs_write_gltf(asset, args->out, &opts, &rep, &error);
        if (r != VS_OK) {
            cli_error("convert", "%s",
                      error.message[0] ? error.message : vs_result_string(r));
            ok = false;
        } else {
            report(&rep);
            printf("wrote %s%s%s (%u nodes, %u meshes, %u skins, %u clips%s)\n",
                   args->out, bin ? " and " : "", bin ? bin : "",
                   asset->node_count, asset->mesh_count, asset->skin_count,
                   asset->clip_count,
                   rep.axes_corrected ? "; axes/unit corrected to Y-up metres"
                                      : "");
        }
    }
    vs_asset_free(asset);
    free(bin);
    return ok ? 0 : 1;
}

int cmd_convert(int argc, char **argv)
{
    convert_args args = {0};
    int status = parse(argc, argv, &args);
    if (status < 0) status = run(&args);
    cli_options_free(&args.common);
    return status;
}
