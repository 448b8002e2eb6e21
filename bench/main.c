/* SPDX-License-Identifier: MIT */
/* vskin-bench: the benchmark as its own program (same code as `vskin bench`).
 */
#include "bench.h"

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "vskin-bench");
}
