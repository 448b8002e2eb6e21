/* SPDX-License-Identifier: MIT */
/* Broken COLLADA files (tests/data/collada/broken): each must fail with the
 * right code and a message that names the file, the line and the element.
 * Then every prefix and many byte-flipped copies of a valid skinned file
 * must load or fail cleanly (run under ASan), and limits must hold. */
#include <stdint.h>

#include "bounds_any.h"
#include "format/read_file.h"
#include "load/loaders.h"
#include "test_collada_fixture.h"

typedef struct broken_case {
    const char *file;
    vs_result code;
    const char *needle; /* must appear in the message */
} broken_case;

static const broken_case cases[] = {
    {"malformed", VS_ERROR_PARSE, "line 18: invalid XML"},
    {"not_collada", VS_ERROR_PARSE, "line 2: <scene>"},
    {"doctype", VS_ERROR_UNSUPPORTED, "DOCTYPE"},
    {"index_out_of_range", VS_ERROR_INVALID, "<triangles>: corner 2"},
    {"vcount_mismatch", VS_ERROR_INVALID, "<vcount>: <vcount> adds up to 8"},
    {"accessor_overflow", VS_ERROR_INVALID, "need 12 values"},
    {"bad_number", VS_ERROR_INVALID, "\"x\") is not a number"},
    {"triangles_count", VS_ERROR_INVALID, "<triangles count=\"2\">"},
    {"missing_ref", VS_ERROR_INVALID, "\"#nope\" does not exist"},
    {"morph", VS_ERROR_INVALID,
     "<targets>: needs a MORPH_TARGET and a MORPH_WEIGHT"},
    {"weights_count", VS_ERROR_INVALID, "has 4 positions"},
    {"weight_joint_range", VS_ERROR_INVALID, "joint 5 of 2"},
    {"v_length", VS_ERROR_INVALID, "<v> holds 20 indices"},
    {"joint_missing", VS_ERROR_INVALID, "\"nobody\" matches no node"},
    {"skeleton_missing", VS_ERROR_INVALID, "<skeleton>: \"#ghost\""},
    {"instance_node_cycle", VS_ERROR_LIMIT, "<instance_node url=\"#parent\">"},
    {"skew_90", VS_ERROR_INVALID,
     "line 25: <skew sid=\"k\">: node \"tilted\": <skew> angle 90 is "
     "degenerate"},
};

static void broken_files_name_the_line(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%sbroken/%s.dae", COLLADA_DATA,
                 cases[i].file);
        vs_asset *a = NULL;
        vs_error err;
        vs_result r = vs_asset_load_file(path, NULL, &a, &err);
        CHECK_MSG(r == cases[i].code, "%s: got %d (%s)", cases[i].file, r,
                  err.message);
        CHECK(a == NULL && err.code == r);
        CHECK_MSG(strstr(err.message, cases[i].needle) != NULL,
                  "%s: \"%s\" lacks \"%s\"", cases[i].file, err.message,
                  cases[i].needle);
        CHECK_MSG(strstr(err.message, path) == err.message,
                  "%s: message does not start with the file", err.message);
        CHECK_MSG(strstr(err.message, ": line ") != NULL,
                  "%s: no line in \"%s\"", cases[i].file, err.message);
        vs_asset_free(a);
    }
}

/* Broken files whose flaw leaves the pose known: each loads with a
 * warning naming the line and `needle`, and a strict load refuses it. */
static const struct {
    const char *file, *needle;
} repaired[] = {
    {"array_count", "count is 10 but it holds 9"},
    {"external_ref", "only references inside"},
    {"up_axis", "\"W_UP\""},
    {"unit", "<unit meter=\"-1\">"},
    {"polygon_hole", "<ph>: polygons with holes"},
};

static void repaired_files_warn(void)
{
    for (size_t i = 0; i < sizeof repaired / sizeof repaired[0]; ++i) {
        char path[512], text[1024];
        snprintf(path, sizeof path, "%sbroken/%s.dae", COLLADA_DATA,
                 repaired[i].file);
        vs_asset *a = NULL;
        vs_error err;
        vs_result r = vs_asset_load_file(path, NULL, &a, &err);
        CHECK_MSG(r == VS_OK, "%s: %s", repaired[i].file, err.message);
        bool found = false;
        for (uint32_t w = 0; a && w < a->warning_count; ++w) {
            snprintf(text, sizeof text, "%s: %s", a->warnings[w].object,
                     a->warnings[w].message);
            found |= strstr(text, repaired[i].needle) != NULL &&
                     strstr(text, "line ") == text;
        }
        CHECK_MSG(found, "%s: no warning with \"%s\"", repaired[i].file,
                  repaired[i].needle);
        vs_asset_free(a);
        vs_load_options strict = {.strict = true};
        a = NULL;
        r = vs_asset_load_file(path, &strict, &a, &err);
        CHECK_MSG(r == VS_ERROR_INVALID && !a &&
                      strstr(err.message, repaired[i].needle),
                  "%s: strict: %s", repaired[i].file, err.message);
    }
}

static uint8_t *read_all(const char *path, size_t *size)
{
    uint8_t *data = NULL;
    vs_error err;
    vs_result r = read_file(path, 1u << 20, &data, size, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    return r == VS_OK ? data : NULL;
}

/* Truncated and corrupted input never crashes, leaks or passes silently
 * with a broken asset (ASan/UBSan builds run this). */
static void truncated_and_corrupted_files_fail_cleanly(void)
{
    size_t size;
    uint8_t *data = read_all(COLLADA_DATA "name_array_sid.dae", &size);
    if (!data) return;
    uint8_t *copy = malloc(size);
    if (!copy) {
        free(data);
        return;
    }
    int loaded = 0;
    for (size_t n = 0; n < size; n += 7) {
        vs_asset *a = NULL;
        if (vs_asset_load_memory(data, n, "cut.dae", NULL, &a, NULL) == VS_OK)
            ++loaded;
        vs_asset_free(a);
    }
    CHECK(loaded == 0); /* every cut loses </COLLADA> */
    uint32_t seed = 12345;
    for (int round = 0; round < 3000; ++round) {
        memcpy(copy, data, size);
        for (int k = 0; k < 3; ++k) {
            seed = seed * 1664525u + 1013904223u;
            size_t at = (seed >> 8) % size;
            static const char bytes[] = "0123456789-#<>/\" .eXx";
            copy[at] = (uint8_t)bytes[(seed >> 3) % (sizeof bytes - 1)];
        }
        vs_asset *a = NULL;
        vs_error err;
        vs_result r =
            vs_asset_load_memory(copy, size, "flip.dae", NULL, &a, &err);
        if (r == VS_OK) {
            vs_pose *pose = NULL;
            if (vs_pose_create(a, &pose, NULL) == VS_OK) {
                vs_pose_update_world(pose);
                float lo[3], hi[3];
                bounds_any(pose, NULL, lo, hi);
            }
            vs_pose_free(pose);
        } else {
            CHECK_MSG(strncmp(err.message, "flip.dae: ", 10) == 0, "%s",
                      err.message);
        }
        vs_asset_free(a);
    }
    free(copy);
    free(data);
}

static void limits_are_enforced(void)
{
    vs_load_options opt = {0};
    opt.limits.max_nodes = 5;
    vs_asset *a = NULL;
    vs_error err;
    vs_result r =
        vs_asset_load_file(COLLADA_DATA "instance_node.dae", &opt, &a, &err);
    CHECK_MSG(r == VS_ERROR_LIMIT && strstr(err.message, "line"), "%s",
              err.message);
    vs_asset_free(a);
    opt.limits.max_nodes = 0;
    opt.limits.max_total_memory = 1024;
    r = vs_asset_load_file(COLLADA_DATA "cube.dae", &opt, &a, &err);
    CHECK_MSG(r == VS_ERROR_LIMIT, "%s", err.message);
    vs_asset_free(a);
    opt.limits.max_total_memory = 0;
    opt.limits.max_joints = 1;
    r = vs_asset_load_file(COLLADA_DATA "name_array_sid.dae", &opt, &a, &err);
    CHECK_MSG(r == VS_ERROR_LIMIT, "%s", err.message);
    vs_asset_free(a);
}

int main(void)
{
    RUN(broken_files_name_the_line);
    RUN(repaired_files_warn);
    RUN(truncated_and_corrupted_files_fail_cleanly);
    RUN(limits_are_enforced);
    return test_summary();
}
