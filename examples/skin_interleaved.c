/* SPDX-License-Identifier: MIT */
/*
 * skin_interleaved: skin straight into the caller's own interleaved vertex
 * buffer (position, normal, uv in one struct, as a vertex buffer object
 * holds them) with a vs_skinning_job. The job reads and writes every stream
 * through a pointer and a byte stride, so the skinned positions and normals
 * land in place and the uv bytes between them are never touched.
 *
 *   example_skin_interleaved [FILE [TIME]]
 *
 * Without FILE it skins the embedded SimpleSkin. It checks the result
 * against the library's own posed mesh (vs_pose_mesh_primitive).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vskin/vskin.h>

/* The caller's vertex layout: what a renderer would upload as-is. */
typedef struct vertex {
    float pos[3];
    float nrm[3];
    float uv[2];
} vertex;

/* Tiny helpers instead of the maths library, so the example links vskin
 * alone. */
static float absf(float x)
{
    return x < 0.0f ? -x : x;
}
static float maxf(float a, float b)
{
    return a > b ? a : b;
}

static int fail(const char *what, const vs_error *err)
{
    fprintf(stderr, "skin_interleaved: %s: %s (%s)\n", what, err->message,
            vs_result_string(err->code));
    return 1;
}

/* The first mesh instance with a skin and a primitive with influences. */
static bool find_skinned(const vs_asset *asset, uint32_t *out_node,
                         uint32_t *out_primitive)
{
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        if (asset->nodes[node].skin < 0) continue;
        const vs_mesh *mesh = &asset->meshes[asset->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            if (mesh->primitives[p].influence_count > 0 &&
                mesh->primitives[p].vertex_count > 0) {
                *out_node = node;
                *out_primitive = p;
                return true;
            }
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    float time = 1.0f;
    if (argc > 2) {
        char *end;
        time = strtof(argv[2], &end);
        if (end == argv[2] || *end != '\0') {
            fprintf(stderr, "skin_interleaved: TIME \"%s\" is not a number\n",
                    argv[2]);
            return 2;
        }
    }

    vs_error err;
    vs_asset *asset = NULL;
    vs_result r;
    if (argc > 1) {
        r = vs_asset_load_file(argv[1], NULL, &asset, &err);
    } else {
        size_t size;
        const void *data = vs_default_asset_data(&size);
        r = vs_asset_load_memory(data, size, "SimpleSkin.gltf (embedded)", NULL,
                                 &asset, &err);
    }
    if (r != VS_OK) return fail("load", &err);

    int status = 1;
    vs_pose *pose = NULL;
    float *joint_matrices = NULL;
    vertex *vertices = NULL;
    vs_posed_primitive check = {0};

    uint32_t node, prim_index;
    if (!find_skinned(asset, &node, &prim_index)) {
        fprintf(stderr, "skin_interleaved: %s has no skinned primitive\n",
                asset->source_name);
        goto done;
    }
    const vs_skin *skin = &asset->skins[asset->nodes[node].skin];
    const vs_primitive *prim =
        &asset->meshes[asset->nodes[node].mesh].primitives[prim_index];

    /* Pose the character: first clip at `time`, or the rest pose. */
    if (vs_pose_create(asset, &pose, &err) != VS_OK) {
        fail("vs_pose_create", &err);
        goto done;
    }
    vs_pose_reset(pose);
    if (asset->clip_count > 0 &&
        vs_pose_sample(pose, 0, time, VS_TIME_LOOP, &err) != VS_OK) {
        fail("vs_pose_sample", &err);
        goto done;
    }
    vs_pose_update_world(pose);

    /* One 4x4 per joint. relative_to = -1 gives world-space matrices, which
     * already hold the skinned node's placement (glTF ignores the mesh
     * node's own transform for skinned meshes). */
    joint_matrices = malloc(sizeof(float) * 16 * skin->joint_count);
    vertices = calloc(prim->vertex_count, sizeof *vertices);
    if (!joint_matrices || !vertices) {
        fprintf(stderr, "skin_interleaved: out of memory\n");
        goto done;
    }
    if (vs_pose_joint_matrices(pose, (uint32_t)asset->nodes[node].skin, -1,
                               joint_matrices, &err) != VS_OK) {
        fail("vs_pose_joint_matrices", &err);
        goto done;
    }

    /* The caller fills what skinning does not change (here the uvs) once,
     * typically at upload time. */
    for (uint32_t v = 0; v < prim->vertex_count; ++v) {
        vertices[v].uv[0] = prim->texcoords ? prim->texcoords[2 * v] : 0.0f;
        vertices[v].uv[1] = prim->texcoords ? prim->texcoords[2 * v + 1] : 0.0f;
    }

    /* Strides are in bytes. The inputs are the asset's packed bind-pose
     * arrays (written out here; 0 would mean the same, "tightly packed");
     * the outputs step over whole `vertex` structs, starting at the field
     * each one fills. */
    vs_skinning_job job = {
        .vertex_count = prim->vertex_count,
        .influence_count = prim->influence_count,
        .joint_matrices = joint_matrices,
        .joint_count = skin->joint_count,
        .joints = prim->joints,
        .joints_stride = prim->influence_count * sizeof(uint16_t),
        .weights = prim->weights,
        .weights_stride = prim->influence_count * sizeof(float),
        .in_positions = prim->positions,
        .in_positions_stride = 3 * sizeof(float),
        .out_positions = vertices[0].pos,
        .out_positions_stride = sizeof(vertex),
    };
    /* Normals are optional on both sides: the job skips them when the
     * input is NULL (SimpleSkin has none; the nrm fields then stay 0). */
    if (prim->normals) {
        job.in_normals = prim->normals;
        job.in_normals_stride = 3 * sizeof(float);
        job.out_normals = vertices[0].nrm;
        job.out_normals_stride = sizeof(vertex);
    }
    printf("skinning %u vertices of node %u \"%s\", %u influences, %u joints\n",
           prim->vertex_count, node, asset->nodes[node].name,
           prim->influence_count, skin->joint_count);
    printf("  joints  stride %zu bytes, weights stride %zu bytes\n",
           job.joints_stride, job.weights_stride);
    printf("  in  positions stride %zu, out positions stride %zu "
           "(offset %zu)\n",
           job.in_positions_stride, job.out_positions_stride,
           offsetof(vertex, pos));
    if (job.out_normals)
        printf("  in  normals   stride %zu, out normals   stride %zu "
               "(offset %zu)\n",
               job.in_normals_stride, job.out_normals_stride,
               offsetof(vertex, nrm));

    /* The job allocates nothing and may run on any thread; validating first
     * is optional (run validates too) but gives a clear message early. */
    if (vs_skinning_job_validate(&job, &err) != VS_OK ||
        vs_skinning_job_run(&job, &err) != VS_OK) {
        fail("vs_skinning_job", &err);
        goto done;
    }

    /* Check: the library's posed mesh runs the same formula into its own
     * packed arrays. Morph targets are applied there but not by a bare job,
     * so only morph-free primitives are compared. */
    if (vs_pose_mesh_primitive(pose, node, prim_index, NULL, &check, &err) !=
        VS_OK) {
        fail("vs_pose_mesh_primitive", &err);
        goto done;
    }
    /* Different kernels may round differently: allow float noise relative
     * to the size of each value. */
    float max_error = 0.0f;
    bool uv_intact = true;
    for (uint32_t v = 0; v < prim->vertex_count; ++v) {
        for (uint32_t k = 0; k < 3; ++k) {
            float ref = check.positions[3 * v + k];
            float e = absf(vertices[v].pos[k] - ref) / maxf(1.0f, absf(ref));
            max_error = maxf(max_error, e);
            if (job.out_normals && check.normals) {
                ref = check.normals[3 * v + k];
                e = absf(vertices[v].nrm[k] - ref);
                max_error = maxf(max_error, e);
            }
        }
        float u = prim->texcoords ? prim->texcoords[2 * v] : 0.0f;
        float w = prim->texcoords ? prim->texcoords[2 * v + 1] : 0.0f;
        if (vertices[v].uv[0] != u || vertices[v].uv[1] != w) uv_intact = false;
    }
    for (uint32_t v = 0; v < prim->vertex_count && v < 3; ++v)
        printf("  vertex %u: pos (%.4f, %.4f, %.4f) nrm (%.3f, %.3f, %.3f) "
               "uv (%.3f, %.3f)\n",
               v, vertices[v].pos[0], vertices[v].pos[1], vertices[v].pos[2],
               vertices[v].nrm[0], vertices[v].nrm[1], vertices[v].nrm[2],
               vertices[v].uv[0], vertices[v].uv[1]);
    printf("uvs untouched by the job: %s\n", uv_intact ? "yes" : "NO");
    bool same = true;
    if (prim->target_count == 0) {
        same = max_error <= 1e-4f;
        printf("matches vs_pose_mesh_primitive: %s (largest relative "
               "difference %g)\n",
               same ? "yes" : "NO", (double)max_error);
    } else {
        printf("morph targets present: comparison skipped\n");
    }
    if (uv_intact && same)
        status = 0;
    else
        fprintf(stderr, "skin_interleaved: check failed\n");

done:
    vs_posed_primitive_free(&check);
    free(vertices);
    free(joint_matrices);
    vs_pose_free(pose);
    vs_asset_free(asset);
    return status;
}
