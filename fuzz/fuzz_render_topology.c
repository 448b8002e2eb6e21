/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the renderer's CPU side, without a GL context: the
 * index lists, outline edges and generated normals of mesh_topology_build
 * and the automatic camera. An input whose first byte is below 8 is a raw
 * primitive (mode, counts, indices and positions straight from the bytes,
 * NaN and out-of-range indices included); any other input is loaded as an
 * asset (any format) and every primitive of every mesh goes through the
 * same code, the skeleton overlay's lines are made for the rest pose, and
 * the camera frames the rest pose and clip 0. Every list
 * must hold only indices below vertex_count, whole primitives of its mode,
 * and every camera must be finite. */
#include <math.h>

#include "fuzz_common.h"
#include "render/mesh_topology.h"
#include "render/skeleton_lines.h"
#include "vskin/vskin_render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Raw primitives stay small: counts are 16-bit, reduced to this. */
enum { MAX_RAW_COUNT = 4096 };

static void check_topology(const vs_primitive *prim, const mesh_topology *t)
{
    uint32_t per = t->mode == VS_MODE_POINTS  ? 1
                   : t->mode == VS_MODE_LINES ? 2
                                              : 3;
    uint32_t n = prim->index_count ? prim->index_count : prim->vertex_count;
    if (t->mode != VS_MODE_POINTS && t->mode != VS_MODE_LINES &&
        t->mode != VS_MODE_TRIANGLES)
        abort();
    if (t->index_count % per || t->edge_index_count % 2 ||
        (uint64_t)t->index_count > (uint64_t)n * 3)
        abort();
    for (uint32_t i = 0; i < t->index_count; ++i)
        if (t->indices[i] >= prim->vertex_count) abort();
    for (uint32_t i = 0; i < t->edge_index_count; ++i)
        if (t->edges[i] >= prim->vertex_count) abort();
}

/* Builds the lists and normals of one primitive; a refusal must say why. */
static void run_topology(const vs_primitive *prim)
{
    mesh_topology t;
    vs_error error;
    memset(&error, 0, sizeof error);
    vs_result r = mesh_topology_build(prim, "fuzz", NULL, &t, &error);
    if (r != VS_OK) {
        if (error.code != r || error.message[0] == '\0' || t.indices || t.edges)
            abort();
        return;
    }
    check_topology(prim, &t);
    float *normals =
        malloc(((size_t)prim->vertex_count * 3 + 1) * sizeof *normals);
    if (!normals) abort();
    mesh_topology_normals(&t, prim->positions, prim->vertex_count, normals);
    for (size_t i = 0; i < (size_t)prim->vertex_count * 3; ++i)
        if (!isfinite(normals[i])) abort();
    free(normals);
    mesh_topology_free(&t, NULL);
}

static void check_camera(const vs_camera *c, float aspect)
{
    float vp[16];
    vs_camera_view_projection(c, aspect, vp);
    for (int k = 0; k < 16; ++k)
        if (!isfinite(vp[k])) abort();
    for (int k = 0; k < 3; ++k)
        if (!isfinite(c->eye[k]) || !isfinite(c->target[k])) abort();
}

static void frame(const float lo[3], const float hi[3], vs_up_axis up)
{
    static const float aspects[3] = {1.0f, 0.25f, 7.0f};
    for (int a = 0; a < 3; ++a)
        for (int ortho = 0; ortho < 2; ++ortho) {
            vs_camera cam;
            vs_camera_frame_bounds(lo, hi, up, aspects[a], ortho != 0, &cam);
            check_camera(&cam, aspects[a]);
        }
}

static uint32_t read_u16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* Layout: mode, flags (bit 0: indexed, bit 1: indices reduced modulo
 * vertex_count + 1 so that most are in range), vertex_count (u16), index
 * count (u16), then index_count u32 indices and 3 floats per vertex as far
 * as the bytes go (zeros after). */
static void raw_primitive(const uint8_t *data, size_t size)
{
    uint8_t head[6] = {0};
    memcpy(head, data, size < sizeof head ? size : sizeof head);
    size_t off = size < sizeof head ? size : sizeof head;
    uint32_t vertices = read_u16(head + 2) % (MAX_RAW_COUNT + 1);
    uint32_t index_count =
        (head[1] & 1) ? read_u16(head + 4) % (MAX_RAW_COUNT + 1) : 0;
    uint32_t *indices = calloc(index_count + 1, sizeof *indices);
    float *positions = calloc((size_t)vertices * 3 + 1, sizeof *positions);
    if (!indices || !positions) abort();
    size_t bytes = index_count * sizeof *indices;
    bytes = bytes < size - off ? bytes : size - off;
    memcpy(indices, data + off, bytes);
    off += bytes;
    bytes = (size_t)vertices * 3 * sizeof *positions;
    bytes = bytes < size - off ? bytes : size - off;
    memcpy(positions, data + off, bytes);
    if (head[1] & 2)
        for (uint32_t i = 0; i < index_count; ++i)
            indices[i] %= vertices + 1;
    vs_primitive prim;
    memset(&prim, 0, sizeof prim);
    prim.mode = (vs_primitive_mode)head[0];
    prim.vertex_count = vertices;
    prim.positions = positions;
    prim.index_count = index_count;
    prim.indices = indices;
    prim.material = -1;
    run_topology(&prim);
    /* The box of the raw positions, NaN and infinities as they come. */
    float lo[3] = {INFINITY, INFINITY, INFINITY};
    float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t v = 0; v < vertices; ++v)
        for (int k = 0; k < 3; ++k) {
            float x = positions[(size_t)v * 3 + k];
            lo[k] = x < lo[k] || isnan(x) ? x : lo[k];
            hi[k] = x > hi[k] || isnan(x) ? x : hi[k];
        }
    frame(lo, hi, (vs_up_axis)(head[1] >> 2 & 1));
    free(indices);
    free(positions);
}

/* The overlay's buffer sized exactly as the renderer sizes it. */
static void skeleton(const vs_asset *asset, const vs_pose *pose)
{
    size_t nodes = asset->node_count;
    bool *is_joint = malloc(nodes + 1);
    float *v = malloc((nodes * SKELETON_FLOATS_PER_NODE + 1) * sizeof *v);
    if (!is_joint || !v) abort();
    skeleton_joint_flags(asset, is_joint);
    size_t bones = 0, points = 0;
    skeleton_lines_fill(asset, is_joint, pose, v, &bones, &points);
    if (bones > nodes || points > nodes) abort();
    free(v);
    free(is_joint);
}

static void whole_asset(const uint8_t *data, size_t size)
{
    vs_asset *asset = fuzz_load(data, size);
    if (!asset) return;
    for (uint32_t m = 0; m < asset->mesh_count; ++m)
        for (uint32_t p = 0; p < asset->meshes[m].primitive_count; ++p)
            run_topology(&asset->meshes[m].primitives[p]);
    vs_pose *pose = NULL;
    vs_error error;
    if (vs_pose_create(asset, &pose, &error) == VS_OK) {
        vs_pose_update_world(pose);
        float lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1};
        /* An error or no vertex leaves zeros: framed like any box. */
        vs_pose_fast_bounds(pose, NULL, lo, hi, NULL, &error);
        frame(lo, hi, asset->up_axis);
        skeleton(asset, pose);
        vs_pose_free(pose);
    }
    vs_camera cam;
    int32_t clip = asset->clip_count ? 0 : -1;
    if (vs_camera_frame_clip(asset, clip, 3, 1.5f, false, &cam, &error) ==
        VS_OK)
        check_camera(&cam, 1.5f);
    vs_asset_free(asset);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] < 8)
        raw_primitive(data, size);
    else
        whole_asset(data, size);
    return 0;
}
