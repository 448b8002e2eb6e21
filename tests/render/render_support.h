/* SPDX-License-Identifier: MIT */
/* What the render tests share: loading an asset, opening a renderer (exit 77,
 * "skipped", when this machine has no EGL at all), posing at a time. */
#ifndef VS_TESTS_RENDER_SUPPORT_H
#define VS_TESTS_RENDER_SUPPORT_H

#include <dirent.h>

#include "test.h"
#include "vskin/vskin.h"
#include "vskin/vskin_render.h"

static inline vs_asset *load_default_asset(void)
{
    size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    vs_asset *asset = NULL;
    vs_error e = {0};
    if (vs_asset_load_memory(data, size, "SimpleSkin.gltf", NULL, &asset, &e) !=
        VS_OK) {
        fprintf(stderr, "cannot load the embedded SimpleSkin: %s\n", e.message);
        return NULL;
    }
    return asset;
}

/* NULL (and a skip) only when EGL cannot be opened at all. */
static inline vs_renderer *open_renderer_or_skip(const vs_asset *asset)
{
    vs_renderer *r = NULL;
    vs_error e = {0};
    vs_result res = vs_renderer_create(asset, &r, &e);
    if (res == VS_ERROR_RENDER && strstr(e.message, "EGL:")) {
        printf("skipped: %s\n", e.message);
        exit(77);
    }
    if (res != VS_OK) fprintf(stderr, "vs_renderer_create: %s\n", e.message);
    return r;
}

static inline int pose_at(vs_pose *pose, int32_t clip, float t)
{
    vs_error e = {0};
    vs_pose_reset(pose);
    if (clip >= 0 &&
        vs_pose_sample(pose, (uint32_t)clip, t, VS_TIME_CLAMP, &e) != VS_OK) {
        fprintf(stderr, "vs_pose_sample: %s\n", e.message);
        return 0;
    }
    vs_pose_update_world(pose);
    return 1;
}

/* Calls fn(path, ctx) for every .gltf / .glb one folder below
 * VS_SHARED_ASSETS/<format>/ (the corpus layout, see its MANIFEST.md), in
 * directory order; returns how many, or -1 when that folder is absent. */
static inline int for_each_corpus_file(const char *format,
                                       void (*fn)(const char *path, void *ctx),
                                       void *ctx)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", VS_SHARED_ASSETS, format);
    DIR *top = opendir(dir);
    if (!top) return -1;
    int files = 0;
    struct dirent *d;
    while ((d = readdir(top)) != NULL) {
        if (d->d_name[0] == '.') continue;
        char sub[1280];
        snprintf(sub, sizeof sub, "%s/%s", dir, d->d_name);
        DIR *inner = opendir(sub);
        struct dirent *f;
        while (inner && (f = readdir(inner)) != NULL) {
            size_t len = strlen(f->d_name);
            if (len < 5 || (strcmp(f->d_name + len - 5, ".gltf") != 0 &&
                            strcmp(f->d_name + len - 4, ".glb") != 0))
                continue;
            char file[1600];
            snprintf(file, sizeof file, "%s/%s", sub, f->d_name);
            fn(file, ctx);
            ++files;
        }
        if (inner) closedir(inner);
    }
    closedir(top);
    return files;
}

#endif
