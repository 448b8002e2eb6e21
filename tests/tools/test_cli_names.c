/* SPDX-License-Identifier: MIT */
/* Names from a file reach the terminal and the text outputs escaped: a
 * node, mesh, scene or clip name with a newline or an escape sequence
 * neither adds a line to `vskin info` / `vskin pose` output nor sends the
 * escape to the terminal, and error messages quoting names are escaped. */
#include <stdbool.h>

#include "tools/cli_run.h"

/* One triangle; every name carries a newline, a fake output line and a
 * terminal escape (ESC [ 2 J clears the screen). */
static const char evil_gltf[] =
    "{\"asset\":{\"version\":\"2.0\",\"generator\":\"gen\\u001b[2J\"},"
    "\"scene\":0,\"scenes\":[{\"name\":\"scene\\nnodes: 999\","
    "\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"node\\u001b]0;title\\u0007\\nskins: 7\","
    "\"mesh\":0}],"
    "\"meshes\":[{\"name\":\"mesh\\r\\nclips: 5\",\"primitives\":[{"
    "\"attributes\":{\"POSITION\":0}}]}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
    "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
    "\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/"
    "octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]}";

static bool has_control_bytes(const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; ++c)
        if ((*c < 0x20 && *c != '\n') || *c == 0x7f) return true;
    return false;
}

static void info_and_pose_escape_names(void)
{
    const char *path = VS_TEST_TMP "/evil_names.gltf";
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fputs(evil_gltf, f);
    fclose(f);
    cli_result r = cli_run("info '" VS_TEST_TMP "/evil_names.gltf'");
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(!has_control_bytes(r.out));
    CHECK(test_count_lines_starting(r.out, "nodes:") == 1);
    CHECK(test_count_lines_starting(r.out, "skins:") == 1);
    CHECK(test_count_lines_starting(r.out, "clips:") == 1);
    CHECK(strstr(r.out, "mesh\\x0d\\x0aclips: 5") != NULL);
    free(r.out);
    free(r.err);
    r = cli_run("pose '" VS_TEST_TMP "/evil_names.gltf'");
    CHECK_MSG(r.status == 0, "%s", r.err);
    CHECK(!has_control_bytes(r.out));
    CHECK(test_count_lines_starting(r.out, "skins: 7") == 0);
    free(r.out);
    free(r.err);
    /* An error quoting the clip name the user asked for. */
    r = cli_run("pose '" VS_TEST_TMP "/evil_names.gltf' --anim \"$(printf "
                "'x\\033[2Jy')\"");
    CHECK(r.status != 0);
    CHECK(!has_control_bytes(r.err));
    CHECK(strstr(r.err, "x\\x1b[2Jy") != NULL);
    free(r.out);
    free(r.err);
    remove(path);
}

int main(void)
{
    RUN(info_and_pose_escape_names);
    return test_summary();
}
