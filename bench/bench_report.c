/* SPDX-License-Identifier: MIT */
/* The results as a table (for people) or JSON (for scripts and the smoke
 * test). Ratios are filled in by bench_main before printing. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static void print_size(char *buf, size_t n, size_t v)
{
    if (v >= 1000000 && v % 1000000 == 0)
        snprintf(buf, n, "%zuM", v / 1000000);
    else if (v >= 1000 && v % 1000 == 0)
        snprintf(buf, n, "%zuk", v / 1000);
    else
        snprintf(buf, n, "%zu", v);
}

static void print_header(const char *kind, vs_skin_method method)
{
    if (!strcmp(kind, "copy")) {
        printf("\n== memory bandwidth (STREAM copy, bytes read + written)\n"
               "threads        GB/s\n");
    } else if (!strcmp(kind, "frame")) {
        printf("\n== character-frame: sample + world + joint matrices, "
               "1 thread\n%-24s %-24s %6s %10s\n",
               "character", "steps", "joints", "us/frame");
    } else if (!strcmp(kind, "crowd")) {
        printf("\n== crowd: sample + joint matrices + skin (pos+nrm)\n"
               "%-24s %-9s %6s %3s %12s\n",
               "character", "impl", "crowd", "thr", "chars/s");
    } else {
        bool dq = method == VS_SKIN_DUAL_QUATERNION;
        const char *title =
            !strcmp(kind, "skin") ? (dq ? "skinning (dual quaternions)"
                                        : "skinning (linear blend)")
            : !strcmp(kind, "isa")
                ? (dq ? "kernels by ISA (dual quaternions)"
                      : "kernels by ISA (linear blend)")
                : "prepared stream (linear blend) and, as job:ISA, the "
                  "plain job";
        printf("\n== %s: vertices/s; B/v = bytes moved per vertex; x ref = "
               "vs 1-thread scalar\n   reference; %% copy = moved GB/s / "
               "same-thread copy GB/s\n"
               "%-12s %-14s %4s %8s %3s %10s %6s %7s %7s %7s\n",
               title, "attributes", "impl", "infl", "vertices", "thr",
               "Mvert/s", "B/v", "GB/s", "x ref", "% copy");
    }
}

static void print_row(const bench_row *w)
{
    char size[32];
    print_size(size, sizeof size, w->vertices);
    if (!strcmp(w->kind, "copy"))
        printf("%7d %11.2f\n", w->threads, w->gbytes_per_second);
    else if (!strcmp(w->kind, "frame"))
        printf("%-24s %-24s %6zu %10.3f\n", w->what, w->impl, w->vertices,
               w->us_per_frame);
    else if (!strcmp(w->kind, "crowd"))
        printf("%-24s %-9s %6zu %3d %12.1f\n", w->what, w->impl, w->vertices,
               w->threads, w->per_second);
    else
        printf("%-12s %-14s %4u %8s %3d %10.2f %6.1f %7.2f %7.2f %6.0f%%\n",
               w->what, w->impl, w->influences, size, w->threads,
               w->per_second / 1e6, w->bytes_per_vertex, w->gbytes_per_second,
               w->speedup, 100.0 * w->copy_fraction);
    if (w->random_joints) printf("%-12s random joint list per vertex\n", "");
    if (w->vs_default > 0.0)
        printf("%-12s normals by the matrix (VS_SKIN_NORMALS_BY_MATRIX): "
               "%.2fx the row above\n",
               "", w->vs_default);
}

void bench_print_table(const bench_config *c, const bench_results *r)
{
    /* Grouped by kind, in this order, each group in measuring order. */
    static const char *kinds[] = {"copy",   "skin",  "isa",
                                  "stream", "frame", "crowd"};
    for (size_t g = 0; g < sizeof kinds / sizeof kinds[0]; ++g) {
        bool first = true;
        for (size_t i = 0; i < r->count; ++i) {
            if (strcmp(r->rows[i].kind, kinds[g]) != 0) continue;
            if (first) print_header(kinds[g], c->method);
            first = false;
            print_row(&r->rows[i]);
        }
    }
}

bool bench_print_json(const bench_config *c, const bench_results *r)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "version", VS_VERSION_STRING);
    cJSON_AddStringToObject(root, "best_isa", vs_isa_name(vs_cpu_best_isa()));
    cJSON_AddStringToObject(
        root, "method", c->method == VS_SKIN_DUAL_QUATERNION ? "dq" : "linear");
    cJSON_AddStringToObject(root, "stores",
                            c->store_flags & VS_SKIN_STREAMING_STORES
                                ? "streaming"
                            : c->store_flags & VS_SKIN_CACHED_STORES ? "cached"
                                                                     : "auto");
    cJSON_AddBoolToObject(root, "smoke", c->smoke);
    cJSON_AddNumberToObject(root, "min_time_s", c->min_time);
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t i = 0; i < r->count; ++i) {
        const bench_row *w = &r->rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", w->kind);
        cJSON_AddStringToObject(o, "what", w->what);
        cJSON_AddStringToObject(o, "impl", w->impl);
        cJSON_AddNumberToObject(o, "threads", w->threads);
        if (!strcmp(w->kind, "frame")) {
            cJSON_AddNumberToObject(o, "joints", (double)w->vertices);
            cJSON_AddNumberToObject(o, "us_per_frame", w->us_per_frame);
        } else if (!strcmp(w->kind, "crowd")) {
            cJSON_AddNumberToObject(o, "characters", (double)w->vertices);
            cJSON_AddNumberToObject(o, "characters_per_second", w->per_second);
        } else if (!strcmp(w->kind, "copy")) {
            cJSON_AddNumberToObject(o, "gbytes_per_second",
                                    w->gbytes_per_second);
        } else {
            cJSON_AddNumberToObject(o, "influences", w->influences);
            cJSON_AddNumberToObject(o, "vertices", (double)w->vertices);
            cJSON_AddNumberToObject(o, "vertices_per_second", w->per_second);
            cJSON_AddNumberToObject(o, "bytes_per_vertex", w->bytes_per_vertex);
            cJSON_AddNumberToObject(o, "gbytes_per_second",
                                    w->gbytes_per_second);
            cJSON_AddNumberToObject(o, "speedup_vs_reference", w->speedup);
            cJSON_AddNumberToObject(o, "fraction_of_copy", w->copy_fraction);
            cJSON_AddBoolToObject(o, "random_joints", w->random_joints);
            if (w->vs_default > 0.0)
                cJSON_AddNumberToObject(o, "speed_vs_default_normals",
                                        w->vs_default);
        }
        cJSON_AddItemToArray(rows, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text) return false;
    puts(text);
    free(text);
    return true;
}
