/* SPDX-License-Identifier: MIT */
/* Posed meshes: tiny assets built in memory with the loaders' internal
 * builder, posed through the public API, checked against positions worked
 * out by hand. */
#include <stdint.h>

#include "bounds_any.h"
#include "asset/asset_internal.h"
#include "test.h"
#include "vskin/vskin.h"

#define TOL 1e-5

#define CHECK_VEC3(v, x, y, z)                                                 \
    do {                                                                       \
        CHECK_NEAR((v)[0], (x), TOL);                                          \
        CHECK_NEAR((v)[1], (y), TOL);                                          \
        CHECK_NEAR((v)[2], (z), TOL);                                          \
    } while (0)

/* ---------------------------------------------------------------- builder */

static void *alloc(vs_asset *a, size_t count, size_t size)
{
    void *p = vs_priv_asset_calloc(a, count, size, NULL, "test");
    if (!p) abort();
    return p;
}

static float *floats(vs_asset *a, size_t n, const float *values)
{
    float *f = alloc(a, n, sizeof *f);
    memcpy(f, values, n * sizeof *f);
    return f;
}

static vs_asset *new_asset(uint32_t node_count)
{
    vs_asset *a = vs_priv_asset_create("test.gltf", NULL);
    if (!a) abort();
    vs_node *nodes = alloc(a, node_count, sizeof *nodes);
    for (uint32_t i = 0; i < node_count; ++i) {
        nodes[i].name = "";
        nodes[i].mesh = -1;
        nodes[i].skin = -1;
        nodes[i].rest_trs.rotation[3] = 1.0f;
        for (int k = 0; k < 3; ++k)
            nodes[i].rest_trs.scale[k] = 1.0f;
    }
    a->format = VS_FORMAT_GLTF2;
    a->nodes = nodes;
    a->node_count = node_count;
    return a;
}

static vs_node *node(vs_asset *a, uint32_t i)
{
    return (vs_node *)&a->nodes[i];
}

static void set_child(vs_asset *a, uint32_t parent, uint32_t child)
{
    uint32_t *c = alloc(a, 1, sizeof *c);
    c[0] = child;
    node(a, parent)->children = c;
    node(a, parent)->child_count = 1;
}

static void set_translation(vs_asset *a, uint32_t i, float x, float y, float z)
{
    float *t = node(a, i)->rest_trs.translation;
    t[0] = x;
    t[1] = y;
    t[2] = z;
}

/* One mesh with one primitive; returns the primitive to fill in. */
static vs_primitive *add_mesh(vs_asset *a, uint32_t vertex_count,
                              const float *positions, const float *normals)
{
    vs_mesh *mesh = alloc(a, 1, sizeof *mesh);
    vs_primitive *prim = alloc(a, 1, sizeof *prim);
    prim->mode = VS_MODE_TRIANGLES;
    prim->material = -1;
    prim->vertex_count = vertex_count;
    prim->positions = floats(a, vertex_count * 3, positions);
    if (normals) prim->normals = floats(a, vertex_count * 3, normals);
    mesh->name = "";
    mesh->primitives = prim;
    mesh->primitive_count = 1;
    a->meshes = mesh;
    a->mesh_count = 1;
    return prim;
}

static void finalize(vs_asset *a)
{
    vs_error err = {0};
    if (vs_priv_asset_finalize(a, &err) != VS_OK) {
        fprintf(stderr, "builder: %s\n", err.message);
        abort();
    }
}

static vs_pose *new_pose(const vs_asset *a)
{
    vs_pose *pose = NULL;
    if (vs_pose_create(a, &pose, NULL) != VS_OK) abort();
    vs_pose_update_world(pose);
    return pose;
}

/* ---------------------------------------------------- a two-joint strip */

/* Like the glTF tutorial's SimpleSkin, on a 2 x 3 grid: node 0 holds the
 * mesh and skin (translated by (100,50,0), which skinning must ignore), node
 * 1 is the root joint at the origin, node 2 its child at (0,1,0) rotated +90
 * degrees about z. Rows y=0 follow joint 0, y=1 half each, y=2 joint 1.
 * IBMs: identity and translate(0,-1,0). Vertex 4 has a morph target delta
 * of (1,0,0) with node weight 1. */
static vs_asset *strip_asset(void)
{
    vs_asset *a = new_asset(3);
    set_translation(a, 0, 100, 50, 0);
    set_child(a, 1, 2);
    set_translation(a, 2, 0, 1, 0);
    const float h = (float)sqrt(0.5);
    node(a, 2)->rest_trs.rotation[2] = h;
    node(a, 2)->rest_trs.rotation[3] = h;

    const float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0, 1, 2, 0};
    const float nrm[] = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0};
    vs_primitive *prim = add_mesh(a, 6, pos, nrm);
    uint16_t *joints = alloc(a, 6 * 4, sizeof *joints);
    const float w[] = {1,    0,    0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0,
                       0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 1,    0,    0, 0};
    for (int v = 2; v < 4; ++v)
        joints[v * 4 + 1] = 1;
    for (int v = 4; v < 6; ++v)
        joints[v * 4] = 1;
    prim->influence_count = 4;
    prim->joints = joints;
    prim->weights = floats(a, 6 * 4, w);
    vs_morph_target *target = alloc(a, 1, sizeof *target);
    float delta[18] = {0};
    delta[4 * 3] = 1.0f;
    target->positions = floats(a, 18, delta);
    prim->targets = target;
    prim->target_count = 1;
    const float one = 1.0f;
    node(a, 0)->weights = floats(a, 1, &one);
    node(a, 0)->weight_count = 1;

    vs_skin *skin = alloc(a, 1, sizeof *skin);
    uint32_t *sj = alloc(a, 2, sizeof *sj);
    sj[0] = 1;
    sj[1] = 2;
    const float ibm[32] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,
                           1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    skin->name = "";
    skin->joint_count = 2;
    skin->joints = sj;
    skin->inverse_bind_matrices = floats(a, 32, ibm);
    skin->skeleton = 1;
    for (int i = 0; i < 16; ++i)
        skin->bind_shape_matrix[i] = i % 5 ? 0.0f : 1.0f;
    a->skins = skin;
    a->skin_count = 1;
    node(a, 0)->mesh = 0;
    node(a, 0)->skin = 0;
    finalize(a);
    return a;
}

static void skinned_strip_by_hand(void)
{
    vs_asset *a = strip_asset();
    vs_pose *pose = new_pose(a);
    vs_posed_primitive out;
    vs_error err = {0};
    CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &out, &err) == VS_OK);
    CHECK(out.vertex_count == 6);
    CHECK(out.normals != NULL && out.tangents == NULL);
    if (out.positions && out.normals) {
        /* J0 = I; J1 = T(0,1,0) Rz90 T(0,-1,0): p -> Rz90(p - y) + y, with
         * Rz90 (x,y,z) = (-y,x,z). The node's (100,50,0) appears nowhere
         * (glTF 2.0 §3.7.3.3). */
        CHECK_VEC3(out.positions + 0, 0, 0, 0);
        CHECK_VEC3(out.positions + 3, 1, 0, 0);
        CHECK_VEC3(out.positions + 6, 0, 1, 0);     /* both joints agree */
        CHECK_VEC3(out.positions + 9, 0.5, 1.5, 0); /* (1,1) and (0,2) */
        /* vertex 4 is (0,2,0) + target (1,0,0) before skinning: J1 (1,2,0) */
        CHECK_VEC3(out.positions + 12, -1, 2, 0);
        CHECK_VEC3(out.positions + 15, -1, 2, 0); /* J1 (1,2,0) */
        CHECK_VEC3(out.normals + 0, 1, 0, 0);
        /* 0.5 (I + Rz90) is a 45 degree rotation scaled by 1/sqrt(2) */
        CHECK_VEC3(out.normals + 9, sqrt(0.5), sqrt(0.5), 0);
        CHECK_VEC3(out.normals + 15, 0, 1, 0);
    }
    vs_posed_primitive_free(&out);
    CHECK(out.positions == NULL && out.vertex_count == 0);

    /* The posed mesh follows the pose, not the rest: straighten joint 1. */
    vs_trs straight = {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    vs_pose_set_local(pose, 2, &straight);
    vs_pose_update_world(pose);
    CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &out, &err) == VS_OK);
    if (out.positions) {
        CHECK_VEC3(out.positions + 9, 1, 1, 0);
        CHECK_VEC3(out.positions + 12, 1, 2, 0);
    }
    vs_posed_primitive_free(&out);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void morph_weights_node_and_mesh(void)
{
    /* Two rigid instances of one mesh: node 0 uses mesh.weights (0.5, 0.25),
     * node 1 has its own weights (1, 0). */
    vs_asset *a = new_asset(2);
    const float pos[] = {0, 0, 0, 1, 0, 0};
    const float nrm[] = {0, 0, 1, 0, 0, 1};
    vs_primitive *prim = add_mesh(a, 2, pos, nrm);
    const float tan[] = {1, 0, 0, -1, 1, 0, 0, 1};
    prim->tangents = floats(a, 8, tan);
    vs_morph_target *t = alloc(a, 2, sizeof *t);
    const float d0[] = {1, 0, 0, 1, 0, 0}, t0[] = {0, 1, 0, 0, 1, 0};
    const float d1[] = {0, 2, 0, 0, 4, 0}, n1[] = {1, 0, 0, 1, 0, 0};
    t[0].positions = floats(a, 6, d0);
    t[0].tangents = floats(a, 6, t0);
    t[1].positions = floats(a, 6, d1);
    t[1].normals = floats(a, 6, n1);
    prim->targets = t;
    prim->target_count = 2;
    const float mw[] = {0.5f, 0.25f}, nw[] = {1, 0};
    vs_mesh *mesh = (vs_mesh *)&a->meshes[0];
    mesh->weights = floats(a, 2, mw);
    mesh->weight_count = 2;
    node(a, 0)->mesh = 0;
    node(a, 1)->mesh = 0;
    node(a, 1)->weights = floats(a, 2, nw);
    node(a, 1)->weight_count = 2;
    finalize(a);
    vs_pose *pose = new_pose(a);

    vs_posed_primitive out;
    CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &out, NULL) == VS_OK);
    if (out.positions && out.normals && out.tangents) {
        /* base + 0.5 * d0 + 0.25 * d1 */
        CHECK_VEC3(out.positions + 0, 0.5, 0.5, 0);
        CHECK_VEC3(out.positions + 3, 1.5, 1.0, 0);
        /* (0,0,1) + 0.25 (1,0,0), normalized */
        CHECK_VEC3(out.normals, 0.25 / sqrt(1.0625), 0, 1 / sqrt(1.0625));
        /* (1,0,0) + 0.5 (0,1,0), normalized; w kept */
        CHECK_VEC3(out.tangents, 1 / sqrt(1.25), 0.5 / sqrt(1.25), 0);
        CHECK_NEAR(out.tangents[3], -1, 0);
        CHECK_NEAR(out.tangents[7], 1, 0);
    }
    vs_posed_primitive_free(&out);
    CHECK(vs_pose_mesh_primitive(pose, 1, 0, NULL, &out, NULL) == VS_OK);
    if (out.positions) {
        CHECK_VEC3(out.positions + 0, 1, 0, 0);
        CHECK_VEC3(out.positions + 3, 2, 0, 0);
        CHECK_VEC3(out.normals, 0, 0, 1);
    }
    vs_posed_primitive_free(&out);
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* Node 0 translated (0,0,5) is the parent of node 1 at (1,0,0) scaled
 * (2,1,1), which holds an unskinned mesh. */
static vs_asset *rigid_asset(void)
{
    vs_asset *a = new_asset(2);
    set_translation(a, 0, 0, 0, 5);
    set_child(a, 0, 1);
    set_translation(a, 1, 1, 0, 0);
    node(a, 1)->rest_trs.scale[0] = 2.0f;
    const float s = (float)sqrt(0.5);
    const float pos[] = {1, 1, 0, -1, -2, 3};
    const float nrm[] = {s, s, 0, 0, 0, -1};
    add_mesh(a, 2, pos, nrm);
    node(a, 1)->mesh = 0;
    finalize(a);
    return a;
}

static void rigid_mesh_under_translated_parent(void)
{
    vs_asset *a = rigid_asset();
    vs_pose *pose = new_pose(a);
    vs_posed_primitive out;
    CHECK(vs_pose_mesh_primitive(pose, 1, 0, NULL, &out, NULL) == VS_OK);
    if (out.positions && out.normals) {
        /* T(0,0,5) T(1,0,0) S(2,1,1) */
        CHECK_VEC3(out.positions + 0, 3, 1, 5);
        CHECK_VEC3(out.positions + 3, -1, -2, 8);
        /* inverse-transpose of S(2,1,1): (1,1,0) -> (1,2,0) / sqrt(5) */
        CHECK_VEC3(out.normals + 0, 1 / sqrt(5.0), 2 / sqrt(5.0), 0);
        CHECK_VEC3(out.normals + 3, 0, 0, -1);
    }
    vs_posed_primitive_free(&out);
    /* VS_SKIN_NORMALS_BY_MATRIX: S(2,1,1) itself, (1,1,0) -> (2,1,0). */
    const vs_pose_mesh_options by_matrix = {.skin_flags =
                                                VS_SKIN_NORMALS_BY_MATRIX};
    CHECK(vs_pose_mesh_primitive(pose, 1, 0, &by_matrix, &out, NULL) == VS_OK);
    if (out.normals) {
        CHECK_VEC3(out.normals + 0, 2 / sqrt(5.0), 1 / sqrt(5.0), 0);
        CHECK_VEC3(out.normals + 3, 0, 0, -1);
    }
    vs_posed_primitive_free(&out);

    float lo[3], hi[3];
    CHECK(bounds_any(pose, NULL, lo, hi));
    CHECK_VEC3(lo, -1, -2, 5);
    CHECK_VEC3(hi, 3, 1, 8);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void bounds_of_posed_strip(void)
{
    vs_asset *a = strip_asset();
    vs_pose *pose = new_pose(a);
    float lo[3], hi[3];
    CHECK(bounds_any(pose, NULL, lo, hi));
    /* posed vertices from skinned_strip_by_hand */
    CHECK_VEC3(lo, -1, 0, 0);
    CHECK_VEC3(hi, 1, 2, 0);
    vs_pose_free(pose);
    vs_asset_free(a);

    vs_asset *empty = new_asset(1);
    finalize(empty);
    pose = new_pose(empty);
    CHECK(!bounds_any(pose, NULL, lo, hi));
    CHECK(!bounds_any(NULL, NULL, lo, hi));
    vs_pose_free(pose);
    vs_asset_free(empty);
}

static void bad_arguments(void)
{
    vs_asset *a = rigid_asset();
    vs_pose *pose = new_pose(a);
    vs_posed_primitive out;
    vs_error err = {0};
    CHECK(vs_pose_mesh_primitive(pose, 2, 0, NULL, &out, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK_MSG(strstr(err.message, "test.gltf: nodes[2]") != NULL, "%s",
              err.message);
    CHECK(out.positions == NULL && out.vertex_count == 0);
    CHECK(vs_pose_mesh_primitive(pose, 0, 0, NULL, &out, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK_MSG(strstr(err.message, "no mesh") != NULL, "%s", err.message);
    CHECK(vs_pose_mesh_primitive(pose, 1, 1, NULL, &out, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK_MSG(strstr(err.message, "meshes[0].primitives[1]") != NULL, "%s",
              err.message);
    CHECK(vs_pose_mesh_primitive(NULL, 1, 0, NULL, &out, NULL) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_pose_mesh_primitive(pose, 1, 0, NULL, NULL, NULL) ==
          VS_ERROR_ARGUMENT);
    /* Dual quaternions refuse the normals flag, rigid meshes included. */
    const vs_pose_mesh_options dq = {.skin_flags = VS_SKIN_NORMALS_BY_MATRIX,
                                     .method = VS_SKIN_DUAL_QUATERNION};
    CHECK(vs_pose_mesh_primitive(pose, 1, 0, &dq, &out, &err) ==
          VS_ERROR_ARGUMENT);
    CHECK_MSG(strstr(err.message, "VS_SKIN_NORMALS_BY_MATRIX") != NULL, "%s",
              err.message);
    vs_posed_primitive_free(NULL);
    vs_pose_free(pose);
    vs_asset_free(a);
}

int main(void)
{
    RUN(skinned_strip_by_hand);
    RUN(morph_weights_node_and_mesh);
    RUN(rigid_mesh_under_translated_parent);
    RUN(bounds_of_posed_strip);
    RUN(bad_arguments);
    return test_summary();
}
