/* SPDX-License-Identifier: MIT */
/* vs_crowd_run: many instances of one asset posed and skinned in one call.
 * Per instance: sample, world pass, joint matrices premultiplied by the
 * placement (affine product), then each skinned primitive ("slot") through
 * vs_skinning_job_run, or through vs_skin_stream_job_run where the job
 * names prepared streams (skin/crowd_streams.c). Joint matrices live in the
 * context's per-worker scratch, reserved before the parallel call, so tasks
 * never allocate. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/affine.h"
#include "base/context_internal.h"
#include "base/error.h"
#include "skin/crowd_streams_internal.h"
#include "skin/skinning_internal.h"
#include "vskin/vskin.h"

/* Walks the slots in layout order; calls visit(slot, user) for each. */
typedef bool (*slot_visit)(const vs_crowd_slot *slot, void *user);

static bool slot_skinned(const vs_asset *asset, uint32_t node)
{
    const vs_node *n = &asset->nodes[node];
    return n->mesh >= 0 && n->skin >= 0 &&
           (uint32_t)n->skin < asset->skin_count;
}

static size_t walk_slots(const vs_asset *asset, bool normals, slot_visit visit,
                         void *user, uint32_t *out_count)
{
    size_t floats = 0;
    uint32_t count = 0;
    for (uint32_t k = 0; k < asset->instance_count; ++k) {
        uint32_t node = asset->instances[k];
        if (!slot_skinned(asset, node)) continue;
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            const vs_primitive *prim = &mesh->primitives[p];
            if (prim->influence_count == 0) continue;
            vs_crowd_slot slot = {node, p, prim->vertex_count, floats,
                                  SIZE_MAX};
            floats += 3 * (size_t)prim->vertex_count;
            if (normals && prim->normals) {
                slot.normals_offset = floats;
                floats += 3 * (size_t)prim->vertex_count;
            }
            if (visit && !visit(&slot, user)) {
                if (out_count) *out_count = count;
                return floats;
            }
            ++count;
        }
    }
    if (out_count) *out_count = count;
    return floats;
}

typedef struct slot_sink {
    vs_crowd_slot *slots;
    uint32_t capacity, written;
} slot_sink;

static bool store_slot(const vs_crowd_slot *slot, void *user)
{
    slot_sink *sink = user;
    if (sink->written < sink->capacity) sink->slots[sink->written++] = *slot;
    return true;
}

vs_result vs_crowd_layout(const vs_asset *asset, bool normals,
                          vs_crowd_slot *slots, uint32_t slot_capacity,
                          uint32_t *out_slot_count, size_t *out_float_count,
                          vs_error *error)
{
    if (!asset)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_crowd_layout: asset must not be NULL");
    slot_sink sink = {slots, slots ? slot_capacity : 0, 0};
    uint32_t count = 0;
    size_t floats = walk_slots(asset, normals, store_slot, &sink, &count);
    if (out_slot_count) *out_slot_count = count;
    if (out_float_count) *out_float_count = floats;
    return VS_OK;
}

/* ------------------------------------------------------------- one instance */

typedef struct crowd_run {
    const vs_crowd_job *job;
    vs_context *pool;         /* owns the per-worker scratch */
    vs_context *vertex_split; /* set: split each slot over vertices */
    pthread_mutex_t lock;
    atomic_bool failed;
    vs_error error; /* first failure, under lock */
} crowd_run;

typedef struct slot_args {
    crowd_run *run;
    const vs_crowd_instance *inst;
    float *joints;
    int32_t skin_ready; /* skin whose matrices are in joints, or -1 */
    uint32_t slot;      /* index of the slot being visited */
    vs_result result;
    vs_error *error;
} slot_args;

static bool skin_slot(const vs_crowd_slot *slot, void *user)
{
    slot_args *a = user;
    const vs_crowd_job *job = a->run->job;
    const vs_asset *asset = job->asset;
    const vs_node *node = &asset->nodes[slot->node];
    const vs_skin *skin = &asset->skins[node->skin];
    const vs_primitive *prim =
        &asset->meshes[node->mesh].primitives[slot->primitive];
    if (a->skin_ready != node->skin) {
        a->result = vs_pose_joint_matrices(a->inst->pose, (uint32_t)node->skin,
                                           -1, a->joints, a->error);
        if (a->result != VS_OK) return false;
        for (uint32_t j = 0; j < skin->joint_count; ++j)
            affine_mul(a->inst->placement, a->joints + 16 * (size_t)j,
                       a->joints + 16 * (size_t)j);
        a->skin_ready = node->skin;
    }
    float *out = a->inst->output;
    bool normals = slot->normals_offset != SIZE_MAX;
    const vs_crowd_streams *streams = job->streams;
    if (streams) {
        const crowd_stream_slot *ss = &streams->slots[a->slot++];
        const vs_skin_stream_job stj = {
            .stream = ss->stream,
            .joint_matrices = a->joints,
            .vertex_count = prim->vertex_count,
            .order = VS_STREAM_ORDER_STREAM,
            .in_positions = ss->positions,
            .out_positions = out + slot->positions_offset,
            .in_normals = normals ? ss->normals : NULL,
            .out_normals = normals ? out + slot->normals_offset : NULL,
            .flags =
                job->flags & (SKIN_STORE_FLAGS | VS_SKIN_NORMALS_BY_MATRIX),
        };
        a->result = a->run->vertex_split
                        ? vs_skin_stream_job_run_parallel(a->run->vertex_split,
                                                          &stj, a->error)
                        : vs_skin_stream_job_run(&stj, a->error);
        return a->result == VS_OK;
    }
    vs_skinning_job sj = {
        .vertex_count = prim->vertex_count,
        .influence_count = prim->influence_count,
        .joint_matrices = a->joints,
        .joint_count = skin->joint_count,
        .joints = prim->joints,
        .weights = prim->weights,
        .in_positions = prim->positions,
        .out_positions = out + slot->positions_offset,
        .in_normals = normals ? prim->normals : NULL,
        .out_normals = normals ? out + slot->normals_offset : NULL,
        .flags = job->flags,
    };
    a->result =
        a->run->vertex_split
            ? vs_skinning_job_run_parallel(a->run->vertex_split, &sj, a->error)
            : vs_skinning_job_run(&sj, a->error);
    return a->result == VS_OK;
}

static void fail(crowd_run *run, size_t index, const vs_error *inner)
{
    pthread_mutex_lock(&run->lock);
    if (!atomic_load(&run->failed))
        set_error(&run->error, inner->code, "crowd instance %zu: %s", index,
                  inner->message);
    atomic_store(&run->failed, true);
    pthread_mutex_unlock(&run->lock);
}

static void run_instance(crowd_run *run, size_t index, float *joints)
{
    const vs_crowd_job *job = run->job;
    const vs_crowd_instance *inst = &job->instances[index];
    vs_error inner = {0};
    if (inst->clip >= 0 &&
        vs_pose_sample(inst->pose, (uint32_t)inst->clip, inst->time,
                       inst->time_mode, &inner) != VS_OK) {
        fail(run, index, &inner);
        return;
    }
    vs_pose_update_world(inst->pose);
    slot_args a = {run, inst, joints, -1, 0, VS_OK, &inner};
    walk_slots(job->asset, job->normals, skin_slot, &a, NULL);
    if (a.result != VS_OK) fail(run, index, &inner);
}

static void instance_task(void *user, size_t begin, size_t end, uint32_t worker)
{
    crowd_run *run = user;
    float *joints = context_scratch_of(run->pool, worker);
    for (size_t i = begin; i < end && !atomic_load(&run->failed); ++i)
        run_instance(run, i, joints);
}

/* ------------------------------------------------------------------ checks */

static vs_result check_job(const vs_crowd_job *job, vs_error *error)
{
    if (!job || !job->asset || (job->instance_count && !job->instances))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_crowd_run: job, job->asset and job->instances "
                         "must not be NULL");
    const vs_asset *asset = job->asset;
    const vs_crowd_streams *streams = job->streams;
    if (streams && streams->asset != asset)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: crowd: streams were prepared for another asset "
                         "(%s)",
                         asset->source_name, streams->asset->source_name);
    if (streams && job->normals && !streams->normals)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: crowd: the job asks for normals but the streams "
                         "were prepared without them",
                         asset->source_name);
    if (streams && (job->flags & VS_SKIN_RAW_WEIGHTS) != streams->flags)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "%s: crowd: the job's VS_SKIN_RAW_WEIGHTS flag (%s) "
                         "differs from the streams' (%s)",
                         asset->source_name,
                         job->flags & VS_SKIN_RAW_WEIGHTS ? "set" : "clear",
                         streams->flags ? "set" : "clear");
    for (size_t i = 0; i < job->instance_count; ++i) {
        const vs_crowd_instance *inst = &job->instances[i];
        if (!inst->pose || vs_pose_asset(inst->pose) != asset)
            return set_error(error, VS_ERROR_ARGUMENT,
                             "%s: crowd instance %zu: pose is NULL or belongs "
                             "to another asset",
                             asset->source_name, i);
        if (!inst->output)
            return set_error(error, VS_ERROR_ARGUMENT,
                             "%s: crowd instance %zu: output is NULL",
                             asset->source_name, i);
        if (inst->clip >= (int32_t)asset->clip_count)
            return set_error(error, VS_ERROR_ARGUMENT,
                             "%s: crowd instance %zu: animations[%d]: clip "
                             "does not exist (%u clips)",
                             asset->source_name, i, inst->clip,
                             asset->clip_count);
        if (!affine_is_affine(inst->placement))
            return set_error(error, VS_ERROR_ARGUMENT,
                             "%s: crowd instance %zu: placement is not affine "
                             "(last row must be 0 0 0 1)",
                             asset->source_name, i);
    }
    return VS_OK;
}

static size_t max_joint_count(const vs_asset *asset)
{
    size_t most = 1;
    for (uint32_t s = 0; s < asset->skin_count; ++s)
        if (asset->skins[s].joint_count > most)
            most = asset->skins[s].joint_count;
    return most;
}

vs_result vs_crowd_run(vs_context *context, const vs_crowd_job *job,
                       vs_error *error)
{
    vs_result r = check_job(job, error);
    if (r != VS_OK) return r;
    if (job->instance_count == 0) return VS_OK;
    const vs_asset *asset = job->asset;
    vs_context *own = NULL;
    if (!context) {
        /* A caller-only context: no thread, just the scratch, from the
         * asset's allocator. */
        const vs_context_options options = {.allocator =
                                                *asset_allocator(asset)};
        r = vs_context_create(&options, &own, error);
        if (r != VS_OK) return r;
        context = own;
    }
    if (!context_reserve_scratch(context, 16 * max_joint_count(asset))) {
        vs_context_free(own);
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "%s: crowd: out of memory for joint matrices",
                         asset->source_name);
    }
    crowd_run run = {.job = job, .pool = context};
    pthread_mutex_init(&run.lock, NULL);
    atomic_init(&run.failed, false);
    uint32_t threads = vs_context_thread_count(context);
    if (threads > 1 && job->instance_count < threads) {
        /* Few instances: one at a time, each slot split over vertices. */
        run.vertex_split = context;
        for (size_t i = 0; i < job->instance_count && !atomic_load(&run.failed);
             ++i)
            run_instance(&run, i, context_scratch_of(context, 0));
    } else {
        /* Instances in parallel; each task skins on its own thread. */
        r = vs_context_parallel_for(context, job->instance_count, 1,
                                    instance_task, &run, error);
    }
    pthread_mutex_destroy(&run.lock);
    vs_context_free(own);
    if (r != VS_OK) return r;
    if (atomic_load(&run.failed)) {
        if (error) *error = run.error;
        return run.error.code;
    }
    return VS_OK;
}
