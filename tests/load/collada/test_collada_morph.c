/* SPDX-License-Identifier: MIT */
/* COLLADA <morph> controllers (tests/data/collada/morph_skin.dae): a quad
 * with two NORMALIZED targets under a <skin> (morph first, then skinning),
 * its animated weights and joint, a RELATIVE morph instanced directly, the
 * warning for target normals that cannot be paired, the same pose after
 * writing glTF 2.0 and loading it again, and the refusals. Expected
 * positions are worked out by hand in the comments. */
#include "test_collada_fixture.h"
#include "vskin/vskin_tools.h"

#define MORPH_FILE COLLADA_DATA "morph_skin.dae"

/* Base quad: positions 0 (0,0,0), 1 (1,0,0), 2 (1,1,0), 3 (0,1,0).
 * t0 lifts position 2 to z = 1, t1 position 3 to z = 2 (NORMALIZED:
 * displacements t - base). Joint J rests at (0,0,5) with the inverse of
 * that as its inverse bind matrix, so at rest skinning is the identity;
 * the clip moves J along X from 0 to 2 over [0, 1] s, weight 0 from 0.5 to
 * 0 and weight 1 from 0 to 1. */
typedef struct expect {
    double p2[3], p3[3];
} expect;

/* Posed positions of the COLLADA positions 2 and 3 of the mesh on node. */
static void check_pose(const vs_pose *pose, const char *node, const expect *e,
                       const char *what)
{
    const vs_asset *a = vs_pose_asset(pose);
    int32_t n = collada_node(a, node);
    if (n < 0) {
        /* A reloaded glTF keeps names, not ids. */
        for (uint32_t i = 0; i < a->node_count; ++i)
            if (a->nodes[i].name && strcmp(a->nodes[i].name, node) == 0)
                n = (int32_t)i;
    }
    CHECK_MSG(n >= 0, "%s: no node %s", what, node);
    if (n < 0) return;
    vs_posed_primitive out = {0};
    if (!collada_posed(pose, (uint32_t)n, 0, &out)) return;
    const vs_primitive *p = &a->meshes[a->nodes[n].mesh].primitives[0];
    int seen = 0;
    for (uint32_t v = 0; v < out.vertex_count; ++v) {
        /* glTF has no source_vertex: find the vertex by its rest position
         * (x, y are not morphed here). */
        const float *rest = p->positions + 3 * (size_t)v;
        const double *want = rest[0] == 1 && rest[1] == 1   ? e->p2
                             : rest[0] == 0 && rest[1] == 1 ? e->p3
                                                            : NULL;
        if (!want) continue;
        ++seen;
        for (int k = 0; k < 3; ++k)
            CHECK_MSG(fabs(out.positions[3 * v + k] - want[k]) <= 1e-5,
                      "%s: %s vertex %u [%d] = %g, want %g", what, node, v, k,
                      (double)out.positions[3 * v + k], want[k]);
    }
    CHECK_MSG(seen == 2, "%s: %d vertices checked", what, seen);
    vs_posed_primitive_free(&out);
}

static void check_clip(const vs_asset *a, const char *what)
{
    vs_pose *pose = NULL;
    vs_error err;
    if (vs_pose_create(a, &pose, &err) != VS_OK) {
        CHECK_MSG(false, "%s: %s", what, err.message);
        return;
    }
    /* Rest: weights (0.5, 0) from MORPH_WEIGHT. */
    vs_pose_update_world(pose);
    check_pose(pose, "M", &(expect){{1, 1, 0.5}, {0, 1, 0}}, what);
    /* RELATIVE: base + 1 * (0,0,3) at position 2. */
    check_pose(pose, "R", &(expect){{1, 1, 3}, {0, 1, 0}}, what);
    /* t = 0.5: weights (0.25, 0.5), J at x = 1. */
    CHECK(vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, &err) == VS_OK);
    vs_pose_update_world(pose);
    check_pose(pose, "M", &(expect){{2, 1, 0.25}, {1, 1, 1}}, what);
    /* t = 1: weights (0, 1), J at x = 2. */
    CHECK(vs_pose_sample(pose, 0, 1.0f, VS_TIME_CLAMP, &err) == VS_OK);
    vs_pose_update_world(pose);
    check_pose(pose, "M", &(expect){{3, 1, 0}, {2, 1, 2}}, what);
    vs_pose_free(pose);
}

static void morph_under_skin_poses_as_morph_then_skin(void)
{
    vs_asset *a = collada_load_checked(MORPH_FILE);
    if (!a) return;
    int32_t m = collada_node(a, "M");
    CHECK(m >= 0 && a->nodes[m].skin >= 0 && a->nodes[m].mesh >= 0);
    if (m < 0 || a->nodes[m].mesh < 0) goto done;
    const vs_mesh *mesh = &a->meshes[a->nodes[m].mesh];
    CHECK(mesh->weight_count == 2 && mesh->weights &&
          mesh->weights[0] == 0.5f && mesh->weights[1] == 0.0f);
    const vs_primitive *p = &mesh->primitives[0];
    CHECK(p->target_count == 2 && p->influence_count == 4);
    if (p->target_count != 2) goto done;
    /* t0's normals pair with the base's corner for corner: (0,1,0) -
     * (0,0,1); t1 lists its quad from another corner, so its normals are
     * left out (with the warning below). */
    CHECK(p->targets[0].normals != NULL && p->targets[1].normals == NULL);
    if (p->targets[0].normals) {
        CHECK_NEAR(p->targets[0].normals[1], 1, 1e-6);
        CHECK_NEAR(p->targets[0].normals[2], -1, 1e-6);
    }
    check_clip(a, "COLLADA");
done:
    vs_asset_free(a);
}

static void unpaired_target_normals_warn(void)
{
    vs_asset *a = collada_load_checked(MORPH_FILE);
    if (!a) return;
    CHECK(a->warning_count == 1);
    if (a->warning_count == 1) {
        CHECK_MSG(strstr(a->warnings[0].object, "<morph source=\"#base\">") &&
                      strstr(a->warnings[0].object, "line "),
                  "object %s", a->warnings[0].object);
        CHECK_MSG(
            strstr(a->warnings[0].message,
                   "MORPH_TARGET 1 (\"t1\") lists its polygons "
                   "differently") &&
                strstr(a->warnings[0].message, "its normals are not morphed"),
            "message %s", a->warnings[0].message);
    }
    vs_asset_free(a);
    vs_load_options opt = {.strict = true};
    vs_error err;
    CHECK(vs_asset_load_file(MORPH_FILE, &opt, &a, &err) == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "refused by a strict load"), "%s",
              err.message);
}

static void converted_glb_poses_the_same(void)
{
    vs_asset *a = collada_load_checked(MORPH_FILE);
    if (!a) return;
    const char *path = VS_TEST_TMP "/collada_morph_skin.glb";
    vs_error err;
    vs_result r = vs_write_gltf(a, path, NULL, NULL, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    vs_asset_free(a);
    if (r != VS_OK) return;
    vs_asset *b = NULL;
    r = vs_asset_load_file(path, NULL, &b, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    check_clip(b, "glTF");
    vs_asset_free(b);
    remove(path);
}

/* text with its first `from` replaced by `to` (malloc'd; text is freed). */
static char *replace(char *text, const char *from, const char *to)
{
    char *at = strstr(text, from);
    if (!at) {
        fprintf(stderr, "edit \"%s\" not found\n", from);
        abort();
    }
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *doc = malloc(n);
    if (!doc) abort();
    snprintf(doc, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    free(text);
    return doc;
}

/* Loads the file with edits[2i] replaced by edits[2i+1] (count pairs) into
 * *out (NULL: freed). */
static vs_result load_edits(const char *const *edits, int count, vs_asset **out,
                            vs_error *err)
{
    char *doc = test_read_text(MORPH_FILE);
    if (!doc) abort();
    for (int i = 0; i < count; ++i)
        doc = replace(doc, edits[2 * i], edits[2 * i + 1]);
    vs_asset *a = NULL;
    vs_result r =
        vs_asset_load_memory(doc, strlen(doc), "morph.dae", NULL, &a, err);
    if (out)
        *out = a;
    else
        vs_asset_free(a);
    free(doc);
    return r;
}

static vs_result load_edit(const char *from, const char *to, vs_error *err)
{
    return load_edits((const char *const[]){from, to}, 1, NULL, err);
}

/* One channel on the whole MORPH_WEIGHT source, two values per key: keys
 * (0.5, 0) and (0, 1), the weights of the two single channels, which it
 * overrides (it comes later), so the clip poses as before. */
static void channel_on_all_weights(void)
{
    static const char *const edits[] = {
        "<float_array id=\"w1-out-a\" count=\"2\">0 1</float_array>"
        "<technique_common><accessor source=\"#w1-out-a\" count=\"2\">"
        "<param name=\"X\" type=\"float\"/></accessor>",
        "<float_array id=\"w1-out-a\" count=\"4\">0.5 0  0 1</float_array>"
        "<technique_common><accessor source=\"#w1-out-a\" count=\"2\" "
        "stride=\"2\"><param name=\"A\" type=\"float\"/>"
        "<param name=\"B\" type=\"float\"/></accessor>",
        "target=\"morph-weights(1)\"",
        "target=\"morph-weights\"",
    };
    vs_asset *a = NULL;
    vs_error err;
    vs_result r = load_edits(edits, 2, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r == VS_OK) check_clip(a, "whole array");
    vs_asset_free(a);
    /* Without the stride: one value per key for two weights. */
    r = load_edits(edits + 2, 1, NULL, &err);
    CHECK(r == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "OUTPUT has 1 values per key but the "
                                  "target takes 2"),
              "%s", err.message);
}

/* A target with positions and no polygons of its own (the conformance
 * suite's "no_primitive" cases): its positions pair with the base's by
 * index, so the clip poses as with t1's quad. */
static void target_without_polygons(void)
{
    static const char *const edits[] = {
        "<polylist count=\"1\">\n"
        "          <input semantic=\"VERTEX\" source=\"#t1-v\" offset=\"0\"/>\n"
        "          <input semantic=\"NORMAL\" source=\"#t1-nrm\" offset=\"1\"/>\n"
        "          <vcount>4</vcount>\n"
        "          <p>1 0 2 0 3 0 0 0</p>\n"
        "        </polylist>\n",
        ""};
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK_MSG(load_edits(edits, 1, &a, &err) == VS_OK, "%s", err.message);
    if (!a) return;
    check_clip(a, "t1 without polygons");
    vs_asset_free(a);
}

/* A morph whose base geometry cannot be read (in another file): the node
 * stays without a mesh, so its animated weights have nowhere to go. The
 * channel is dropped with a warning and the rest of the clip samples: J
 * still moves, and the RELATIVE morph on R keeps its weight. */
static void morph_of_dropped_mesh_keeps_the_clip(void)
{
    static const char *const edits[] = {
        "<morph source=\"#base\" method=\"NORMALIZED\">",
        "<morph source=\"other.dae#base\" method=\"NORMALIZED\">"};
    vs_asset *a = NULL;
    vs_error err = {0};
    CHECK_MSG(load_edits(edits, 1, &a, &err) == VS_OK, "%s", err.message);
    if (!a) return;
    bool warned = false;
    for (uint32_t i = 0; i < a->warning_count; ++i)
        warned |= strstr(a->warnings[i].message,
                         "the animated morph has 2 weights but the node's "
                         "mesh has 0 morph targets: channel ignored") != NULL;
    CHECK(warned);
    for (uint32_t c = 0; c < a->clips[0].channel_count; ++c)
        CHECK(a->clips[0].channels[c].path != VS_PATH_WEIGHTS);
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(a, &pose, &err) == VS_OK);
    if (pose) {
        CHECK_MSG(vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, &err) == VS_OK,
                  "%s", err.message);
        vs_pose_update_world(pose);
        check_pose(pose, "R", &(expect){{1, 1, 3}, {0, 1, 0}}, "dropped");
        vs_pose_free(pose);
    }
    vs_asset_free(a);
    /* Strict loads refuse it with the same text. */
    vs_load_options strict = {0};
    strict.strict = true;
    char *doc = test_read_text(MORPH_FILE);
    doc = replace(doc, edits[0], edits[1]);
    CHECK(vs_asset_load_memory(doc, strlen(doc), "morph.dae", &strict, &a,
                               &err) != VS_OK);
    free(doc);
}

static void mismatched_targets_are_refused(void)
{
    vs_error err;
    /* t0 with a fifth position: the vertices no longer pair with the
     * base's. */
    CHECK(load_edit("count=\"12\">0 0 0  1 0 0  1 1 1  0 1 0</float_array>\n"
                    "          <technique_common><accessor "
                    "source=\"#t0-pos-a\" count=\"4\"",
                    "count=\"15\">0 0 0  1 0 0  1 1 1  0 1 0 9 9 9"
                    "</float_array><technique_common><accessor "
                    "source=\"#t0-pos-a\" count=\"5\"",
                    &err) == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "morph.dae: line ") &&
                  strstr(err.message, "MORPH_TARGET 0 (\"t0\") has 5 "
                                      "positions but the base geometry has 4"),
              "%s", err.message);
    CHECK(load_edit("method=\"NORMALIZED\"", "method=\"ADDITIVE\"", &err) ==
          VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "method must be NORMALIZED or RELATIVE"),
              "%s", err.message);
    CHECK(load_edit("0.5 0</float_array>", "0.5</float_array>", &err) ==
          VS_ERROR_INVALID);
    CHECK(load_edit("target=\"morph-weights(1)\"",
                    "target=\"morph-weights(2)\"", &err) == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "\"(2)\" does not select one of the "
                                  "morph's 2 weights"),
              "%s", err.message);
}

/* Corrupted copies load or fail cleanly, and what loads poses (the
 * sanitizer builds run this). */
static void corrupted_morphs_fail_cleanly(void)
{
    char *data = test_read_text(MORPH_FILE);
    if (!data) abort();
    size_t size = strlen(data);
    char *copy = malloc(size);
    if (!copy) abort();
    uint32_t seed = 777;
    for (int round = 0; round < 1500; ++round) {
        memcpy(copy, data, size);
        for (int k = 0; k < 3; ++k) {
            seed = seed * 1664525u + 1013904223u;
            size_t at = (seed >> 8) % size;
            static const char bytes[] = "0123456789-#<>/\"( .eXx";
            copy[at] = bytes[(seed >> 3) % (sizeof bytes - 1)];
        }
        vs_asset *a = NULL;
        vs_error err;
        vs_result r =
            vs_asset_load_memory(copy, size, "flip.dae", NULL, &a, &err);
        if (r != VS_OK) {
            CHECK_MSG(strncmp(err.message, "flip.dae", 8) == 0, "%s",
                      err.message);
            continue;
        }
        vs_pose *pose = NULL;
        if (vs_pose_create(a, &pose, NULL) == VS_OK) {
            if (a->clip_count)
                vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, NULL);
            vs_pose_update_world(pose);
            for (uint32_t i = 0; i < a->instance_count; ++i) {
                vs_posed_primitive out = {0};
                if (vs_pose_mesh_primitive(pose, a->instances[i], 0, NULL, &out,
                                           NULL) == VS_OK)
                    vs_posed_primitive_free(&out);
            }
        }
        vs_pose_free(pose);
        vs_asset_free(a);
    }
    free(copy);
    free(data);
}

int main(void)
{
    RUN(morph_under_skin_poses_as_morph_then_skin);
    RUN(unpaired_target_normals_warn);
    RUN(converted_glb_poses_the_same);
    RUN(channel_on_all_weights);
    RUN(target_without_polygons);
    RUN(morph_of_dropped_mesh_keeps_the_clip);
    RUN(mismatched_targets_are_refused);
    RUN(corrupted_morphs_fail_cleanly);
    return test_summary();
}
