/* SPDX-License-Identifier: MIT */
/* A file that validates, with every primitive mode at 0 to 4 vertices and 1
 * to 4 indices (a LINE_STRIP without positions, a LINE_LOOP of one vertex,
 * two vertices of TRIANGLES...), renders in every view with the skeleton
 * and through `vskin render`: what cannot be drawn draws nothing, nothing
 * crashes. Skipped without EGL. */
#include <sys/wait.h>

#include "render_support.h"

static const char *path = VS_TEST_DATA "/degenerate/primitives.gltf";

static void test_every_view_renders(void)
{
    vs_asset *a = NULL;
    vs_error e = {0};
    CHECK(vs_asset_load_file(path, NULL, &a, &e) == VS_OK);
    if (!a) return;
    CHECK(a->mesh_count == 1 && a->meshes[0].primitive_count == 7 * 9);
    vs_renderer *r = open_renderer_or_skip(a);
    CHECK(r != NULL);
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(a, &pose, &e) == VS_OK);
    if (r && pose) {
        vs_pose_update_world(pose);
        static uint8_t rgba[32 * 32 * 4];
        for (int view = VS_VIEW_SHADED; view <= VS_VIEW_NORMALS; ++view) {
            vs_render_desc d = {.width = 32,
                                .height = 32,
                                .view = (vs_render_view)view,
                                .skeleton = true};
            vs_result res = vs_render_pose(r, pose, &d, rgba, &e);
            CHECK_MSG(res == VS_OK, "view %d: %s", view, e.message);
        }
    }
    vs_pose_free(pose);
    vs_renderer_destroy(r);
    vs_asset_free(a);
}

static void test_cli_renders_it(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' render '%s' --view outline --size 32x32 -o "
             "'%s/degenerate.png' 2>/dev/null >/dev/null",
             VS_CLI_PATH, path, VS_TEST_TMP);
    int status = system(cmd);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d",
              status);
}

int main(void)
{
    RUN(test_every_view_renders);
    RUN(test_cli_renders_it);
    return test_summary();
}
