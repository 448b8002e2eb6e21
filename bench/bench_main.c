/* SPDX-License-Identifier: MIT */
/* Options, defaults and the order of a run: copy bandwidth first (the
 * ratios need it), then skinning, character frames and the crowd. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bench.h"

static void usage(FILE *out, const char *prog)
{
    fprintf(
        out,
        "usage: %s [--smoke|--quick] [--json] [--sizes LIST] "
        "[--threads LIST]\n       [--influences LIST] [--plot FILE.png] "
        "[--asset FILE] [--method linear|dq]\n       [--stores "
        "auto|cached|streaming] [--min-time SECONDS]\n\n"
        "Measures, in one run: skinning vertices/s (positions, +normals, "
        "+tangents;\nscalar reference, the dispatched kernel, each ISA, "
        "the prepared stream),\nSTREAM-copy bandwidth, bytes moved per "
        "vertex and the ratios; microseconds\nper character-frame (sample "
        "+ world + joint matrices) for the asset and a\n200-joint "
        "synthetic tube; characters/s for a crowd of the asset.\n\n"
        "  --smoke, --quick   tiny sizes and short timings (seconds in "
        "all)\n"
        "  --json             JSON instead of the table\n"
        "  --sizes LIST       vertex counts, e.g. 10k,100k,1M (default)\n"
        "  --threads LIST     e.g. 1,2 (default)\n"
        "  --influences LIST  e.g. 1,2,4,8 (default)\n"
        "  --plot FILE.png    throughput vs vertex count, one line per "
        "influence count\n"
        "  --asset FILE       character for frame/crowd rows (default: "
        "CesiumMan from\n                     ../shared/assets, else the "
        "embedded SimpleSkin)\n"
        "  --method linear|dq blending method of the skinning rows\n"
        "  --stores MODE      output stores of the plain skinning jobs: auto\n"
        "                     (the library's default: streaming from\n"
        "                     VS_SKIN_STREAMING_AUTO_BYTES moved), cached or\n"
        "                     streaming (non-temporal)\n"
        "  --min-time S       seconds of timed work per cell (default "
        "0.2)\n",
        prog);
}

static bool parse_size(const char *s, size_t *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v <= 0) return false;
    if (*end == 'k' || *end == 'K')
        v *= 1e3, ++end;
    else if (*end == 'M' || *end == 'm')
        v *= 1e6, ++end;
    if (*end || v < 1 || v > 1e8) return false;
    *out = (size_t)v;
    return true;
}

/* Comma list of sizes; kind 0 = vertex counts, 1 = threads, 2 = influences. */
static bool parse_list(const char *text, int kind, bench_config *c)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        size_t v;
        if (n == BENCH_MAX_LIST || !parse_size(tok, &v)) return false;
        if (kind == 0)
            c->sizes[n++] = v;
        else if (kind == 1 && v <= 64)
            c->threads[n++] = (int)v;
        else if (kind == 2 && v <= 8)
            c->influences[n++] = (uint32_t)v;
        else
            return false;
    }
    if (n == 0) return false;
    if (kind == 0)
        c->size_count = n;
    else if (kind == 1)
        c->thread_count = n;
    else
        c->influence_count = n;
    return true;
}

/* --plot writes one PNG, at the path given and nowhere else: the name
 * must say PNG, and it may not be the --asset file (compared by device and
 * inode, so another spelling or a link is caught). */
static bool plot_path_ok(const char *prog, const char *plot, const char *asset)
{
    size_t n = strlen(plot);
    if (n < 4 || strcasecmp(plot + n - 4, ".png") != 0) {
        fprintf(stderr, "%s: --plot %s: the plot is a PNG: use a .png name\n",
                prog, plot);
        return false;
    }
    struct stat p, a;
    if (asset && stat(plot, &p) == 0 && stat(asset, &a) == 0 &&
        p.st_dev == a.st_dev && p.st_ino == a.st_ino) {
        fprintf(stderr, "%s: --plot %s: refusing to write over --asset\n", prog,
                plot);
        return false;
    }
    return true;
}

static int parse(int argc, char **argv, const char *prog, bench_config *c)
{
    const char *lists[3] = {NULL, NULL, NULL}; /* applied after --smoke */
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, prog);
            return 0;
        } else if (!strcmp(a, "--smoke") || !strcmp(a, "--quick")) {
            c->smoke = true;
        } else if (!strcmp(a, "--json")) {
            c->json = true;
        } else if (!strcmp(a, "--sizes") || !strcmp(a, "--threads") ||
                   !strcmp(a, "--influences") || !strcmp(a, "--plot") ||
                   !strcmp(a, "--asset") || !strcmp(a, "--method") ||
                   !strcmp(a, "--stores") || !strcmp(a, "--min-time")) {
            if (!v) {
                fprintf(stderr, "%s: %s needs a value\n", prog, a);
                return 2;
            }
            ++i;
            if (!strcmp(a, "--sizes"))
                lists[0] = v;
            else if (!strcmp(a, "--threads"))
                lists[1] = v;
            else if (!strcmp(a, "--influences"))
                lists[2] = v;
            else if (!strcmp(a, "--plot"))
                c->plot = v;
            else if (!strcmp(a, "--asset"))
                c->asset = v;
            else if (!strcmp(a, "--stores")) {
                if (!strcmp(v, "auto")) {
                    c->store_flags = 0;
                } else if (!strcmp(v, "cached")) {
                    c->store_flags = VS_SKIN_CACHED_STORES;
                } else if (!strcmp(v, "streaming")) {
                    c->store_flags = VS_SKIN_STREAMING_STORES;
                } else {
                    fprintf(stderr,
                            "%s: --stores %s: expected auto, cached or "
                            "streaming\n",
                            prog, v);
                    return 2;
                }
            } else if (!strcmp(a, "--method")) {
                if (!strcmp(v, "linear")) {
                    c->method = VS_SKIN_LINEAR;
                } else if (!strcmp(v, "dq") || !strcmp(v, "dual-quaternion")) {
                    c->method = VS_SKIN_DUAL_QUATERNION;
                } else {
                    fprintf(stderr, "%s: --method %s: expected linear or dq\n",
                            prog, v);
                    return 2;
                }
            } else {
                char *end = NULL;
                c->min_time = strtod(v, &end);
                if (end == v || *end ||
                    !(c->min_time > 0 && c->min_time <= 60)) {
                    fprintf(stderr, "%s: --min-time %s: not in (0, 60]\n", prog,
                            v);
                    return 2;
                }
            }
        } else {
            fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, a);
            return 2;
        }
    }
    if (c->plot && !plot_path_ok(prog, c->plot, c->asset)) return 2;
    if (c->smoke) {
        c->sizes[0] = 1000, c->sizes[1] = 4000, c->size_count = 2;
        if (c->min_time == 0) c->min_time = 0.002;
        c->copy_bytes = 1u << 20;
        c->crowd = 4;
    }
    static const char *names[3] = {"--sizes", "--threads", "--influences"};
    for (int k = 0; k < 3; ++k)
        if (lists[k] && !parse_list(lists[k], k, c)) {
            fprintf(stderr, "%s: %s %s: expected a comma list such as %s\n",
                    prog, names[k], lists[k],
                    k == 0   ? "10k,100k,1M"
                    : k == 1 ? "1,2"
                             : "1,2,4,8");
            return 2;
        }
    return -1;
}

static void fill_ratios(bench_results *r)
{
    for (size_t i = 0; i < r->count; ++i) {
        bench_row *w = &r->rows[i];
        if (strcmp(w->kind, "skin") && strcmp(w->kind, "isa") &&
            strcmp(w->kind, "stream"))
            continue;
        for (size_t j = 0; j < r->count; ++j) {
            const bench_row *o = &r->rows[j];
            if (!strcmp(o->kind, "skin") && !strcmp(o->impl, "reference") &&
                !strcmp(o->what, w->what) && o->influences == w->influences &&
                o->vertices == w->vertices)
                w->speedup = w->per_second / o->per_second;
            if (!strcmp(o->kind, "copy") && o->threads == w->threads)
                w->copy_fraction = w->gbytes_per_second / o->gbytes_per_second;
        }
    }
}

int bench_main(int argc, char **argv, const char *prog)
{
    bench_config c = {
        .sizes = {10000, 100000, 1000000},
        .size_count = 3,
        .threads = {1, 2},
        .thread_count = 2,
        .influences = {1, 2, 4, 8},
        .influence_count = 4,
        .copy_bytes = 64u << 20, /* 2 x 64 MiB: far beyond any cache */
        .crowd = 64,
    };
    int status = parse(argc, argv, prog, &c);
    if (status >= 0) return status;
    if (c.min_time == 0) c.min_time = 0.2;
    bench_results r = {0};
    bool ok = bench_copy(&c, &r) && bench_skin(&c, &r) && bench_copy(&c, &r) &&
              bench_frames(&c, &r) && bench_crowd(&c, &r);
    if (ok) {
        fill_ratios(&r);
        if (c.json)
            ok = bench_print_json(&c, &r);
        else
            bench_print_table(&c, &r);
        if (ok && c.plot) ok = bench_plot(&c, &r, c.plot);
    }
    bench_results_free(&r);
    return ok ? 0 : 1;
}
