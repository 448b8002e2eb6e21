/* SPDX-License-Identifier: MIT */
/* Shared between the COLLADA loader's parts: a node's transform stack (the
 * <matrix>/<translate>/<rotate>/<scale>/<lookat>/<skew> children of a <node>,
 * kept in document order so animations can replace single elements), and
 * the entry point of the animation part. */
#ifndef VS_LOAD_COLLADA_COLLADA_INTERNAL_H
#define VS_LOAD_COLLADA_COLLADA_INTERNAL_H

#include <libxml/tree.h>
#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

struct collada_instance;

typedef enum collada_xform_kind {
    COLLADA_XF_MATRIX = 0, /* 16 values, row-major as written */
    COLLADA_XF_TRANSLATE,  /* 3: x y z */
    COLLADA_XF_ROTATE,     /* 4: axis x y z, angle in degrees */
    COLLADA_XF_SCALE,      /* 3: x y z */
    COLLADA_XF_LOOKAT,     /* 9: eye, interest, up */
    COLLADA_XF_SKEW        /* 7: angle in degrees, rotation axis, translation axis */
} collada_xform_kind;

/* One element of a node's transform stack. */
typedef struct collada_xform {
    collada_xform_kind kind;
    const char *sid; /* the element's sid attribute, or NULL */
    float values[16];
} collada_xform;

/* The stack of one runtime node; the loader keeps one per vs_node, same
 * index. Nodes made by the loader itself (none in the file) have count 0. */
typedef struct collada_node_stack {
    const char *id;  /* the <node id>, or NULL */
    const char *sid; /* the <node sid>, or NULL */
    uint32_t xform_count;
    const collada_xform *xforms;
} collada_node_stack;

/* Column-major local matrix of a stack: the elements' matrices multiplied
 * in document order (COLLADA 1.4.1 spec, "node": transformations are
 * post-multiplied in the order they appear). count 0 gives identity. */
void collada_stack_matrix(const collada_xform *xforms, uint32_t count,
                          float out[16]);

/* The column-major matrix of one element; a degenerate <skew> (which the
 * loader refuses before) gives identity. */
void collada_xform_matrix(const collada_xform *xform, float out[16]);

/* 1/sqrt(FLT_EPSILON): the largest |shear factor| a <skew> may have, for
 * perpendicular axes |tan(angle)|, so an angle at least about 0.02 degrees
 * away from +-90 (mod 180). */
#define COLLADA_SKEW_MAX_SHEAR 2896.3093757400984

/* Whether the <skew> values v (angle, rotation axis, translation axis) give
 * a shear factor that is not finite or not below COLLADA_SKEW_MAX_SHEAR;
 * *shear is that factor (0 without shear). */
bool collada_skew_degenerate(const float v[7], double *shear);

/* Parses <library_animations> (nested <animation>s) and
 * <library_animation_clips>, evaluates the animated transform stacks and
 * fills asset->clips / asset->clip_count with TRS channels on the runtime
 * nodes, and weight channels on the nodes that show an animated <morph>
 * (found among the loader's mesh instances; NULL / 0 for none). stacks has
 * asset->node_count entries. Called by collada_load after
 * the nodes exist and before vs_priv_asset_finalize. Errors name the element and
 * its line: "FILE: line 42: <channel target=\"...\">: what is wrong". */
vs_result collada_load_animations(vs_asset *asset, xmlNode *collada_root,
                                  const collada_node_stack *stacks,
                                  const struct collada_instance *instances,
                                  uint32_t instance_count, vs_error *error);

#endif
