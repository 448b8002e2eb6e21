/* SPDX-License-Identifier: MIT */
/* Compares vskin's posed geometry with the JSON written by
 * tests/reference/gltf_reference.py, an independent standard-library Python
 * glTF 2.0 posing implementation (double precision; see its header for the
 * rules it implements and tests/reference/make_reference.sh for how
 * the files in tests/data/reference/ were made).
 *
 * A reference file holds the rest pose and a list of poses {clip, time} (each
 * the rest pose with one clip applied, CLAMP mode), and per pose: the scene
 * bounds, and per mesh instance primitive {node, primitive} its vertex count,
 * its bounds and (optionally) a subset of its world positions. */
#ifndef VS_TESTS_SKIN_REFERENCE_COMPARE_H
#define VS_TESTS_SKIN_REFERENCE_COMPARE_H

#include <cjson/cJSON.h>
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <vskin/vskin.h>

#include "bounds_any.h"
#include "test.h"

typedef struct ref_stats {
    double max_error;  /* largest |library - reference| component seen */
    unsigned compared; /* positions compared */
    unsigned reported; /* failure lines printed (capped) */
} ref_stats;

static inline cJSON *ref_load_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (size > 0 && fseek(f, 0, SEEK_SET) == 0) {
        text = malloc((size_t)size + 1);
        if (text && fread(text, 1, (size_t)size, f) == (size_t)size) {
            text[size] = '\0';
        } else {
            free(text);
            text = NULL;
        }
    }
    fclose(f);
    cJSON *json = text ? cJSON_Parse(text) : NULL;
    free(text);
    return json;
}

static inline bool ref_vec3(const cJSON *array, double out[3])
{
    if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != 3) return false;
    for (int i = 0; i < 3; ++i) {
        const cJSON *v = cJSON_GetArrayItem(array, i);
        if (!cJSON_IsNumber(v)) return false;
        out[i] = v->valuedouble;
    }
    return true;
}

/* Records one compared triple; prints the first few mismatches in full
 * (asset, pose, what, both values) so a failure says where it is. */
static inline void ref_check3(ref_stats *st, const char *label,
                              const char *what, long index, const float got[3],
                              const double want[3], double tol)
{
    double err = 0.0;
    for (int i = 0; i < 3; ++i) {
        double d = fabs((double)got[i] - want[i]);
        if (!(d <= err)) err = d; /* NaN propagates as a failure */
    }
    ++test_checks;
    if (err > st->max_error || err != err) st->max_error = err;
    if (err <= tol) return;
    ++test_failures;
    if (st->reported++ < 12)
        fprintf(stderr,
                "%s: %s %ld: library (%.7g, %.7g, %.7g) reference "
                "(%.7g, %.7g, %.7g), |diff| %.3g > %.3g\n",
                label, what, index, got[0], got[1], got[2], want[0], want[1],
                want[2], err, tol);
}

static inline void ref_check_bounds(ref_stats *st, const char *label,
                                    const char *what, const cJSON *obj,
                                    const float lo[3], const float hi[3],
                                    double tol)
{
    double want_lo[3], want_hi[3];
    bool ok = ref_vec3(cJSON_GetObjectItem(obj, "bounds_min"), want_lo) &&
              ref_vec3(cJSON_GetObjectItem(obj, "bounds_max"), want_hi);
    CHECK_MSG(ok, "%s: reference %s has no bounds", label, what);
    if (!ok) return;
    char name[64];
    snprintf(name, sizeof name, "%s bounds min", what);
    ref_check3(st, label, name, -1, lo, want_lo, tol);
    snprintf(name, sizeof name, "%s bounds max", what);
    ref_check3(st, label, name, -1, hi, want_hi, tol);
}

static inline void ref_compare_primitive(const vs_pose *pose, const cJSON *prim,
                                         double tol, const char *label,
                                         ref_stats *st)
{
    const cJSON *node = cJSON_GetObjectItem(prim, "node");
    const cJSON *index = cJSON_GetObjectItem(prim, "primitive");
    const cJSON *count = cJSON_GetObjectItem(prim, "vertex_count");
    if (!cJSON_IsNumber(node) || !cJSON_IsNumber(index) ||
        !cJSON_IsNumber(count)) {
        CHECK_MSG(false, "%s: malformed reference primitive", label);
        return;
    }
    char where[200];
    snprintf(where, sizeof where, "%s node %d primitive %d", label,
             node->valueint, index->valueint);
    vs_pose_mesh_options options = {0};
    vs_posed_primitive posed = {0};
    vs_error error = {0};
    vs_result r = vs_pose_mesh_primitive(pose, (uint32_t)node->valueint,
                                         (uint32_t)index->valueint, &options,
                                         &posed, &error);
    CHECK_MSG(r == VS_OK, "%s: vs_pose_mesh_primitive: %s", where,
              error.message);
    if (r != VS_OK) return;
    CHECK_MSG(posed.vertex_count == (uint32_t)count->valueint,
              "%s: %u vertices, reference %d", where, posed.vertex_count,
              count->valueint);
    if (posed.vertex_count == (uint32_t)count->valueint &&
        posed.vertex_count > 0) {
        float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX};
        float hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
        for (uint32_t v = 0; v < posed.vertex_count; ++v) {
            for (int i = 0; i < 3; ++i) {
                float c = posed.positions[3 * v + i];
                if (c < lo[i]) lo[i] = c;
                if (c > hi[i]) hi[i] = c;
            }
        }
        ref_check_bounds(st, where, "primitive", prim, lo, hi, tol);
        const cJSON *verts = cJSON_GetObjectItem(prim, "vertices");
        const cJSON *pos = cJSON_GetObjectItem(prim, "positions");
        int n = cJSON_GetArraySize(verts);
        CHECK(cJSON_GetArraySize(pos) == n);
        for (int k = 0; k < n && k < cJSON_GetArraySize(pos); ++k) {
            int v = cJSON_GetArrayItem(verts, k)->valueint;
            double want[3];
            bool ok = v >= 0 && (uint32_t)v < posed.vertex_count &&
                      ref_vec3(cJSON_GetArrayItem(pos, k), want);
            CHECK_MSG(ok, "%s: bad reference vertex %d", where, v);
            if (!ok) continue;
            ref_check3(st, where, "vertex", v, &posed.positions[3 * v], want,
                       tol);
            ++st->compared;
        }
    }
    vs_posed_primitive_free(&posed);
}

/* One reference pose: reset, apply the clip (if any) at the time, compare the
 * scene bounds and every listed primitive. */
static inline void ref_compare_pose(vs_pose *pose, const char *asset_name,
                                    const cJSON *entry, double tol,
                                    ref_stats *st)
{
    const cJSON *clip = cJSON_GetObjectItem(entry, "clip");
    const cJSON *time = cJSON_GetObjectItem(entry, "time");
    char label[160];
    if (cJSON_IsNumber(clip))
        snprintf(label, sizeof label, "%s clip %d t=%g", asset_name,
                 clip->valueint, time ? time->valuedouble : -1.0);
    else
        snprintf(label, sizeof label, "%s rest pose", asset_name);

    vs_pose_reset(pose);
    if (cJSON_IsNumber(clip)) {
        vs_error error = {0};
        vs_result r =
            vs_pose_sample(pose, (uint32_t)clip->valueint,
                           (float)time->valuedouble, VS_TIME_CLAMP, &error);
        CHECK_MSG(r == VS_OK, "%s: vs_pose_sample: %s", label, error.message);
    }
    vs_pose_update_world(pose);

    vs_pose_mesh_options options = {0};
    float lo[3], hi[3];
    bool any = bounds_any(pose, &options, lo, hi);
    CHECK_MSG(any, "%s: vs_pose_bounds found no vertex", label);
    if (any) ref_check_bounds(st, label, "scene", entry, lo, hi, tol);

    const cJSON *prim;
    cJSON_ArrayForEach(prim, cJSON_GetObjectItem(entry, "primitives"))
        ref_compare_primitive(pose, prim, tol, label, st);
}

/* Loads `gltf_path` through the library and checks every pose of the
 * reference `json_path`. Tolerance: rel_tol * the reference's "size" (the
 * rest bounds diagonal), or rel_tol itself when `absolute`. */
static inline void ref_compare_file(const char *gltf_path,
                                    const char *json_path, double rel_tol,
                                    bool absolute)
{
    cJSON *ref = ref_load_json(json_path);
    CHECK_MSG(ref != NULL, "cannot read reference %s", json_path);
    vs_asset *asset = NULL;
    vs_error error = {0};
    vs_result r = vs_asset_load_file(gltf_path, NULL, &asset, &error);
    CHECK_MSG(r == VS_OK, "%s: %s", gltf_path, error.message);
    vs_pose *pose = NULL;
    if (r == VS_OK) {
        r = vs_pose_create(asset, &pose, &error);
        CHECK_MSG(r == VS_OK, "vs_pose_create: %s", error.message);
    }
    if (ref && pose) {
        const cJSON *name = cJSON_GetObjectItem(ref, "asset");
        const cJSON *size = cJSON_GetObjectItem(ref, "size");
        const char *asset_name = cJSON_IsString(name) ? name->valuestring : "?";
        double tol = absolute || !cJSON_IsNumber(size)
                         ? rel_tol
                         : rel_tol * size->valuedouble;

        /* Mesh instances: the reference lists them in node-index order, as
         * vs_asset.instances promises. */
        const cJSON *rest = cJSON_GetObjectItem(ref, "rest");
        const cJSON *prim;
        uint32_t k = 0;
        int last_node = -1;
        cJSON_ArrayForEach(prim, cJSON_GetObjectItem(rest, "primitives"))
        {
            int node = cJSON_GetObjectItem(prim, "node")->valueint;
            if (node == last_node) continue;
            last_node = node;
            CHECK_MSG(k < asset->instance_count &&
                          asset->instances[k] == (uint32_t)node,
                      "%s: instance %u should be node %d", asset_name, k, node);
            ++k;
        }
        CHECK_MSG(k == asset->instance_count, "%s: %u instances, reference %u",
                  asset_name, asset->instance_count, k);

        ref_stats st = {0};
        ref_compare_pose(pose, asset_name, rest, tol, &st);
        const cJSON *entry;
        unsigned poses = 1;
        cJSON_ArrayForEach(entry, cJSON_GetObjectItem(ref, "poses"))
        {
            ref_compare_pose(pose, asset_name, entry, tol, &st);
            ++poses;
        }
        printf("%s: %u poses, %u positions compared, max |diff| %.3g "
               "(tolerance %.3g)\n",
               asset_name, poses, st.compared, st.max_error, tol);
        if (st.reported > 12)
            fprintf(stderr, "%s: %u mismatches not printed\n", asset_name,
                    st.reported - 12);
    }
    vs_pose_free(pose);
    vs_asset_free(asset);
    cJSON_Delete(ref);
}

#endif
