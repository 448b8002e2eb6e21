/* SPDX-License-Identifier: MIT */
/* A program that uses vskin as a project outside it would: the installed
 * headers and library found through pkg-config, find_package or
 * add_subdirectory (scripts/test-consumers.sh). It loads the embedded
 * SimpleSkin, poses it, skins it with a job and checks a bent vertex. It
 * also defines functions whose names vskin uses inside (read_file,
 * set_error, json_object): linked statically, vskin must neither call these
 * nor clash with them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vskin/vskin.h>

int read_file(const char *path);
int set_error(int code);
int json_object(void);

int read_file(const char *path)
{
    fprintf(stderr, "consumer: vskin called the program's read_file(%s)\n",
            path);
    abort();
}

int set_error(int code)
{
    fprintf(stderr, "consumer: vskin called the program's set_error(%d)\n",
            code);
    abort();
}

int json_object(void)
{
    fprintf(stderr, "consumer: vskin called the program's json_object\n");
    abort();
}

int main(void)
{
    if (strcmp(vs_version(), VS_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: library %s, header %s\n", vs_version(),
                VS_VERSION_STRING);
        return 1;
    }
    size_t size = 0;
    const void *data = vs_default_asset_data(&size);
    vs_error err;
    vs_asset *asset = NULL;
    vs_pose *pose = NULL;
    if (vs_asset_load_memory(data, size, "SimpleSkin.gltf", NULL, &asset,
                             &err) != VS_OK ||
        vs_pose_create(asset, &pose, &err) != VS_OK ||
        vs_pose_sample(pose, 0, 1.0f, VS_TIME_CLAMP, &err) != VS_OK) {
        fprintf(stderr, "consumer: %s\n", err.message);
        return 1;
    }
    vs_pose_update_world(pose);
    const vs_primitive *prim = &asset->meshes[0].primitives[0];
    const uint32_t node = asset->instances[0];
    const uint32_t skin_index = (uint32_t)asset->nodes[node].skin;
    const vs_skin *skin = &asset->skins[skin_index];
    float *joints = malloc(skin->joint_count * 16 * sizeof(float));
    float *out = malloc(prim->vertex_count * 3 * sizeof(float));
    int rc = 1;
    if (joints && out &&
        vs_pose_joint_matrices(pose, skin_index, -1, joints, &err) == VS_OK) {
        vs_skinning_job job = {.vertex_count = prim->vertex_count,
                               .influence_count = prim->influence_count,
                               .joint_matrices = joints,
                               .joint_count = skin->joint_count,
                               .joints = prim->joints,
                               .weights = prim->weights,
                               .in_positions = prim->positions,
                               .out_positions = out};
        if (vs_skinning_job_run(&job, &err) == VS_OK) {
            /* The top vertex (9, at (0.5, 2, 0) in the bind pose) leaves
             * its place when the strip bends. */
            const float *p = out + 9 * 3, *b = prim->positions + 9 * 3;
            const float moved = fabsf(p[0] - b[0]) + fabsf(p[1] - b[1]);
            printf("consumer: vskin %s, %u vertices, vertex 9 at %.3f %.3f "
                   "%.3f\n",
                   vs_version(), prim->vertex_count, p[0], p[1], p[2]);
            rc = moved > 0.1f ? 0 : 1;
        }
    }
    if (rc) fprintf(stderr, "consumer: %s\n", err.message);
    free(joints);
    free(out);
    vs_pose_free(pose);
    vs_asset_free(asset);
    return rc;
}
