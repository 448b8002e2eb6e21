/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the whole path, not just parsing: load (any format),
 * then for a few clips and times sample a pose, update world matrices, build
 * every skin's joint matrices (world and skeleton space), skin every
 * primitive of every mesh instance, and build and run a prepared stream
 * (vs_skin_stream) of each skinned primitive; then a small crowd
 * (vs_crowd_run) through the plain job and through prepared crowd streams.
 * Anything the loader accepted must pose and skin without reading outside
 * an array. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_CLIPS = 3, MAX_INSTANCES = 8, MAX_PRIMITIVES = 4 };

/* A prepared stream of the primitive's influences (weight format and raw
 * weights varying with round), run in both orders over two ranges. */
static void stream_primitive(const vs_primitive *prim, const float *matrices,
                             uint32_t joint_count, uint32_t round)
{
    if (!prim->joints || !prim->weights || !prim->influence_count ||
        !prim->vertex_count)
        return;
    vs_skin_stream_desc desc = {.vertex_count = prim->vertex_count,
                                .influence_count = prim->influence_count,
                                .joint_count = joint_count,
                                .joints = prim->joints,
                                .weights = prim->weights,
                                .flags = (round & 1) ? VS_SKIN_RAW_WEIGHTS : 0,
                                .weight_format = (round & 2)
                                                     ? VS_SKIN_WEIGHTS_FLOAT
                                                     : VS_SKIN_WEIGHTS_UNORM16};
    vs_skin_stream *stream = NULL;
    vs_error error;
    if (vs_skin_stream_create(&desc, &stream, &error) != VS_OK) return;
    const size_t n = prim->vertex_count;
    float *out = malloc(n * 6 * sizeof *out);
    if (!out) abort();
    vs_skin_stream_job job = {.stream = stream,
                              .joint_matrices = matrices,
                              .in_positions = prim->positions,
                              .out_positions = out,
                              .in_normals = prim->normals,
                              .out_normals =
                                  prim->normals ? out + n * 3 : NULL};
    const size_t cut = n / 3;
    for (uint32_t order = 0; order < 2; ++order) {
        job.order = order;
        job.first_vertex = 0;
        job.vertex_count = cut;
        vs_skin_stream_job_run(&job, &error);
        job.first_vertex = cut;
        job.vertex_count = n - cut;
        vs_skin_stream_job_run(&job, &error);
    }
    free(out);
    vs_skin_stream_free(stream);
}

static void skin_everything(vs_pose *pose, const vs_asset *asset,
                            uint32_t round)
{
    vs_error error;
    vs_pose_update_world(pose);
    for (uint32_t s = 0; s < asset->skin_count; ++s) {
        uint32_t n = asset->skins[s].joint_count;
        float *joints = malloc((n ? n : 1) * 16 * sizeof *joints);
        if (!joints) abort();
        vs_pose_joint_matrices(pose, s, -1, joints, &error);
        vs_pose_joint_matrices(pose, s, asset->skins[s].skeleton, joints,
                               &error);
        free(joints);
    }
    for (uint32_t i = 0; i < asset->instance_count && i < MAX_INSTANCES; ++i) {
        uint32_t node = asset->instances[i];
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count && p < MAX_PRIMITIVES;
             ++p) {
            /* Alternate spaces and methods so both blends see hostile input. */
            vs_pose_mesh_options options = {0, (vs_skin_space)(p & 1),
                                            (p & 2) ? VS_SKIN_DUAL_QUATERNION
                                                    : VS_SKIN_LINEAR};
            vs_posed_primitive posed;
            memset(&posed, 0, sizeof posed);
            if (vs_pose_mesh_primitive(pose, node, p, &options, &posed,
                                       &error) == VS_OK)
                vs_posed_primitive_free(&posed);
        }
        const int32_t skin = asset->nodes[node].skin;
        if (skin < 0) continue;
        const uint32_t count = asset->skins[skin].joint_count;
        float *matrices = malloc((count ? count : 1) * 16 * sizeof *matrices);
        if (!matrices) abort();
        if (vs_pose_joint_matrices(pose, (uint32_t)skin, -1, matrices,
                                   &error) == VS_OK)
            for (uint32_t p = 0;
                 p < mesh->primitive_count && p < MAX_PRIMITIVES; ++p)
                stream_primitive(&mesh->primitives[p], matrices, count,
                                 round + p);
        free(matrices);
    }
}

/* Two instances of the asset (clip 0 at two times, or the rest pose), once
 * through the plain job and once through prepared streams (weight format
 * and raw weights varying with round); the streams may refuse the asset. */
static void crowd_everything(const vs_asset *asset, uint32_t round)
{
    enum { INSTANCES = 2 };
    uint32_t slots = 0;
    size_t floats = 0;
    vs_error error;
    if (vs_crowd_layout(asset, true, NULL, 0, &slots, &floats, &error) !=
            VS_OK ||
        !slots || floats > ((size_t)1 << 22))
        return;
    const vs_crowd_streams_desc desc = {
        .asset = asset,
        .normals = true,
        .flags = (round & 1) ? VS_SKIN_RAW_WEIGHTS : 0,
        .weight_format =
            (round & 2) ? VS_SKIN_WEIGHTS_FLOAT : VS_SKIN_WEIGHTS_UNORM16};
    vs_crowd_streams *streams = NULL;
    vs_crowd_streams_create(&desc, &streams, &error);
    vs_crowd_instance inst[INSTANCES];
    memset(inst, 0, sizeof inst);
    float *out = malloc(INSTANCES * floats * sizeof *out);
    if (!out) abort();
    bool ready = true;
    for (uint32_t i = 0; i < INSTANCES; ++i) {
        inst[i].clip = asset->clip_count ? 0 : -1;
        inst[i].time = 0.7f * (float)i;
        inst[i].time_mode = VS_TIME_LOOP;
        inst[i].placement[0] = inst[i].placement[5] = inst[i].placement[10] =
            inst[i].placement[15] = 1.0f;
        inst[i].placement[12] = (float)i;
        inst[i].output = out + i * floats;
        ready &= vs_pose_create(asset, &inst[i].pose, &error) == VS_OK;
    }
    vs_crowd_job job = {.asset = asset,
                        .instance_count = INSTANCES,
                        .instances = inst,
                        .normals = true,
                        .flags = desc.flags};
    if (ready) {
        vs_crowd_run(NULL, &job, &error);
        job.streams = streams;
        if (streams) vs_crowd_run(NULL, &job, &error);
    }
    for (uint32_t i = 0; i < INSTANCES; ++i)
        vs_pose_free(inst[i].pose);
    free(out);
    vs_crowd_streams_free(streams);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vs_asset *asset = fuzz_load(data, size);
    if (!asset) return 0;
    vs_pose *pose = NULL;
    vs_error error;
    if (vs_pose_create(asset, &pose, &error) != VS_OK) {
        vs_asset_free(asset);
        return 0;
    }
    skin_everything(pose, asset, 0); /* rest pose */
    for (uint32_t c = 0; c < asset->clip_count && c < MAX_CLIPS; ++c) {
        const vs_clip *clip = &asset->clips[c];
        const float times[] = {clip->start - 1.0f, clip->start,
                               0.5f * (clip->start + clip->end), clip->end,
                               clip->end + 0.25f};
        for (size_t t = 0; t < sizeof times / sizeof times[0]; ++t) {
            vs_pose_reset(pose);
            vs_time_mode mode = (t & 1) ? VS_TIME_LOOP : VS_TIME_CLAMP;
            if (vs_pose_sample(pose, c, times[t], mode, &error) == VS_OK)
                skin_everything(pose, asset, c + (uint32_t)t);
        }
    }
    vs_pose_free(pose);
    crowd_everything(asset, (uint32_t)size);
    vs_asset_free(asset);
    return 0;
}
