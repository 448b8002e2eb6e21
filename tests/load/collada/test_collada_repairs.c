/* SPDX-License-Identifier: MIT */
/* COLLADA flaws that leave the pose known load with a warning and pose as
 * the file says (docs/formats.md, "Refused or repaired"): each case edits
 * one small skinned, animated document, checks the warning's element and
 * text, the posed positions, and that a strict load refuses the file.
 * Decimal commas stay refused. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test_collada_fixture.h"

/* One triangle skinned wholly to joint j1 (identity inverse bind
 * matrices), j1 at (0, 2, 0) at rest and moved by the clip from (0, 2, 0)
 * at t = 0 to (0, 4, 0) at t = 1: the posed corners are the positions plus
 * j1's translation. */
static const char base[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" "
    "version=\"1.4.1\">\n"
    "<library_effects><effect id=\"fx\"><profile_COMMON><technique "
    "sid=\"t\"><lambert><diffuse><color>1 0 0 1</color></diffuse></lambert>"
    "</technique></profile_COMMON></effect></library_effects>\n"
    "<library_materials><material id=\"mat\" name=\"mat\"><instance_effect "
    "url=\"#fx\"/></material></library_materials>\n"
    "<library_geometries><geometry id=\"g\" name=\"g\"><mesh>\n"
    "<source id=\"pos\"><float_array id=\"pos-a\" count=\"9\">0 0 0 1 0 0 0 "
    "1 0</float_array><technique_common><accessor source=\"#pos-a\" "
    "count=\"3\" stride=\"3\"><param name=\"X\" type=\"float\"/><param "
    "name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<source id=\"nrm\"><float_array id=\"nrm-a\" count=\"3\">0 0 "
    "1</float_array><technique_common><accessor source=\"#nrm-a\" "
    "count=\"1\" stride=\"3\"><param name=\"X\" type=\"float\"/><param "
    "name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<source id=\"uv\"><float_array id=\"uv-a\" count=\"6\">0 0 1 0 0 "
    "1</float_array><technique_common><accessor source=\"#uv-a\" count=\"3\" "
    "stride=\"2\"><param name=\"S\" type=\"float\"/><param name=\"T\" "
    "type=\"float\"/></accessor></technique_common></source>\n"
    "<vertices id=\"vtx\"><input semantic=\"POSITION\" "
    "source=\"#pos\"/></vertices>\n"
    "<triangles count=\"1\" material=\"m\"><input semantic=\"VERTEX\" "
    "source=\"#vtx\" offset=\"0\"/><input semantic=\"NORMAL\" "
    "source=\"#nrm\" offset=\"1\"/><input semantic=\"TEXCOORD\" "
    "source=\"#uv\" offset=\"2\" set=\"0\"/><p>0 0 0 1 0 1 2 0 "
    "2</p></triangles>\n"
    "</mesh></geometry></library_geometries>\n"
    "<library_controllers><controller id=\"c\" name=\"c\"><skin "
    "source=\"#g\">\n"
    "<source id=\"jn\"><Name_array id=\"jn-a\" count=\"2\">j0 "
    "j1</Name_array><technique_common><accessor source=\"#jn-a\" "
    "count=\"2\"><param name=\"JOINT\" type=\"name\"/></accessor>"
    "</technique_common></source>\n"
    "<source id=\"ibm\"><float_array id=\"ibm-a\" count=\"32\">1 0 0 0 0 1 "
    "0 0 0 0 1 0 0 0 0 1 1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 "
    "1</float_array><technique_common><accessor source=\"#ibm-a\" "
    "count=\"2\" stride=\"16\"><param name=\"TRANSFORM\" "
    "type=\"float4x4\"/></accessor></technique_common></source>\n"
    "<source id=\"w\"><float_array id=\"w-a\" "
    "count=\"1\">1</float_array><technique_common><accessor "
    "source=\"#w-a\" count=\"1\"><param name=\"WEIGHT\" "
    "type=\"float\"/></accessor></technique_common></source>\n"
    "<joints><input semantic=\"JOINT\" source=\"#jn\"/><input "
    "semantic=\"INV_BIND_MATRIX\" source=\"#ibm\"/></joints>\n"
    "<vertex_weights count=\"3\"><input semantic=\"JOINT\" source=\"#jn\" "
    "offset=\"0\"/><input semantic=\"WEIGHT\" source=\"#w\" "
    "offset=\"1\"/><vcount>1 1 1</vcount><v>1 0 1 0 1 0</v>"
    "</vertex_weights>\n"
    "</skin></controller></library_controllers>\n"
    "<library_animations><animation id=\"a\">\n"
    "<source id=\"in\"><float_array id=\"in-a\" count=\"2\">0 "
    "1</float_array><technique_common><accessor source=\"#in-a\" "
    "count=\"2\"><param name=\"TIME\" type=\"float\"/></accessor>"
    "</technique_common></source>\n"
    "<source id=\"out\"><float_array id=\"out-a\" count=\"6\">0 2 0 0 4 "
    "0</float_array><technique_common><accessor source=\"#out-a\" "
    "count=\"2\" stride=\"3\"><param name=\"X\" type=\"float\"/><param "
    "name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>"
    "</accessor></technique_common></source>\n"
    "<sampler id=\"s\"><input semantic=\"INPUT\" source=\"#in\"/><input "
    "semantic=\"OUTPUT\" source=\"#out\"/></sampler>\n"
    "<channel source=\"#s\" target=\"j1/t\"/>\n"
    "</animation></library_animations>\n"
    "<library_visual_scenes><visual_scene id=\"vs\">\n"
    "<node id=\"root\" sid=\"j0\" name=\"root\" type=\"JOINT\"><translate "
    "sid=\"t\">0 0 0</translate>\n"
    "<node id=\"j1\" sid=\"j1\" name=\"j1\" type=\"JOINT\"><translate "
    "sid=\"t\">0 2 0</translate></node></node>\n"
    "<node id=\"m\" name=\"m\"><instance_controller "
    "url=\"#c\"><skeleton>#root</skeleton><bind_material><technique_common>"
    "<instance_material symbol=\"m\" target=\"#mat\"/></technique_common>"
    "</bind_material></instance_controller></node>\n"
    "</visual_scene></library_visual_scenes>\n"
    "<scene><instance_visual_scene url=\"#vs\"/></scene>\n"
    "</COLLADA>\n";

/* The base document with up to three (from, to) edits applied, each to
 * the first occurrence; NULL from ends the list. */
typedef struct edit {
    const char *from, *to;
} edit;

static char *edited(const edit *edits)
{
    size_t cap = sizeof base + 4096;
    char *doc = malloc(cap);
    char *tmp = malloc(cap);
    if (!doc || !tmp) abort();
    memcpy(doc, base, sizeof base);
    for (int i = 0; i < 3 && edits[i].from; ++i) {
        const char *at = strstr(doc, edits[i].from);
        if (!at) {
            fprintf(stderr, "edit \"%s\" not found\n", edits[i].from);
            abort();
        }
        snprintf(tmp, cap, "%.*s%s%s", (int)(at - doc), doc, edits[i].to,
                 at + strlen(edits[i].from));
        memcpy(doc, tmp, cap);
    }
    free(tmp);
    return doc;
}

static vs_result load(const char *doc, bool strict, vs_asset **out,
                      vs_error *err)
{
    vs_load_options opt = {.strict = strict};
    *out = NULL;
    return vs_asset_load_memory(doc, strlen(doc), "repair.dae", &opt, out, err);
}

/* Loads the edited document: it must load with a warning whose object
 * holds `object` and whose message holds `message`, and a strict load
 * must refuse it naming that object. */
static vs_asset *load_repaired(const char *name, const edit *edits,
                               const char *object, const char *message)
{
    char *doc = edited(edits);
    vs_asset *a = NULL, *strict = NULL;
    vs_error err = {0};
    vs_result r = load(doc, false, &a, &err);
    CHECK_MSG(r == VS_OK, "%s: refused: %s", name, err.message);
    bool found = false;
    for (uint32_t i = 0; a && i < a->warning_count; ++i)
        found = found || (strncmp(a->warnings[i].object, "line ", 5) == 0 &&
                          strstr(a->warnings[i].object, object) &&
                          strstr(a->warnings[i].message, message));
    CHECK_MSG(found,
              "%s: no warning at %s saying \"%s\" (%u warnings, "
              "first: %s: %s)",
              name, object, message, a ? a->warning_count : 0,
              a && a->warning_count ? a->warnings[0].object : "",
              a && a->warning_count ? a->warnings[0].message : "");
    r = load(doc, true, &strict, &err);
    CHECK_MSG(r == VS_ERROR_INVALID && strstr(err.message, "strict") &&
                  strstr(err.message, "repair.dae: line "),
              "%s: a strict load gives %d: %s", name, (int)r, err.message);
    vs_asset_free(strict);
    free(doc);
    return a;
}

/* The mesh on node "m" posed by the clip at time t: the corners are the
 * positions moved up by j1, 2 + 2t. */
static void check_posed(const char *name, const vs_asset *a, float t)
{
    if (!a) return;
    int32_t m = collada_node(a, "m");
    CHECK_MSG(m >= 0 && a->nodes[m].mesh >= 0 && a->nodes[m].skin >= 0,
              "%s: node m has no skinned mesh", name);
    if (m < 0 || a->nodes[m].mesh < 0) return;
    vs_pose *pose = NULL;
    vs_error err;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    if (!pose) return;
    CHECK(a->clip_count == 1);
    if (a->clip_count)
        CHECK(vs_pose_sample(pose, 0, t, VS_TIME_CLAMP, &err) == VS_OK);
    vs_pose_update_world(pose);
    vs_posed_primitive out = {0};
    if (collada_posed(pose, (uint32_t)m, 0, &out)) {
        static const float corner[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        const vs_primitive *p = &a->meshes[a->nodes[m].mesh].primitives[0];
        CHECK(out.vertex_count == 3);
        for (uint32_t v = 0; v < out.vertex_count && v < 3; ++v) {
            const float *c = corner[p->source_vertex[v]];
            CHECK_NEAR(out.positions[3 * v], c[0], 1e-5);
            CHECK_NEAR(out.positions[3 * v + 1], c[1] + 2.0f + 2.0f * t, 1e-5);
            CHECK_NEAR(out.positions[3 * v + 2], c[2], 1e-5);
        }
    }
    vs_posed_primitive_free(&out);
    vs_pose_free(pose);
}

static const vs_primitive *primitive(const vs_asset *a)
{
    int32_t m = a ? collada_node(a, "m") : -1;
    if (m < 0 || a->nodes[m].mesh < 0) return NULL;
    return &a->meshes[a->nodes[m].mesh].primitives[0];
}

static void base_loads_without_warnings(void)
{
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK_MSG(load(base, true, &a, &err) == VS_OK, "%s", err.message);
    if (!a) return;
    CHECK(a->warning_count == 0);
    const vs_primitive *p = primitive(a);
    CHECK(p && p->normals && p->texcoords && p->material == 0);
    check_posed("base", a, 0.0f);
    check_posed("base", a, 1.0f);
    vs_asset_free(a);
}

/* <skeleton> naming the <visual_scene>: joints are looked up in that
 * scene, as three.js and assimp do. */
static void skeleton_naming_the_visual_scene(void)
{
    vs_asset *a =
        load_repaired("skeleton_scene",
                      (const edit[]){{"<skeleton>#root</skeleton>",
                                      "<skeleton>#vs</skeleton>"},
                                     {NULL, NULL}},
                      "<skeleton>", "names a <visual_scene>, not a node");
    if (a) CHECK(a->skin_count == 1 && a->skins[0].skeleton == -1);
    check_posed("skeleton_scene", a, 1.0f);
    vs_asset_free(a);
}

/* <skeleton> naming a node only <library_nodes> holds (with a joint sid of
 * its own, which must not be taken): joints come from the scene. */
static void skeleton_naming_a_library_node(void)
{
    vs_asset *a = load_repaired(
        "skeleton_library_node",
        (const edit[]){
            {"<skeleton>#root</skeleton>", "<skeleton>#lib</skeleton>"},
            {"<library_visual_scenes>",
             "<library_nodes><node id=\"lib\"><node id=\"libj\" "
             "sid=\"j1\"><translate sid=\"t\">0 9 "
             "0</translate></node></node></library_nodes>"
             "<library_visual_scenes>"},
            {NULL, NULL}},
        "<skeleton>", "names a <node> that no visual scene holds");
    if (a) {
        int32_t j1 = collada_node(a, "j1");
        CHECK(a->skin_count == 1 && a->skins[0].joints[1] == (uint32_t)j1);
    }
    check_posed("skeleton_library_node", a, 1.0f);
    vs_asset_free(a);
}

/* ColladaMax 0.x: references without "#". */
static void references_without_hash(void)
{
    vs_asset *a = load_repaired(
        "no_hash",
        (const edit[]){{"<skin source=\"#g\">", "<skin source=\"g\">"},
                       {"<skeleton>#root", "<skeleton>root"},
                       {"url=\"#c\"", "url=\"c\""}},
        "<skin source=\"g\">", "\"g\" lacks the \"#\"");
    if (a) {
        bool skeleton = false;
        for (uint32_t i = 0; i < a->warning_count; ++i)
            skeleton =
                skeleton || (strstr(a->warnings[i].object, "<skeleton>") &&
                             strstr(a->warnings[i].message, "\"root\" lacks"));
        CHECK(skeleton);
        CHECK(a->skin_count == 1 &&
              a->skins[0].skeleton == collada_node(a, "root"));
    }
    check_posed("no_hash", a, 1.0f);
    vs_asset_free(a);
}

/* Maya's blendParent1 and a target naming nothing: those channels are
 * ignored, j1's channel still animates. */
static void channels_on_what_is_no_transform(void)
{
    static const char channels[] =
        "<channel source=\"#s\" target=\"j1/blendParent1\"/>"
        "<channel source=\"#s\" target=\"ghost/t\"/>"
        "<channel source=\"#s\" target=\"j1/t\"/>";
    vs_asset *a = load_repaired(
        "blend_parent",
        (const edit[]){{"<channel source=\"#s\" target=\"j1/t\"/>", channels},
                       {NULL, NULL}},
        "<channel target=\"j1/blendParent1\">",
        "\"blendParent1\" is no transform element of node \"j1\"");
    if (a) {
        bool ghost = false;
        for (uint32_t i = 0; i < a->warning_count; ++i)
            ghost =
                ghost || (strstr(a->warnings[i].object, "target=\"ghost/t\"") &&
                          strstr(a->warnings[i].message, "channel ignored"));
        CHECK(ghost);
    }
    check_posed("blend_parent", a, 1.0f);
    check_posed("blend_parent", a, 0.5f);
    vs_asset_free(a);
}

/* A skin whose geometry is gone: skeleton and clip load, no mesh. */
static void skin_without_geometry(void)
{
    vs_asset *a = load_repaired(
        "no_geometry",
        (const edit[]){{"<skin source=\"#g\">", "<skin source=\"#gone\">"},
                       {NULL, NULL}},
        "<skin source=\"#gone\">", "does not exist: loaded without the mesh");
    if (!a) return;
    int32_t m = collada_node(a, "m"), j1 = collada_node(a, "j1");
    CHECK(a->mesh_count == 0 && a->skin_count == 0 && m >= 0 && j1 >= 0);
    CHECK(m >= 0 && a->nodes[m].mesh == -1 && a->nodes[m].skin == -1);
    CHECK(a->clip_count == 1);
    vs_pose *pose = NULL;
    vs_error err;
    if (j1 >= 0 && a->clip_count && vs_pose_create(a, &pose, &err) == VS_OK) {
        CHECK(vs_pose_sample(pose, 0, 1.0f, VS_TIME_CLAMP, &err) == VS_OK);
        float local[16];
        vs_pose_get_local(pose, (uint32_t)j1, local);
        CHECK_NEAR(local[12], 0, 1e-6);
        CHECK_NEAR(local[13], 4, 1e-6);
        CHECK_NEAR(local[14], 0, 1e-6);
    }
    vs_pose_free(pose);
    vs_asset_free(a);
}

/* 2-D positions (X, Y, stride 2) read with Z = 0. */
static void positions_in_two_dimensions(void)
{
    vs_asset *a = load_repaired(
        "positions_2d",
        (const edit[]){{"count=\"9\">0 0 0 1 0 0 0 1 0</float_array>"
                        "<technique_common><accessor source=\"#pos-a\" "
                        "count=\"3\" stride=\"3\"><param name=\"X\" "
                        "type=\"float\"/><param name=\"Y\" "
                        "type=\"float\"/><param name=\"Z\" type=\"float\"/>",
                        "count=\"6\">0 0 1 0 0 1</float_array>"
                        "<technique_common><accessor source=\"#pos-a\" "
                        "count=\"3\" stride=\"2\"><param name=\"X\" "
                        "type=\"float\"/><param name=\"Y\" type=\"float\"/>"},
                       {NULL, NULL}},
        "<source id=\"pos\">", "2 values (X, Y) per element: read with Z = 0");
    check_posed("positions_2d", a, 1.0f);
    vs_asset_free(a);
}

/* INF and NaN texture coordinates (C and Microsoft spellings) read as 0. */
static void texcoords_not_finite(void)
{
    vs_asset *a = load_repaired(
        "texcoord_nan",
        (const edit[]){{">0 0 1 0 0 1</float_array>",
                        ">0 0 1.#QNAN0 0 0 -inf</float_array>"},
                       {NULL, NULL}},
        "<source id=\"uv\">", "2 texture coordinate values are not finite");
    const vs_primitive *p = primitive(a);
    CHECK(p && p->texcoords);
    for (uint32_t v = 0; p && p->texcoords && v < p->vertex_count; ++v) {
        CHECK(isfinite(p->texcoords[2 * v]) &&
              isfinite(p->texcoords[2 * v + 1]));
        CHECK_NEAR(p->texcoords[2 * v], 0, 1e-6);
    }
    check_posed("texcoord_nan", a, 1.0f);
    vs_asset_free(a);
}

/* Normal and texcoord indices out of range drop that attribute. */
static void attribute_indices_out_of_range(void)
{
    vs_asset *a = load_repaired(
        "normal_index",
        (const edit[]){{"<p>0 0 0 1 0 1 2 0 2</p>", "<p>0 0 0 1 5 1 2 0 2</p>"},
                       {NULL, NULL}},
        "<triangles material=\"m\">",
        "corner 1: normal index 5 of 1 is out of range: normals dropped");
    const vs_primitive *p = primitive(a);
    CHECK(p && !p->normals && p->texcoords);
    check_posed("normal_index", a, 1.0f);
    vs_asset_free(a);

    a = load_repaired(
        "texcoord_index",
        (const edit[]){{"<p>0 0 0 1 0 1 2 0 2</p>", "<p>0 0 0 1 0 1 2 0 9</p>"},
                       {NULL, NULL}},
        "<triangles material=\"m\">",
        "texcoord index 9 of 3 is out of range: texture coordinates dropped");
    p = primitive(a);
    CHECK(p && p->normals && !p->texcoords);
    check_posed("texcoord_index", a, 1.0f);
    vs_asset_free(a);
}

/* A texcoord input naming no source, or a source without an accessor. */
static void texcoord_source_missing(void)
{
    vs_asset *a = load_repaired(
        "texcoord_source",
        (const edit[]){{"source=\"#uv\" offset", "source=\"#nouv\" offset"},
                       {NULL, NULL}},
        "<input source=\"#nouv\">",
        "does not exist: texture coordinates dropped");
    const vs_primitive *p = primitive(a);
    CHECK(p && p->normals && !p->texcoords);
    check_posed("texcoord_source", a, 1.0f);
    vs_asset_free(a);

    a = load_repaired(
        "texcoord_accessor",
        (const edit[]){{"<technique_common><accessor source=\"#uv-a\" "
                        "count=\"3\" stride=\"2\"><param name=\"S\" "
                        "type=\"float\"/><param name=\"T\" type=\"float\"/>"
                        "</accessor></technique_common>",
                        ""},
                       {NULL, NULL}},
        "<input source=\"#uv\">", "has no <technique_common><accessor>");
    p = primitive(a);
    CHECK(p && !p->texcoords);
    check_posed("texcoord_accessor", a, 1.0f);
    vs_asset_free(a);
}

/* An <instance_material> whose target names no material. */
static void material_binding_to_nothing(void)
{
    vs_asset *a = load_repaired(
        "material_target",
        (const edit[]){{"target=\"#mat\"", "target=\"#nomat\""}, {NULL, NULL}},
        "<instance_material target=\"#nomat\">",
        "is not a <material> of the document: material binding dropped");
    const vs_primitive *p = primitive(a);
    CHECK(p && p->material == -1);
    check_posed("material_target", a, 1.0f);
    vs_asset_free(a);
}

/* One number cannot be misread for a decimal comma: "0,01" is 0.01 m. */
static void unit_with_a_decimal_comma(void)
{
    vs_asset *a = load_repaired(
        "unit_comma",
        (const edit[]){{"version=\"1.4.1\">\n",
                        "version=\"1.4.1\">\n<asset><unit "
                        "meter=\"0,01\"/></asset>\n"},
                       {NULL, NULL}},
        "<unit meter=\"0,01\">", "a decimal comma");
    CHECK(a && a->unit_meters == 0.01f);
    check_posed("unit_comma", a, 1.0f);
    vs_asset_free(a);
}

/* An effect in another file only shades: the material is white. */
static void effect_in_another_file(void)
{
    vs_asset *a = load_repaired(
        "effect_file",
        (const edit[]){{"url=\"#fx\"", "url=\"effects.dae#fx\""},
                       {NULL, NULL}},
        "<material id=\"mat\">", "its effect is not read");
    CHECK(a && a->material_count == 1 && a->materials[0].base_color[1] == 1.0f);
    check_posed("effect_file", a, 1.0f);
    vs_asset_free(a);
}

/* A node in another file: that copy is left out, the rest poses. */
static void instance_node_in_another_file(void)
{
    vs_asset *a = load_repaired(
        "node_file",
        (const edit[]){{"<node id=\"m\" name=\"m\">",
                        "<node id=\"m\" name=\"m\"><instance_node "
                        "url=\"lib.dae#x\"/>"},
                       {NULL, NULL}},
        "<instance_node url=\"lib.dae#x\">", "the instance is left out");
    int32_t m = a ? collada_node(a, "m") : -1;
    CHECK(m >= 0 && a->nodes[m].child_count == 0);
    check_posed("node_file", a, 1.0f);
    vs_asset_free(a);
}

/* "1,5" cannot be read either way: refused, saying why. */
static void decimal_commas_refused(void)
{
    char *doc = edited((const edit[]){
        {">0 0 0 1 0 0 0 1 0<", ">0 0 0 1,5 0 0 0 1 0<"}, {NULL, NULL}});
    vs_asset *a = NULL;
    vs_error err = {0};
    vs_result r = load(doc, false, &a, &err);
    CHECK_MSG(r == VS_ERROR_INVALID &&
                  strstr(err.message, "<float_array id=\"pos-a\">") &&
                  strstr(err.message,
                         "numbers with decimal commas (exported under a "
                         "comma locale?) cannot be read"),
              "got %d: %s", (int)r, err.message);
    vs_asset_free(a);
    free(doc);
}

int main(void)
{
    RUN(base_loads_without_warnings);
    RUN(skeleton_naming_the_visual_scene);
    RUN(skeleton_naming_a_library_node);
    RUN(references_without_hash);
    RUN(channels_on_what_is_no_transform);
    RUN(skin_without_geometry);
    RUN(positions_in_two_dimensions);
    RUN(texcoords_not_finite);
    RUN(attribute_indices_out_of_range);
    RUN(texcoord_source_missing);
    RUN(material_binding_to_nothing);
    RUN(unit_with_a_decimal_comma);
    RUN(effect_in_another_file);
    RUN(instance_node_in_another_file);
    RUN(decimal_commas_refused);
    return test_summary();
}
