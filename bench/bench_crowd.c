/* SPDX-License-Identifier: MIT */
/* Characters per second for the whole pipeline on a crowd of one asset,
 * through the library's crowd API (vs_crowd_run): per character, sample its
 * clip (each at its own time), world matrices, joint matrices with its
 * placement, and skin positions + normals of every skinned primitive, spread
 * over a vs_context's threads; through the plain job ("plain"), and through
 * prepared streams (vs_crowd_streams, unorm16 weights: "prepared"). */
#include <stdio.h>
#include <stdlib.h>

#include "bench_character.h"

typedef struct crowd_ctx {
    vs_context *context;
    vs_crowd_job job;
    float span;
    vs_result result;
    vs_error error;
} crowd_ctx;

static void crowd_once(void *arg)
{
    crowd_ctx *x = arg;
    for (size_t i = 0; i < x->job.instance_count; ++i) {
        vs_crowd_instance *in = &x->job.instances[i];
        in->time += 1.0f / 60.0f; /* the next frame */
        if (in->time > x->span) in->time -= x->span;
    }
    vs_result r = vs_crowd_run(x->context, &x->job, &x->error);
    if (r != VS_OK) x->result = r;
}

static bool setup(crowd_ctx *x, const bench_character *c, int count)
{
    const vs_asset *a = c->asset;
    const vs_clip *clip = &a->clips[0];
    x->span = clip->end > clip->start ? clip->end - clip->start : 1.0f;
    size_t floats = 0;
    if (vs_crowd_layout(a, true, NULL, 0, NULL, &floats, &x->error) != VS_OK) {
        fprintf(stderr, "bench: %s\n", x->error.message);
        return false;
    }
    x->job = (vs_crowd_job){.asset = a, .normals = true};
    x->job.instances = calloc((size_t)count, sizeof *x->job.instances);
    if (!x->job.instances) return false;
    x->job.instance_count = (size_t)count;
    for (int i = 0; i < count; ++i) {
        vs_crowd_instance *in = &x->job.instances[i];
        in->clip = 0;
        in->time = x->span * (float)i / (float)count; /* everyone out of step */
        in->time_mode = VS_TIME_LOOP;
        for (int e = 0; e < 16; ++e)
            in->placement[e] = e % 5 == 0 ? 1.0f : 0.0f;
        in->placement[12] = (float)(i % 8), in->placement[14] = (float)(i / 8);
        in->output = bench_alloc(floats * sizeof(float));
        if (!in->output || vs_pose_create(a, &in->pose, &x->error) != VS_OK)
            return false;
    }
    return true;
}

static void teardown(crowd_ctx *x)
{
    for (size_t i = 0; x->job.instances && i < x->job.instance_count; ++i) {
        vs_pose_free(x->job.instances[i].pose);
        free(x->job.instances[i].output);
    }
    free(x->job.instances);
}

bool bench_crowd(const bench_config *cfg, bench_results *r)
{
    bench_character c;
    if (!bench_character_load(cfg->asset, &c)) return false;
    crowd_ctx x = {.result = VS_OK};
    bool ok = setup(&x, &c, cfg->crowd);
    if (!ok)
        fprintf(stderr, "bench: cannot set up a crowd of %d\n", cfg->crowd);
    vs_crowd_streams *streams = NULL;
    const vs_crowd_streams_desc sd = {.asset = c.asset, .normals = true};
    if (ok && vs_crowd_streams_create(&sd, &streams, &x.error) != VS_OK) {
        fprintf(stderr, "bench: %s\n", x.error.message);
        ok = false;
    }
    for (int t = 0; t < cfg->thread_count && ok; ++t) {
        vs_context_options o = {.thread_count = (uint32_t)cfg->threads[t]};
        if (vs_context_create(&o, &x.context, &x.error) != VS_OK) {
            fprintf(stderr, "bench: %s\n", x.error.message);
            ok = false;
            break;
        }
        for (int prepared = 0; prepared < 2 && ok; ++prepared) {
            x.job.streams = prepared ? streams : NULL;
            double s = bench_measure(crowd_once, &x, cfg->min_time);
            bench_row *row = bench_add(r, "crowd");
            row->what = bench_string(r, c.name);
            row->impl = prepared ? "prepared" : "plain";
            row->threads = (int)vs_context_thread_count(x.context);
            row->vertices = x.job.instance_count; /* characters, here */
            row->per_second = (double)x.job.instance_count / s;
            if (x.result != VS_OK) {
                fprintf(stderr, "bench: %s\n", x.error.message);
                ok = false;
            }
        }
        vs_context_free(x.context);
    }
    vs_crowd_streams_free(streams);
    teardown(&x);
    bench_character_free(&c);
    return ok;
}
