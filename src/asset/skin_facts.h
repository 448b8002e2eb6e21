/* SPDX-License-Identifier: MIT */
/* What vs_pose_joint_matrices would otherwise test on every call, worked
 * out once per skin at the end of loading: whether every inverse bind
 * matrix is affine (then the affine-only product is exact for all joints)
 * and whether the bind shape matrix is the identity (then its product is
 * skipped). The two tests were a large part of the call on small skins. Also
 * kept: the IBMs' rows, so that 3x4 joint matrices need no transpose. */
#ifndef VS_ASSET_SKIN_FACTS_H
#define VS_ASSET_SKIN_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "vskin/vskin.h"

typedef struct skin_facts {
    bool ibms_affine;  /* every IBM's last row is 0 0 0 1 (or none) */
    bool bsm_identity; /* the bind shape matrix is exactly the identity */
    /* Kept facts only, where the IBMs exist and are affine: rows 0-2 of
     * each IBM, row-major (12 floats per joint), for 3x4 joint matrices
     * computed row by row; else NULL. */
    const float *ibm_rows;
} skin_facts;

/* The facts of one skin, computed now. */
skin_facts skin_facts_of(const vs_skin *skin);

/* Facts for every skin, kept with the asset. Called last by
 * vs_priv_asset_finalize; an optimisation, so reaching the memory limit just
 * leaves the asset (or a skin's IBM rows) without. An allocator that refuses
 * is VS_ERROR_OUT_OF_MEMORY, as everywhere else. */
vs_result skin_facts_build(vs_asset *asset, vs_error *error);

/* The kept facts of skin s, or NULL (none kept, or the asset's skin array
 * is not the one they were built for: a caller's edited copy). */
const skin_facts *skin_facts_for(const vs_asset *asset, uint32_t s);

#endif
