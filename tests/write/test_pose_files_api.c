/* SPDX-License-Identifier: MIT */
/* The public posed-mesh writers of vskin_tools.h: vs_posed_scene_create
 * holds what the pose gives, vs_write_posed_scene / vs_write_pose refuse
 * what they cannot write and leave the old file when they fail, and the
 * files are the same bytes `vskin pose`, `vskin bake` and `vskin convert`
 * write. */
#include <stdint.h>

#include "test.h"
#include "tools/cli_run.h"
#include "vskin/vskin_tools.h"
#include "write/tools_api_support.h"

#define DIR_ VS_TEST_TMP "/pose_files_api"
#define OLD "old contents\n"
#define SKIN VS_TEST_DATA "/gltf2/CesiumMan.gltf"
#define TIME 0.5f

/* The asset's clip 0 at TIME, world matrices updated. */
static vs_pose *posed(vs_asset **out_asset)
{
    vs_error e;
    vs_pose *pose = NULL;
    *out_asset = NULL;
    if (vs_asset_load_file(SKIN, NULL, out_asset, &e) != VS_OK ||
        vs_pose_create(*out_asset, &pose, &e) != VS_OK ||
        vs_pose_sample(pose, 0, TIME, VS_TIME_CLAMP, &e) != VS_OK) {
        CHECK_MSG(0, "%s", e.message);
        return pose;
    }
    vs_pose_update_world(pose);
    return pose;
}

static void test_format_of_and_labels(void)
{
    CHECK(vs_posed_format_of("a/b.OBJ") == VS_POSED_FORMAT_OBJ);
    CHECK(vs_posed_format_of("b.ply") == VS_POSED_FORMAT_PLY);
    CHECK(vs_posed_format_of("x.y/b.Json") == VS_POSED_FORMAT_JSON);
    CHECK(vs_posed_format_of("a.obj/b") == VS_POSED_FORMAT_AUTO);
    CHECK(vs_posed_format_of("b.glb") == VS_POSED_FORMAT_AUTO);
    CHECK(vs_posed_format_of(NULL) == VS_POSED_FORMAT_AUTO);
    vs_node nodes[3] = {{.name = "hip"}, {.id = "knee_id"}, {0}};
    vs_asset a = {.node_count = 3, .nodes = nodes};
    char buf[24];
    CHECK(strcmp(vs_node_label(&a, 0, buf, sizeof buf), "hip") == 0);
    CHECK(strcmp(vs_node_label(&a, 1, buf, sizeof buf), "knee_id") == 0);
    CHECK(strcmp(vs_node_label(&a, 2, buf, sizeof buf), "node2") == 0);
    CHECK(strcmp(vs_node_label(&a, 3, buf, sizeof buf), "") == 0);
    CHECK(strcmp(vs_node_label(NULL, 0, buf, sizeof buf), "") == 0);
    CHECK(strcmp(vs_node_label(&a, 2, NULL, 0), "") == 0);
}

static void test_scene_holds_the_pose(void)
{
    vs_asset *a;
    vs_pose *pose = posed(&a);
    if (!pose) return;
    vs_posed_scene *s = NULL;
    vs_error e;
    vs_posed_scene_options o = {.clip = 0, .time = TIME, .joints = true};
    CHECK_MSG(vs_posed_scene_create(pose, &o, &s, &e) == VS_OK, "%s",
              e.message);
    if (s) {
        CHECK(s->object_count == a->instance_count && s->clip == 0);
        CHECK(s->time == TIME && strcmp(s->source, SKIN) == 0);
        CHECK(s->skin_count == a->skin_count && s->skins);
        vs_posed_primitive want = {0};
        const vs_posed_object *obj = &s->objects[0];
        CHECK(vs_pose_mesh_primitive(pose, obj->node, 0, NULL, &want, &e) ==
              VS_OK);
        CHECK(want.vertex_count == obj->posed[0].vertex_count &&
              memcmp(want.positions, obj->posed[0].positions,
                     12 * (size_t)want.vertex_count) == 0);
        vs_posed_primitive_free(&want);
        uint32_t joints = a->skins[0].joint_count;
        float *m = malloc(64 * (size_t)joints);
        CHECK(m && vs_pose_joint_matrices(pose, 0, -1, m, &e) == VS_OK &&
              memcmp(m, s->skins[0].joint_matrices, 64 * (size_t)joints) == 0);
        free(m);
        uint32_t node = s->skins[0].joints[1].node;
        CHECK(memcmp(s->skins[0].joints[1].world_position,
                     vs_pose_world(pose, node) + 12, 12) == 0);
    }
    vs_posed_scene_free(s);
    /* Defaults: no joints; a clip the asset lacks is the rest pose. */
    o = (vs_posed_scene_options){.clip = 99};
    CHECK(vs_posed_scene_create(pose, &o, &s, &e) == VS_OK);
    CHECK(s && !s->skins && s->skin_count == 0 && s->clip == -1 &&
          strcmp(s->clip_name, "") == 0);
    vs_posed_scene_free(s);
    CHECK(vs_posed_scene_create(NULL, NULL, &s, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_posed_scene_create(pose, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    vs_posed_scene mine = {.source = "mine"};
    vs_posed_scene_free(&mine); /* not ours: ignored */
    vs_posed_scene_free(NULL);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void test_write_refusals(void)
{
    vs_asset *a;
    vs_pose *pose = posed(&a);
    if (!pose) return;
    char obj[512], txt[512];
    scratch_path(obj, sizeof obj, DIR_, "refused.obj");
    scratch_path(txt, sizeof txt, DIR_, "refused.txt");
    vs_posed_scene_options joints = {.joints = true};
    vs_error e;
    CHECK(vs_write_pose(pose, obj, &joints, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_pose(pose, txt, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK_MSG(strstr(e.message, "refused.txt") != NULL, "%s", e.message);
    CHECK(vs_write_pose(NULL, obj, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(vs_write_pose(pose, NULL, NULL, &e) == VS_ERROR_ARGUMENT);
    CHECK(!test_path_exists(obj) && !test_path_exists(txt));
    vs_posed_scene empty = {.object_count = 1};
    CHECK(vs_write_posed_scene(&empty, obj, VS_POSED_FORMAT_AUTO, &e) ==
          VS_ERROR_ARGUMENT);
    vs_posed_object nameless = {0};
    empty.objects = &nameless;
    CHECK(vs_write_posed_scene(&empty, obj, VS_POSED_FORMAT_AUTO, &e) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_write_posed_scene(NULL, obj, VS_POSED_FORMAT_AUTO, &e) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_write_posed_scene(&empty, txt, VS_POSED_FORMAT_AUTO, &e) ==
          VS_ERROR_ARGUMENT);
    CHECK(vs_write_pose(pose, DIR_ "/none/x.obj", NULL, &e) == VS_ERROR_IO);
    /* An explicit format writes any name; a failed write keeps the file. */
    CHECK(vs_write_posed_scene(&(vs_posed_scene){0}, txt, VS_POSED_FORMAT_OBJ,
                               &e) == VS_OK);
    CHECK(write_text(obj, OLD));
    limit_file_size(1024);
    CHECK(vs_write_pose(pose, obj, NULL, &e) == VS_ERROR_IO);
    limit_file_size(0);
    CHECK(file_is(obj, OLD));
    CHECK(leftover_temps(DIR_) == 0);
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* `vskin ARGS` (with OUT where %s is) and the API's file are the same. */
static void check_cli(const char *args_fmt, const char *cli_name,
                      const char *api_path)
{
    char out[512], args[1400];
    scratch_path(out, sizeof out, DIR_, cli_name);
    snprintf(args, sizeof args, args_fmt, out);
    cli_result r = cli_run(args);
    CHECK_MSG(r.status == 0, "vskin %s: %s", args, r.err);
    cli_result_free(&r);
    CHECK_MSG(same_bytes(out, api_path), "vskin %s: not the bytes of %s", args,
              api_path);
}

static void test_same_bytes_as_the_cli(void)
{
    vs_asset *a;
    vs_pose *pose = posed(&a);
    if (!pose) return;
    static const char *names[] = {"api.obj", "api.ply", "api.json"};
    char api[3][512], joints[512], glb[512], morph[512];
    vs_error e;
    vs_posed_scene_options o = {.clip = 0, .time = TIME};
    for (int k = 0; k < 3; ++k) {
        scratch_path(api[k], sizeof api[k], DIR_, names[k]);
        o.joints = k == 2;
        CHECK_MSG(vs_write_pose(pose, api[k], &o, &e) == VS_OK, "%s",
                  e.message);
    }
    check_cli("pose '" SKIN "' --time 0.5 -o '%s'", "cli.obj", api[0]);
    check_cli("pose '" SKIN "' --time 0.5 -o '%s'", "cli.ply", api[1]);
    check_cli("pose '" SKIN "' --time 0.5 --joints -o '%s'", "cli.json",
              api[2]);
    check_cli("bake '" SKIN "' --time 0.5 -o '%s'", "cli_bake.obj", api[0]);
    /* --joints beside an OBJ: the joints alone as JSON. */
    vs_posed_scene *s = NULL;
    o.joints = true;
    CHECK(vs_posed_scene_create(pose, &o, &s, &e) == VS_OK);
    if (s) {
        s->objects = NULL;
        s->object_count = 0;
    }
    scratch_path(joints, sizeof joints, DIR_, "api_joints.json");
    CHECK(s &&
          vs_write_posed_scene(s, joints, VS_POSED_FORMAT_AUTO, &e) == VS_OK);
    vs_posed_scene_free(s);
    check_cli("pose '" SKIN "' --time 0.5 --joints -o '%s'", "cli2.obj",
              api[0]);
    char cli_joints[512];
    CHECK(same_bytes(
        scratch_path(cli_joints, sizeof cli_joints, DIR_, "cli2_joints.json"),
        joints));
    /* convert, and a clip baked as morph targets */
    scratch_path(glb, sizeof glb, DIR_, "api.glb");
    CHECK(vs_write_gltf(a, glb, NULL, NULL, &e) == VS_OK);
    check_cli("convert '" SKIN "' -o '%s'", "cli.glb", glb);
    vs_asset *baked = NULL;
    vs_bake_clip_options bo = {.fps = 10};
    scratch_path(morph, sizeof morph, DIR_, "api_morph.glb");
    CHECK(vs_bake_clip_morph(a, 0, &bo, &baked, &e) == VS_OK);
    CHECK(baked && vs_write_gltf(baked, morph, NULL, NULL, &e) == VS_OK);
    vs_asset_free(baked);
    check_cli("bake '" SKIN "' --clip 0 --fps 10 -o '%s'", "cli_morph.glb",
              morph);
    vs_pose_free(pose);
    vs_asset_free(a);
}

int main(void)
{
    scratch_reset(DIR_);
    RUN(test_format_of_and_labels);
    RUN(test_scene_holds_the_pose);
    RUN(test_write_refusals);
    RUN(test_same_bytes_as_the_cli);
    return test_summary();
}
