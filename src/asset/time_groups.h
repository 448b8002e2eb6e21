/* SPDX-License-Identifier: MIT */
/* Samplers of a clip whose key times are identical, grouped once at the end
 * of loading, so that a pose searches the keys and computes the
 * interpolation fraction once per group instead of once per sampler.
 * Exporters usually bake every channel of a clip on the same frames:
 * CesiumMan's 57 samplers have one time array between them. */
#ifndef VS_ASSET_TIME_GROUPS_H
#define VS_ASSET_TIME_GROUPS_H

#include <stdint.h>

#include "vskin/vskin.h"

typedef struct time_groups {
    /* The clip's sampler array these were built for: a clip whose samplers
     * pointer or count differs (a caller's edited copy of the model) is not
     * grouped. */
    const vs_anim_sampler *samplers;
    uint32_t sampler_count;
    uint32_t group_count;
    const uint32_t *group_of; /* per sampler, 0..group_count-1 */
    const uint32_t *first;    /* per group: its lowest sampler index */
} time_groups;

/* Groups every clip's samplers (FNV-1a hash of the times, sorted, equal
 * hashes compared in full). Called by vs_priv_asset_finalize. */
vs_result time_groups_build(vs_asset *asset, vs_error *error);

/* The groups of clip c, or NULL when there are none (not built, or the clip
 * no longer is the one they were built for). */
const time_groups *time_groups_for(const vs_asset *asset, uint32_t c);

#endif
