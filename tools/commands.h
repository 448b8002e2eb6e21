/* SPDX-License-Identifier: MIT */
/* The CLI's subcommands: each is `int cmd_NAME(int argc, char **argv)` with
 * argv[0] the subcommand name, returning the process exit status. */
#ifndef VS_TOOLS_COMMANDS_H
#define VS_TOOLS_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_pose(int argc, char **argv);
int cmd_render(int argc, char **argv);
/* The interactive viewer (GLFW). */
int cmd_view(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_joints(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_reweight(int argc, char **argv);
int cmd_bake(int argc, char **argv);
/* Synthetic assets and the benchmark. */
int cmd_generate(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
