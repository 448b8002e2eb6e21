/* SPDX-License-Identifier: MIT */
/* COLLADA loader on small hand-written files (tests/data/collada): polygon
 * triangulation and de-indexing, texcoord accessors, materials, transform
 * stacks, <instance_node>, several instances on one node, joints by sid
 * (Name_array) and by id (IDREF_array) under <skeleton> roots, more than 4
 * influences and the bind-shape joint -1. Expected values are worked out by
 * hand in the comments. */
#include <stdint.h>

#include "test_collada_fixture.h"

static void check_vec(const float *got, double x, double y, double z)
{
    CHECK_NEAR(got[0], x, 1e-5);
    CHECK_NEAR(got[1], y, 1e-5);
    CHECK_NEAR(got[2], z, 1e-5);
}

static void polylist_quads_become_fans(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "polylist_quads.dae");
    if (!a) return;
    CHECK(a->up_axis == VS_UP_Z);
    const vs_primitive *p = &a->meshes[0].primitives[0];
    /* A quad (2 triangles) and a triangle. Corners (position, normal):
     * (0,0)(1,0)(2,0)(3,0) and (1,1)(4,1)(2,1): 7 distinct tuples. */
    CHECK(p->index_count == 9 && p->vertex_count == 7);
    static const uint32_t idx[9] = {0, 1, 2, 0, 2, 3, 4, 5, 6};
    static const uint32_t src[7] = {0, 1, 2, 3, 1, 4, 2};
    for (int i = 0; i < 9 && p->index_count == 9; ++i)
        CHECK(p->indices[i] == idx[i]);
    for (int i = 0; i < 7 && p->vertex_count == 7; ++i)
        CHECK(p->source_vertex[i] == src[i]);
    if (p->vertex_count == 7) {
        check_vec(p->positions + 3 * 5, 2, 0, 0);
        check_vec(p->normals + 3 * 0, 0, 0, 1);
        check_vec(p->normals + 3 * 4, 0, 0, -1);
    }
    CHECK(p->texcoords == NULL);
    vs_asset_free(a);
}

static void strips_and_fans(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "strips_fans.dae");
    if (!a) return;
    /* Three primitives in document order, the <lines> between. Strip
     * 0 1 2 3 -> (0,1,2) (2,1,3); fans 0 1 3 2 -> (0,1,3) (0,3,2) and
     * 3 2 1 -> (3,2,1). Output vertices follow first use, so indices map
     * through source_vertex. */
    CHECK(a->meshes[0].primitive_count == 3);
    static const uint32_t strip[6] = {0, 1, 2, 2, 1, 3};
    static const uint32_t fans[9] = {0, 1, 3, 0, 3, 2, 3, 2, 1};
    const vs_primitive *p = &a->meshes[0].primitives[0];
    CHECK(p->index_count == 6 && p->vertex_count == 4);
    for (int i = 0; i < 6 && p->index_count == 6; ++i)
        CHECK(p->source_vertex[p->indices[i]] == strip[i]);
    CHECK(p->mode == VS_MODE_TRIANGLES);
    p = &a->meshes[0].primitives[a->meshes[0].primitive_count - 1];
    CHECK(p->mode == VS_MODE_TRIANGLES);
    CHECK(p->index_count == 9 && p->vertex_count == 4);
    for (int i = 0; i < 9 && p->index_count == 9; ++i)
        CHECK(p->source_vertex[p->indices[i]] == fans[i]);
    vs_asset_free(a);
}

static void polygons_texcoords_and_material(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "polygons.dae");
    if (!a) return;
    const vs_primitive *p = &a->meshes[0].primitives[0];
    /* Pentagon (3 triangles) + quad (2): 15 indices; 7 distinct tuples. */
    CHECK(p->index_count == 15 && p->vertex_count == 7);
    static const uint32_t idx[15] = {0, 1, 2, 0, 2, 3, 0, 3,
                                     4, 0, 1, 5, 0, 5, 6};
    for (int i = 0; i < 15 && p->index_count == 15; ++i)
        CHECK(p->indices[i] == idx[i]);
    /* UV accessor: offset 1, stride 3 (S T P): uv0 = (0.25, 0.75),
     * uv1 = (1, 0); V flipped to glTF: (0.25, 0.25) and (1, 1). */
    if (p->texcoords && p->vertex_count == 7) {
        CHECK_NEAR(p->texcoords[0], 0.25, 1e-6);
        CHECK_NEAR(p->texcoords[1], 0.25, 1e-6);
        CHECK_NEAR(p->texcoords[2], 1.0, 1e-6);
        CHECK_NEAR(p->texcoords[3], 1.0, 1e-6);
        check_vec(p->positions + 3 * 6, 0, 0, 1); /* fifth corner: pos 5 */
    }
    CHECK(p->texcoords != NULL);
    CHECK(a->material_count == 1 && p->material == 0);
    if (a->material_count == 1) {
        CHECK(strcmp(a->materials[0].name, "Red") == 0);
        CHECK_NEAR(a->materials[0].base_color[0], 0.8, 1e-6);
        CHECK_NEAR(a->materials[0].base_color[2], 0.2, 1e-6);
        CHECK_NEAR(a->materials[0].base_color[3], 1.0, 1e-6);
    }
    vs_asset_free(a);
}

static void transform_stack_world_positions(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "transform_stack.dae");
    if (!a) return;
    CHECK(a->up_axis == VS_UP_X);
    CHECK_NEAR(a->unit_meters, 0.5, 0);
    CHECK(strcmp(a->generator, "hand") == 0);
    int32_t n = collada_node(a, "n");
    /* parent, stacked, and stacked's second instance_geometry as a child. */
    CHECK(a->node_count == 3 && n == 1);
    if (n != 1 || a->node_count != 3) {
        vs_asset_free(a);
        return;
    }
    CHECK(strcmp(a->nodes[n].sid, "stacked_sid") == 0);
    CHECK(a->nodes[2].parent == n &&
          strcmp(a->nodes[2].name, "stacked#1") == 0);
    CHECK(a->nodes[2].id == NULL && a->nodes[2].mesh >= 0);
    CHECK(a->instance_count == 2);
    /* rest TRS: T(1,2,3), R = 90 deg about z, S = 2. */
    const vs_trs *t = &a->nodes[n].rest_trs;
    check_vec(t->translation, 1, 2, 3);
    check_vec(t->scale, 2, 2, 2);
    CHECK_NEAR(t->rotation[2], sqrt(0.5), 1e-6);
    CHECK_NEAR(t->rotation[3], sqrt(0.5), 1e-6);
    /* World = T(10,0,0) T(1,2,3) Rz(90) S(2):
     * (1,0,0) -> (2,0,0) -> (0,2,0) -> (11,4,3)
     * (0,1,0) -> (0,2,0) -> (-2,0,0) -> (9,2,3)
     * (0,0,1) -> (0,0,2) -> (11,2,5). */
    vs_pose *pose = NULL;
    if (vs_pose_create(a, &pose, NULL) != VS_OK) return;
    vs_pose_update_world(pose);
    for (uint32_t node = 1; node <= 2; ++node) {
        vs_posed_primitive out;
        if (!collada_posed(pose, node, 0, &out)) continue;
        check_vec(out.positions + 0, 11, 4, 3);
        check_vec(out.positions + 3, 9, 2, 3);
        check_vec(out.positions + 6, 11, 2, 5);
        vs_posed_primitive_free(&out);
    }
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void instance_node_copies_subtrees(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "instance_node.dae");
    if (!a) return;
    /* a, part, part_mesh, b, part, part_mesh in pre-order. */
    CHECK(a->node_count == 6 && a->instance_count == 2);
    if (a->node_count != 6 || a->instance_count != 2) {
        vs_asset_free(a);
        return;
    }
    CHECK(strcmp(a->nodes[1].name, "part") == 0 && a->nodes[1].parent == 0);
    CHECK(strcmp(a->nodes[4].name, "part") == 0 && a->nodes[4].parent == 3);
    CHECK(a->instances[0] == 2 && a->instances[1] == 5);
    vs_pose *pose = NULL;
    if (vs_pose_create(a, &pose, NULL) != VS_OK) return;
    vs_pose_update_world(pose);
    vs_posed_primitive out;
    /* T(+-5,0,0) T(0,0,1): vertex (1,0,0) lands at (6,0,1) and (-4,0,1). */
    if (collada_posed(pose, 2, 0, &out)) {
        check_vec(out.positions + 3, 6, 0, 1);
        vs_posed_primitive_free(&out);
    }
    if (collada_posed(pose, 5, 0, &out)) {
        check_vec(out.positions + 3, -4, 0, 1);
        vs_posed_primitive_free(&out);
    }
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* Weights of the output vertex whose source position is `src`. */
static int32_t vertex_of(const vs_primitive *p, uint32_t src)
{
    for (uint32_t v = 0; v < p->vertex_count; ++v)
        if (p->source_vertex[v] == src) return (int32_t)v;
    return -1;
}

static void name_array_sids_and_bind_shape_joint(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "name_array_sid.dae");
    if (!a) return;
    int32_t j0 = collada_node(a, "j0"), j1 = collada_node(a, "j1");
    int32_t mesh = collada_node(a, "mesh");
    CHECK(a->skin_count == 1 && mesh >= 0 && a->nodes[mesh].skin == 0);
    if (a->skin_count != 1 || mesh < 0) {
        vs_asset_free(a);
        return;
    }
    const vs_skin *s = &a->skins[0];
    /* "b1" is the decoy's name but j1's sid: the sid wins. Joint -1 adds the
     * mesh node as a third joint with IBM = inverse rest world T(0,-5,0). */
    CHECK(s->joint_count == 3);
    CHECK(s->joints[0] == (uint32_t)j0 && s->joints[1] == (uint32_t)j1);
    CHECK(s->joints[2] == (uint32_t)mesh);
    CHECK_NEAR(s->inverse_bind_matrices[2 * 16 + 13], -5.0, 0);
    CHECK(s->skeleton == -1);
    CHECK_NEAR(s->bind_shape_matrix[14], 2.0, 0);
    const vs_primitive *p = &a->meshes[a->nodes[mesh].mesh].primitives[0];
    CHECK(p->influence_count == 8 && p->vertex_count == 4);
    int32_t v2 = vertex_of(p, 2), v3 = vertex_of(p, 3);
    if (p->influence_count == 8 && v2 >= 0 && v3 >= 0) {
        for (int k = 0; k < 5; ++k) {
            CHECK(p->joints[8 * v2 + k] == 1);
            CHECK_NEAR(p->weights[8 * v2 + k], 0.2, 1e-7);
        }
        CHECK_NEAR(p->weights[8 * v2 + 5], 0.0, 0);
        CHECK(p->joints[8 * v3] == 2 && p->joints[8 * v3 + 1] == 1);
        CHECK_NEAR(p->weights[8 * v3], 0.5, 0);
    }
    vs_pose *pose = NULL;
    if (vs_pose_create(a, &pose, NULL) != VS_OK) return;
    /* Rest pose = bind pose: BSM * v = v + (0,0,2), whatever the mesh
     * node's own translate. */
    vs_pose_reset(pose);
    vs_pose_update_world(pose);
    vs_posed_primitive out;
    if (collada_posed(pose, (uint32_t)mesh, 0, &out)) {
        for (uint32_t v = 0; v < out.vertex_count; ++v)
            check_vec(out.positions + 3 * v, p->positions[3 * v],
                      p->positions[3 * v + 1], p->positions[3 * v + 2] + 2);
        vs_posed_primitive_free(&out);
    }
    /* Lift j1 by 1 in z and move the mesh node by 1 in x: position 2 (all
     * b1) -> (2,0,3); position 3 (half bind shape, half b1) ->
     * (3,0,2) + 0.5 (0,0,1) + 0.5 (1,0,0) = (3.5,0,2.5). */
    vs_trs t = a->nodes[j1].rest_trs;
    t.translation[2] = 1;
    vs_pose_set_local(pose, (uint32_t)j1, &t);
    t = a->nodes[mesh].rest_trs;
    t.translation[0] = 1;
    vs_pose_set_local(pose, (uint32_t)mesh, &t);
    vs_pose_update_world(pose);
    if (collada_posed(pose, (uint32_t)mesh, 0, &out)) {
        if (v2 >= 0) check_vec(out.positions + 3 * v2, 2, 0, 3);
        if (v3 >= 0) check_vec(out.positions + 3 * v3, 3.5, 0, 2.5);
        vs_posed_primitive_free(&out);
    }
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void idref_joints_and_skeleton_scopes(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "idref_skeleton.dae");
    if (!a) return;
    int32_t hip = collada_node(a, "hip"), knee = collada_node(a, "knee");
    int32_t b = collada_node(a, "B");
    int32_t ma = collada_node(a, "meshA"), mb = collada_node(a, "meshB");
    CHECK(a->skin_count == 2 && ma >= 0 && mb >= 0);
    if (a->skin_count != 2 || ma < 0 || mb < 0 || b < 0) {
        vs_asset_free(a);
        return;
    }
    const vs_skin *sa = &a->skins[a->nodes[ma].skin];
    const vs_skin *sb = &a->skins[a->nodes[mb].skin];
    CHECK(sa->joint_count == 2 && sa->joints[0] == (uint32_t)hip &&
          sa->joints[1] == (uint32_t)knee);
    CHECK(sa->skeleton == hip); /* the first of two <skeleton> roots */
    CHECK(sa->inverse_bind_matrices == NULL);
    /* skinB's sids resolve inside B's copy of the rig, not at "hip". */
    CHECK(sb->skeleton == b && sb->joint_count == 2);
    if (sb->joint_count == 2) {
        CHECK(a->nodes[sb->joints[0]].parent == b);
        CHECK(a->nodes[sb->joints[1]].parent == (int32_t)sb->joints[0]);
        CHECK(strcmp(a->nodes[sb->joints[1]].name, "rig_knee") == 0);
    }
    vs_asset_free(a);
}

int main(void)
{
    RUN(polylist_quads_become_fans);
    RUN(strips_and_fans);
    RUN(polygons_texcoords_and_material);
    RUN(transform_stack_world_positions);
    RUN(instance_node_copies_subtrees);
    RUN(name_array_sids_and_bind_shape_joint);
    RUN(idref_joints_and_skeleton_scopes);
    return test_summary();
}
