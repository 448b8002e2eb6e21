/* SPDX-License-Identifier: MIT */
/* glTF 1.0 flaws that leave the pose known (docs/formats.md, "Refused or
 * repaired"): a binary glTF whose body's buffer has another id than
 * binary_glTF is read from the body, and a skin no node uses that cannot be
 * read is dropped; each with a warning, refused by a strict load, and
 * posed as stored. */
#include <math.h>
#include <stdint.h>

#include "test.h"
#include "vskin/vskin.h"

/* A triangle on a node at (0, 0, 1): `buffers` are the members of the
 * buffers object, its 36 bytes of positions are in buffer `view_buffer`,
 * `extra` adds root members. */
static char *document(const char *buffers, const char *view_buffer,
                      const char *extra)
{
    static char json[4096];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"1.0\"},"
             "\"extensionsUsed\":[\"KHR_binary_glTF\"],"
             "\"buffers\":{%s},"
             "\"bufferViews\":{\"v\":{\"buffer\":\"%s\",\"byteOffset\":0,"
             "\"byteLength\":36}},"
             "\"accessors\":{\"pos\":{\"bufferView\":\"v\",\"byteOffset\":0,"
             "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}},"
             "\"meshes\":{\"m\":{\"primitives\":[{\"attributes\":{"
             "\"POSITION\":\"pos\"},\"mode\":4}]}},"
             "\"nodes\":{\"n\":{\"meshes\":[\"m\"],"
             "\"translation\":[0,0,1]}},"
             "\"scenes\":{\"s\":{\"nodes\":[\"n\"]}},\"scene\":\"s\"%s}",
             buffers, view_buffer, extra);
    return json;
}

static const float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};

/* KHR_binary_glTF: a 20-byte header, the JSON (padded with spaces), then
 * the body: tri. The host of these tests is little-endian. */
static uint8_t *binary(const char *json, size_t *size)
{
    size_t jl = strlen(json), padded = (jl + 3) & ~(size_t)3;
    *size = 20 + padded + sizeof tri;
    uint8_t *glb = malloc(*size);
    if (!glb) abort();
    uint32_t header[5] = {0x46546C67u, 1, (uint32_t)*size, (uint32_t)padded, 0};
    memcpy(glb, header, sizeof header);
    memset(glb + 20, ' ', padded);
    memcpy(glb + 20, json, jl);
    memcpy(glb + 20 + padded, tri, sizeof tri);
    return glb;
}

static bool has_warning(const vs_asset *a, const char *object, const char *part)
{
    for (uint32_t i = 0; i < a->warning_count; ++i)
        if (strcmp(a->warnings[i].object, object) == 0 &&
            strstr(a->warnings[i].message, part))
            return true;
    return false;
}

/* Loads data with the warning (refused by a strict load) and checks the
 * posed triangle. */
static void check_repaired(const uint8_t *data, size_t size, const char *object,
                           const char *part)
{
    vs_asset *a = NULL, *strict = NULL;
    vs_error err;
    vs_result r = vs_asset_load_memory(data, size, "r.glb", NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (!a) return;
    CHECK_MSG(has_warning(a, object, part), "no warning %s: ...%s (%u)", object,
              part, a->warning_count);
    vs_load_options opt = {.strict = true};
    r = vs_asset_load_memory(data, size, "r.glb", &opt, &strict, &err);
    CHECK_MSG(r == VS_ERROR_INVALID && strstr(err.message, "strict") &&
                  strstr(err.message, object),
              "strict: %d %s", (int)r, err.message);
    vs_pose *pose = NULL;
    vs_posed_primitive out = {0};
    if (vs_pose_create(a, &pose, &err) == VS_OK) {
        vs_pose_update_world(pose);
        CHECK(a->instance_count == 1);
        r = vs_pose_mesh_primitive(pose, a->instances[0], 0, NULL, &out, &err);
        CHECK_MSG(r == VS_OK, "%s", err.message);
        for (uint32_t i = 0; r == VS_OK && i < 9; ++i)
            CHECK(fabsf(out.positions[i] - (tri[i] + (i % 3 == 2))) < 1e-6f);
    }
    vs_posed_primitive_free(&out);
    vs_pose_free(pose);
    vs_asset_free(strict);
    vs_asset_free(a);
}

static void body_buffer_under_another_id_is_read(void)
{
    size_t size;
    uint8_t *glb = binary(document("\"model\":{\"byteLength\":36,"
                                   "\"type\":\"arraybuffer\"}",
                                   "model", ""),
                          &size);
    check_repaired(glb, size, "buffers[\"model\"]",
                   "names no data and the file's binary body has no buffer "
                   "\"binary_glTF\": read from the binary body");
    free(glb);
    glb = binary(document("\"model\":{\"byteLength\":36,\"uri\":\"data:,\"}",
                          "model", ""),
                 &size);
    check_repaired(glb, size, "buffers[\"model\"]",
                   "read from the binary body");
    free(glb);
    /* Two buffers that name no data: which one is the body is unknown. */
    glb = binary(document("\"a\":{\"byteLength\":36},\"b\":{\"byteLength\":36}",
                          "b", ""),
                 &size);
    vs_asset *a = NULL;
    vs_error err;
    CHECK(vs_asset_load_memory(glb, size, "two.glb", NULL, &a, &err) ==
          VS_ERROR_INVALID);
    CHECK(strstr(err.message, "uri is missing") != NULL);
    free(glb);
}

static void unreadable_unused_skin_is_dropped(void)
{
    size_t size;
    uint8_t *glb = binary(
        document("\"binary_glTF\":{\"byteLength\":36,\"uri\":\"data:,\"}",
                 "binary_glTF",
                 ",\"skins\":{\"spare\":{\"jointNames\":[\"j\"],"
                 "\"inverseBindMatrices\":\"ghost\"}}"),
        &size);
    check_repaired(glb, size, "skins[\"spare\"]",
                   "no node uses it and it cannot be read (skins[\"spare\"]."
                   "inverseBindMatrices: accessor \"ghost\" does not exist): "
                   "unused skin dropped");
    free(glb);
    /* The same skin on a node is needed for the pose and stays refused. */
    glb = binary(
        document("\"binary_glTF\":{\"byteLength\":36,\"uri\":\"data:,\"}",
                 "binary_glTF",
                 ",\"skins\":{\"spare\":{\"jointNames\":[\"j\"],"
                 "\"inverseBindMatrices\":\"ghost\"}}"),
        &size);
    char *at = strstr((char *)glb + 20, "\"meshes\":[\"m\"],");
    if (at) memcpy(at, "\"skin\":\"spare\",", 15);
    vs_asset *a = NULL;
    vs_error err;
    CHECK(at && vs_asset_load_memory(glb, size, "used.glb", NULL, &a, &err) ==
                    VS_ERROR_INVALID);
    CHECK(strstr(err.message, "ghost") != NULL);
    free(glb);
}

int main(void)
{
    RUN(body_buffer_under_another_id_is_read);
    RUN(unreadable_unused_skin_is_dropped);
    return test_summary();
}
