/* SPDX-License-Identifier: MIT */
/* `vskin bench`: the benchmark of bench/ (also built as vskin-bench). */
#include "bench.h"
#include "commands.h"

int cmd_bench(int argc, char **argv)
{
    return bench_main(argc, argv, "vskin bench");
}
