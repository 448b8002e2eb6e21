/* SPDX-License-Identifier: MIT */
/* KHR_draco_mesh_compression and EXT_meshopt_compression: the skinned strip
 * of tests/data/compressed/ (made by make_compressed_*.c/.cpp from
 * skinned_strip.h) loads from each compressed form with the same arrays
 * and the same pose as from the plain one; corrupt or inconsistent
 * compressed data is refused with a message that names the object, never a
 * crash; and a build without a decoder says so by name. */
#include <stdbool.h>

#include "test.h"
#include "vskin/vskin.h"

#define DIR VS_TEST_DATA "/compressed/"

/* Whether this build has each decoder: every case compiles in every build
 * and checks what that build must do. */
#ifdef VSKIN_WITH_DRACO
#define HAVE_DRACO true
#else
#define HAVE_DRACO false
#endif
#ifdef VSKIN_WITH_MESHOPT
#define HAVE_MESHOPT true
#else
#define HAVE_MESHOPT false
#endif

static char *read_form(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, DIR "%s", name);
    char *text = test_read_text(path);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    return text;
}

static vs_result load_text(const char *text, const char *name, vs_asset **a,
                           vs_error *err)
{
    *a = NULL;
    return vs_asset_load_memory(text, strlen(text), name, NULL, a, err);
}

/* text with the first `from` replaced by `to` (malloc'd). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) {
        fprintf(stderr, "fixture lacks %s\n", from);
        exit(1);
    }
    size_t head = (size_t)(at - text), fl = strlen(from), tl = strlen(to);
    char *s = malloc(strlen(text) - fl + tl + 1);
    if (!s) exit(1);
    memcpy(s, text, head);
    memcpy(s + head, to, tl);
    strcpy(s + head + tl, at + fl);
    return s;
}

/* Both assets' primitive arrays and posed vertices are equal (exactly: the
 * forms keep every value) and the triangles too, each up to a rotation of
 * its corners, which an index codec may choose. */
static void check_same(const vs_asset *plain, const vs_asset *other,
                       bool clip)
{
    const vs_primitive *p = &plain->meshes[0].primitives[0];
    const vs_primitive *q = &other->meshes[0].primitives[0];
    CHECK(p->vertex_count == 8 && q->vertex_count == 8);
    CHECK(p->index_count == 18 && q->index_count == 18);
    CHECK(q->influence_count == 4 && q->joints && q->normals);
    if (q->vertex_count != 8 || q->index_count != 18 || !q->normals ||
        q->influence_count != 4)
        return;
    CHECK(!memcmp(p->positions, q->positions, 24 * sizeof(float)));
    CHECK(!memcmp(p->normals, q->normals, 24 * sizeof(float)));
    CHECK(!memcmp(p->joints, q->joints, 32 * sizeof *p->joints));
    for (uint32_t i = 0; i < 32; ++i) {
        float w = q->weights ? q->weights[i] : -1.0f;
        CHECK_NEAR(w, p->weights[i], 0.0);
    }
    for (uint32_t t = 0; t < 6; ++t) {
        const uint32_t *a = p->indices + 3 * t, *b = q->indices + 3 * t;
        bool rotated = false;
        for (int r = 0; r < 3; ++r)
            rotated |= a[0] == b[r] && a[1] == b[(r + 1) % 3] &&
                       a[2] == b[(r + 2) % 3];
        CHECK_MSG(rotated, "triangle %u differs", t);
    }
    CHECK(!memcmp(plain->skins[0].inverse_bind_matrices,
                  other->skins[0].inverse_bind_matrices, 32 * sizeof(float)));
    vs_pose *pp = NULL, *qp = NULL;
    vs_posed_primitive a = {0}, b = {0};
    vs_error err = {0};
    CHECK(vs_pose_create(plain, &pp, &err) == VS_OK);
    CHECK(vs_pose_create(other, &qp, &err) == VS_OK);
    if (pp && qp && clip) {
        /* The clip's rotations (QUATERNION-filtered in the meshopt form)
         * between their keys. */
        CHECK(plain->clip_count == 1 && other->clip_count == 1);
        CHECK(vs_pose_sample(pp, 0, 0.5f, VS_TIME_CLAMP, &err) == VS_OK);
        CHECK(vs_pose_sample(qp, 0, 0.5f, VS_TIME_CLAMP, &err) == VS_OK);
    }
    if (pp && qp) {
        vs_pose_update_world(pp);
        vs_pose_update_world(qp);
        CHECK(vs_pose_mesh_primitive(pp, 0, 0, NULL, &a, &err) == VS_OK);
        CHECK(vs_pose_mesh_primitive(qp, 0, 0, NULL, &b, &err) == VS_OK);
    }
    if (a.positions && b.positions) {
        /* The rotated joint moves the upper rows: a real pose. */
        CHECK(fabsf(a.positions[3 * 7] - 0.5f) > 0.5f);
        for (uint32_t i = 0; i < 24; ++i) {
            CHECK_NEAR(b.positions[i], a.positions[i], 0.0);
            CHECK_NEAR(b.normals[i], a.normals[i], 0.0);
        }
    }
    vs_posed_primitive_free(&a);
    vs_posed_primitive_free(&b);
    vs_pose_free(pp);
    vs_pose_free(qp);
}

static vs_asset *load_plain(void)
{
    char *text = read_form("skinned_plain.gltf");
    vs_asset *a;
    vs_error err = {0};
    CHECK_MSG(load_text(text, "skinned_plain.gltf", &a, &err) == VS_OK, "%s",
              err.message);
    free(text);
    return a;
}

/* A compressed form loads and poses as the plain one where the build has
 * its decoder (`clip`: it has the clip too), and is refused with
 * `refusal` where it has not. */
static void check_form(const char *name, bool have, bool clip,
                       const char *refusal)
{
    vs_asset *plain = load_plain();
    char *text = read_form(name);
    vs_asset *a;
    vs_error err = {0};
    vs_result r = load_text(text, name, &a, &err);
    if (have) {
        CHECK_MSG(r == VS_OK, "%s", err.message);
        if (a && plain) check_same(plain, a, clip);
    } else {
        CHECK(r == VS_ERROR_UNSUPPORTED);
        CHECK_MSG(!strcmp(err.message, refusal), "%s", err.message);
    }
    vs_asset_free(a);
    vs_asset_free(plain);
    free(text);
}

static void draco_form_poses_as_the_plain_one(void)
{
    check_form("skinned_draco.gltf", HAVE_DRACO, false,
               "skinned_draco.gltf: meshes[0].primitives[0]: "
               "KHR_draco_mesh_compression: this build of vskin has no Draco "
               "decoder");
}

static void meshopt_form_poses_as_the_plain_one(void)
{
    check_form("skinned_meshopt.gltf", HAVE_MESHOPT, true,
               "skinned_meshopt.gltf: bufferViews[0]: EXT_meshopt_compression: "
               "this build of vskin has no meshopt decoder");
}

/* Loads text edited by one replacement and expects `code` and a message
 * that contains `want`. */
static void expect_edit(const char *form, const char *from, const char *to,
                        vs_result code, const char *want)
{
    char *text = read_form(form);
    char *edited = replaced(text, from, to);
    vs_asset *a;
    vs_error err = {0};
    vs_result r = load_text(edited, form, &a, &err);
    CHECK_MSG(r == code && strstr(err.message, want),
              "%s -> %s: got %d \"%s\", want %d \"%s\"", from, to, (int)r,
              err.message, (int)code, want);
    vs_asset_free(a);
    free(edited);
    free(text);
}

/* The start of the extension's attributes map. */
#define D_MAP "\"bufferView\":0,\"attributes\":{\"POSITION\":0,"

/* Draco data beside plain accessors, not required: a build with the
 * decoder decodes it (here bytes that are no Draco mesh), one without
 * reads the plain data. */
static void optional_draco_falls_back_only_without_decoder(void)
{
    const char *ext = "\"indices\":4,\"extensions\":{"
                      "\"KHR_draco_mesh_compression\":{\"bufferView\":0,"
                      "\"attributes\":{\"POSITION\":0}}}";
    if (HAVE_DRACO)
        expect_edit("skinned_plain.gltf", "\"indices\":4", ext,
                    VS_ERROR_INVALID,
                    "meshes[0].primitives[0].extensions."
                    "KHR_draco_mesh_compression: the Draco data does not "
                    "decode");
    else
        expect_edit("skinned_plain.gltf", "\"indices\":4", ext, VS_OK, "");
}

/* A map longer than any mesh's attributes is refused before its names are
 * matched, with or without the decoder. */
static void oversized_draco_map_is_refused(void)
{
    char ext[8192];
    size_t n = (size_t)snprintf(ext, sizeof ext,
                                "\"indices\":4,\"extensions\":{"
                                "\"KHR_draco_mesh_compression\":{"
                                "\"bufferView\":0,\"attributes\":{");
    for (int i = 0; i < 257; ++i)
        n += (size_t)snprintf(ext + n, sizeof ext - n, "%s\"_A%d\":%d",
                              i ? "," : "", i, i);
    snprintf(ext + n, sizeof ext - n, "}}}");
    expect_edit("skinned_plain.gltf", "\"indices\":4", ext,
                VS_ERROR_UNSUPPORTED,
                "KHR_draco_mesh_compression.attributes: 257 attributes, more "
                "than the 256 vskin decodes");
}

static void inconsistent_draco_is_refused(void)
{
    if (!HAVE_DRACO) return;
    const char *f = "skinned_draco.gltf";
    const char *ep = "meshes[0].primitives[0].extensions."
                     "KHR_draco_mesh_compression: ";
    char want[256];
    /* The bytes end early (the old length left as extras): the decoder's
     * failure, not a crash. */
    snprintf(want, sizeof want, "%sthe Draco data does not decode", ep);
    expect_edit(f, "\"bufferViews\":[{\"buffer\":0,\"byteLength\":",
                "\"bufferViews\":[{\"buffer\":0,\"byteLength\":40,"
                "\"extras\":",
                VS_ERROR_INVALID, want);
    snprintf(want, sizeof want, "%sthe Draco mesh has no attribute with id 9",
             ep);
    expect_edit(f, D_MAP "\"NORMAL\":1", D_MAP "\"NORMAL\":9", VS_ERROR_INVALID,
                want);
    snprintf(want, sizeof want,
             "%sthe Draco mesh has 6 triangles but the indices accessor 15 "
             "indices",
             ep);
    expect_edit(f, "\"count\":18", "\"count\":15", VS_ERROR_INVALID, want);
    expect_edit(f, D_MAP, D_MAP "\"TANGENT\":2,", VS_ERROR_INVALID,
                "the primitive has no TANGENT attribute");
    expect_edit(f, D_MAP "\"NORMAL\":1,\"JOINTS_0\":2",
                D_MAP "\"NORMAL\":1,\"JOINTS_0\":1", VS_ERROR_INVALID,
                "Draco attribute 1 has 3 components but its accessor 4");
    expect_edit(f, "\"indices\":4", "\"indices\":4,\"mode\":0",
                VS_ERROR_UNSUPPORTED, "TRIANGLES only");
}

static void meshopt_rules_hold(void)
{
    if (!HAVE_MESHOPT) return;
    const char *f = "skinned_meshopt.gltf";
    expect_edit(f, "\"mode\":\"TRIANGLES\"", "\"mode\":\"STRIPS\"",
                VS_ERROR_INVALID,
                "bufferViews[4].extensions.EXT_meshopt_compression.mode: "
                "must be ATTRIBUTES, TRIANGLES or INDICES");
    expect_edit(f, "\"filter\":\"OCTAHEDRAL\"", "\"filter\":\"QUATERNION\"",
                VS_ERROR_INVALID, "does not suit the filter (QUATERNION: 8)");
    expect_edit(f, "\"count\":18,\"mode\"", "\"count\":17,\"mode\"",
                VS_ERROR_INVALID, "is not a multiple of 3");
    /* The compressed bytes end early (the old length left as extras). */
    expect_edit(f, "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":",
                "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":5,"
                "\"extras\":",
                VS_ERROR_INVALID,
                "bufferViews[0].extensions.EXT_meshopt_compression: the "
                "ATTRIBUTES data does not decode");
    expect_edit(f, "\"count\":18,\"mode\"", "\"count\":21,\"mode\"",
                VS_ERROR_INVALID, "is not the view's byteLength 36");
    /* A fallback buffer's file is never read, here one that is missing. */
    expect_edit(f, "{\"byteLength\":476,\"extensions\"",
                "{\"byteLength\":476,\"uri\":\"missing.bin\","
                "\"extensions\"",
                VS_OK, "");
    /* The fallback buffer has no data to read instead. */
    expect_edit(f, "\"uri\":", "\"urx\":", VS_ERROR_INVALID,
                "bufferViews[0].extensions.EXT_meshopt_compression.buffer: "
                "buffers[0] has no data");
}

/* Every byte of the compressed payload in turn set to other values: each
 * load ends with VS_OK or an error with a message (under ASan and UBSan as
 * well), whatever the decoder makes of the bytes. */
static void corrupt_payload_never_crashes(const char *form, bool built)
{
    if (!built) return;
    char *text = read_form(form);
    char *uri = strstr(text, "base64,");
    CHECK(uri != NULL);
    if (!uri) {
        free(text);
        return;
    }
    uri += 7;
    size_t n = strcspn(uri, "\""), failed = 0;
    static const char subst[] = "A/g9";
    for (size_t i = 0; i < n; ++i) {
        char keep = uri[i];
        for (int k = 0; subst[k]; ++k) {
            if (subst[k] == keep) continue;
            uri[i] = subst[k];
            vs_asset *a;
            vs_error err = {0};
            vs_result r = load_text(text, form, &a, &err);
            if (r != VS_OK) {
                ++failed;
                CHECK_MSG(err.message[0] != '\0', "%s: byte %zu: no message",
                          form, i);
            }
            vs_asset_free(a);
        }
        uri[i] = keep;
    }
    /* Most edits land in the compressed bytes: many are refused. */
    CHECK_MSG(failed > n / 4, "%s: only %zu of %zu edits refused", form,
              failed, 3 * n);
    free(text);
}

static void corrupt_payloads_never_crash(void)
{
    corrupt_payload_never_crashes("skinned_draco.gltf", HAVE_DRACO);
    corrupt_payload_never_crashes("skinned_meshopt.gltf", HAVE_MESHOPT);
}

int main(void)
{
    RUN(draco_form_poses_as_the_plain_one);
    RUN(meshopt_form_poses_as_the_plain_one);
    RUN(optional_draco_falls_back_only_without_decoder);
    RUN(oversized_draco_map_is_refused);
    RUN(inconsistent_draco_is_refused);
    RUN(meshopt_rules_hold);
    RUN(corrupt_payloads_never_crash);
    return test_summary();
}
