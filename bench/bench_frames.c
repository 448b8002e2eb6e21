/* SPDX-License-Identifier: MIT */
/* Microseconds per character-frame for the pose pipeline before skinning:
 * sample the clip, world matrices, joint matrices of the skin (4x4, and the
 * packed 3x4 form the kernels can take). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_character.h"
#include "vskin/vskin_tools.h"

#ifndef VS_BENCH_CESIUMMAN
#define VS_BENCH_CESIUMMAN ""
#endif

#define FRAMES_PER_CALL 64

static bool pick_skin(bench_character *c)
{
    const vs_asset *a = c->asset;
    c->skinned_node = -1;
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        const vs_node *n = &a->nodes[a->instances[i]];
        if (n->skin >= 0) {
            c->skinned_node = (int32_t)a->instances[i];
            c->skin = (uint32_t)n->skin;
            return a->clip_count > 0;
        }
    }
    return false;
}

bool bench_character_load(const char *path, bench_character *out)
{
    memset(out, 0, sizeof *out);
    vs_error err;
    vs_result r;
    FILE *probe = path ? NULL : fopen(VS_BENCH_CESIUMMAN, "rb");
    if (probe) fclose(probe);
    const char *file = path ? path : probe ? VS_BENCH_CESIUMMAN : NULL;
    if (file) {
        r = vs_asset_load_file(file, NULL, &out->asset, &err);
        const char *base = strrchr(file, '/');
        const char *shown = base ? base + 1 : file;
        size_t n = strlen(shown);
        if (n >= sizeof out->name) n = sizeof out->name - 1;
        memcpy(out->name, shown, n); /* long names are cut, not an error */
        out->name[n] = '\0';
    } else {
        size_t size = 0;
        const void *data = vs_default_asset_data(&size);
        r = vs_asset_load_memory(data, size, "SimpleSkin", NULL, &out->asset,
                                 &err);
        snprintf(out->name, sizeof out->name, "SimpleSkin (embedded)");
    }
    if (r != VS_OK) {
        fprintf(stderr, "bench: %s\n", err.message);
        return false;
    }
    if (!pick_skin(out)) {
        fprintf(stderr, "bench: %s: needs a skinned mesh and a clip\n",
                out->name);
        bench_character_free(out);
        return false;
    }
    return true;
}

bool bench_character_tube(uint32_t joints, bench_character *out)
{
    memset(out, 0, sizeof *out);
    vs_synthetic_tube_desc d = {
        .joint_count = joints, .vertex_count = 4096, .influence_count = 4};
    void *glb = NULL;
    size_t size = 0;
    vs_error err;
    if (vs_synthetic_tube(&d, &glb, &size, &err) != VS_OK ||
        vs_asset_load_memory(glb, size, "tube.glb", NULL, &out->asset, &err) !=
            VS_OK) {
        free(glb);
        fprintf(stderr, "bench: %s\n", err.message);
        return false;
    }
    free(glb);
    snprintf(out->name, sizeof out->name, "tube-%u-joints", joints);
    if (pick_skin(out)) return true;
    bench_character_free(out);
    return false;
}

void bench_character_free(bench_character *c)
{
    vs_asset_free(c->asset);
    c->asset = NULL;
}

typedef struct frame_ctx {
    vs_pose *pose;
    const bench_character *c;
    float *matrices;
    float time, step, span;
    bool packed; /* vs_pose_joint_matrices_3x4 instead of the 4x4 call */
    bool failed;
} frame_ctx;

static void frames_once(void *arg)
{
    frame_ctx *f = arg;
    for (int i = 0; i < FRAMES_PER_CALL; ++i) {
        f->time += f->step;
        if (f->time > f->span) f->time -= f->span;
        if (vs_pose_sample(f->pose, 0, f->time, VS_TIME_LOOP, NULL) != VS_OK)
            f->failed = true;
        vs_pose_update_world(f->pose);
        vs_result r = f->packed
                          ? vs_pose_joint_matrices_3x4(f->pose, f->c->skin, -1,
                                                       f->matrices, NULL)
                          : vs_pose_joint_matrices(f->pose, f->c->skin, -1,
                                                   f->matrices, NULL);
        if (r != VS_OK) f->failed = true;
    }
}

static bool frame_row(const bench_config *cfg, const bench_character *c,
                      bool packed, bench_results *r)
{
    const vs_skin *skin = &c->asset->skins[c->skin];
    frame_ctx f = {.c = c, .step = 1.0f / 60.0f, .packed = packed};
    const vs_clip *clip = &c->asset->clips[0];
    f.span = clip->end > clip->start ? clip->end - clip->start : 1.0f;
    f.matrices = bench_alloc((size_t)skin->joint_count * 64);
    vs_error err;
    if (!f.matrices || vs_pose_create(c->asset, &f.pose, &err) != VS_OK) {
        fprintf(stderr, "bench: %s: cannot create a pose\n", c->name);
        free(f.matrices);
        return false;
    }
    double s = bench_measure(frames_once, &f, cfg->min_time);
    vs_pose_free(f.pose);
    free(f.matrices);
    if (f.failed) {
        fprintf(stderr, "bench: %s: sampling failed\n", c->name);
        return false;
    }
    bench_row *row = bench_add(r, "frame");
    row->what = bench_string(r, c->name);
    row->impl = packed ? "sample+world+joints3x4" : "sample+world+joints";
    row->threads = 1;
    row->vertices = skin->joint_count; /* joints, for this kind */
    row->us_per_frame = s / FRAMES_PER_CALL * 1e6;
    row->per_second = FRAMES_PER_CALL / s;
    return true;
}

bool bench_frames(const bench_config *cfg, bench_results *r)
{
    bench_character c;
    if (!bench_character_load(cfg->asset, &c)) return false;
    bool ok = frame_row(cfg, &c, false, r) && frame_row(cfg, &c, true, r);
    bench_character_free(&c);
    if (!ok || !bench_character_tube(200, &c)) return false;
    ok = frame_row(cfg, &c, false, r) && frame_row(cfg, &c, true, r);
    bench_character_free(&c);
    return ok;
}
