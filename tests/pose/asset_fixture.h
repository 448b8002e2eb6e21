/* SPDX-License-Identifier: MIT */
/* Tiny in-memory assets for the pose and joint-matrix tests, built with the
 * loaders' own internal builder (vs_priv_asset_create / vs_priv_asset_calloc /
 * vs_priv_asset_finalize) so these tests do not depend on any file loader. */
#ifndef VS_TESTS_ANIM_ASSET_FIXTURE_H
#define VS_TESTS_ANIM_ASSET_FIXTURE_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asset/asset_internal.h"
#include "base/xform.h"
#include "test.h"

/* An asset with `count` root nodes at identity, no mesh, no skin. */
static inline vs_asset *fx_asset(uint32_t count)
{
    vs_asset *a = vs_priv_asset_create("fixture", NULL);
    if (!a) abort();
    vs_node *nodes = vs_priv_asset_calloc(a, count, sizeof *nodes, NULL, "nodes");
    if (!nodes) abort();
    for (uint32_t i = 0; i < count; ++i) {
        nodes[i].name = "";
        nodes[i].mesh = -1;
        nodes[i].skin = -1;
        xform_trs_identity(&nodes[i].rest_trs);
    }
    a->format = VS_FORMAT_GLTF2;
    a->nodes = nodes;
    a->node_count = count;
    return a;
}

static inline vs_node *fx_node(vs_asset *a, uint32_t i)
{
    return (vs_node *)&a->nodes[i];
}

/* Allocates `n` floats owned by the asset and fills them from the varargs
 * (doubles, as C promotes them). */
static inline float *fx_floats(vs_asset *a, uint32_t n, ...)
{
    float *f = vs_priv_asset_calloc(a, n ? n : 1, sizeof *f, NULL, "floats");
    if (!f) abort();
    va_list ap;
    va_start(ap, n);
    for (uint32_t i = 0; i < n; ++i)
        f[i] = (float)va_arg(ap, double);
    va_end(ap);
    return f;
}

/* Makes `child` the only child of `parent`. */
static inline void fx_child(vs_asset *a, uint32_t parent, uint32_t child)
{
    uint32_t *c = vs_priv_asset_calloc(a, 1, sizeof *c, NULL, "children");
    if (!c) abort();
    c[0] = child;
    fx_node(a, parent)->children = c;
    fx_node(a, parent)->child_count = 1;
}

static inline void fx_translate(vs_asset *a, uint32_t i, float x, float y,
                                float z)
{
    vs_node *n = fx_node(a, i);
    n->rest_trs.translation[0] = x;
    n->rest_trs.translation[1] = y;
    n->rest_trs.translation[2] = z;
}

/* One clip whose channel k targets nodes[node[k]].path[k] with samplers[k]. */
static inline void fx_clip(vs_asset *a, uint32_t count, const uint32_t *node,
                           const vs_anim_path *path,
                           const vs_anim_sampler *samplers)
{
    vs_clip *clip = vs_priv_asset_calloc(a, 1, sizeof *clip, NULL, "clips");
    vs_anim_channel *ch = vs_priv_asset_calloc(a, count, sizeof *ch, NULL, "channels");
    vs_anim_sampler *s = vs_priv_asset_calloc(a, count, sizeof *s, NULL, "samplers");
    if (!clip || !ch || !s) abort();
    for (uint32_t k = 0; k < count; ++k) {
        ch[k] =
            (vs_anim_channel){.node = node[k], .path = path[k], .sampler = k};
        s[k] = samplers[k];
    }
    clip->name = "";
    clip->channels = ch;
    clip->channel_count = count;
    clip->samplers = s;
    clip->sampler_count = count;
    a->clips = clip;
    a->clip_count = 1;
}

static inline void fx_finalize(vs_asset *a)
{
    vs_error err;
    if (vs_priv_asset_finalize(a, &err) != VS_OK) {
        fprintf(stderr, "fixture: %s\n", err.message);
        abort();
    }
}

static inline void check_matrix_near(const float *got, const float *want,
                                     double tol, const char *what)
{
    for (int i = 0; i < 16; ++i)
        CHECK_MSG(fabs((double)got[i] - (double)want[i]) <= tol,
                  "%s[%d] = %.7g, want %.7g", what, i, (double)got[i],
                  (double)want[i]);
}

#endif
