/* SPDX-License-Identifier: MIT */
/* `vskin info --bounds`: per sampled time of a clip, the fast bounds (joint
 * matrices and the per-joint bind-space boxes, vs_pose_fast_bounds) beside
 * the exact bounds (every vertex skinned, vs_pose_bounds), as text or JSON. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_common.h"
#include "cli_json.h"
#include "info.h"

typedef struct bounds_sample {
    float time;
    bool fast_any, exact_any;
    float fast[6], exact[6]; /* min xyz, max xyz */
} bounds_sample;

static double diagonal(const float b[6])
{
    double s = 0.0;
    for (int k = 0; k < 3; ++k)
        s += ((double)b[k + 3] - b[k]) * ((double)b[k + 3] - b[k]);
    return sqrt(s);
}

static cJSON *box_json(const float b[6])
{
    cJSON *o = cJSON_CreateObject();
    cJSON *mn = cJSON_AddArrayToObject(o, "min");
    cJSON *mx = cJSON_AddArrayToObject(o, "max");
    for (int k = 0; mn && mx && k < 3; ++k) {
        cJSON_AddItemToArray(mn, cJSON_CreateNumber(b[k]));
        cJSON_AddItemToArray(mx, cJSON_CreateNumber(b[k + 3]));
    }
    return o;
}

static bool print_json(const vs_asset *asset, int32_t clip, float fps,
                       const bounds_sample *s, uint32_t n)
{
    cli_json_begin();
    cJSON *root = cJSON_CreateObject();
    if (!root) return false;
    cJSON_AddStringToObject(root, "file", asset->source_name);
    cJSON_AddNumberToObject(root, "clip", clip);
    if (clip >= 0) cJSON_AddNumberToObject(root, "fps", fps);
    cJSON *list = cJSON_AddArrayToObject(root, "samples");
    for (uint32_t i = 0; list && i < n; ++i) {
        cJSON *e = cJSON_CreateObject();
        if (!e) break;
        cJSON_AddNumberToObject(e, "time", s[i].time);
        if (s[i].fast_any)
            cJSON_AddItemToObject(e, "fast", box_json(s[i].fast));
        if (s[i].exact_any)
            cJSON_AddItemToObject(e, "exact", box_json(s[i].exact));
        cJSON_AddItemToArray(list, e);
    }
    char *text = cli_json_print(root);
    cJSON_Delete(root);
    bool printed = text && puts(text) >= 0 && fflush(stdout) == 0;
    cJSON_free(text);
    return printed;
}

static void print_text(const vs_asset *asset, int32_t clip, float fps,
                       const bounds_sample *s, uint32_t n)
{
    if (clip >= 0)
        printf("bounds of %s, clip %d \"%s\" at %g fps\n",
               CLI_TEXT(asset->source_name), clip,
               CLI_TEXT(asset->clips[clip].name), (double)fps);
    else
        printf("bounds of %s, rest pose\n", CLI_TEXT(asset->source_name));
    printf("fast = joint matrices x per-joint bind boxes; exact = skinned "
           "vertices\n");
    for (uint32_t i = 0; i < n; ++i) {
        printf("t=%-9.4g", (double)s[i].time);
        if (!s[i].exact_any) {
            printf(" no vertices\n");
            continue;
        }
        const float *f = s[i].fast, *e = s[i].exact;
        printf(" fast [%g %g %g]..[%g %g %g]  exact [%g %g %g]..[%g %g %g]",
               f[0], f[1], f[2], f[3], f[4], f[5], e[0], e[1], e[2], e[3], e[4],
               e[5]);
        double d = diagonal(e);
        if (d > 0.0) printf("  diagonal x%.3f", diagonal(f) / d);
        putchar('\n');
    }
}

int info_print_bounds(const vs_asset *asset, const char *clip_name, float fps,
                      bool json)
{
    int32_t clip = asset->clip_count ? 0 : -1;
    if (clip_name && (clip = vs_asset_find_clip(asset, clip_name)) < 0) {
        cli_error("info", "%s: no clip '%s' (the file has %u clip%s)",
                  asset->source_name, clip_name, asset->clip_count,
                  asset->clip_count == 1 ? "" : "s");
        return 1;
    }
    float rest = 0.0f, *times = &rest;
    uint32_t n = 1;
    vs_error error = {0};
    if (clip >= 0 && vs_bake_frame_times(asset, (uint32_t)clip, fps, &times, &n,
                                         &error) != VS_OK) {
        cli_error("info", "%s", error.message);
        return error.code == VS_ERROR_ARGUMENT ? 2 : 1;
    }
    bounds_sample *s = calloc(n, sizeof *s);
    vs_pose *pose = NULL;
    vs_result r =
        s ? vs_pose_create(asset, &pose, &error) : VS_ERROR_OUT_OF_MEMORY;
    for (uint32_t i = 0; r == VS_OK && i < n; ++i) {
        vs_pose_reset(pose);
        if (clip >= 0)
            r = vs_pose_sample(pose, (uint32_t)clip, times[i], VS_TIME_CLAMP,
                               &error);
        vs_pose_update_world(pose);
        s[i].time = times[i];
        if (r == VS_OK)
            r = vs_pose_fast_bounds(pose, NULL, s[i].fast, s[i].fast + 3,
                                    &s[i].fast_any, &error);
        if (r == VS_OK)
            r = vs_pose_bounds(pose, NULL, s[i].exact, s[i].exact + 3,
                               &s[i].exact_any, &error);
    }
    bool ok = r == VS_OK;
    if (ok) {
        if (json)
            ok = print_json(asset, clip, fps, s, n);
        else
            print_text(asset, clip, fps, s, n);
    }
    if (!ok)
        cli_error("info", "%s",
                  error.message[0] ? error.message : "out of memory");
    vs_pose_free(pose);
    free(s);
    if (times != &rest) free(times);
    return ok ? 0 : 1;
}
