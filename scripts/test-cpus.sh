#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The test suite on x86-64 CPUs other than this machine's, emulated by QEMU
# (scripts/emulate-cpu.sh): an Intel and an AMD model with AVX2 and FMA but
# no AVX-512, and an Intel model without AVX, whose kernels are the SSE2
# ones. With this machine's own CPU (Intel or AMD, with or without
# AVX-512) that covers what the library's run-time dispatch can choose.
# The features QEMU cannot emulate are taken off each model, so that it
# prints no warning. Usage: scripts/test-cpus.sh [BUILD_DIR] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-cpus}"
jobs="${2:-$(nproc 2>/dev/null || echo 2)}"

cpus=(
  "Haswell-noTSX,-pcid,-x2apic,-tsc-deadline,-invpcid"
  "EPYC-v1,-rdseed,-sha-ni,-fxsr-opt,-misalignsse,-3dnowprefetch,-osvw,-topoext,-nrip-save,-xsavec"
  "Nehalem"
)

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVS_BUILD_BENCH=OFF \
  -DCMAKE_CROSSCOMPILING_EMULATOR="$PWD/scripts/emulate-cpu.sh"
cmake --build "$build" -j "$jobs"
for cpu in "${cpus[@]}"; do
  echo "test-cpus: the suite on an emulated ${cpu%%,*}"
  (cd "$build" && VS_EMULATED_CPU="$cpu" ctest --output-on-failure -j "$jobs")
done
