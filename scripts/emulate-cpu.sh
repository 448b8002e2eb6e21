#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs a program on the x86-64 CPU model that VS_EMULATED_CPU names, under
# QEMU's user-mode emulator: CTest's launcher for scripts/test-cpus.sh
# (CMAKE_CROSSCOMPILING_EMULATOR), so the test programs see that model's
# CPUID (vendor and features) and run its instructions, whatever this
# machine's CPU is.
set -euo pipefail
exec qemu-x86_64 -cpu "${VS_EMULATED_CPU:?set VS_EMULATED_CPU to a qemu -cpu model}" "$@"
