/* SPDX-License-Identifier: MIT */
/* vs_pose: rest state, sampling clips into nodes (clamp and loop), morph
 * weights, reset, world matrices and matrix nodes, on in-memory assets. */
#include "test.h"

#include "base/affine.h"
#include "base/cpu_avx2.h"
#include "base/cpu_avx512.h"
#include "base/xform.h"
#include "pose/asset_fixture.h"
#include "pose/local_batch.h"
#include "pose/world_pass.h"
#include "vskin/vskin.h"

static vs_pose *make_pose(const vs_asset *a)
{
    vs_pose *pose = NULL;
    vs_error err;
    if (vs_pose_create(a, &pose, &err) != VS_OK) {
        fprintf(stderr, "vs_pose_create: %s\n", err.message);
        abort();
    }
    return pose;
}

static const float *world_translation(const vs_pose *pose, uint32_t node)
{
    return vs_pose_world(pose, node) + 12;
}

/* Nodes are numbered child-first (2 -> 1 -> 0 is root -> leaf) so that a
 * walk in index order instead of node_order would read stale parents.
 *   node 2: T(1,0,0)
 *   node 1: T(0,2,0) R(90 deg about z)
 *   node 0: T(1,0,0) S(2,2,2)
 * W2 = T(1,0,0); W1 = T(1,2,0) Rz90; W0 = W1 T(1,0,0) S2 has translation
 * (1,2,0) + Rz90 (1,0,0) = (1,3,0) and axes x -> (0,2,0), y -> (-2,0,0),
 * z -> (0,0,2). */
static vs_asset *chain_asset(void)
{
    vs_asset *a = fx_asset(3);
    fx_child(a, 2, 1);
    fx_child(a, 1, 0);
    fx_translate(a, 2, 1, 0, 0);
    fx_translate(a, 1, 0, 2, 0);
    float h = (float)sqrt(0.5);
    memcpy(fx_node(a, 1)->rest_trs.rotation, (float[4]){0, 0, h, h},
           sizeof(float[4]));
    fx_translate(a, 0, 1, 0, 0);
    for (int k = 0; k < 3; ++k)
        fx_node(a, 0)->rest_trs.scale[k] = 2;
    return a;
}

static void world_matrices_of_chain(void)
{
    vs_asset *a = chain_asset();
    fx_finalize(a);
    vs_pose *pose = make_pose(a);
    const float w2[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1};
    const float w1[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 0, 1};
    const float w0[16] = {0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 3, 0, 1};
    /* vs_pose_create leaves the world matrices at rest already. */
    check_matrix_near(vs_pose_world(pose, 2), w2, 1e-6, "W2");
    check_matrix_near(vs_pose_world(pose, 1), w1, 1e-6, "W1");
    check_matrix_near(vs_pose_world(pose, 0), w0, 1e-6, "W0");
    float rest[16];
    vs_asset_rest_world(a, 0, rest);
    check_matrix_near(vs_pose_world(pose, 0), rest, 1e-6, "rest W0");

    /* Replacing the root's T(1,0,0) by T(0,0,5) moves the leaf from (1,3,0)
     * to (0,3,5); the leaf's own local is unchanged. */
    vs_trs t;
    xform_trs_identity(&t);
    t.translation[2] = 5;
    vs_pose_set_local(pose, 2, &t);
    vs_pose_update_world(pose);
    CHECK_NEAR(world_translation(pose, 0)[0], 0, 1e-6);
    CHECK_NEAR(world_translation(pose, 0)[1], 3, 1e-6);
    CHECK_NEAR(world_translation(pose, 0)[2], 5, 1e-6);
    float local[16];
    vs_pose_get_local(pose, 0, local);
    CHECK_NEAR(local[0], 2, 1e-6);
    CHECK_NEAR(local[12], 1, 1e-6);

    CHECK(vs_pose_world(pose, 3) == NULL);
    CHECK(vs_pose_asset(pose) == a);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static uint32_t rng = 2463534242u;
static uint32_t rnd_bits(void) /* xorshift32 */
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static float rnd(void) /* uniform in [-1, 1) */
{
    return (float)(rnd_bits() >> 8) / 8388608.0f - 1.0f;
}

/* The world matrix of node i as the plain definition gives it: the local
 * matrix (affine_from_trs, or the rest matrix) times the parent's world,
 * by affine_mul where the local matrix is affine. */
static void plain_world(const vs_asset *a, uint32_t i, float out[16])
{
    const vs_node *n = &a->nodes[i];
    float local[16];
    if (n->has_matrix)
        memcpy(local, n->matrix, sizeof local);
    else
        affine_from_trs(&n->rest_trs, local);
    if (n->parent < 0) {
        memcpy(out, local, sizeof local);
        return;
    }
    float pw[16];
    plain_world(a, (uint32_t)n->parent, pw);
    if (affine_is_affine(local))
        affine_mul(pw, local, out);
    else
        xform_mul(pw, local, out);
}

/* A random tree of count nodes (child-first numbering, so index order is
 * not node order): random TRS, non-unit, zero and negative-scale ones
 * among them, and a few rest-matrix nodes with shear. */
static vs_asset *random_tree(uint32_t count, int round)
{
    vs_asset *a = fx_asset(count);
    /* parent[i] > i: node count - 1 is the root of the tree. */
    uint32_t *kids = vs_priv_asset_calloc(a, count, sizeof *kids, NULL, "k");
    uint32_t *first =
        vs_priv_asset_calloc(a, count + 1, sizeof *first, NULL, "k");
    int32_t parent[32];
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t span = count - 1 - i;
        parent[i] = span ? (int32_t)(i + 1 + rnd_bits() % span) : -1;
    }
    uint32_t used = 0;
    for (uint32_t p = 0; p < count; ++p) {
        first[p] = used;
        for (uint32_t i = 0; i < count; ++i)
            if (parent[i] == (int32_t)p) kids[used++] = i;
        fx_node(a, p)->children = kids + first[p];
        fx_node(a, p)->child_count = used - first[p];
    }
    for (uint32_t i = 0; i < count; ++i) {
        vs_node *n = fx_node(a, i);
        for (int k = 0; k < 3; ++k) {
            n->rest_trs.translation[k] = 5.0f * rnd();
            n->rest_trs.scale[k] = 2.0f * rnd();
        }
        for (int k = 0; k < 4; ++k)
            n->rest_trs.rotation[k] = rnd();
        if ((i + (uint32_t)round) % 7 == 3)
            memset(n->rest_trs.rotation, 0, sizeof(float[4]));
        if ((i + (uint32_t)round) % 5 == 4) {
            n->has_matrix = true;
            affine_from_trs(&n->rest_trs, n->matrix);
            n->matrix[4] += 0.5f; /* shear */
        }
    }
    fx_finalize(a);
    return a;
}

/* The world pass converts the TRS locals four nodes at a time
 * (pose/local_batch.h) and multiplies them in node_order: on random trees
 * of 1 to 13 nodes, every world matrix is bit for bit the node by node
 * product. */
static void world_pass_matches_node_by_node_products(void)
{
    int mismatches = 0, trees = 0;
    for (uint32_t count = 1; count <= 13; ++count) {
        for (int round = 0; round < 20; ++round, ++trees) {
            vs_asset *a = random_tree(count, round);
            vs_pose *pose = make_pose(a);
            vs_pose_update_world(pose);
            for (uint32_t i = 0; i < count; ++i) {
                float want[16];
                plain_world(a, i, want);
                if (memcmp(want, vs_pose_world(pose, i), sizeof want) != 0)
                    ++mismatches;
            }
            vs_pose_free(pose);
            vs_asset_free(a);
        }
    }
    CHECK(trees == 260);
    CHECK_MSG(mismatches == 0, "%d world matrices differ", mismatches);
}

/* Each form of the world pass this CPU runs (pose/world_pass.h: the
 * baseline, VEX, AVX-512), called directly whichever the pose would pick,
 * gives the node by node products bit for bit, on random trees of 1 to 30
 * nodes (two groups of the batch and more, every count of a last group). */
static void world_pass_forms_give_the_same_floats(void)
{
    typedef void form_fn(const world_pass_args *);
    form_fn *forms[3] = {world_pass_baseline, NULL, NULL};
    const char *names[3] = {"baseline", "avx", "avx512"};
    if (cpu_avx2()) forms[1] = world_pass_avx;
    if (cpu_avx512()) forms[2] = world_pass_avx512;
    int mismatches[3] = {0, 0, 0}, ran = 0;
    for (uint32_t count = 1; count <= 30; ++count) {
        for (int round = 0; round < 6; ++round) {
            vs_asset *a = random_tree(count, round);
            vs_trs trs[30];
            bool use_matrix[30];
            float *batch = calloc(local_batch_floats(count), sizeof *batch);
            float worlds[16 * 30], want[16];
            for (uint32_t i = 0; i < count; ++i) {
                trs[i] = a->nodes[i].rest_trs;
                use_matrix[i] = a->nodes[i].has_matrix;
            }
            local_batch_run(trs, count, batch);
            const world_pass_args args = {worlds,   batch,         use_matrix,
                                          a->nodes, a->node_order, count};
            for (int f = 0; f < 3; ++f) {
                if (!forms[f]) continue;
                memset(worlds, 0xff, sizeof worlds);
                forms[f](&args);
                ++ran;
                for (uint32_t i = 0; i < count; ++i) {
                    plain_world(a, i, want);
                    mismatches[f] +=
                        memcmp(want, worlds + 16 * i, sizeof want) != 0;
                }
            }
            free(batch);
            vs_asset_free(a);
        }
    }
    CHECK(ran >= 180);
    for (int f = 0; f < 3; ++f)
        CHECK_MSG(mismatches[f] == 0, "%s: %d world matrices differ", names[f],
                  mismatches[f]);
    if (!forms[2]) printf("  (no AVX-512 on this CPU: that form not run)\n");
}

/* The local batch's AVX form (eight nodes per step) gives the SSE2
 * form's floats, and both affine_from_trs's, for 1 to 30 nodes (every
 * count of a last step): random TRS with zero, NaN, infinite and huge
 * quaternions among them, and negative and zero scales. NaN bits are
 * compared too: the forms run the same operations in the same order. */
static void local_batch_forms_give_the_same_floats(void)
{
    int differ_avx = 0, differ_plain = 0, nodes = 0;
    for (uint32_t count = 1; count <= 30; ++count) {
        for (int round = 0; round < 8; ++round) {
            vs_trs trs[30];
            for (uint32_t i = 0; i < count; ++i, ++nodes) {
                for (int k = 0; k < 3; ++k) {
                    trs[i].translation[k] = 100.0f * rnd();
                    trs[i].scale[k] = (i + k) % 9 == 5 ? 0.0f : 3.0f * rnd();
                }
                for (int k = 0; k < 4; ++k)
                    trs[i].rotation[k] = rnd();
                const uint32_t odd = (i * 7 + (uint32_t)round) % 11;
                if (odd == 1) memset(trs[i].rotation, 0, sizeof(float[4]));
                if (odd == 2) trs[i].rotation[1] = NAN;
                if (odd == 3) trs[i].rotation[2] = INFINITY;
                if (odd == 4) trs[i].rotation[3] = 3e19f;
            }
            const size_t floats = local_batch_floats(count);
            float *sse = malloc(floats * sizeof *sse);
            float *avx = malloc(floats * sizeof *avx);
            CHECK(sse && avx);
            if (!sse || !avx) {
                free(sse);
                free(avx);
                return;
            }
            local_batch_run(trs, count, sse);
            if (cpu_avx2()) local_batch_run_avx(trs, count, avx);
            for (uint32_t i = 0; i < count; ++i) {
                float a[16], b[16], plain[16];
                local_batch_matrix(sse, i, a);
                if (cpu_avx2()) {
                    local_batch_matrix(avx, i, b);
                    differ_avx += memcmp(a, b, sizeof a) != 0;
                }
                affine_from_trs(&trs[i], plain);
                bool finite = true;
                for (int e = 0; e < 16; ++e)
                    finite = finite && isfinite(plain[e]);
                if (finite) differ_plain += memcmp(a, plain, sizeof a) != 0;
            }
            free(sse);
            free(avx);
        }
    }
    CHECK(nodes == 8 * 465);
    CHECK_MSG(differ_plain == 0, "%d SSE2 local matrices differ", differ_plain);
    CHECK_MSG(differ_avx == 0, "%d AVX local matrices differ", differ_avx);
    if (!cpu_avx2()) printf("  (no AVX2 on this CPU: that form not run)\n");
}

/* One translation channel on node 0 with keys at t = 2 and 4 (the clip does
 * not start at 0): x goes 0 -> 10. */
static const float move_times[] = {2, 4};
static const float move_values[] = {0, 0, 0, 10, 0, 0};

static vs_asset *moving_asset(void)
{
    vs_asset *a = fx_asset(1);
    vs_anim_sampler s = {VS_INTERP_LINEAR, 2, move_times, 3, move_values};
    fx_clip(a, 1, (uint32_t[]){0}, (vs_anim_path[]){VS_PATH_TRANSLATION}, &s);
    fx_finalize(a);
    return a;
}

static float sample_x(vs_pose *pose, float t, vs_time_mode mode)
{
    vs_error err;
    CHECK(vs_pose_sample(pose, 0, t, mode, &err) == VS_OK);
    vs_pose_update_world(pose);
    return world_translation(pose, 0)[0];
}

static void sample_clamps_and_loops(void)
{
    vs_asset *a = moving_asset();
    CHECK_NEAR(a->clips[0].start, 2, 0);
    CHECK_NEAR(a->clips[0].end, 4, 0);
    vs_pose *pose = make_pose(a);
    CHECK_NEAR(sample_x(pose, 3, VS_TIME_CLAMP), 5, 1e-6);
    CHECK_NEAR(sample_x(pose, 0, VS_TIME_CLAMP), 0, 1e-6);
    CHECK_NEAR(sample_x(pose, 9, VS_TIME_CLAMP), 10, 1e-6);
    /* Loop: 5 -> 3, 1 -> 3, 4 -> 2, -0.5 -> 3.5 */
    CHECK_NEAR(sample_x(pose, 5, VS_TIME_LOOP), 5, 1e-6);
    CHECK_NEAR(sample_x(pose, 1, VS_TIME_LOOP), 5, 1e-6);
    CHECK_NEAR(sample_x(pose, 4, VS_TIME_LOOP), 0, 1e-6);
    CHECK_NEAR(sample_x(pose, -0.5f, VS_TIME_LOOP), 7.5, 1e-5);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void sample_rejects_bad_arguments(void)
{
    vs_asset *a = moving_asset();
    vs_pose *pose = make_pose(a);
    vs_error err;
    CHECK(vs_pose_sample(pose, 1, 0, VS_TIME_CLAMP, &err) == VS_ERROR_ARGUMENT);
    CHECK(strstr(err.message, "animations[1]") != NULL);
    CHECK(vs_pose_sample(pose, 0, NAN, VS_TIME_LOOP, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_pose_sample(pose, 0, INFINITY, VS_TIME_LOOP, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_pose_sample(NULL, 0, 0, VS_TIME_LOOP, &err) == VS_ERROR_ARGUMENT);
    /* A rotation channel fed 3 components is refused before anything is
     * written. */
    ((vs_anim_channel *)a->clips[0].channels)[0].path = VS_PATH_ROTATION;
    CHECK(vs_pose_sample(pose, 0, 3, VS_TIME_CLAMP, &err) == VS_ERROR_INVALID);
    CHECK(strstr(err.message, "animations[0].channels[0]") != NULL);
    vs_pose *none = pose;
    CHECK(vs_pose_create(NULL, &none, &err) == VS_ERROR_ARGUMENT);
    CHECK(none == NULL);
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* Node 0 has a mesh with 2 morph targets and mesh.weights (0.25, 0.5);
 * node 1 uses the same mesh with node.weights (1, 0); node 2 has no mesh.
 * A weights channel on node 0 goes (0, 0) -> (1, 0.5) over 1 s. */
static void morph_weights_default_animate_and_reset(void)
{
    vs_asset *a = fx_asset(3);
    vs_mesh *mesh = vs_priv_asset_calloc(a, 1, sizeof *mesh, NULL, "mesh");
    vs_primitive *prim = vs_priv_asset_calloc(a, 1, sizeof *prim, NULL, "prim");
    vs_morph_target *targets = vs_priv_asset_calloc(a, 2, sizeof *targets, NULL, "t");
    prim->positions = fx_floats(a, 0);
    prim->mode = VS_MODE_TRIANGLES;
    prim->material = -1;
    prim->target_count = 2;
    prim->targets = targets;
    mesh->name = "";
    mesh->primitives = prim;
    mesh->primitive_count = 1;
    mesh->weights = fx_floats(a, 2, 0.25, 0.5);
    mesh->weight_count = 2;
    a->meshes = mesh;
    a->mesh_count = 1;
    fx_node(a, 0)->mesh = 0;
    fx_node(a, 1)->mesh = 0;
    fx_node(a, 1)->weights = fx_floats(a, 2, 1.0, 0.0);
    fx_node(a, 1)->weight_count = 2;
    static const float times[] = {0, 1};
    static const float values[] = {0, 0, 1, 0.5f};
    vs_anim_sampler s = {VS_INTERP_LINEAR, 2, times, 2, values};
    fx_clip(a, 1, (uint32_t[]){0}, (vs_anim_path[]){VS_PATH_WEIGHTS}, &s);
    fx_finalize(a);
    vs_pose *pose = make_pose(a);

    uint32_t n = 9;
    const float *w = vs_pose_morph_weights(pose, 0, &n);
    CHECK(n == 2 && w);
    if (w) CHECK(w[0] == 0.25f && w[1] == 0.5f);
    w = vs_pose_morph_weights(pose, 1, &n);
    CHECK(n == 2 && w);
    if (w) CHECK(w[0] == 1.0f && w[1] == 0.0f);
    CHECK(vs_pose_morph_weights(pose, 2, &n) == NULL && n == 0);

    vs_error err;
    CHECK(vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, &err) == VS_OK);
    w = vs_pose_morph_weights(pose, 0, &n);
    CHECK_NEAR(w[0], 0.5, 1e-6);
    CHECK_NEAR(w[1], 0.25, 1e-6);
    w = vs_pose_morph_weights(pose, 1, &n); /* untouched */
    CHECK(w[0] == 1.0f && w[1] == 0.0f);

    vs_pose_reset(pose);
    w = vs_pose_morph_weights(pose, 0, &n);
    CHECK(w[0] == 0.25f && w[1] == 0.5f);

    /* A weights channel must carry one value per target. A pose checks a
     * clip once (the asset is immutable after load), so the broken asset
     * gets a fresh pose. */
    vs_pose_free(pose);
    ((vs_anim_sampler *)a->clips[0].samplers)[0].components = 3;
    CHECK(vs_pose_create(a, &pose, NULL) == VS_OK);
    CHECK(vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, &err) ==
          VS_ERROR_INVALID);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void reset_restores_rest_and_sample_keeps_other_nodes(void)
{
    vs_asset *a = chain_asset();
    static const float times[] = {0, 1};
    static const float values[] = {0, 0, 0, 1, 1, 1, 3, 1}; /* 2 quats */
    vs_anim_sampler s = {VS_INTERP_STEP, 2, times, 4, values};
    fx_clip(a, 1, (uint32_t[]){2}, (vs_anim_path[]){VS_PATH_ROTATION}, &s);
    fx_finalize(a);
    vs_pose *pose = make_pose(a);
    vs_error err;
    float before[16], after[16];
    vs_pose_get_local(pose, 1, before);
    CHECK(vs_pose_sample(pose, 0, 2, VS_TIME_CLAMP, &err) == VS_OK);
    vs_pose_get_local(pose, 1, after);
    check_matrix_near(after, before, 0, "untargeted node");
    /* STEP after the end holds key 1, normalized: (1,1,3,1)/sqrt(12). */
    vs_pose_get_local(pose, 2, after);
    float rest2[16];
    vs_trs q;
    xform_trs_identity(&q);
    q.translation[0] = 1;
    float r = 1.0f / sqrtf(12.0f);
    memcpy(q.rotation, (float[4]){r, r, 3 * r, r}, sizeof(float[4]));
    xform_from_trs(&q, rest2);
    check_matrix_near(after, rest2, 1e-6, "sampled node");
    vs_pose_reset(pose);
    vs_pose_update_world(pose);
    float rest[16];
    vs_asset_rest_world(a, 0, rest);
    check_matrix_near(vs_pose_world(pose, 0), rest, 1e-6, "after reset");
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* A node.matrix with shear (x' = x + 0.5 y) cannot be written as TRS: it is
 * used as is until an animation targets the node (glTF 2.0 §3.7.2.1), then
 * the node's TRS (the decomposition) drives it. */
static void matrix_node_keeps_shear_until_animated(void)
{
    vs_asset *a = fx_asset(1);
    const float m[16] = {1, 0, 0, 0, 0.5f, 1, 0, 0, 0, 0, 1, 0, 7, 8, 9, 1};
    vs_node *node = fx_node(a, 0);
    node->has_matrix = true;
    memcpy(node->matrix, m, sizeof m);
    xform_decompose(m, &node->rest_trs);
    static const float times[] = {0};
    static const float values[] = {1, 2, 3};
    vs_anim_sampler s = {VS_INTERP_LINEAR, 1, times, 3, values};
    fx_clip(a, 1, (uint32_t[]){0}, (vs_anim_path[]){VS_PATH_TRANSLATION}, &s);
    fx_finalize(a);
    vs_pose *pose = make_pose(a);
    check_matrix_near(vs_pose_world(pose, 0), m, 0, "rest matrix");
    vs_error err;
    CHECK(vs_pose_sample(pose, 0, 0, VS_TIME_CLAMP, &err) == VS_OK);
    vs_pose_update_world(pose);
    const float *w = vs_pose_world(pose, 0);
    float want[16];
    vs_trs trs = node->rest_trs;
    memcpy(trs.translation, values, sizeof values);
    xform_from_trs(&trs, want);
    check_matrix_near(w, want, 1e-6, "animated");
    CHECK_NEAR(w[12], 1, 0);
    CHECK(fabsf(w[4] - 0.5f) > 0.1f); /* the shear is gone */
    vs_pose_reset(pose);
    vs_pose_update_world(pose);
    check_matrix_near(vs_pose_world(pose, 0), m, 0, "reset matrix");
    vs_pose_free(pose);
    vs_asset_free(a);
}

int main(void)
{
    RUN(world_matrices_of_chain);
    RUN(world_pass_matches_node_by_node_products);
    RUN(world_pass_forms_give_the_same_floats);
    RUN(local_batch_forms_give_the_same_floats);
    RUN(sample_clamps_and_loops);
    RUN(sample_rejects_bad_arguments);
    RUN(morph_weights_default_animate_and_reset);
    RUN(reset_restores_rest_and_sample_keeps_other_nodes);
    RUN(matrix_node_keeps_shear_until_animated);
    return test_summary();
}
