/* SPDX-License-Identifier: MIT */
/* GPU skinning read back with transform feedback against the CPU path
 * (vs_pose_mesh_primitive) for every mesh instance of a pose, with one
 * upload path, weight rule and skinning method. Tolerances: positions 1e-5
 * of the model size, normals 1e-4. */
#ifndef VS_TESTS_RENDER_GPU_CPU_COMPARE_H
#define VS_TESTS_RENDER_GPU_CPU_COMPARE_H

#include "bounds_any.h"
#include "render_support.h"

typedef struct gpu_cpu_stats {
    int compared;          /* primitives with vertices */
    double worst_position; /* relative to the model size */
    double worst_normal;
} gpu_cpu_stats;

static inline float model_size(const vs_pose *pose)
{
    float lo[3], hi[3];
    if (!bounds_any(pose, NULL, lo, hi)) return 1.0f;
    float d = sqrtf((hi[0] - lo[0]) * (hi[0] - lo[0]) +
                    (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                    (hi[2] - lo[2]) * (hi[2] - lo[2]));
    return d > 0.0f ? d : 1.0f;
}

static inline void compare_gpu_cpu(vs_renderer *r, const vs_pose *pose,
                                   const char *name, float t,
                                   vs_upload_path path, uint32_t flags,
                                   vs_skin_method method, gpu_cpu_stats *st)
{
    const vs_asset *a = vs_pose_asset(pose);
    float size = model_size(pose);
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        const vs_mesh *mesh = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_error e = {0};
            vs_posed_primitive cpu = {0};
            vs_pose_mesh_options opts = {.skin_flags = flags, .method = method};
            CHECK_MSG(vs_pose_mesh_primitive(pose, node, p, &opts, &cpu, &e) ==
                          VS_OK,
                      "%s: %s", name, e.message);
            uint32_t n = cpu.vertex_count;
            float *gpu = malloc(((size_t)n * 6 + 1) * sizeof(float));
            vs_result res = vs_renderer_capture_skinned_method(
                r, pose, node, p, path, flags, method, gpu, gpu + (size_t)n * 3,
                &e);
            CHECK_MSG(res == VS_OK, "%s: capture: %s", name, e.message);
            double worst = 0.0, worst_n = 0.0;
            for (size_t k = 0;
                 res == VS_OK && cpu.positions && k < (size_t)n * 3; ++k)
                worst = fmax(worst, fabs(gpu[k] - cpu.positions[k]));
            for (size_t k = 0; res == VS_OK && cpu.normals && k < (size_t)n * 3;
                 ++k)
                worst_n = fmax(worst_n, fabs(gpu[n * 3 + k] - cpu.normals[k]));
            st->worst_position = fmax(st->worst_position, worst / size);
            st->worst_normal = fmax(st->worst_normal, worst_n);
            CHECK_MSG(worst <= 1e-5 * size,
                      "%s node %u prim %u t=%g path %d method %d: position "
                      "off by %g (model size %g)",
                      name, node, p, (double)t, (int)path, (int)method, worst,
                      (double)size);
            CHECK_MSG(worst_n <= 1e-4,
                      "%s node %u prim %u t=%g method %d: normal off by %g",
                      name, node, p, (double)t, (int)method, worst_n);
            st->compared += n > 0;
            free(gpu);
            vs_posed_primitive_free(&cpu);
        }
    }
}

#endif
