/* SPDX-License-Identifier: MIT */
/* vskin render: one PNG at a time T, or an animated, looping GIF of a clip,
 * drawn with GPU skinning (OpenGL ES 3 over headless EGL). The camera frames
 * the clip's bounds over its whole range (30 samples) unless --camera is
 * given, so every frame of a GIF uses the same camera. With --method both,
 * each picture holds two panels of WxH side by side: linear blend skinning
 * on the left, dual-quaternion skinning on the right, same camera. Built
 * without the renderer (VSKIN_CLI_WITH_RENDER 0), the command says so and
 * fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_files.h"
#include "commands.h"

#if VSKIN_CLI_WITH_RENDER
#include "render_options.h"
#include "vskin/vskin_render.h"

#define CMD "render"
#define FRAMING_SAMPLES 30
#define DEFAULT_GIF_FPS 24.0f
#define MAX_GIF_FRAMES 10000

typedef struct render_job {
    const render_options *opts;
    vs_renderer *renderer;
    vs_pose *pose;
    int32_t clip;
    vs_render_desc desc;
    uint8_t *rgba;  /* the picture: out_width x desc.height */
    uint8_t *panel; /* --method both: one panel, desc.width x desc.height */
    uint32_t out_width;
} render_job;

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return false;
    for (size_t i = 0; i < m; ++i) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

static int fail(const vs_error *e, vs_result r)
{
    cli_error(CMD, "%s", e->message[0] ? e->message : vs_result_string(r));
    return 1;
}

/* Copies a panel into columns [x0, x0 + panel width) of the picture. */
static void place_panel(render_job *job, uint32_t x0)
{
    size_t row = (size_t)job->desc.width * 4;
    for (uint32_t y = 0; y < job->desc.height; ++y)
        memcpy(job->rgba + ((size_t)y * job->out_width + x0) * 4,
               job->panel + y * row, row);
}

/* Poses the asset at time t and draws it into job->rgba. */
static vs_result draw_at(render_job *job, float t, vs_error *e)
{
    vs_pose_reset(job->pose);
    vs_result r = VS_OK;
    if (job->clip >= 0)
        r = vs_pose_sample(
            job->pose, (uint32_t)job->clip, t,
            job->opts->common.loop ? VS_TIME_LOOP : VS_TIME_CLAMP, e);
    if (r != VS_OK) return r;
    vs_pose_update_world(job->pose);
    if (!job->panel)
        return vs_render_pose(job->renderer, job->pose, &job->desc, job->rgba,
                              e);
    for (int side = 0; side < 2 && r == VS_OK; ++side) {
        job->desc.method = side ? VS_SKIN_DUAL_QUATERNION : VS_SKIN_LINEAR;
        r = vs_render_pose(job->renderer, job->pose, &job->desc, job->panel, e);
        if (r == VS_OK) place_panel(job, side ? job->desc.width : 0);
    }
    return r;
}

static void progress(uint32_t done, uint32_t total)
{
    const int width = 30;
    int filled = (int)((uint64_t)done * (uint64_t)width / total);
    fprintf(stderr, "\rrendering [%.*s%*s] %u/%u", filled,
            "##############################", width - filled, "", done, total);
    if (done == total) fputc('\n', stderr);
    fflush(stderr);
}

static int write_gif(render_job *job)
{
    const render_options *o = job->opts;
    const vs_asset *asset = vs_pose_asset(job->pose);
    float start = job->clip >= 0 ? asset->clips[job->clip].start : 0.0f;
    float end = job->clip >= 0 ? asset->clips[job->clip].end : 0.0f;
    float from = o->has_from ? o->from : start, to = o->has_to ? o->to : end;
    float span = to - from;
    uint32_t frames = 1;
    float step = 0.1f;
    if (span > 0.0f) {
        /* The GIF loops, so the last frame stops one step before `to`
         * (which equals `from` again for a looping clip). */
        if (o->frames) {
            frames = o->frames;
            step = span / (float)frames;
        } else {
            float fps = o->fps > 0.0f ? o->fps : DEFAULT_GIF_FPS;
            double n = ceil((double)span * fps - 1e-4);
            frames = n < 1.0              ? 1
                     : n > MAX_GIF_FRAMES ? MAX_GIF_FRAMES
                                          : (uint32_t)n;
            step = 1.0f / fps;
        }
    }
    long delay = lroundf(step * 100.0f);
    /* Viewers treat delays under 2/100 s as 1/10 s. */
    uint32_t delay_cs = delay < 2 ? 2 : delay > 65535 ? 65535 : (uint32_t)delay;
    vs_error e = {0};
    vs_gif_writer *gif = NULL;
    vs_result r = vs_gif_writer_open(
        o->output, job->out_width, job->desc.height, delay_cs, NULL, &gif, &e);
    if (r != VS_OK) return fail(&e, r);
    bool tty = isatty(2);
    for (uint32_t i = 0; i < frames && r == VS_OK; ++i) {
        r = draw_at(job, from + step * (float)i, &e);
        if (r == VS_OK) r = vs_gif_writer_add(gif, job->rgba, &e);
        if (tty) progress(i + 1, frames);
    }
    /* A frame that failed leaves OUT as it was: no partial GIF. */
    if (r != VS_OK) {
        vs_gif_writer_discard(gif);
        return fail(&e, r);
    }
    r = vs_gif_writer_close(gif, &e);
    if (r != VS_OK) return fail(&e, r);
    printf("wrote %s (%u frames, %ux%u, t = %g..%g s)\n", o->output, frames,
           job->out_width, job->desc.height, (double)from,
           (double)(from + step * (float)(frames - 1)));
    return 0;
}

static int run(render_job *job)
{
    const render_options *o = job->opts;
    vs_error e = {0};
    bool gif = ends_with(o->output, ".gif");
    if (gif) return write_gif(job);
    float t = o->common.time_count ? o->common.times[0] : 0.0f;
    vs_result r = draw_at(job, t, &e);
    if (r == VS_OK)
        r = vs_write_png(job->rgba, job->out_width, job->desc.height, o->output,
                         NULL, &e);
    if (r != VS_OK) return fail(&e, r);
    printf("wrote %s (%ux%u, t = %g s)\n", o->output, job->out_width,
           job->desc.height, (double)t);
    return 0;
}

static int render_asset(const render_options *o, const vs_asset *asset)
{
    render_job job = {.opts = o};
    if (!cli_select_clip(CMD, asset, &o->common, &job.clip)) return 1;
    vs_error e = {0};
    float aspect = (float)o->width / (float)o->height;
    vs_camera camera = o->camera;
    camera.orthographic = o->ortho;
    vs_result r = VS_OK;
    if (!o->has_camera)
        r = vs_camera_frame_clip(asset, job.clip, FRAMING_SAMPLES, aspect,
                                 o->ortho, &camera, &e);
    if (r != VS_OK) return fail(&e, r);
    job.desc = (vs_render_desc){
        .width = o->width,
        .height = o->height,
        .view = o->view,
        .skeleton = o->skeleton,
        .camera = &camera,
        .upload = o->upload,
        .skin_flags = o->common.raw_weights ? VS_SKIN_RAW_WEIGHTS : 0,
        .method = o->method,
    };
    job.out_width = o->both ? 2 * o->width : o->width;
    job.rgba = malloc((size_t)job.out_width * o->height * 4);
    if (o->both) job.panel = malloc((size_t)o->width * o->height * 4);
    if (!job.rgba || (o->both && !job.panel)) {
        cli_error(CMD, "out of memory for a %ux%u picture", job.out_width,
                  o->height);
        free(job.rgba);
        free(job.panel);
        return 1;
    }
    int status = 1;
    r = vs_renderer_create(asset, &job.renderer, &e);
    if (r == VS_OK) r = vs_pose_create(asset, &job.pose, &e);
    if (r == VS_OK)
        status = run(&job);
    else
        fail(&e, r);
    /* What the renderer could not draw as the file says (an image it could
     * not read or decode), as the load's warnings are printed. */
    uint32_t warnings = 0;
    const vs_warning *w = vs_renderer_warnings(job.renderer, &warnings);
    for (uint32_t i = 0; i < warnings && !o->common.quiet; ++i)
        cli_error(CMD, "warning: %s: %s", w[i].object, w[i].message);
    vs_pose_free(job.pose);
    vs_renderer_destroy(job.renderer);
    free(job.rgba);
    free(job.panel);
    return status;
}

int cmd_render(int argc, char **argv)
{
    render_options o = {.width = 512, .height = 512};
    int status = render_parse(argc, argv, &o);
    if (status < 0) {
        vs_asset *asset = NULL;
        status = 1;
        /* By identity, before and after loading: no spelling of the input or
         * of a buffer it uses is written over. */
        if (cli_output_spares_reads(CMD, o.common.file, o.output) &&
            cli_load(CMD, &o.common, &asset) &&
            cli_output_spares_reads(CMD, o.common.file, o.output)) {
            status = render_asset(&o, asset);
        }
        vs_asset_free(asset);
    }
    cli_options_free(&o.common);
    return status;
}

#else

int cmd_render(int argc, char **argv)
{
    /* --help answers, as every command's does, and says why the command
     * cannot run here. */
    for (int i = 1; i < argc; ++i)
        if (cli_is_help(argv[i])) {
            printf("usage: vskin render [FILE] -o OUT.png|OUT.gif [options]\n\n"
                   "This vskin was built without the renderer "
                   "(VSKIN_WITH_RENDER=OFF):\nrender is not available.\n");
            return 0;
        }
    cli_error("render", "this vskin was built without the renderer "
                        "(VSKIN_WITH_RENDER=OFF)");
    return 1;
}

#endif
