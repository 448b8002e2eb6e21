/* SPDX-License-Identifier: MIT */
/* A parsed <controller><skin>, shared by every <instance_controller> of it
 * (collada_skin.c), and the per-instance joint resolution
 * (collada_skin_joints.c). */
#ifndef VS_LOAD_COLLADA_COLLADA_SKIN_H
#define VS_LOAD_COLLADA_COLLADA_SKIN_H

#include "load/collada/collada_loader.h"

typedef struct skin_data {
    const collada_geometry *geometry;
    uint32_t joint_count;  /* joints of the file, without the extra one */
    char **joint_names;    /* Name_array or IDREF_array entries */
    bool idref;            /* names are node ids */
    float *ibm;            /* 16 per joint, column-major, or NULL */
    float bsm[16];         /* column-major */
    bool bind_shape_joint; /* an influence uses joint -1 */
    uint32_t influence_count;
    vs_primitive *primitives; /* geometry's primitives + JOINTS/WEIGHTS */
} skin_data;

/* Parses the controller once (cached on the element). */
vs_result collada_skin_get(collada_ctx *ctx, const xmlNode *controller,
                           const skin_data **out);

#endif
