/* SPDX-License-Identifier: MIT */
/* glTF 1.0 loader on the tutorial's SimpleSkin: structure, the posed
 * geometry against the glTF 2.0 SimpleSkin (same animation, different bind
 * conventions), a KHR_binary_glTF container built from the JSON, and the
 * inconsistent first tutorial revision. */
#include <cjson/cJSON.h>
#include <stdint.h>

#include "format/gltf_common.h"
#include "test.h"
#include "vskin/vskin.h"

#define GLTF1_SKIN VS_TEST_DATA "/gltf1/SimpleSkin.gltf"
#define GLTF2_SKIN VS_TEST_DATA "/gltf2/SimpleSkin.gltf"

static vs_asset *load(const char *path)
{
    vs_asset *asset = NULL;
    vs_error err;
    vs_result r = vs_asset_load_file(path, NULL, &asset, &err);
    CHECK_MSG(r == VS_OK, "%s: %s", path, err.message);
    return r == VS_OK ? asset : NULL;
}

static int32_t node_by_id(const vs_asset *a, const char *id)
{
    for (uint32_t i = 0; i < a->node_count; ++i)
        if (a->nodes[i].id && strcmp(a->nodes[i].id, id) == 0)
            return (int32_t)i;
    return -1;
}

static void test_simple_skin_structure(void)
{
    vs_asset *a = load(GLTF1_SKIN);
    if (!a) return;
    CHECK(a->format == VS_FORMAT_GLTF1);
    CHECK(a->node_count == 3);
    int32_t mesh_node = node_by_id(a, "node0");
    int32_t j0 = node_by_id(a, "jointNode0"), j1 = node_by_id(a, "jointNode1");
    /* Dense indices follow the order of the JSON object. */
    CHECK(mesh_node == 0 && j0 == 1 && j1 == 2);
    CHECK(j0 >= 0 && a->nodes[j0].sid &&
          strcmp(a->nodes[j0].sid, "joint0") == 0);
    CHECK(j1 >= 0 && a->nodes[j1].parent == j0);
    CHECK(a->skin_count == 1);
    if (a->skin_count == 1 && mesh_node >= 0) {
        const vs_skin *s = &a->skins[0];
        CHECK(a->nodes[mesh_node].skin == 0);
        CHECK(strcmp(s->name, "simpleSkin") == 0);
        CHECK(s->joint_count == 2);
        CHECK(s->joint_count == 2 && (int32_t)s->joints[0] == j0 &&
              (int32_t)s->joints[1] == j1);
        CHECK(s->skeleton == j0);
        CHECK_NEAR(s->bind_shape_matrix[12], -0.5, 0);
        CHECK_NEAR(s->bind_shape_matrix[0], 1.0, 0);
        CHECK_NEAR(s->inverse_bind_matrices[16 + 13], -1.0, 0);
    }
    CHECK(a->mesh_count == 1 && a->meshes[0].primitive_count == 1);
    if (a->mesh_count == 1) {
        const vs_primitive *p = &a->meshes[0].primitives[0];
        CHECK(p->vertex_count == 10 && p->index_count == 24);
        CHECK(p->influence_count == 4);
        /* Every vertex has JOINT (0, 1, 0, 0), stored as FLOAT in the file;
         * vertex 9 is (1, 2, 0) with weights (0, 1), vertex 2 (0.75, 0.25). */
        CHECK_NEAR(p->positions[27], 1.0, 0);
        CHECK_NEAR(p->positions[28], 2.0, 0);
        CHECK(p->joints[36] == 0 && p->joints[37] == 1 && p->joints[38] == 0);
        CHECK_NEAR(p->weights[36], 0.0, 0);
        CHECK_NEAR(p->weights[37], 1.0, 0);
        CHECK_NEAR(p->weights[8], 0.75, 0);
        CHECK(p->material == 0 && a->material_count == 1);
    }
    CHECK(a->clip_count == 1);
    if (a->clip_count == 1) {
        const vs_clip *c = &a->clips[0];
        CHECK(strcmp(c->name, "animation0") == 0);
        CHECK(c->channel_count == 1 && c->sampler_count == 1);
        CHECK((int32_t)c->channels[0].node == j1);
        CHECK(c->channels[0].path == VS_PATH_ROTATION);
        CHECK(c->samplers[0].key_count == 12 && c->samplers[0].components == 4);
        CHECK_NEAR(c->end, 5.5, 0);
    }
    CHECK(a->scene_count == 1 && a->default_scene == -1);
    CHECK(a->instance_count == 1 && (int32_t)a->instances[0] == mesh_node);
    vs_asset_free(a);
}

/* The posed positions of the first mesh instance at time t, or NULL. */
static float *posed_positions(vs_pose *pose, float t, uint32_t *count)
{
    const vs_asset *a = vs_pose_asset(pose);
    vs_error err;
    vs_pose_reset(pose);
    vs_result r = vs_pose_sample(pose, 0, t, VS_TIME_CLAMP, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    vs_pose_update_world(pose);
    vs_posed_primitive out;
    vs_pose_mesh_options opt = {0};
    r = vs_pose_mesh_primitive(pose, a->instances[0], 0, &opt, &out, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return NULL;
    float *p = malloc(out.vertex_count * 3 * sizeof *p);
    if (p) memcpy(p, out.positions, out.vertex_count * 3 * sizeof *p);
    *count = out.vertex_count;
    vs_posed_primitive_free(&out);
    return p;
}

/* Poses a and b over 0..5.5 s and returns the largest coordinate difference;
 * *moved receives the largest displacement of a from its t = 0 pose, so a
 * caller can tell that the animation really played. */
static double max_pose_difference(const vs_asset *a, const vs_asset *b,
                                  double *moved)
{
    vs_pose *pa = NULL, *pb = NULL;
    vs_error err;
    double worst = INFINITY;
    *moved = 0;
    if (vs_pose_create(a, &pa, &err) != VS_OK ||
        vs_pose_create(b, &pb, &err) != VS_OK) {
        CHECK_MSG(0, "vs_pose_create: %s", err.message);
        goto done;
    }
    uint32_t na = 0, nb = 0, n0 = 0;
    float *rest = posed_positions(pa, 0.0f, &n0);
    worst = rest ? 0 : INFINITY;
    for (int step = 0; rest && step <= 22; ++step) {
        float t = 0.25f * (float)step;
        float *pa_pos = posed_positions(pa, t, &na);
        float *pb_pos = posed_positions(pb, t, &nb);
        if (!pa_pos || !pb_pos || na != nb || na != n0) {
            worst = INFINITY;
        } else {
            for (uint32_t k = 0; k < na * 3; ++k) {
                double d = fabs((double)pa_pos[k] - pb_pos[k]);
                if (!(d <= worst)) worst = d;
                double m = fabs((double)pa_pos[k] - rest[k]);
                if (m > *moved) *moved = m;
            }
        }
        free(pa_pos);
        free(pb_pos);
    }
    free(rest);
done:
    vs_pose_free(pa);
    vs_pose_free(pb);
    return worst;
}

/* glTF 1.0 geometry spans x in [0, 1] and its bindShapeMatrix shifts it by
 * -0.5; the glTF 2.0 file stores x in [-0.5, 0.5]. Same animation, so every
 * posed vertex must agree at every time. */
static void test_pose_matches_gltf2(void)
{
    vs_asset *a = load(GLTF1_SKIN), *b = load(GLTF2_SKIN);
    if (a && b) {
        double moved;
        double d = max_pose_difference(a, b, &moved);
        CHECK_MSG(d <= 1e-5, "max difference %g", d);
        CHECK_MSG(moved > 0.5, "the animation did not move the mesh (%g)",
                  moved);
    }
    vs_asset_free(a);
    vs_asset_free(b);
}

/* Appends `data` to body at a 4-byte aligned offset, returned in *offset. */
static uint8_t *append(uint8_t *body, size_t *size, const uint8_t *data,
                       size_t n, size_t *offset)
{
    *offset = (*size + 3) & ~(size_t)3;
    uint8_t *grown = realloc(body, *offset + n);
    if (!grown) {
        free(body);
        return NULL;
    }
    memset(grown + *size, 0, *offset - *size);
    memcpy(grown + *offset, data, n);
    *size = *offset + n;
    return grown;
}

/* KHR_binary_glTF from a .gltf whose buffers are data URIs: every buffer
 * moves into the body, bufferViews point at "binary_glTF" with their
 * offsets shifted. `cut` bytes are dropped from the end of the body. */
static uint8_t *make_binary_gltf(const char *path, size_t cut, size_t *out_size)
{
    FILE *f = fopen(path, "rb");
    char text[65536];
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = '\0';
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL);
    if (!root) return NULL;
    cJSON *buffers = cJSON_GetObjectItem(root, "buffers");
    cJSON *views = cJSON_GetObjectItem(root, "bufferViews");
    uint8_t *body = NULL;
    size_t body_size = 0;
    for (cJSON *b = buffers ? buffers->child : NULL; b; b = b->next) {
        const char *uri = cJSON_GetObjectItem(b, "uri")->valuestring;
        const char *data = strstr(uri, "base64,") + 7;
        uint8_t *bytes;
        size_t n, offset;
        CHECK(base64_decode(NULL, data, strlen(data), &bytes, &n) == VS_OK);
        body = append(body, &body_size, bytes, n, &offset);
        free(bytes);
        for (cJSON *v = views->child; v; v = v->next) {
            cJSON *ref = cJSON_GetObjectItem(v, "buffer");
            if (strcmp(ref->valuestring, b->string) != 0) continue;
            cJSON *off = cJSON_GetObjectItem(v, "byteOffset");
            cJSON_SetNumberValue(off, off->valuedouble + (double)offset);
            cJSON_SetValuestring(ref, "binary_glTF");
        }
    }
    body_size -= cut;
    cJSON *bin = cJSON_CreateObject();
    cJSON_AddNumberToObject(bin, "byteLength", (double)body_size);
    cJSON_AddStringToObject(bin, "uri", "data:,");
    cJSON *only = cJSON_CreateObject();
    cJSON_AddItemToObject(only, "binary_glTF", bin);
    cJSON_ReplaceItemInObject(root, "buffers", only);
    cJSON *used = cJSON_AddArrayToObject(root, "extensionsUsed");
    cJSON_AddItemToArray(used, cJSON_CreateString("KHR_binary_glTF"));
    char *json = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    size_t json_len = strlen(json), padded = (json_len + 3) & ~(size_t)3;
    *out_size = 20 + padded + body_size;
    uint8_t *glb = malloc(*out_size);
    uint32_t header[5] = {0x46546C67u /* "glTF" */, 1, (uint32_t)*out_size,
                          (uint32_t)padded, 0};
    memcpy(glb, header, sizeof header); /* the test host is little-endian */
    memset(glb + 20, ' ', padded);
    memcpy(glb + 20, json, json_len);
    memcpy(glb + 20 + padded, body, body_size);
    free(json);
    free(body);
    return glb;
}

static void test_binary_gltf_poses_identically(void)
{
    size_t size;
    uint8_t *glb = make_binary_gltf(GLTF1_SKIN, 0, &size);
    vs_asset *a = load(GLTF1_SKIN), *b = NULL;
    vs_error err;
    vs_result r = vs_asset_load_memory(glb, size, "skin.glb", NULL, &b, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (a && b) {
        CHECK(b->format == VS_FORMAT_GLTF1);
        double moved;
        CHECK(max_pose_difference(a, b, &moved) == 0.0);
    }
    vs_asset_free(a);
    vs_asset_free(b);
    free(glb);

    /* The body is really what is read: cutting its last bytes (the end of
     * the animation data) must be reported. */
    glb = make_binary_gltf(GLTF1_SKIN, 16, &size);
    b = NULL;
    r = vs_asset_load_memory(glb, size, "skin.glb", NULL, &b, &err);
    CHECK(r == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "animationBufferView") != NULL, "%s",
              err.message);
    vs_asset_free(b);
    free(glb);
}

/* The first tutorial revision swaps joints and inverse bind matrices, so its
 * pose is wrong, but as a file it is well-formed glTF 1.x. */
static void test_first_tutorial_revision_loads(void)
{
    vs_asset *a = load(VS_TEST_DATA "/gltf1/SimpleSkin_tutorial-e73f143.gltf");
    if (!a) return;
    CHECK(a->node_count == 3 && a->skin_count == 1 && a->clip_count == 1);
    CHECK(a->skin_count == 1 && a->skins[0].joint_count == 2);
    vs_asset_free(a);
}

int main(void)
{
    RUN(test_simple_skin_structure);
    RUN(test_pose_matches_gltf2);
    RUN(test_binary_gltf_poses_identically);
    RUN(test_first_tutorial_revision_loads);
    return test_summary();
}
