/* SPDX-License-Identifier: MIT */
/* COLLADA loader on real exports: the FBX-exported cube (unskinned), the
 * Khronos conformance skins (4 influences; a non-identity bind shape matrix)
 * and Maya's seymour (IDREF joints, <skeleton>, up to 5 influences). Each
 * skinned file is put in its bind pose (joint world = IBM^-1), where
 * skinning must give the bind shape BSM * v. */
#include <stdint.h>

#include "test_collada_fixture.h"

#define CTS VS_SHARED_ASSETS "/collada/cts/"

static void cube_is_an_unskinned_mesh(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "cube.dae");
    if (!a) return;
    CHECK(a->format == VS_FORMAT_COLLADA);
    CHECK(a->up_axis == VS_UP_Y);
    CHECK_NEAR(a->unit_meters, 0.0254, 1e-7);
    CHECK(strcmp(a->generator, "FBX COLLADA exporter") == 0);
    CHECK(a->node_count == 1 && a->mesh_count == 1 && a->skin_count == 0);
    CHECK(a->scene_count == 1 && a->default_scene == 0);
    CHECK(a->instance_count == 1);
    const vs_node *n = &a->nodes[0];
    CHECK(strcmp(n->name, "Box001") == 0 && n->sid &&
          strcmp(n->sid, "Box001") == 0);
    /* <matrix> rows (1 0 0 0)(0 0 1 0)(0 -1 0 0): column-major m[9] = 1,
     * m[6] = -1. */
    CHECK(n->has_matrix);
    CHECK_NEAR(n->matrix[9], 1.0, 0);
    CHECK_NEAR(n->matrix[6], -1.0, 0);
    CHECK_NEAR(n->matrix[5], 0.0, 0);
    const vs_primitive *p = &a->meshes[0].primitives[0];
    CHECK(a->meshes[0].primitive_count == 1);
    /* 12 triangles; every corner has its own normal index: 36 vertices. */
    CHECK(p->mode == VS_MODE_TRIANGLES && p->index_count == 36);
    CHECK(p->vertex_count == 36);
    CHECK(p->influence_count == 0 && p->material == -1);
    CHECK(p->normals && p->texcoords && p->source_vertex);
    /* First corner "0 0 9": position 0, normal 0, UV 9 = (1, 0) -> V flip. */
    CHECK(p->indices[0] == 0 && p->source_vertex[0] == 0);
    CHECK_NEAR(p->positions[0], -0.5, 0);
    CHECK_NEAR(p->positions[1], -0.5, 0);
    CHECK_NEAR(p->positions[2], 0.0, 0);
    CHECK_NEAR(p->normals[2], -1.0, 0);
    CHECK_NEAR(p->texcoords[0], 1.0, 0);
    CHECK_NEAR(p->texcoords[1], 1.0, 0);
    vs_asset_free(a);
}

/* Every vertex of every skinned instance at the bind pose equals BSM * v. */
static double bind_pose_error(const vs_asset *a)
{
    vs_pose *pose = NULL;
    vs_error err;
    double worst = -1.0;
    if (vs_pose_create(a, &pose, &err) != VS_OK) return worst;
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        int32_t skin = a->nodes[node].skin;
        if (skin < 0) continue;
        collada_bind_pose(pose, (uint32_t)skin);
        const float *bsm = a->skins[skin].bind_shape_matrix;
        const vs_mesh *m = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < m->primitive_count; ++p) {
            vs_posed_primitive out;
            if (!collada_posed(pose, node, p, &out)) continue;
            for (uint32_t v = 0; v < out.vertex_count; ++v) {
                float want[3];
                xform_transform_point(bsm, m->primitives[p].positions + 3 * v,
                                      want);
                for (int k = 0; k < 3; ++k) {
                    double d = fabs(out.positions[3 * v + k] - want[k]) /
                               (1.0 + fabs(want[k]));
                    if (d > worst) worst = d;
                }
            }
            vs_posed_primitive_free(&out);
        }
    }
    vs_pose_free(pose);
    return worst;
}

static void non_identity_bind_shape(void)
{
    vs_asset *a =
        collada_load_checked(COLLADA_DATA "bind_shape_non_identity.dae");
    if (!a) return;
    CHECK(a->up_axis == VS_UP_Z);
    CHECK_NEAR(a->unit_meters, 0.01, 1e-7);
    CHECK(a->skin_count == 1 && a->instance_count == 1);
    const vs_skin *s = &a->skins[0];
    CHECK(s->joint_count == 4);
    /* Name_array "bone0..3" are sids: joint1..joint4 (joint5 has none). */
    CHECK(s->joints[0] == (uint32_t)collada_node(a, "joint1"));
    CHECK(s->joints[3] == (uint32_t)collada_node(a, "joint4"));
    CHECK(s->skeleton == collada_node(a, "joint1"));
    /* <bind_shape_matrix> rows (0 0 1 0)(0 1 0 0)(-1 0 0 0) transposed. */
    CHECK_NEAR(s->bind_shape_matrix[8], 1.0, 0);
    CHECK_NEAR(s->bind_shape_matrix[2], -1.0, 0);
    CHECK_NEAR(s->bind_shape_matrix[5], 1.0, 0);
    CHECK_NEAR(s->bind_shape_matrix[0], 0.0, 0);
    /* IBM of bone0: row-major translation 100 in x -> m[12]. */
    CHECK_NEAR(s->inverse_bind_matrices[12], 100.0, 0);
    uint32_t node = a->instances[0];
    const vs_primitive *p = &a->meshes[a->nodes[node].mesh].primitives[0];
    CHECK(p->influence_count == 4 && p->vertex_count == 1071);
    CHECK(p->index_count == 6000); /* 1000 quads, 2 triangles each */
    CHECK(p->material >= 0 &&
          strcmp(a->materials[p->material].name, "lambert1") == 0);
    CHECK_NEAR(a->materials[p->material].base_color[0], 0.5, 0);
    /* Bind pose: (x, y, z) -> (z, y, -x); position 0 is (40, 0, -100). */
    vs_pose *pose = NULL;
    if (vs_pose_create(a, &pose, NULL) != VS_OK) return;
    collada_bind_pose(pose, 0);
    vs_posed_primitive out;
    if (collada_posed(pose, node, 0, &out)) {
        for (uint32_t v = 0; v < out.vertex_count; ++v) {
            const float *in = p->positions + 3 * v;
            CHECK_NEAR(out.positions[3 * v + 0], in[2], 1e-3);
            CHECK_NEAR(out.positions[3 * v + 1], in[1], 1e-3);
            CHECK_NEAR(out.positions[3 * v + 2], -in[0], 1e-3);
            if (p->source_vertex[v] == 0) {
                CHECK_NEAR(out.positions[3 * v + 0], -100.0, 1e-3);
                CHECK_NEAR(out.positions[3 * v + 2], -40.0, 1e-3);
            }
        }
        vs_posed_primitive_free(&out);
    }
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void skin_4_influence(void)
{
    require_shared_assets();
    vs_asset *a =
        collada_load_checked(CTS "skin_4_influence/skin_4_influence.dae");
    if (!a) return;
    CHECK(a->up_axis == VS_UP_Y);
    CHECK_NEAR(a->unit_meters, 0.1, 1e-7);
    CHECK(a->skin_count == 1 && a->skins[0].joint_count == 4);
    CHECK(a->skins[0].joints[0] ==
          (uint32_t)collada_node(a, "ZUpToYUp_joint1"));
    uint32_t node = a->instances[0];
    const vs_primitive *p = &a->meshes[a->nodes[node].mesh].primitives[0];
    CHECK(p->influence_count == 4);
    /* Position 0: <v> "0 0 1 50 2 96 3 128", weight 0 is 0.849472. */
    bool seen = false;
    for (uint32_t v = 0; v < p->vertex_count && !seen; ++v) {
        if (p->source_vertex[v] != 0) continue;
        seen = true;
        for (uint32_t k = 0; k < 4; ++k)
            CHECK(p->joints[4 * v + k] == k);
        CHECK_NEAR(p->weights[4 * v], 0.849472, 1e-7);
    }
    CHECK(seen);
    double err = bind_pose_error(a);
    CHECK_MSG(err >= 0 && err < 1e-4, "bind pose error %g", err);
    vs_asset_free(a);
}

static void seymour(void)
{
    require_shared_assets();
    vs_asset *a =
        collada_load_checked(VS_SHARED_ASSETS "/collada/seymour/seymour.dae");
    if (!a) return;
    CHECK(a->up_axis == VS_UP_Y);
    CHECK_NEAR(a->unit_meters, 0.01, 1e-7);
    CHECK(strncmp(a->generator, "Maya 8.0", 8) == 0);
    CHECK(a->skin_count == 1 && a->instance_count == 1);
    const vs_skin *s = &a->skins[0];
    CHECK(s->joint_count == 19);
    int32_t root = collada_node(a, "root");
    CHECK(root >= 0 && s->skeleton == root && s->joints[0] == (uint32_t)root);
    CHECK(s->joints[18] == (uint32_t)collada_node(a, "r_null_toe"));
    CHECK(xform_is_identity(s->bind_shape_matrix, 1e-6f));
    uint32_t node = a->instances[0];
    const vs_mesh *m = &a->meshes[a->nodes[node].mesh];
    CHECK(m->primitive_count == 4);
    uint32_t max_src = 0;
    for (uint32_t p = 0; p < m->primitive_count; ++p) {
        const vs_primitive *prim = &m->primitives[p];
        /* 5 influences at most -> two sets of 4. */
        CHECK(prim->influence_count == 8);
        for (uint32_t v = 0; v < prim->vertex_count; ++v)
            if (prim->source_vertex[v] > max_src)
                max_src = prim->source_vertex[v];
    }
    CHECK(max_src < 2619);
    /* faceSG is bound to material "face". */
    int32_t mat = m->primitives[0].material;
    CHECK(mat >= 0 && strcmp(a->materials[mat].name, "face") == 0);
    double err = bind_pose_error(a);
    CHECK_MSG(err >= 0 && err < 1e-4, "bind pose error %g", err);
    vs_asset_free(a);
}

int main(void)
{
    RUN(cube_is_an_unskinned_mesh);
    RUN(non_identity_bind_shape);
    RUN(skin_4_influence);
    RUN(seymour);
    return test_summary();
}
