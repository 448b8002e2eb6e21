/* libFuzzer harness for the whole path, not just parsing: load (any format),
 * then for a few clips and times sample a pose, update world matrices, build
 * every skin's joint matrices (world and skeleton space) and skin every
 * primitive of every mesh instance. Anything the loader accepted must pose
 * and skin without reading outside an array. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_CLIPS = 3, MAX_INSTANCES = 8, MAX_PRIMITIVES = 4 };

static void skin_everything(vs_pose *pose, const vs_asset *asset)
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
            vs_pose_mesh_options options = {
                0, (vs_skin_space)(p & 1),
                (p & 2) ? VS_SKIN_DUAL_QUATERNION : VS_SKIN_LINEAR};
            vs_posed_primitive posed;
            memset(&posed, 0, sizeof posed);
            if (vs_pose_mesh_primitive(pose, node, p, &options, &posed,
                                       &error) == VS_OK)
                vs_posed_primitive_free(&posed);
        }
    }
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
    skin_everything(pose, asset); /* rest pose */
    for (uint32_t c = 0; c < asset->clip_count && c < MAX_CLIPS; ++c) {
        const vs_clip *clip = &asset->clips[c];
        const float times[] = {clip->start - 1.0f, clip->start,
                               0.5f * (clip->start + clip->end), clip->end,
                               clip->end + 0.25f};
        for (size_t t = 0; t < sizeof times / sizeof times[0]; ++t) {
            vs_pose_reset(pose);
            vs_time_mode mode = (t & 1) ? VS_TIME_LOOP : VS_TIME_CLAMP;
            if (vs_pose_sample(pose, c, times[t], mode, &error) == VS_OK)
                skin_everything(pose, asset);
        }
    }
    vs_pose_free(pose);
    vs_asset_free(asset);
    return 0;
}
