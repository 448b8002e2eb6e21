/* SPDX-License-Identifier: MIT */
/* `vskin reweight FILE --max-influences N [--normalize] -o OUT`: keeps each
 * vertex's N largest weights (what exporters do for 4-influence runtimes),
 * writes glTF 2.0 and reports the largest vertex position error this causes
 * over the rest pose and every clip sampled at --rate Hz. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "commands.h"
#include "vskin/vskin_tools.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: vskin reweight FILE --max-influences N -o OUT.gltf|OUT.glb"
            "\n                      [--normalize] [--rate HZ] [--embed] "
            "[--force]\n\n"
            "Keeps each vertex's N largest weights, drops the others and "
            "writes glTF 2.0.\nPrints the largest vertex position error "
            "(in the file's units) this causes\nover the rest pose and every "
            "clip sampled at HZ (default 30).\n\n"
            "  --max-influences N  influences to keep per vertex (1..255)\n"
            "  --normalize         divide the kept weights by their sum "
            "(glTF 2.0 requires\n"
            "                      it: without it the writer does so and "
            "warns)\n"
            "  -o OUT              output .gltf (+ .bin) or .glb\n"
            "  --rate HZ           clip sampling rate for the error report\n"
            "  --embed             .gltf only: buffer as a data: URI\n"
            "  --force             overwrite OUT (and its .bin)\n"
            CLI_LOAD_OPTIONS_HELP
            "  --help              this text\n");
}

typedef struct reweight_args {
    const char *file, *out;
    uint32_t max_influences;
    float rate;
    bool normalize, embed, force;
    cli_options load; /* --strict, --quiet */
} reweight_args;

static int need_value(int argc, int i, const char *arg)
{
    if (i + 1 < argc) return 0;
    cli_error("reweight", "%s needs a value", arg);
    return 2;
}

/* Returns -1 to go on, else the exit status. */
static int parse(int argc, char **argv, reweight_args *a)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        char *end;
        if (cli_is_help(arg)) {
            usage(stdout);
            return 0;
        } else if (cli_parse_load_option(arg, &a->load)) {
            continue;
        } else if (strcmp(arg, "--normalize") == 0) {
            a->normalize = true;
        } else if (strcmp(arg, "--embed") == 0) {
            a->embed = true;
        } else if (strcmp(arg, "--force") == 0) {
            a->force = true;
        } else if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) {
            if (need_value(argc, i, arg)) return 2;
            a->out = argv[++i];
        } else if (strcmp(arg, "--max-influences") == 0) {
            if (need_value(argc, i, arg)) return 2;
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (argv[i][0] < '0' || argv[i][0] > '9' || *end || v < 1 ||
                v > 255) {
                cli_error("reweight", "--max-influences: '%s' is not 1..255",
                          argv[i]);
                return 2;
            }
            a->max_influences = (uint32_t)v;
        } else if (strcmp(arg, "--rate") == 0) {
            if (need_value(argc, i, arg)) return 2;
            a->rate = strtof(argv[++i], &end);
            if (*end || !(a->rate > 0 && a->rate <= 10000)) {
                cli_error("reweight", "--rate: '%s' is not in (0, 10000]",
                          argv[i]);
                return 2;
            }
        } else if (arg[0] == '-' && arg[1]) {
            return cli_unknown("reweight", arg);
        } else if (a->file) {
            cli_error("reweight", "one FILE only ('%s' and '%s')", a->file,
                      arg);
            return 2;
        } else {
            a->file = arg;
        }
    }
    if (!a->file || !a->max_influences || !a->out) {
        cli_error("reweight", "FILE, --max-influences N and -o OUT are "
                              "required");
        return 2;
    }
    bool gltf = cli_has_ext(a->out, ".gltf");
    if (!gltf && !cli_has_ext(a->out, ".glb")) {
        cli_error("reweight", "-o %s: unknown extension (use .gltf or .glb)",
                  a->out);
        return 2;
    }
    if (a->embed && !gltf) {
        cli_error("reweight", "--embed applies to .gltf output");
        return 2;
    }
    return -1;
}

static bool may_write(const reweight_args *a, const char *path)
{
    return cli_may_write("reweight", a->file, path, a->force);
}

static bool write_and_report(const reweight_args *a, const vs_asset *src,
                             const vs_asset *rw, const vs_reweight_stats *st)
{
    vs_error error;
    float err = 0, t = 0;
    int32_t clip = -1;
    if (vs_max_position_error(src, rw, a->rate, &err, &clip, &t, &error) !=
        VS_OK) {
        cli_error("reweight", "%s", error.message);
        return false;
    }
    vs_gltf_write_options wo = {.embed = a->embed};
    vs_gltf_write_report rep;
    if (vs_write_gltf(rw, a->out, &wo, &rep, &error) != VS_OK) {
        cli_error("reweight", "%s", error.message);
        return false;
    }
    if (rep.unnormalized_weights)
        fprintf(stderr,
                "vskin reweight: warning: %u vertices' weights did not sum "
                "to 1 and were divided by their sum (use --normalize)\n",
                rep.unnormalized_weights);
    if (rep.dropped_images)
        fprintf(stderr,
                "vskin reweight: warning: %u images could not be read, or are "
                "neither PNG nor JPEG, and were left out with their textures "
                "(their materials keep their colour)\n",
                rep.dropped_images);
    printf("wrote %s: kept at most %u influences per vertex; %u vertices "
           "changed, %u influences dropped (largest dropped weight %g)\n",
           a->out, a->max_influences, st->vertices_changed,
           st->influences_dropped, (double)st->max_dropped_weight);
    if (clip >= 0)
        printf("max position error: %g (clip %d \"%s\" at t=%g s; rest pose "
               "and %u clips sampled at %g Hz)\n",
               (double)err, clip, CLI_TEXT(src->clips[clip].name), (double)t,
               src->clip_count, (double)(a->rate > 0 ? a->rate : 30));
    else
        printf("max position error: %g (rest pose; rest pose and %u clips "
               "sampled at %g Hz)\n",
               (double)err, src->clip_count,
               (double)(a->rate > 0 ? a->rate : 30));
    return true;
}

int cmd_reweight(int argc, char **argv)
{
    reweight_args a = {0};
    int status = parse(argc, argv, &a);
    if (status >= 0) return status;
    char *bin = NULL;
    if (!a.embed && !cli_has_ext(a.out, ".glb") &&
        !(bin = vs_gltf_bin_path(a.out, NULL))) {
        cli_error("reweight", "out of memory");
        return 1;
    }
    bool ok = may_write(&a, a.out) && (!bin || may_write(&a, bin));
    cli_options common = {
        .file = a.file, .strict = a.load.strict, .quiet = a.load.quiet};
    vs_asset *src = NULL, *rw = NULL;
    /* Again once loaded: the outputs may be none of the buffers read. */
    ok = ok && cli_load("reweight", &common, &src) && may_write(&a, a.out) &&
         (!bin || may_write(&a, bin));
    free(bin);
    if (!ok) {
        vs_asset_free(src);
        return 1;
    }
    vs_reweight_options ro = {a.max_influences, a.normalize};
    vs_reweight_stats st;
    vs_error error;
    if (vs_asset_reweight(src, &ro, &rw, &st, &error) != VS_OK) {
        cli_error("reweight", "%s", error.message);
        ok = false;
    } else {
        ok = write_and_report(&a, src, rw, &st);
    }
    vs_asset_free(rw);
    vs_asset_free(src);
    return ok ? 0 : 1;
}
