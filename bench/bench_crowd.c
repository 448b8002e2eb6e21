/* Characters per second for the whole pipeline on a crowd of one asset:
 * per character, sample its clip (each at its own time), world matrices,
 * joint matrices, then skin positions + normals of every primitive of its
 * skinned mesh with the dispatched kernel. Threads take whole characters. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_character.h"

typedef struct crowd_member {
    vs_pose *pose;
    float *matrices;
    float *out; /* positions then normals, per primitive, packed */
    float time;
} crowd_member;

typedef struct crowd_ctx {
    const bench_character *c;
    const vs_mesh *mesh;
    crowd_member *members;
    int count;
    size_t floats_per_member;
    float span;
    bench_pool *pool;
    atomic_bool failed; /* written by any worker */
} crowd_ctx;

static bool pose_and_skin(crowd_ctx *x, crowd_member *m)
{
    m->time += 1.0f / 60.0f;
    if (m->time > x->span) m->time -= x->span;
    if (vs_pose_sample(m->pose, 0, m->time, VS_TIME_LOOP, NULL) != VS_OK)
        return false;
    vs_pose_update_world(m->pose);
    const vs_skin *skin = &x->c->asset->skins[x->c->skin];
    if (vs_pose_joint_matrices(m->pose, x->c->skin, -1, m->matrices, NULL) !=
        VS_OK)
        return false;
    float *out = m->out;
    for (uint32_t p = 0; p < x->mesh->primitive_count; ++p) {
        const vs_primitive *prim = &x->mesh->primitives[p];
        if (!prim->influence_count) continue;
        vs_skinning_job job = {
            .vertex_count = prim->vertex_count,
            .influence_count = prim->influence_count,
            .joint_matrices = m->matrices,
            .joint_count = skin->joint_count,
            .joints = prim->joints,
            .weights = prim->weights,
            .in_positions = prim->positions,
            .out_positions = out,
            .in_normals = prim->normals,
            .out_normals = prim->normals ? out + prim->vertex_count * 3 : NULL,
        };
        if (vs_skinning_job_run(&job, NULL) != VS_OK) return false;
        out += prim->vertex_count * 6;
    }
    return true;
}

static void crowd_task(void *arg, int index, int count)
{
    crowd_ctx *x = arg;
    int lo = x->count * index / count, hi = x->count * (index + 1) / count;
    for (int i = lo; i < hi; ++i)
        if (!pose_and_skin(x, &x->members[i])) x->failed = true;
}

static void crowd_once(void *arg)
{
    crowd_ctx *x = arg;
    bench_pool_run(x->pool, crowd_task, x);
}

static bool setup(crowd_ctx *x, int count)
{
    const vs_asset *a = x->c->asset;
    x->mesh = &a->meshes[a->nodes[x->c->skinned_node].mesh];
    x->count = count;
    const vs_clip *clip = &a->clips[0];
    x->span = clip->end > clip->start ? clip->end - clip->start : 1.0f;
    for (uint32_t p = 0; p < x->mesh->primitive_count; ++p)
        x->floats_per_member += (size_t)x->mesh->primitives[p].vertex_count * 6;
    x->members = calloc((size_t)count, sizeof *x->members);
    if (!x->members) return false;
    uint32_t joints = a->skins[x->c->skin].joint_count;
    for (int i = 0; i < count; ++i) {
        crowd_member *m = &x->members[i];
        m->time = x->span * (float)i / (float)count; /* everyone out of step */
        m->matrices = bench_alloc((size_t)joints * 64);
        m->out = bench_alloc(x->floats_per_member * 4);
        if (!m->matrices || !m->out ||
            vs_pose_create(a, &m->pose, NULL) != VS_OK)
            return false;
    }
    return true;
}

static void teardown(crowd_ctx *x)
{
    for (int i = 0; x->members && i < x->count; ++i) {
        vs_pose_free(x->members[i].pose);
        free(x->members[i].matrices);
        free(x->members[i].out);
    }
    free(x->members);
}

bool bench_crowd(const bench_config *cfg, bench_results *r)
{
    bench_character c;
    if (!bench_character_load(cfg->asset, &c)) return false;
    crowd_ctx x = {.c = &c};
    bool ok = setup(&x, cfg->crowd);
    if (!ok) fprintf(stderr, "bench: cannot set up a crowd of %d\n", cfg->crowd);
    for (int t = 0; t < cfg->thread_count && ok; ++t) {
        x.pool = bench_pool_create(cfg->threads[t]);
        if (!x.pool) {
            ok = false;
            break;
        }
        double s = bench_measure(crowd_once, &x, cfg->min_time);
        bench_row *row = bench_add(r, "crowd");
        row->what = bench_string(r, c.name);
        row->impl = "sample+joints+skin";
        row->threads = bench_pool_threads(x.pool);
        row->vertices = (size_t)x.count; /* characters, for this kind */
        row->per_second = (double)x.count / s;
        bench_pool_free(x.pool);
        if (x.failed) {
            fprintf(stderr, "bench: %s: the crowd pipeline failed\n", c.name);
            ok = false;
        }
    }
    teardown(&x);
    bench_character_free(&c);
    return ok;
}
