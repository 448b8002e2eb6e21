/* SPDX-License-Identifier: MIT */
/* vs_pose_joint_matrices: J = R^-1 * G(joint) * IBM * BSM, world space and
 * relative to a node, checked on a hand-built 3-node skeleton. */
#include "test.h"

#include "asset/skin_facts.h"
#include "base/affine.h"
#include "base/affine_avx2.h"
#include "base/affine_avx512.h"
#include "base/cpu_avx2.h"
#include "base/cpu_avx512.h"
#include "pose/asset_fixture.h"
#include "vskin/vskin.h"

/* node 0 (mesh node) T(0,0,5) -> node 1 T(1,0,0) -> node 2 T(0,1,0).
 * Rest worlds: T(0,0,5), T(1,0,5), T(1,1,5).
 * skins[0]: joints (1, 2), IBMs the inverse rest worlds T(-1,0,-5) and
 *           T(-1,-1,-5), so every joint matrix is I at rest.
 * skins[1]: joint (2), no IBMs, bind shape matrix S(2). */
static vs_asset *unfinished_skeleton_asset(void)
{
    vs_asset *a = fx_asset(3);
    fx_child(a, 0, 1);
    fx_child(a, 1, 2);
    fx_translate(a, 0, 0, 0, 5);
    fx_translate(a, 1, 1, 0, 0);
    fx_translate(a, 2, 0, 1, 0);
    vs_skin *skins = vs_priv_asset_calloc(a, 2, sizeof *skins, NULL, "skins");
    uint32_t *joints = vs_priv_asset_calloc(a, 3, sizeof *joints, NULL, "joints");
    float *ibm = vs_priv_asset_calloc(a, 32, sizeof *ibm, NULL, "ibm");
    if (!skins || !joints || !ibm) abort();
    joints[0] = 1;
    joints[1] = 2;
    joints[2] = 2;
    xform_identity(ibm);
    xform_identity(ibm + 16);
    ibm[12] = -1, ibm[13] = 0, ibm[14] = -5;
    ibm[28] = -1, ibm[29] = -1, ibm[30] = -5;
    skins[0] = (vs_skin){.name = "",
                         .joint_count = 2,
                         .joints = joints,
                         .inverse_bind_matrices = ibm,
                         .skeleton = -1};
    xform_identity(skins[0].bind_shape_matrix);
    skins[1] = (vs_skin){
        .name = "", .joint_count = 1, .joints = joints + 2, .skeleton = -1};
    xform_identity(skins[1].bind_shape_matrix);
    skins[1].bind_shape_matrix[0] = 2;
    skins[1].bind_shape_matrix[5] = 2;
    skins[1].bind_shape_matrix[10] = 2;
    a->skins = skins;
    a->skin_count = 2;
    return a;
}

static vs_asset *skeleton_asset(void)
{
    vs_asset *a = unfinished_skeleton_asset();
    fx_finalize(a);
    return a;
}

static void apply(const float *m, float x, float y, float z, float out[3])
{
    xform_transform_point(m, (float[3]){x, y, z}, out);
}

static void rest_pose_gives_identity_in_world_space(void)
{
    vs_asset *a = skeleton_asset();
    vs_pose *pose = NULL;
    vs_error err;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    float j[32];
    CHECK(vs_pose_joint_matrices(pose, 0, -1, j, &err) == VS_OK);
    CHECK(xform_is_identity(j, 1e-6f));
    CHECK(xform_is_identity(j + 16, 1e-6f));
    /* Relative to the mesh node: R^-1 = T(0,0,-5) for both joints. */
    CHECK(vs_pose_joint_matrices(pose, 0, 0, j, &err) == VS_OK);
    const float back[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -5, 1};
    check_matrix_near(j, back, 1e-6, "J0 relative");
    check_matrix_near(j + 16, back, 1e-6, "J1 relative");
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* Node 2 turns 90 degrees about z around its origin (1,1,5). The bind
 * point (2,1,5) is (1,0,0) from the joint, turns to (0,1,0): (1,2,5).
 * Relative to node 0 that is (1,2,0). Joint 0 (node 1) is still I. */
static void posed_joint_moves_points_world_and_relative(void)
{
    vs_asset *a = skeleton_asset();
    vs_pose *pose = NULL;
    vs_error err;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    vs_trs t = a->nodes[2].rest_trs;
    float h = (float)sqrt(0.5);
    memcpy(t.rotation, (float[4]){0, 0, h, h}, sizeof t.rotation);
    vs_pose_set_local(pose, 2, &t);
    vs_pose_update_world(pose);
    float j[32], p[3];
    CHECK(vs_pose_joint_matrices(pose, 0, -1, j, &err) == VS_OK);
    CHECK(xform_is_identity(j, 1e-6f));
    apply(j + 16, 2, 1, 5, p);
    CHECK_NEAR(p[0], 1, 1e-6);
    CHECK_NEAR(p[1], 2, 1e-6);
    CHECK_NEAR(p[2], 5, 1e-6);
    CHECK(vs_pose_joint_matrices(pose, 0, 0, j, &err) == VS_OK);
    apply(j + 16, 2, 1, 5, p);
    CHECK_NEAR(p[0], 1, 1e-6);
    CHECK_NEAR(p[1], 2, 1e-6);
    CHECK_NEAR(p[2], 0, 1e-6);
    /* skins[1]: no IBM (identity), BSM = S(2) applied first:
     * G(node 2) S(2) (1,0,0) = Rz90 (2,0,0) + (1,1,5) = (1,3,5). */
    CHECK(vs_pose_joint_matrices(pose, 1, -1, j, &err) == VS_OK);
    apply(j, 1, 0, 0, p);
    CHECK_NEAR(p[0], 1, 1e-6);
    CHECK_NEAR(p[1], 3, 1e-6);
    CHECK_NEAR(p[2], 5, 1e-6);
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* A projective node.matrix above the joints (COLLADA may hold one): the
 * joint matrices are still G * IBM, last row included (the per-call
 * shortcut for affine IBMs keeps G's last row); and with a projective IBM
 * too. */
/* J of every joint of skins[0] against xform_mul(G, IBM). */
static void check_general_products(const vs_pose *pose, const char *what)
{
    const vs_asset *a = vs_pose_asset(pose);
    float j[32], want[16];
    vs_error err;
    CHECK(vs_pose_joint_matrices(pose, 0, -1, j, &err) == VS_OK);
    for (int k = 0; k < 2; ++k) {
        xform_mul(vs_pose_world(pose, a->skins[0].joints[k]),
                  a->skins[0].inverse_bind_matrices + 16 * k, want);
        check_matrix_near(j + 16 * k, want, 1e-6, what);
    }
    CHECK(j[3] != 0.0f || j[11] != 0.0f); /* the last row came through */
}

/* A root whose rest matrix is projective (COLLADA may hold one): its last
 * row goes through the affine-only product, whose right factor (the IBM)
 * is affine. With a projective IBM as well (loaders refuse them for glTF; a
 * hand-built asset may hold one), the whole call takes the general
 * product: the skin's facts, kept at load (asset/skin_facts.h), say so. */
static void projective_parent_takes_the_general_product(void)
{
    for (int projective_ibm = 0; projective_ibm < 2; ++projective_ibm) {
        vs_asset *a = unfinished_skeleton_asset();
        vs_node *root = (vs_node *)&a->nodes[0];
        xform_identity(root->matrix);
        root->matrix[3] = 0.25f; /* last row (0.25 0 0.5 1) */
        root->matrix[11] = 0.5f;
        root->has_matrix = true;
        if (projective_ibm)
            ((float *)a->skins[0].inverse_bind_matrices)[16 + 7] = 0.125f;
        fx_finalize(a);
        const skin_facts *f0 = skin_facts_for(a, 0), *f1 = skin_facts_for(a, 1);
        CHECK(f0 && f0->ibms_affine == !projective_ibm && f0->bsm_identity);
        CHECK(f1 && f1->ibms_affine && !f1->bsm_identity);
        vs_pose *pose = NULL;
        CHECK(vs_pose_create(a, &pose, NULL) == VS_OK);
        check_general_products(pose, projective_ibm ? "projective IBM"
                                                    : "projective parent");
        vs_pose_free(pose);
        if (!projective_ibm) {
            /* A caller's edited copy of the model, its skins replaced by
             * copies with a projective IBM: the kept facts are not theirs,
             * so the call tests the IBMs itself. */
            vs_asset copy = *a;
            vs_skin skins[2] = {a->skins[0], a->skins[1]};
            float ibm[32];
            memcpy(ibm, a->skins[0].inverse_bind_matrices, sizeof ibm);
            ibm[16 + 7] = 0.125f;
            skins[0].inverse_bind_matrices = ibm;
            copy.skins = skins;
            CHECK(skin_facts_for(&copy, 0) == NULL);
            CHECK(vs_pose_create(&copy, &pose, NULL) == VS_OK);
            check_general_products(pose, "edited copy");
            vs_pose_free(pose);
        }
        vs_asset_free(a);
    }
}

/* Entries for the AVX2 products' test: signed zeros (whose sums show
 * whether -0 survives), small integers (exact products, equal sums that
 * cancel) and random floats of mixed sizes. */
static float odd_entry(uint32_t *seed)
{
    *seed = *seed * 1664525u + 1013904223u;
    const uint32_t r = *seed >> 8;
    switch (r % 6) {
    case 0:
        return 0.0f;
    case 1:
        return -0.0f;
    case 2:
        return (float)((int)(r % 7) - 3);
    default:
        return ((float)(r % 65536) / 32768.0f - 1.0f) * (r % 3 == 0   ? 1e-3f
                                                         : r % 3 == 1 ? 1.0f
                                                                      : 1e3f);
    }
}

/* The AVX2 products (base/affine_avx2.h) give affine_mul's and
 * affine_mul_rows' floats bit for bit: 4x4 from projective and affine left
 * factors, 3x4 stopping at the first left factor that is not affine; so
 * does the AVX-512 4x4 product (base/affine_avx512.h) where the CPU runs
 * it, preferred or not. */
static void simd_products_are_the_baseline_floats(void)
{
    if (!cpu_avx2()) {
        printf("  (no AVX2 on this CPU: nothing to compare)\n");
        return;
    }
    enum { N = 64 };
    static float g[16 * N], ibm[16 * N], rows[12 * N], out[16 * N], want[16];
    uint32_t index[N], seed = 12345u;
    int differing = 0;
    for (int round = 0; round < 50; ++round) {
        for (uint32_t j = 0; j < N; ++j) {
            for (int e = 0; e < 16; ++e) {
                g[16 * j + e] = odd_entry(&seed);
                ibm[16 * j + e] = odd_entry(&seed);
            }
            /* Affine IBMs; the left factors affine but for every 5th
             * (projective, as a COLLADA world may be). */
            ibm[16 * j + 3] = ibm[16 * j + 7] = ibm[16 * j + 11] = 0.0f;
            ibm[16 * j + 15] = 1.0f;
            if ((j + (uint32_t)round) % 5) {
                g[16 * j + 3] = g[16 * j + 7] = g[16 * j + 11] = 0.0f;
                g[16 * j + 15] = 1.0f;
            }
            affine_rows(ibm + 16 * j, rows + 12 * j);
            index[j] = (j * 7u + (uint32_t)round) % N;
        }
        affine_avx2_mul_rows_batch(g, index, rows, N, out);
        for (uint32_t j = 0; j < N; ++j) {
            affine_mul(g + 16 * index[j], ibm + 16 * j, want);
            differing += memcmp(want, out + 16 * j, sizeof want) != 0;
        }
        if (cpu_avx512()) {
            memset(out, 0, sizeof out);
            affine_avx512_mul_rows_batch(g, index, rows, N, out);
            for (uint32_t j = 0; j < N; ++j) {
                affine_mul(g + 16 * index[j], ibm + 16 * j, want);
                differing += memcmp(want, out + 16 * j, sizeof want) != 0;
            }
        }
        uint32_t first_projective = N;
        for (uint32_t j = N; j-- > 0;)
            if (!affine_is_affine(g + 16 * index[j])) first_projective = j;
        CHECK(affine_avx2_mul_rows_3x4_batch(g, index, rows, N, out) ==
              first_projective);
        for (uint32_t j = 0; j < first_projective; ++j) {
            affine_mul_rows(g + 16 * index[j], rows + 12 * j, want);
            differing += memcmp(want, out + 12 * j, 12 * sizeof *want) != 0;
        }
    }
    CHECK_MSG(differing == 0, "%d products differ", differing);
}

static void rejects_invalid_skin_and_node(void)
{
    vs_asset *a = skeleton_asset();
    vs_pose *pose = NULL;
    vs_error err;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    float j[32];
    CHECK(vs_pose_joint_matrices(pose, 2, -1, j, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "skins[2]") != NULL);
    CHECK(vs_pose_joint_matrices(pose, 0, 3, j, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "nodes[3]") != NULL);
    CHECK(vs_pose_joint_matrices(pose, 0, -1, NULL, &err) == VS_ERROR_ARGUMENT);
    /* A node scaled to zero has no inverse to skin relative to. */
    vs_trs t = a->nodes[0].rest_trs;
    t.scale[0] = t.scale[1] = t.scale[2] = 0;
    vs_pose_set_local(pose, 0, &t);
    vs_pose_update_world(pose);
    CHECK(vs_pose_joint_matrices(pose, 0, 0, j, &err) == VS_ERROR_INVALID);
    vs_pose_free(pose);
    vs_asset_free(a);
}

int main(void)
{
    RUN(rest_pose_gives_identity_in_world_space);
    RUN(posed_joint_moves_points_world_and_relative);
    RUN(projective_parent_takes_the_general_product);
    RUN(simd_products_are_the_baseline_floats);
    RUN(rejects_invalid_skin_and_node);
    return test_summary();
}
