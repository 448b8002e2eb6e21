/* SPDX-License-Identifier: MIT */
/* COLLADA <lines> and <linestrips> (tests/data/collada/lines.dae) load as
 * LINES primitives in document order beside triangles, a <linestrips>' strips
 * as consecutive segments of one primitive, and skinned lines pose. */
#include <stdint.h>

#include "test_collada_fixture.h"

/* Checks that primitive p is LINES over these source positions. */
static void check_lines(const vs_primitive *p, const uint32_t *src,
                        uint32_t count)
{
    CHECK(p->mode == VS_MODE_LINES);
    CHECK_MSG(p->index_count == count, "%u indices", p->index_count);
    if (p->index_count != count || !p->source_vertex) return;
    for (uint32_t i = 0; i < count; ++i)
        CHECK_MSG(p->source_vertex[p->indices[i]] == src[i],
                  "index %u: position %u, expected %u", i,
                  p->source_vertex[p->indices[i]], src[i]);
}

static const vs_mesh *node_mesh(const vs_asset *a, const char *id)
{
    int32_t n = collada_node(a, id);
    CHECK(n >= 0 && a->nodes[n].mesh >= 0);
    if (n < 0 || a->nodes[n].mesh < 0) return NULL;
    return &a->meshes[a->nodes[n].mesh];
}

static void lines_and_linestrips_become_lines(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "lines.dae");
    if (!a) return;
    const vs_mesh *m = node_mesh(a, "wire");
    CHECK(m && m->primitive_count == 2);
    if (m && m->primitive_count == 2) {
        /* <lines>: 0-1, 1-2. <linestrips>: 1 2 3 -> 1-2, 2-3; 3 4 -> 3-4. */
        check_lines(&m->primitives[0], (const uint32_t[]){0, 1, 1, 2}, 4);
        check_lines(&m->primitives[1], (const uint32_t[]){1, 2, 2, 3, 3, 4}, 6);
        CHECK(m->primitives[1].vertex_count == 4);
        CHECK(m->primitives[0].influence_count == 4);
    }
    vs_asset_free(a);
}

static void mixed_mesh_keeps_triangles_and_lines(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "lines.dae");
    if (!a) return;
    const vs_mesh *m = node_mesh(a, "mixed");
    CHECK(m && m->primitive_count == 2);
    if (m && m->primitive_count == 2) {
        CHECK(m->primitives[0].mode == VS_MODE_TRIANGLES);
        CHECK(m->primitives[0].index_count == 3);
        check_lines(&m->primitives[1], (const uint32_t[]){1, 2}, 2);
    }
    vs_asset_free(a);
}

static void skinned_lines_follow_their_joints(void)
{
    vs_asset *a = collada_load_checked(COLLADA_DATA "lines.dae");
    if (!a) return;
    int32_t wire = collada_node(a, "wire"), j1 = collada_node(a, "j1");
    vs_pose *pose = NULL;
    if (wire < 0 || j1 < 0 || vs_pose_create(a, &pose, NULL) != VS_OK) {
        CHECK(!"lines.dae has its nodes and poses");
        vs_asset_free(a);
        return;
    }
    /* j1 from (2,0,0) to (2,3,0): joint matrix T(2,3,0) T(-2,0,0) moves
     * positions 2, 3, 4 up by 3; positions 0 and 1 stay on j0. */
    vs_trs trs = a->nodes[j1].rest_trs;
    trs.translation[1] = 3.0f;
    vs_pose_set_local(pose, (uint32_t)j1, &trs);
    vs_pose_update_world(pose);
    static const float rest[5][3] = {
        {0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {3, 1, 0}};
    for (uint32_t p = 0; p < 2; ++p) {
        vs_posed_primitive out;
        if (!collada_posed(pose, (uint32_t)wire, p, &out)) continue;
        const vs_primitive *prim =
            &a->meshes[a->nodes[wire].mesh].primitives[p];
        for (uint32_t v = 0; v < out.vertex_count; ++v) {
            uint32_t s = prim->source_vertex[v];
            float lift = s >= 2 ? 3.0f : 0.0f;
            CHECK_NEAR(out.positions[3 * v], rest[s][0], 1e-5);
            CHECK_NEAR(out.positions[3 * v + 1], rest[s][1] + lift, 1e-5);
            CHECK_NEAR(out.positions[3 * v + 2], rest[s][2], 1e-5);
        }
        vs_posed_primitive_free(&out);
    }
    vs_pose_free(pose);
    vs_asset_free(a);
}

int main(void)
{
    RUN(lines_and_linestrips_become_lines);
    RUN(mixed_mesh_keeps_triangles_and_lines);
    RUN(skinned_lines_follow_their_joints);
    return test_summary();
}
