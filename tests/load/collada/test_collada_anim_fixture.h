/* SPDX-License-Identifier: MIT */
/* Drives collada_load_animations without the rest of the COLLADA loader: a
 * hand-built asset whose nodes carry the transform stacks the test .dae
 * files declare, the .dae parsed with libxml2 here, then the usual
 * vs_priv_asset_finalize and the runtime pose API to read the clips back. */
#ifndef VS_TESTS_IO_COLLADA_ANIM_FIXTURE_H
#define VS_TESTS_IO_COLLADA_ANIM_FIXTURE_H

#include <libxml/parser.h>

#include "asset/asset_internal.h"
#include "base/xform.h"
#include "load/collada/collada_internal.h"
#include "test.h"

#define FX_MAX_NODES 4
#define FX_MAX_XFORMS 4

typedef struct fx_anim {
    vs_asset *asset;
    collada_node_stack stacks[FX_MAX_NODES];
    collada_xform xforms[FX_MAX_NODES][FX_MAX_XFORMS];
    vs_node *nodes;
} fx_anim;

/* `count` root nodes with ids; add their stacks with fx_xform. */
static inline void fx_init(fx_anim *f, const char *source, uint32_t count,
                           const char *const *ids)
{
    memset(f, 0, sizeof *f);
    f->asset = vs_priv_asset_create(source, NULL);
    if (!f->asset) abort();
    f->asset->format = VS_FORMAT_COLLADA;
    f->nodes = vs_priv_asset_calloc(f->asset, count, sizeof *f->nodes, NULL, "nodes");
    if (!f->nodes) abort();
    for (uint32_t i = 0; i < count; ++i) {
        f->nodes[i].name = ids[i];
        f->nodes[i].id = ids[i];
        f->nodes[i].mesh = -1;
        f->nodes[i].skin = -1;
        f->stacks[i].id = ids[i];
        f->stacks[i].xforms = f->xforms[i];
    }
    f->asset->nodes = f->nodes;
    f->asset->node_count = count;
}

static inline void fx_xform(fx_anim *f, uint32_t node, collada_xform_kind k,
                            const char *sid, const float *values, int n)
{
    collada_node_stack *st = &f->stacks[node];
    collada_xform *x = &f->xforms[node][st->xform_count++];
    x->kind = k;
    x->sid = sid;
    memcpy(x->values, values, sizeof(float) * (size_t)n);
}

/* Parses the file, runs the import and, when it succeeds, sets each node's
 * rest transform from its stack (as the loader does) and finalizes. */
static inline vs_result fx_load_doc(fx_anim *f, xmlDoc *doc, vs_error *err)
{
    if (!doc) {
        fprintf(stderr, "cannot parse test document\n");
        abort();
    }
    for (uint32_t i = 0; i < f->asset->node_count; ++i) {
        vs_node *n = &f->nodes[i];
        collada_stack_matrix(f->stacks[i].xforms, f->stacks[i].xform_count,
                             n->matrix);
        n->has_matrix = true;
        xform_decompose(n->matrix, &n->rest_trs);
    }
    vs_result r = collada_load_animations(f->asset, xmlDocGetRootElement(doc),
                                          f->stacks, NULL, 0, err);
    xmlFreeDoc(doc);
    if (r == VS_OK) r = vs_priv_asset_finalize(f->asset, err);
    return r;
}

static inline vs_result fx_load(fx_anim *f, const char *name, vs_error *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/collada_anim/%s", VS_TEST_DATA, name);
    return fx_load_doc(f, xmlReadFile(path, NULL, XML_PARSE_NONET), err);
}

/* Local matrix of `node` after sampling clip `clip` at t. */
static inline void fx_local(const vs_asset *a, uint32_t clip, float t,
                            uint32_t node, float out[16])
{
    vs_pose *p = NULL;
    vs_error err;
    if (vs_pose_create(a, &p, &err) != VS_OK ||
        vs_pose_sample(p, clip, t, VS_TIME_CLAMP, &err) != VS_OK) {
        fprintf(stderr, "pose: %s\n", err.message);
        abort();
    }
    vs_pose_get_local(p, node, out);
    vs_pose_free(p);
}

static inline void fx_check_matrix(const float *got, const float *want,
                                   double tol, const char *what)
{
    for (int i = 0; i < 16; ++i)
        CHECK_MSG(fabs(got[i] - want[i]) <= tol, "%s[%d] = %g, want %g", what,
                  i, (double)got[i], (double)want[i]);
}

#endif
