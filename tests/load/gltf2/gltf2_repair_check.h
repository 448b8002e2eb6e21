/* SPDX-License-Identifier: MIT */
/* What every repair test checks of a flawed file: it loads, it carries the
 * warning (object and a part of the message), a strict load refuses it
 * naming that object; and the posed positions of a mesh instance. */
#ifndef VS_TESTS_LOAD_GLTF2_REPAIR_CHECK_H
#define VS_TESTS_LOAD_GLTF2_REPAIR_CHECK_H

#include <math.h>
#include <string.h>

#include "test.h"
#include "vskin/vskin.h"

static inline bool rc_has_warning(const vs_asset *a, const char *object,
                                  const char *part)
{
    for (uint32_t i = 0; i < a->warning_count; ++i)
        if (strcmp(a->warnings[i].object, object) == 0 &&
            strstr(a->warnings[i].message, part))
            return true;
    return false;
}

/* Loads data (a .gltf text or a GLB) that must load with the warning, and
 * be refused by a strict load; NULL when it did not load. */
static inline vs_asset *rc_load_repaired(const void *data, size_t size,
                                         const char *object, const char *part)
{
    vs_asset *a = NULL, *strict = NULL;
    vs_error err = {0};
    vs_result r = vs_asset_load_memory(data, size, "r.gltf", NULL, &a, &err);
    CHECK_MSG(r == VS_OK, "refused: %s", err.message);
    if (r != VS_OK) return NULL;
    CHECK_MSG(rc_has_warning(a, object, part),
              "no warning \"%s: ...%s\" (%u warnings, first \"%s: %s\")",
              object, part, a->warning_count,
              a->warning_count ? a->warnings[0].object : "",
              a->warning_count ? a->warnings[0].message : "");
    vs_load_options opt = {.strict = true};
    r = vs_asset_load_memory(data, size, "r.gltf", &opt, &strict, &err);
    CHECK_MSG(r == VS_ERROR_INVALID && strstr(err.message, "strict") &&
                  strstr(err.message, object),
              "strict load gives %d: %s", (int)r, err.message);
    vs_asset_free(strict);
    return a;
}

static inline vs_asset *rc_load_text(const char *json, const char *object,
                                     const char *part)
{
    return rc_load_repaired(json, strlen(json), object, part);
}

/* The posed positions of primitive 0 of node `node` at rest (or at `time`
 * of clip 0 when clip >= 0) against want (3 per vertex). */
static inline void rc_check_posed(const vs_asset *a, uint32_t node, int clip,
                                  float time, const float *want,
                                  uint32_t vertices)
{
    vs_pose *pose = NULL;
    vs_error err;
    CHECK_MSG(vs_pose_create(a, &pose, &err) == VS_OK, "%s", err.message);
    if (!pose) return;
    if (clip >= 0)
        CHECK_MSG(vs_pose_sample(pose, (uint32_t)clip, time, VS_TIME_CLAMP,
                                 &err) == VS_OK,
                  "%s", err.message);
    vs_pose_update_world(pose);
    vs_posed_primitive out = {0};
    vs_result r = vs_pose_mesh_primitive(pose, node, 0, NULL, &out, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r == VS_OK) {
        CHECK(out.vertex_count == vertices);
        for (uint32_t i = 0; i < 3 * vertices && i < 3 * out.vertex_count; ++i)
            CHECK_MSG(fabsf(out.positions[i] - want[i]) < 1e-5f,
                      "position %u: %g, want %g", i, (double)out.positions[i],
                      (double)want[i]);
    }
    vs_posed_primitive_free(&out);
    vs_pose_free(pose);
}

#endif
