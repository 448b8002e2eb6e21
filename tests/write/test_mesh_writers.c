/* SPDX-License-Identifier: MIT */
/* The OBJ / PLY / JSON writers on hand-made posed data: strips and fans
 * unroll as glTF 2.0 §3.7.2.1 defines, indices run on across objects, lines
 * and points are kept in OBJ and left out of PLY, bad indices are refused. */
#include <cjson/cJSON.h>

#include "test.h"
#include "write/mesh_writers.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static const float square[4 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
static const float up[4 * 3] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};

static void triangles_unroll_as_the_spec_says(void)
{
    vs_primitive strip = {.mode = VS_MODE_TRIANGLE_STRIP, .vertex_count = 5};
    uint32_t t[3];
    CHECK(primitive_triangle_count(&strip) == 3);
    primitive_triangle(&strip, 0, t);
    CHECK(t[0] == 0 && t[1] == 1 && t[2] == 2);
    primitive_triangle(&strip, 1, t); /* odd: {v1, v3, v2} */
    CHECK(t[0] == 1 && t[1] == 3 && t[2] == 2);
    primitive_triangle(&strip, 2, t);
    CHECK(t[0] == 2 && t[1] == 3 && t[2] == 4);
    const uint32_t fan_idx[] = {7, 6, 5, 4};
    vs_primitive fan = {.mode = VS_MODE_TRIANGLE_FAN,
                        .vertex_count = 8,
                        .index_count = 4,
                        .indices = fan_idx};
    CHECK(primitive_triangle_count(&fan) == 2);
    primitive_triangle(&fan, 1, t); /* {v2, v3, v0} through the indices */
    CHECK(t[0] == 5 && t[1] == 4 && t[2] == 7);
    vs_primitive lines = {.mode = VS_MODE_LINES, .vertex_count = 4};
    CHECK(primitive_triangle_count(&lines) == 0);
    vs_primitive few = {.mode = VS_MODE_TRIANGLE_STRIP, .vertex_count = 2};
    CHECK(primitive_triangle_count(&few) == 0);
}

/* Two objects: a strip square with normals, then lines + points. */
static void make_scene(posed_scene *scene, posed_object objects[2],
                       vs_primitive prims[3], vs_posed_primitive posed[3])
{
    static const uint32_t line_idx[] = {0, 1, 2, 3};
    prims[0] =
        (vs_primitive){.mode = VS_MODE_TRIANGLE_STRIP, .vertex_count = 4};
    prims[1] = (vs_primitive){.mode = VS_MODE_LINE_LOOP,
                              .vertex_count = 4,
                              .index_count = 3,
                              .indices = line_idx};
    prims[2] = (vs_primitive){.mode = VS_MODE_POINTS, .vertex_count = 4};
    posed[0] = (vs_posed_primitive){.vertex_count = 4,
                                    .positions = (float *)square,
                                    .normals = (float *)up};
    posed[1] =
        (vs_posed_primitive){.vertex_count = 4, .positions = (float *)square};
    posed[2] =
        (vs_posed_primitive){.vertex_count = 4, .positions = (float *)square};
    objects[0] = (posed_object){"quad", 3, 1, &prims[0], &posed[0]};
    objects[1] = (posed_object){"wire", 5, 2, &prims[1], &posed[1]};
    *scene = (posed_scene){.source = "test",
                           .clip = -1,
                           .clip_name = "",
                           .object_count = 2,
                           .objects = objects};
}

static void obj_offsets_indices_across_objects(void)
{
    posed_scene scene;
    posed_object objects[2];
    vs_primitive prims[3];
    vs_posed_primitive posed[3];
    make_scene(&scene, objects, prims, posed);
    const char *path = VS_TEST_TMP "/writers.obj";
    vs_error error = {0};
    CHECK(obj_write(path, &scene, &error) == VS_OK);
    const char *text = slurp(path);
    CHECK(text != NULL);
    if (!text) return;
    CHECK(strstr(text, "o quad\n") && strstr(text, "o wire\n"));
    CHECK(strstr(text, "f 1//1 2//2 3//3\nf 2//2 4//4 3//3\n") != NULL);
    /* The loop closes on its first element; indices start after quad's 4. */
    CHECK(strstr(text, "l 5 6 7 5\n") != NULL);
    CHECK(strstr(text, "p 9\np 10\np 11\np 12\n") != NULL);
    CHECK(strstr(text, "vn 0 0 1\n") != NULL);
}

static void ply_keeps_triangles_only(void)
{
    posed_scene scene;
    posed_object objects[2];
    vs_primitive prims[3];
    vs_posed_primitive posed[3];
    make_scene(&scene, objects, prims, posed);
    const char *path = VS_TEST_TMP "/writers.ply";
    vs_error error = {0};
    CHECK(ply_write(path, &scene, &error) == VS_OK);
    const char *text = slurp(path);
    CHECK(text != NULL);
    if (!text) return;
    CHECK(strstr(text, "element vertex 12\n") != NULL);
    CHECK(strstr(text, "element face 2\n") != NULL);
    /* Not every primitive has normals, so the vertex element has none. */
    CHECK(strstr(text, "property float nx") == NULL);
    CHECK(strstr(text, "end_header\n") != NULL);
    CHECK(strstr(text, "3 0 1 2\n3 1 3 2\n") != NULL);
}

static void json_round_trips_floats(void)
{
    const float odd[3] = {0.1f, 1.0f / 3.0f, -7.25e-20f};
    vs_primitive prim = {.mode = VS_MODE_POINTS, .vertex_count = 1};
    vs_posed_primitive posed = {.vertex_count = 1, .positions = (float *)odd};
    posed_object object = {"p", 0, 1, &prim, &posed};
    posed_scene scene = {.source = "test",
                         .clip = 2,
                         .clip_name = "walk",
                         .time = 0.1f,
                         .object_count = 1,
                         .objects = &object};
    const char *path = VS_TEST_TMP "/writers.json";
    vs_error error = {0};
    CHECK(pose_json_write(path, &scene, true, &error) == VS_OK);
    const char *text = slurp(path);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK(root != NULL);
    const cJSON *pos = cJSON_GetObjectItem(
        cJSON_GetArrayItem(
            cJSON_GetObjectItem(
                cJSON_GetArrayItem(cJSON_GetObjectItem(root, "objects"), 0),
                "primitives"),
            0),
        "positions");
    CHECK(cJSON_GetArraySize(pos) == 3);
    for (int i = 0; i < 3 && cJSON_GetArraySize(pos) == 3; ++i)
        CHECK((float)cJSON_GetNumberValue(cJSON_GetArrayItem(pos, i)) ==
              odd[i]);
    CHECK((float)cJSON_GetNumberValue(cJSON_GetObjectItem(root, "time")) ==
          0.1f);
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(root, "clip")) == 2);
    /* Short digits, not the double's 17. */
    CHECK(text && strstr(text, "0.100000001") != NULL);
    cJSON_Delete(root);
}

static void out_of_range_index_is_refused(void)
{
    const uint32_t bad[] = {0, 1, 4};
    vs_primitive prim = {.mode = VS_MODE_TRIANGLES,
                         .vertex_count = 4,
                         .index_count = 3,
                         .indices = bad};
    vs_posed_primitive posed = {.vertex_count = 4,
                                .positions = (float *)square};
    posed_object object = {"bad", 0, 1, &prim, &posed};
    posed_scene scene = {.source = "test",
                         .clip = -1,
                         .clip_name = "",
                         .object_count = 1,
                         .objects = &object};
    vs_error error = {0};
    CHECK(obj_write(VS_TEST_TMP "/writers_bad.obj", &scene, &error) ==
          VS_ERROR_INVALID);
    CHECK(strstr(error.message, "indices[2]") != NULL);
    CHECK(ply_write(VS_TEST_TMP "/writers_bad.ply", &scene, &error) ==
          VS_ERROR_INVALID);
}

/* Names are the file author's: one with newlines must not add lines. */
static void names_cannot_inject_lines(void)
{
    static const char *evil = "x\nv 666 666 666\nmtllib /etc/passwd\r\x1b[2J";
    vs_primitive prim = {.mode = VS_MODE_TRIANGLES, .vertex_count = 3};
    vs_posed_primitive posed = {.vertex_count = 3,
                                .positions = (float *)square};
    posed_object object = {evil, 0, 1, &prim, &posed};
    posed_scene scene = {.source = evil,
                         .clip = 0,
                         .clip_name = evil,
                         .object_count = 1,
                         .objects = &object};
    vs_error error = {0};
    const char *obj = VS_TEST_TMP "/writers_names.obj";
    CHECK(obj_write(obj, &scene, &error) == VS_OK);
    const char *text = slurp(obj);
    CHECK(text != NULL);
    if (text) {
        CHECK(test_count_lines_starting(text, "v ") == 3);
        CHECK(test_count_lines_starting(text, "mtllib") == 0);
        CHECK(strchr(text, '\r') == NULL && strchr(text, 0x1b) == NULL);
        CHECK(strstr(text, "o x\\x0av 666 666 666\\x0amtllib") != NULL);
    }
    const char *ply = VS_TEST_TMP "/writers_names.ply";
    CHECK(ply_write(ply, &scene, &error) == VS_OK);
    text = slurp(ply);
    CHECK(text != NULL);
    if (text) {
        /* Every header line is a known keyword; the three vertices follow. */
        CHECK(test_count_lines_starting(text, "v ") == 0 &&
              test_count_lines_starting(text, "mtllib") == 0);
        CHECK(strchr(text, '\r') == NULL && strchr(text, 0x1b) == NULL);
        CHECK(strstr(text, "element vertex 3\n") != NULL);
    }
}

static void unwritable_path_is_an_io_error(void)
{
    posed_scene scene = {.source = "test", .clip = -1, .clip_name = ""};
    vs_error error = {0};
    CHECK(obj_write("/nonexistent/dir/x.obj", &scene, &error) == VS_ERROR_IO);
    CHECK(strstr(error.message, "/nonexistent/dir/x.obj") != NULL);
}

int main(void)
{
    RUN(triangles_unroll_as_the_spec_says);
    RUN(obj_offsets_indices_across_objects);
    RUN(ply_keeps_triangles_only);
    RUN(json_round_trips_floats);
    RUN(out_of_range_index_is_refused);
    RUN(names_cannot_inject_lines);
    RUN(unwritable_path_is_an_io_error);
    return test_summary();
}
