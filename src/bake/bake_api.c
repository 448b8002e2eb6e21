/* SPDX-License-Identifier: MIT */
/* The public entry points of the bakers (vskin_tools.h): argument checks
 * and the options' defaults, then bake.c, bake_morph.c and bake_vat.c. */
#include "bake/bake.h"
#include "base/error.h"

/* `vskin bake --clip` samples this many frames a second by default. */
#define DEFAULT_FPS 30.0f

/* The options with their defaults applied (fps 0 = DEFAULT_FPS). */
static bake_clip_options resolve(const vs_bake_clip_options *options)
{
    bake_clip_options o = {0};
    if (options) o = *options;
    if (o.fps == 0.0f) o.fps = DEFAULT_FPS;
    return o;
}

vs_result vs_bake_frame_times(const vs_asset *asset, uint32_t clip, float fps,
                              float **out_times, uint32_t *out_count,
                              vs_error *error)
{
    clear_error(error);
    if (!asset || !out_times || !out_count)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "vs_bake_frame_times: an asset and two outputs are "
                         "needed");
    *out_times = NULL;
    *out_count = 0;
    return bake_frame_times(asset, clip, fps == 0.0f ? DEFAULT_FPS : fps,
                            out_times, out_count, error);
}

vs_result vs_bake_pose(const vs_pose *pose, const vs_pose_mesh_options *options,
                       vs_asset **out_asset, vs_error *error)
{
    clear_error(error);
    return bake_pose(pose, options, out_asset, error);
}

vs_result vs_bake_clip_morph(const vs_asset *asset, uint32_t clip,
                             const vs_bake_clip_options *options,
                             vs_asset **out_asset, vs_error *error)
{
    clear_error(error);
    bake_clip_options o = resolve(options);
    return bake_clip_morph(asset, clip, &o, out_asset, error);
}

vs_result vs_bake_vat_write(const vs_asset *asset, uint32_t clip,
                            const vs_bake_clip_options *options,
                            const char *base, vs_error *error)
{
    clear_error(error);
    bake_clip_options o = resolve(options);
    return bake_vat_write(asset, clip, &o, base, error);
}
