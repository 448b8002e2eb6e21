/* SPDX-License-Identifier: MIT */
/* `vskin info` and `vskin pose` on the embedded SimpleSkin, checked against
 * values derived by hand from the glTF tutorial's SimpleSkin:
 * - vertices (x, y) with x = -0.5/+0.5 and y = 0, 0.5, 1, 1.5, 2 (z = 0);
 * - weights (joint0, joint1) by row: 1/0, .75/.25, .5/.5, .25/.75, 0/1;
 * - joint0 = node 1 at the origin, joint1 = node 2 at (0,1,0) under it;
 *   IBMs identity and T(0,-1,0);
 * - the one clip rotates node 2 about z; keys at 0, 0.5, ..., 5.5; at t = 1
 *   the key is (0, 0, 0.707000017, 0.707000017), a 90 degree turn.
 * So at t = 1 joint1's matrix is J1 = T(0,1,0) Rz(90) T(0,-1,0), which maps
 * (x, y) to (1 - y, 1 + x), joint0's is identity, and each vertex is
 * w0 * p + w1 * J1 p. */
#include <cjson/cJSON.h>

#include "cli_run.h"
#include "test.h"

/* Posed positions at t = 1, in accessor order. */
static const float expected_t1[10][3] = {
    {-0.5f, 0.0f, 0},   {0.5f, 0.0f, 0},   {-0.25f, 0.5f, 0}, {0.5f, 0.75f, 0},
    {-0.25f, 0.75f, 0}, {0.25f, 1.25f, 0}, {-0.5f, 0.75f, 0}, {-0.25f, 1.5f, 0},
    {-1.0f, 0.5f, 0},   {-1.0f, 1.5f, 0}};
/* The bind (= rest, t = 0) positions. */
static const float expected_t0[10][3] = {
    {-0.5f, 0.0f, 0}, {0.5f, 0.0f, 0}, {-0.5f, 0.5f, 0}, {0.5f, 0.5f, 0},
    {-0.5f, 1.0f, 0}, {0.5f, 1.0f, 0}, {-0.5f, 1.5f, 0}, {0.5f, 1.5f, 0},
    {-0.5f, 2.0f, 0}, {0.5f, 2.0f, 0}};
/* The file's triangle indices, 1-based as OBJ writes them. */
static const unsigned expected_faces[8][3] = {{1, 2, 4},  {1, 4, 3}, {3, 4, 6},
                                              {3, 6, 5},  {5, 6, 8}, {5, 8, 7},
                                              {7, 8, 10}, {7, 10, 9}};

#define TOL 1e-5

typedef struct obj_counts {
    int v, f, o;
    float pos[16][3];
    unsigned face[16][3];
} obj_counts;

static obj_counts read_obj(const char *path)
{
    obj_counts c = {0};
    char *text = cli_slurp(path);
    CHECK_MSG(text != NULL, "%s not written", path);
    if (!text) return c;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "v ", 2) == 0 && c.v < 16) {
            CHECK(sscanf(line, "v %f %f %f", &c.pos[c.v][0], &c.pos[c.v][1],
                         &c.pos[c.v][2]) == 3);
            ++c.v;
        } else if (strncmp(line, "f ", 2) == 0 && c.f < 16) {
            CHECK(sscanf(line, "f %u %u %u", &c.face[c.f][0], &c.face[c.f][1],
                         &c.face[c.f][2]) == 3);
            ++c.f;
        } else if (strncmp(line, "o ", 2) == 0) {
            CHECK(strcmp(line, "o node0") == 0);
            ++c.o;
        }
    }
    free(text);
    return c;
}

static void check_positions(const float (*got)[3], const float (*want)[3])
{
    for (int i = 0; i < 10; ++i)
        for (int k = 0; k < 3; ++k)
            CHECK_NEAR(got[i][k], want[i][k], TOL);
}

/* Runs `vskin pose OPTIONS -o VS_TEST_TMP/name` after removing an old
 * output, and checks that it succeeded; path receives the output's path. */
static void pose_to(const char *options, const char *name, char *path,
                    size_t size)
{
    char args[2048];
    tmp_path(path, size, name);
    remove(path);
    snprintf(args, sizeof args, "pose %s -o '%s'", options, path);
    cli_result r = cli_run(args);
    CHECK_MSG(r.status == 0, "'%s': status %d, stderr: %s", args, r.status,
              r.err);
    cli_result_free(&r);
}

static void info_text_names_joints_and_clip(void)
{
    cli_result r = cli_run("info");
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    CHECK(strstr(r.out, "SimpleSkin.gltf (embedded)") != NULL);
    CHECK(strstr(r.out, "glTF 2.0") != NULL);
    CHECK(strstr(r.out, "2 joints") != NULL);
    CHECK(strstr(r.out, "clips: 1") != NULL);
    CHECK(strstr(r.out, "10 vertices") != NULL);
    CHECK(strstr(r.out, "1 influence set") != NULL);
    /* The joint tree: node2 is indented under node1. */
    const char *j0 = strstr(r.out, "    node1 (joint 0, node 1)");
    const char *j1 = strstr(r.out, "      node2 (joint 1, node 2)");
    CHECK(j0 && j1 && j0 < j1);
    CHECK(strstr(r.out, "0 .. 5.5 s (duration 5.5 s), 1 channel") != NULL);
    cli_result_free(&r);
}

static void info_json_has_the_counts(void)
{
    cli_result r = cli_run("info --json");
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    cJSON *root = cJSON_Parse(r.out);
    CHECK_MSG(root != NULL, "not JSON: %s", r.out);
    const cJSON *skins = cJSON_GetObjectItem(root, "skins");
    const cJSON *clips = cJSON_GetObjectItem(root, "clips");
    const cJSON *meshes = cJSON_GetObjectItem(root, "meshes");
    CHECK(cJSON_GetArraySize(skins) == 1);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(skins, 0),
                                                 "joints")) == 2);
    CHECK(cJSON_GetArraySize(clips) == 1);
    const cJSON *clip = cJSON_GetArrayItem(clips, 0);
    CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(clip, "end")), 5.5, 0);
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(clip, "channels")) == 1);
    const cJSON *prim = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(meshes, 0), "primitives"), 0);
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(prim, "vertices")) == 10);
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(prim, "influence_sets")) ==
          1);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(root, "nodes")) == 3);
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(root, "format"))
                     ? cJSON_GetStringValue(cJSON_GetObjectItem(root, "format"))
                     : "",
                 "glTF 2.0") == 0);
    cJSON_Delete(root);
    cli_result_free(&r);
}

static void pose_obj_at_t1_matches_hand_values(void)
{
    char path[512];
    pose_to("--time 1", "cli_t1.obj", path, sizeof path);
    obj_counts c = read_obj(path);
    CHECK(c.o == 1);
    CHECK(c.v == 10);
    CHECK(c.f == 8);
    if (c.v == 10) check_positions((const float(*)[3])c.pos, expected_t1);
    for (int f = 0; f < 8 && c.f == 8; ++f)
        for (int k = 0; k < 3; ++k)
            CHECK(c.face[f][k] == expected_faces[f][k]);
}

static void pose_several_times_write_one_file_each(void)
{
    char path[512], name[512];
    const char *suffixes[] = {"_t0", "_t1", "_t2.5", "_t6.5"};
    for (int i = 0; i < 4; ++i) {
        snprintf(name, sizeof name, "%s/cli_multi%s.obj", VS_TEST_TMP,
                 suffixes[i]);
        remove(name);
    }
    /* --loop: 6.5 wraps into [0, 5.5) to 1.0, so it poses like t = 1. */
    pose_to("--loop --time 0,1,2.5,6.5", "cli_multi.obj", path, sizeof path);
    CHECK(!test_path_exists(path));
    for (int i = 0; i < 4; ++i) {
        snprintf(name, sizeof name, "%s/cli_multi%s.obj", VS_TEST_TMP,
                 suffixes[i]);
        CHECK_MSG(test_path_exists(name), "%s missing", name);
    }
    snprintf(name, sizeof name, "%s/cli_multi_t0.obj", VS_TEST_TMP);
    obj_counts c = read_obj(name);
    if (c.v == 10) check_positions((const float(*)[3])c.pos, expected_t0);
    snprintf(name, sizeof name, "%s/cli_multi_t6.5.obj", VS_TEST_TMP);
    c = read_obj(name);
    CHECK(c.v == 10);
    if (c.v == 10) check_positions((const float(*)[3])c.pos, expected_t1);
}

static void pose_ply_parses(void)
{
    char path[512];
    pose_to("--time 1", "cli_t1.ply", path, sizeof path);
    char *text = cli_slurp(path);
    CHECK(text != NULL);
    if (text) {
        CHECK(strncmp(text, "ply\nformat ascii 1.0\n", 21) == 0);
        CHECK(strstr(text, "element vertex 10\n") != NULL);
        CHECK(strstr(text, "element face 8\n") != NULL);
        char *body = strstr(text, "end_header\n");
        CHECK(body != NULL);
        if (body) {
            body += strlen("end_header\n");
            float p[10][3];
            int n = 0, used = 0;
            while (n < 10 && sscanf(body, "%f %f %f%n", &p[n][0], &p[n][1],
                                    &p[n][2], &used) == 3) {
                body += used;
                ++n;
            }
            CHECK(n == 10);
            if (n == 10) check_positions((const float(*)[3])p, expected_t1);
            unsigned k, a, b, c;
            CHECK(sscanf(body, " %u %u %u %u", &k, &a, &b, &c) == 4);
            CHECK(k == 3 && a == 0 && b == 1 && c == 3); /* 0-based in PLY */
        }
    }
    free(text);
}

static const cJSON *at(const cJSON *array, int i)
{
    return cJSON_GetArrayItem(array, i);
}

static void pose_json_has_positions_and_joints(void)
{
    char path[512];
    pose_to("--time 1 --joints", "cli_t1.json", path, sizeof path);
    char *text = cli_slurp(path);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK_MSG(root != NULL, "%s missing or not JSON", path);
    const cJSON *obj = at(cJSON_GetObjectItem(root, "objects"), 0);
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(obj, "name"))
                     ? cJSON_GetStringValue(cJSON_GetObjectItem(obj, "name"))
                     : "",
                 "node0") == 0);
    const cJSON *pos = cJSON_GetObjectItem(
        at(cJSON_GetObjectItem(obj, "primitives"), 0), "positions");
    CHECK(cJSON_GetArraySize(pos) == 30);
    for (int i = 0; i < 30 && cJSON_GetArraySize(pos) == 30; ++i)
        CHECK_NEAR(cJSON_GetNumberValue(at(pos, i)), expected_t1[i / 3][i % 3],
                   TOL);
    const cJSON *skin = at(cJSON_GetObjectItem(root, "skins"), 0);
    const cJSON *j1 = at(cJSON_GetObjectItem(skin, "joints"), 1);
    const cJSON *wp = cJSON_GetObjectItem(j1, "world_position");
    CHECK_NEAR(cJSON_GetNumberValue(at(wp, 0)), 0, TOL);
    CHECK_NEAR(cJSON_GetNumberValue(at(wp, 1)), 1, TOL);
    /* J1 = T(0,1,0) Rz(90) T(0,-1,0), column-major. */
    static const float j1_expected[16] = {0, 1, 0, 0, -1, 0, 0, 0,
                                          0, 0, 1, 0, 1,  1, 0, 1};
    const cJSON *m = at(cJSON_GetObjectItem(skin, "joint_matrices"), 1);
    CHECK(cJSON_GetArraySize(m) == 16);
    for (int i = 0; i < 16 && cJSON_GetArraySize(m) == 16; ++i)
        CHECK_NEAR(cJSON_GetNumberValue(at(m, i)), j1_expected[i], TOL);
    cJSON_Delete(root);
    free(text);
}

static void pose_obj_with_joints_writes_joints_json(void)
{
    char path[512], jpath[512];
    tmp_path(jpath, sizeof jpath, "cli_j_joints.json");
    remove(jpath);
    pose_to("--time 1 --joints", "cli_j.obj", path, sizeof path);
    char *text = cli_slurp(jpath);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK_MSG(root != NULL, "%s missing or not JSON", jpath);
    CHECK(cJSON_GetObjectItem(root, "objects") == NULL);
    CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(
              at(cJSON_GetObjectItem(root, "skins"), 0), "joints")) == 2);
    cJSON_Delete(root);
    free(text);
}

static void pose_summary_prints_bounds(void)
{
    cli_result r = cli_run("pose --time 1");
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    CHECK(strstr(r.out, "t = 1 (clip 0") != NULL);
    const char *line = strstr(r.out, "node0: 10 vertices, min (");
    float lo[3] = {0}, hi[3] = {0};
    CHECK_MSG(line &&
                  sscanf(line,
                         "node0: 10 vertices, min (%f %f %f), "
                         "max (%f %f %f)",
                         &lo[0], &lo[1], &lo[2], &hi[0], &hi[1], &hi[2]) == 6,
              "%s", r.out);
    if (line) {
        /* x spans -1 (vertices 8, 9) .. 0.5, y 0 .. 1.5 (vertices 7, 9). */
        CHECK_NEAR(lo[0], -1, TOL);
        CHECK_NEAR(lo[1], 0, TOL);
        CHECK_NEAR(hi[0], 0.5, TOL);
        CHECK_NEAR(hi[1], 1.5, TOL);
    }
    cli_result_free(&r);
}

int main(void)
{
    RUN(info_text_names_joints_and_clip);
    RUN(info_json_has_the_counts);
    RUN(pose_obj_at_t1_matches_hand_values);
    RUN(pose_several_times_write_one_file_each);
    RUN(pose_ply_parses);
    RUN(pose_json_has_positions_and_joints);
    RUN(pose_obj_with_joints_writes_joints_json);
    RUN(pose_summary_prints_bounds);
    return test_summary();
}
