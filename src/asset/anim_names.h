/* SPDX-License-Identifier: MIT */
/* glTF's names for the animation model's enums (channel paths, sampler
 * interpolations), in one place for the glTF loader that parses them, the
 * writer that writes them, the validator and messages that quote them. */
#ifndef VS_ASSET_ANIM_NAMES_H
#define VS_ASSET_ANIM_NAMES_H

#include <stdbool.h>
#include <string.h>

#include "vskin/vskin.h"

static inline const char *anim_path_name(vs_anim_path path)
{
    switch (path) {
    case VS_PATH_TRANSLATION:
        return "translation";
    case VS_PATH_ROTATION:
        return "rotation";
    case VS_PATH_SCALE:
        return "scale";
    case VS_PATH_WEIGHTS:
        return "weights";
    }
    return "?";
}

/* The path glTF calls name; false when name is none of the four. */
static inline bool anim_path_parse(const char *name, vs_anim_path *out)
{
    static const vs_anim_path all[] = {VS_PATH_TRANSLATION, VS_PATH_ROTATION,
                                       VS_PATH_SCALE, VS_PATH_WEIGHTS};
    for (size_t k = 0; k < sizeof all / sizeof *all; ++k)
        if (strcmp(name, anim_path_name(all[k])) == 0) {
            *out = all[k];
            return true;
        }
    return false;
}

static inline const char *anim_interp_name(vs_interpolation interp)
{
    switch (interp) {
    case VS_INTERP_LINEAR:
        return "LINEAR";
    case VS_INTERP_STEP:
        return "STEP";
    case VS_INTERP_CUBICSPLINE:
        return "CUBICSPLINE";
    }
    return "?";
}

/* The interpolation glTF calls name; false when it is none of the three. */
static inline bool anim_interp_parse(const char *name, vs_interpolation *out)
{
    static const vs_interpolation all[] = {VS_INTERP_LINEAR, VS_INTERP_STEP,
                                           VS_INTERP_CUBICSPLINE};
    for (size_t k = 0; k < sizeof all / sizeof *all; ++k)
        if (strcmp(name, anim_interp_name(all[k])) == 0) {
            *out = all[k];
            return true;
        }
    return false;
}

#endif
