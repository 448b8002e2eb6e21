/* SPDX-License-Identifier: MIT */
/*
 * load_collada: load a COLLADA .dae and show what its skins became in the
 * runtime model: the joints (resolved from <Name_array> sids or
 * <IDREF_array> ids to nodes), the skeleton root, the file's up axis and
 * unit, and how the <bind_shape_matrix> is handled: it is kept per skin and
 * folded into every joint matrix (J = G(joint) * IBM * BSM), so the vertex
 * data stays exactly as in the file and the same skinning job serves COLLADA
 * and glTF.
 *
 *   example_load_collada FILE.dae
 *
 * Converting the model to glTF 2.0 is convert_collada.c's job
 * (vs_write_gltf in vskin_tools.h, or `vskin convert FILE.dae -o out.glb`):
 * glTF 2.0 has no bind shape matrix, so the converter folds it into the
 * inverse bind matrices, IBM' = IBM * BSM, which gives the same joint
 * matrices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <vskin/vskin.h>

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
    fprintf(stderr, "load_collada: %s: %s (%s)\n", what, err->message,
            vs_result_string(err->code));
    return 1;
}

/* out = a * b, column-major 4x4 (m[col * 4 + row]) as everywhere in vskin. */
static void mat4_mul(const float a[16], const float b[16], float out[16])
{
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            float sum = 0.0f;
            for (int k = 0; k < 4; ++k)
                sum += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = sum;
        }
}

static void mat4_point(const float m[16], const float p[3], float out[3])
{
    for (int r = 0; r < 3; ++r)
        out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

/* Largest element difference, relative to the size of b's element (COLLADA
 * files are often in centimetres, so translations can be large). */
static float mat4_max_diff(const float a[16], const float b[16])
{
    float d = 0.0f;
    for (int i = 0; i < 16; ++i)
        d = maxf(d, absf(a[i] - b[i]) / maxf(1.0f, absf(b[i])));
    return d;
}

static void print_matrix(const char *indent, const float m[16])
{
    /* Printed row by row, as the file writes it, from column-major storage. */
    for (int r = 0; r < 4; ++r)
        printf("%s[%8.4f %8.4f %8.4f %8.4f]\n", indent, m[r], m[4 + r],
               m[8 + r], m[12 + r]);
}

static const char *axis_name(vs_up_axis up)
{
    return up == VS_UP_Z ? "Z" : up == VS_UP_X ? "X" : "Y";
}

/* The mesh instance that the skin deforms (first one found), or -1. */
static int32_t skinned_node(const vs_asset *asset, uint32_t skin)
{
    for (uint32_t i = 0; i < asset->instance_count; ++i) {
        uint32_t node = asset->instances[i];
        if (asset->nodes[node].skin == (int32_t)skin) return (int32_t)node;
    }
    return -1;
}

/* Shows on one skin that the joint matrices carry the bind shape matrix. */
static int show_bind_shape(const vs_asset *asset, const vs_pose *pose,
                           uint32_t s)
{
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0,
                                       0, 0, 1, 0, 0, 0, 0, 1};
    const vs_skin *skin = &asset->skins[s];
    vs_error err;

    bool is_identity = mat4_max_diff(skin->bind_shape_matrix, identity) == 0;
    printf("  bind shape matrix%s:\n", is_identity ? " (identity)" : "");
    print_matrix("    ", skin->bind_shape_matrix);

    float *joints = malloc(sizeof(float) * 16 * skin->joint_count);
    if (!joints) {
        fprintf(stderr, "load_collada: out of memory\n");
        return 1;
    }
    if (vs_pose_joint_matrices(pose, s, -1, joints, &err) != VS_OK) {
        free(joints);
        return fail("vs_pose_joint_matrices", &err);
    }

    /* J_j = G(joint_j) * IBM_j * BSM, rebuilt by hand from public data. In
     * the bind pose G * IBM is the identity, so J is the BSM alone: the
     * skinned mesh is the file's mesh placed by the BSM. */
    float worst = 0.0f, bind_vs_rest = 0.0f;
    for (uint32_t j = 0; j < skin->joint_count; ++j) {
        float g_ibm[16], expected[16];
        /* A skin without inverse bind matrices has a NULL array: each one
         * is then the identity. */
        const float *ibm = skin->inverse_bind_matrices
                               ? &skin->inverse_bind_matrices[16 * j]
                               : identity;
        mat4_mul(vs_pose_world(pose, skin->joints[j]), ibm, g_ibm);
        mat4_mul(g_ibm, skin->bind_shape_matrix, expected);
        worst = maxf(worst, mat4_max_diff(expected, &joints[16 * j]));
        bind_vs_rest = maxf(bind_vs_rest, mat4_max_diff(g_ibm, identity));
    }
    free(joints);
    printf("  joint matrices = G * IBM * BSM: largest relative difference %g\n",
           (double)worst);
    printf("  rest pose %s the bind pose (largest |G * IBM - I| %g)\n",
           bind_vs_rest < 1e-4f ? "is" : "is not", (double)bind_vs_rest);
    if (worst > 1e-4f) {
        fprintf(stderr, "load_collada: joint matrices do not match\n");
        return 1;
    }

    int32_t node = skinned_node(asset, s);
    const vs_mesh *mesh =
        node >= 0 ? &asset->meshes[asset->nodes[node].mesh] : NULL;
    if (!mesh || mesh->primitive_count == 0 ||
        mesh->primitives[0].vertex_count == 0)
        return 0;
    /* First vertex: as stored in the file, moved by the BSM alone, and
     * skinned in the rest pose. */
    const vs_primitive *prim = &mesh->primitives[0];
    vs_posed_primitive posed;
    if (vs_pose_mesh_primitive(pose, (uint32_t)node, 0, NULL, &posed, &err) !=
        VS_OK)
        return fail("vs_pose_mesh_primitive", &err);
    float by_bsm[3];
    mat4_point(skin->bind_shape_matrix, prim->positions, by_bsm);
    printf("  node \"%s\", vertex 0:\n", asset->nodes[node].name);
    printf("    in the file        (%9.4f, %9.4f, %9.4f)\n", prim->positions[0],
           prim->positions[1], prim->positions[2]);
    printf("    BSM * position     (%9.4f, %9.4f, %9.4f)\n", by_bsm[0],
           by_bsm[1], by_bsm[2]);
    printf("    skinned, rest pose (%9.4f, %9.4f, %9.4f)\n", posed.positions[0],
           posed.positions[1], posed.positions[2]);
    vs_posed_primitive_free(&posed);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.dae\n", argv[0]);
        return 2;
    }
    vs_error err;
    vs_asset *asset;
    /* The format is detected from the content, not the file name. */
    if (vs_asset_load_file(argv[1], NULL, &asset, &err) != VS_OK)
        return fail("load", &err);
    if (asset->format != VS_FORMAT_COLLADA)
        printf("note: %s is not COLLADA; showing its skins anyway\n", argv[1]);

    /* COLLADA keeps its own axes and units: vskin reports them and leaves
     * positions as they are, so the caller decides whether to convert. */
    printf("%s: authoring tool \"%s\", %s up, 1 unit = %g m\n",
           asset->source_name, asset->generator, axis_name(asset->up_axis),
           (double)asset->unit_meters);
    printf("%u nodes, %u meshes, %u skins, %u clips\n", asset->node_count,
           asset->mesh_count, asset->skin_count, asset->clip_count);

    vs_pose *pose;
    if (vs_pose_create(asset, &pose, &err) != VS_OK) {
        vs_asset_free(asset);
        return fail("vs_pose_create", &err);
    }
    vs_pose_reset(pose);
    vs_pose_update_world(pose);

    int status = 0;
    for (uint32_t s = 0; s < asset->skin_count && status == 0; ++s) {
        const vs_skin *skin = &asset->skins[s];
        printf("skin %u \"%s\": %u joints, skeleton root %s\n", s, skin->name,
               skin->joint_count,
               skin->skeleton >= 0 ? asset->nodes[skin->skeleton].name
                                   : "(none)");
        for (uint32_t j = 0; j < skin->joint_count; ++j) {
            const vs_node *n = &asset->nodes[skin->joints[j]];
            /* The file names joints by sid (<Name_array>) or by id
             * (<IDREF_array>); both are kept on the node. */
            printf("  joint %u: node %u \"%s\" id \"%s\" sid \"%s\"\n", j,
                   skin->joints[j], n->name, n->id ? n->id : "",
                   n->sid ? n->sid : "");
        }
        status = show_bind_shape(asset, pose, s);
    }

    vs_pose_free(pose);
    vs_asset_free(asset);
    return status;
}
