/* SPDX-License-Identifier: MIT */
/* mesh_topology_build over every primitive mode and small vertex / index
 * counts (none, too few for one primitive, a trailing partial one), with and
 * without indices, out-of-range indices, and generated normals: no read or
 * write outside any array, exact index lists, clear errors. No GL context. */
#include "render/mesh_topology.h"
#include "test.h"

/* Blocks with guard bytes after them, checked when freed: a write past the
 * end of a list shows up without a sanitizer. */
#define GUARD 16u
typedef struct guarded {
    size_t live, broken;
} guarded;

static void *guarded_alloc(size_t size, void *user)
{
    unsigned char *p = malloc(32 + size + GUARD);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    memset(p + 32 + size, 0xfd, GUARD);
    ((guarded *)user)->live++;
    return p + 32;
}

static void guarded_free(void *ptr, void *user)
{
    unsigned char *p = (unsigned char *)ptr - 32;
    size_t size;
    memcpy(&size, p, sizeof size);
    for (unsigned i = 0; i < GUARD; ++i)
        if (p[32 + size + i] != 0xfd) {
            ((guarded *)user)->broken++;
            break;
        }
    ((guarded *)user)->live--;
    free(p);
}

static guarded guard_state;
static const vs_allocator guard = {guarded_alloc, guarded_free, &guard_state};

static const float positions[8 * 3] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                                       0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};

static vs_primitive make_prim(vs_primitive_mode mode, uint32_t vertices,
                              const uint32_t *indices, uint32_t index_count)
{
    return (vs_primitive){.mode = mode,
                          .vertex_count = vertices,
                          .positions = positions,
                          .index_count = index_count,
                          .indices = indices,
                          .material = -1};
}

/* Builds, checks the invariants every list must keep, and returns the
 * result; *out is left for the caller to look at and free. */
static vs_result build(const vs_primitive *prim, mesh_topology *out,
                       vs_error *e)
{
    vs_result r = mesh_topology_build(prim, "t.gltf: meshes[0].primitives[0]",
                                      &guard, out, e);
    if (r != VS_OK) {
        CHECK(out->indices == NULL && out->edges == NULL);
        CHECK(out->index_count == 0 && out->edge_index_count == 0);
        return r;
    }
    uint32_t size = out->mode == VS_MODE_POINTS  ? 1
                    : out->mode == VS_MODE_LINES ? 2
                                                 : 3;
    CHECK(out->mode == VS_MODE_POINTS || out->mode == VS_MODE_LINES ||
          out->mode == VS_MODE_TRIANGLES);
    CHECK_MSG(out->index_count % size == 0, "mode %d: %u indices",
              (int)prim->mode, out->index_count);
    for (uint32_t i = 0; i < out->index_count; ++i)
        CHECK(out->indices[i] < prim->vertex_count);
    for (uint32_t i = 0; i < out->edge_index_count; ++i)
        CHECK(out->edges[i] < prim->vertex_count);
    CHECK(out->edge_index_count % 2 == 0);
    return r;
}

/* Whole primitives of a mode that n vertices make (as glDrawArrays counts
 * them) times the vertices of each, per mode in enum order. */
static uint32_t expected_count(vs_primitive_mode mode, uint32_t n)
{
    const uint32_t whole[7] = {n,
                               n / 2,
                               n >= 2 ? n : 0,
                               n >= 2 ? n - 1 : 0,
                               n / 3,
                               n >= 3 ? n - 2 : 0,
                               n >= 3 ? n - 2 : 0};
    const uint32_t size[7] = {1, 2, 2, 2, 3, 3, 3};
    return whole[mode] * size[mode];
}

/* Every mode x 0..8 vertices, non-indexed and indexed (reversed order),
 * with normals generated for each: counts as glDrawArrays would draw. */
static void test_every_mode_and_small_count(void)
{
    static const uint32_t reversed[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    for (int mode = VS_MODE_POINTS; mode <= VS_MODE_TRIANGLE_FAN; ++mode)
        for (uint32_t n = 0; n <= 8; ++n)
            /* Indexed from 1: an index_count of 0 means no indices. */
            for (int indexed = 0; indexed < (n ? 2 : 1); ++indexed) {
                vs_primitive prim = make_prim(
                    (vs_primitive_mode)mode, indexed ? 8 : n,
                    indexed ? reversed + (8 - n) : NULL, indexed ? n : 0);
                mesh_topology t;
                vs_error e = {0};
                vs_result r = build(&prim, &t, &e);
                CHECK_MSG(r == VS_OK, "mode %d, %u: %s", mode, n, e.message);
                CHECK_MSG(
                    t.index_count == expected_count((vs_primitive_mode)mode, n),
                    "mode %d, %u vertices: %u indices", mode, n, t.index_count);
                float normals[8 * 3];
                mesh_topology_normals(&t, positions, prim.vertex_count,
                                      normals);
                for (uint32_t v = 0; v < prim.vertex_count; ++v) {
                    const float *nv = normals + v * 3;
                    CHECK_NEAR(nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2],
                               1.0, 1e-5);
                }
                mesh_topology_free(&t, &guard);
            }
    CHECK(guard_state.live == 0);
    CHECK_MSG(guard_state.broken == 0, "%zu lists written past their end",
              guard_state.broken);
}

/* The two primitives that passed validation and broke the renderer: a
 * LINE_STRIP with no vertices (a division by zero) and a LINE_LOOP of one
 * vertex (a write past the list). Both draw nothing. */
static void test_degenerate_lines_draw_nothing(void)
{
    guard_state.broken = 0;
    vs_primitive strip = make_prim(VS_MODE_LINE_STRIP, 0, NULL, 0);
    vs_primitive loop = make_prim(VS_MODE_LINE_LOOP, 1, NULL, 0);
    static const uint32_t one[1] = {0};
    vs_primitive loop_indexed = make_prim(VS_MODE_LINE_LOOP, 4, one, 1);
    const vs_primitive *prims[3] = {&strip, &loop, &loop_indexed};
    for (int i = 0; i < 3; ++i) {
        mesh_topology t;
        vs_error e = {0};
        CHECK(build(prims[i], &t, &e) == VS_OK);
        CHECK(t.mode == VS_MODE_LINES);
        CHECK(t.index_count == 0 && t.edge_index_count == 0);
        mesh_topology_free(&t, &guard);
    }
    CHECK(guard_state.live == 0);
    CHECK(guard_state.broken == 0);
}

/* Exact lists: strips alternate winding, fans share vertex 0, loops close. */
static void test_expanded_lists(void)
{
    struct {
        vs_primitive_mode mode;
        uint32_t n;
        uint32_t expect[12];
        uint32_t count;
    } cases[] = {
        {VS_MODE_LINE_LOOP, 3, {0, 1, 1, 2, 2, 0}, 6},
        {VS_MODE_LINE_LOOP, 2, {0, 1, 1, 0}, 4},
        {VS_MODE_LINE_STRIP, 4, {0, 1, 1, 2, 2, 3}, 6},
        {VS_MODE_TRIANGLE_STRIP, 5, {0, 1, 2, 2, 1, 3, 2, 3, 4}, 9},
        {VS_MODE_TRIANGLE_FAN, 4, {0, 1, 2, 0, 2, 3}, 6},
        {VS_MODE_TRIANGLES, 7, {0, 1, 2, 3, 4, 5}, 6},
        {VS_MODE_LINES, 5, {0, 1, 2, 3}, 4},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        vs_primitive prim = make_prim(cases[c].mode, cases[c].n, NULL, 0);
        mesh_topology t;
        vs_error e = {0};
        CHECK(build(&prim, &t, &e) == VS_OK);
        CHECK_MSG(t.index_count == cases[c].count, "case %zu: %u", c,
                  t.index_count);
        for (uint32_t i = 0; i < t.index_count && i < cases[c].count; ++i)
            CHECK_MSG(t.indices[i] == cases[c].expect[i], "case %zu [%u]", c,
                      i);
        mesh_topology_free(&t, &guard);
    }
    CHECK(guard_state.live == 0);
}

/* An index at or past vertex_count, in any mode, is an error naming the
 * primitive and the index, even where the mode would not use it (a LINE_LOOP
 * of one index); an unknown mode is one too. */
static void test_bad_indices_and_modes_are_errors(void)
{
    static const uint32_t bad[4] = {0, 1, 2, 4};
    for (int mode = VS_MODE_POINTS; mode <= VS_MODE_TRIANGLE_FAN; ++mode)
        for (uint32_t n = 1; n <= 4; ++n) {
            const uint32_t *idx = bad + (4 - n); /* always holds the 4 */
            vs_primitive prim = make_prim((vs_primitive_mode)mode, 4, idx, n);
            mesh_topology t;
            vs_error e = {0};
            CHECK(build(&prim, &t, &e) == VS_ERROR_INVALID);
            CHECK_MSG(strstr(e.message, "t.gltf: meshes[0].primitives[0]") &&
                          strstr(e.message, "= 4"),
                      "%s", e.message);
        }
    vs_primitive odd = make_prim((vs_primitive_mode)7, 3, NULL, 0);
    mesh_topology t;
    vs_error e = {0};
    CHECK(build(&odd, &t, &e) == VS_ERROR_INVALID);
    CHECK_MSG(strstr(e.message, "mode 7") != NULL, "%s", e.message);
    CHECK(guard_state.live == 0);
}

/* A refused allocation fails cleanly and leaves nothing allocated. */
static size_t refuse_after;
static void *refusing_alloc(size_t size, void *user)
{
    if (refuse_after == 0) return NULL;
    --refuse_after;
    return guarded_alloc(size, user);
}

static void test_refused_allocation(void)
{
    const vs_allocator refusing = {refusing_alloc, guarded_free, &guard_state};
    for (size_t k = 0; k < 2; ++k) {
        refuse_after = k;
        vs_primitive prim = make_prim(VS_MODE_TRIANGLES, 6, NULL, 0);
        mesh_topology t;
        vs_error e = {0};
        CHECK(mesh_topology_build(&prim, "p", &refusing, &t, &e) ==
              VS_ERROR_OUT_OF_MEMORY);
        CHECK(t.indices == NULL && t.edges == NULL);
        CHECK(guard_state.live == 0);
    }
}

/* Normals of degenerate and non-finite triangles fall back to +Z. */
static void test_normals_of_degenerate_triangles(void)
{
    const float flat[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    const float bad[9] = {0, 0, 0, NAN, 0, 0, 0, INFINITY, 0};
    const float *sets[2] = {flat, bad};
    for (int s = 0; s < 2; ++s) {
        vs_primitive prim = make_prim(VS_MODE_TRIANGLES, 3, NULL, 0);
        prim.positions = sets[s];
        mesh_topology t;
        vs_error e = {0};
        CHECK(build(&prim, &t, &e) == VS_OK);
        float normals[9];
        mesh_topology_normals(&t, sets[s], 3, normals);
        for (int v = 0; v < 3; ++v)
            CHECK(normals[v * 3] == 0.0f && normals[v * 3 + 1] == 0.0f &&
                  normals[v * 3 + 2] == 1.0f);
        mesh_topology_free(&t, &guard);
    }
}

int main(void)
{
    RUN(test_every_mode_and_small_count);
    RUN(test_degenerate_lines_draw_nothing);
    RUN(test_expanded_lists);
    RUN(test_bad_indices_and_modes_are_errors);
    RUN(test_refused_allocation);
    RUN(test_normals_of_degenerate_triangles);
    return test_summary();
}
