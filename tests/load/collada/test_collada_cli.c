/* SPDX-License-Identifier: MIT */
/* The generic CLI on COLLADA input: `vskin info` describes a .dae,
 * `vskin pose FILE.dae -o out.obj` writes the posed mesh (the transform
 * stack file: one triangle at known world positions, twice; the lines file:
 * `l` elements beside `f`), and `vskin convert` writes line primitives as
 * glTF LINES that load back. */
#include "test_collada_fixture.h"
#include "tools/cli_run.h"

static void info_describes_a_skinned_file(void)
{
    cli_result r = cli_run("info '" COLLADA_DATA "name_array_sid.dae'");
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(strstr(r.out, "COLLADA") != NULL);
    CHECK(strstr(r.out, "3 joints") != NULL);
    cli_result_free(&r);
}

static void pose_writes_obj(void)
{
    char out[512], cmd[1200];
    tmp_path(out, sizeof out, "collada_transform_stack.obj");
    remove(out);
    snprintf(cmd, sizeof cmd, "pose '%stransform_stack.dae' -o '%s'",
             COLLADA_DATA, out);
    cli_result r = cli_run(cmd);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    char *obj = cli_slurp(out);
    CHECK(obj != NULL);
    if (!obj) return;
    /* Vertex (1,0,0) of the triangle lands at (11,4,3) (see
     * test_collada_handmade.c); two instances: 6 vertices, 2 faces. */
    int verts = 0, faces = 0;
    bool found = false;
    for (char *line = obj; line && *line;) {
        float x, y, z;
        if (strncmp(line, "v ", 2) == 0) {
            ++verts;
            if (sscanf(line + 2, "%f %f %f", &x, &y, &z) == 3 &&
                fabs(x - 11) < 1e-4 && fabs(y - 4) < 1e-4 && fabs(z - 3) < 1e-4)
                found = true;
        }
        faces += strncmp(line, "f ", 2) == 0;
        line = strchr(line, '\n');
        if (line) ++line;
    }
    CHECK(verts == 6 && faces == 2 && found);
    free(obj);
}

/* Counts the lines of text starting with prefix. */
static int count_prefixed(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *line = text; line && *line;) {
        n += strncmp(line, prefix, len) == 0;
        line = strchr(line, '\n');
        if (line) ++line;
    }
    return n;
}

static void pose_writes_lines_to_obj(void)
{
    char out[512], cmd[1200];
    tmp_path(out, sizeof out, "collada_lines.obj");
    remove(out);
    snprintf(cmd, sizeof cmd, "pose '%slines.dae' -o '%s'", COLLADA_DATA, out);
    cli_result r = cli_run(cmd);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    char *obj = cli_slurp(out);
    CHECK(obj != NULL);
    if (!obj) return;
    /* wire: 2 + 3 segments; mixed: 1 triangle and 1 segment. */
    CHECK_MSG(count_prefixed(obj, "l ") == 6, "%s", obj);
    CHECK_MSG(count_prefixed(obj, "f ") == 1, "%s", obj);
    free(obj);
}

static void convert_writes_gltf_lines(void)
{
    char out[512], cmd[1200];
    tmp_path(out, sizeof out, "collada_lines.gltf");
    remove(out);
    snprintf(cmd, sizeof cmd, "convert --force '%slines.dae' -o '%s'",
             COLLADA_DATA, out);
    cli_result r = cli_run(cmd);
    CHECK_MSG(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    vs_asset *a = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_file(out, NULL, &a, &err) == VS_OK, "%s",
              err.message);
    if (!a) return;
    uint32_t lines = 0, triangles = 0, skinned = 0;
    for (uint32_t m = 0; m < a->mesh_count; ++m)
        for (uint32_t p = 0; p < a->meshes[m].primitive_count; ++p) {
            const vs_primitive *prim = &a->meshes[m].primitives[p];
            lines += prim->mode == VS_MODE_LINES;
            triangles += prim->mode == VS_MODE_TRIANGLES;
            skinned += prim->mode == VS_MODE_LINES && prim->influence_count;
        }
    CHECK_MSG(lines == 3 && triangles == 1 && skinned == 2,
              "%u lines (%u skinned), %u triangles", lines, skinned, triangles);
    vs_asset_free(a);
}

static void broken_file_fails_with_the_line(void)
{
    cli_result r =
        cli_run("info '" COLLADA_DATA "broken/index_out_of_range.dae'");
    CHECK(r.status != 0);
    CHECK_MSG(strstr(r.err, "line 16") != NULL, "%s", r.err);
    cli_result_free(&r);
}

int main(void)
{
    RUN(info_describes_a_skinned_file);
    RUN(pose_writes_obj);
    RUN(pose_writes_lines_to_obj);
    RUN(convert_writes_gltf_lines);
    RUN(broken_file_fails_with_the_line);
    return test_summary();
}
