/* SPDX-License-Identifier: MIT */
/* The two halves of `vskin pose` after option parsing: output naming
 * (pose_paths.c) and posing + writing one time (pose_run.c). */
#ifndef VS_TOOLS_POSE_OUTPUT_H
#define VS_TOOLS_POSE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_common.h"

/* The file written for one time: `out` itself for a single time, else
 * "_t<time>" inserted before the extension (out.obj -> out_t2.5.obj), the
 * time in the fewest digits (six to nine, "%g") that read back as it, so
 * that distinct times name distinct files.
 * joints_file: the extension becomes "_joints.json" instead. malloc'd. */
char *output_path(const char *out, bool several, float time, bool joints_file);

/* False (with a message) when any file the run would write is `input` or a
 * file the load read (same device and inode, so links and "./" spellings
 * are caught: cli_output_spares_reads), or when two times would write one
 * file (--time 1,1): no file is written twice in one run. */
bool outputs_allowed(const char *cmd, const char *out, vs_posed_format format,
                     bool joints, const float *times, size_t time_count,
                     const char *input);

/* What every time of one run shares. */
typedef struct pose_run {
    const vs_asset *asset;
    vs_pose *pose;
    bool joints;           /* --joints */
    vs_skin_space space;   /* --space */
    vs_skin_method method; /* --method */
} pose_run;

bool pose_run_init(pose_run *run, const vs_asset *asset, bool joints);
/* Poses at `time` and writes the file(s) for it, or prints the summary when
 * out is NULL. Returns the exit status (0 on success). */
int pose_run_emit(pose_run *run, int32_t clip, float time,
                  const cli_options *opts, const char *out,
                  vs_posed_format format, bool several);
void pose_run_free(pose_run *run);

#endif
