#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The portable kernel on ARM: cross-compiles the runtime library for aarch64
# (GCC's cross compiler; NEON vectors), runs tests/cross/kernel_bytes.c
# under QEMU and compares its bytes with the same program on this machine's
# SSE2 kernel. The two kernels do the same IEEE operations in the same
# order, so an ARM build must give an x86-64 build's floats
# (docs/skinning.md, "Same results on every CPU"); test_simd_kernels checks
# portable against SSE2 here, this checks the compiler's NEON code too.
# Usage: scripts/test-arm.sh [HOST_BUILD] [ARM_BUILD] [JOBS]; HOST_BUILD
# holds a built libvskin.so.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
host="${1:-build}"
arm="${2:-build-arm}"
jobs="${3:-$(nproc 2>/dev/null || echo 2)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/vskin-arm.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The runtime alone (as scripts/test-minimal.sh builds it): cJSON's and
# cglm's headers are the host's, which are the same for every target; only
# the static library is built, so nothing links against the host's cJSON.
cmake -S . -B "$arm" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
  -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DMATH_LIBRARY=m \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVSKIN_WITH_COLLADA=OFF -DVSKIN_WITH_TOOLS=OFF -DVSKIN_WITH_RENDER=OFF \
  -DVSKIN_BUILD_CLI=OFF -DVSKIN_WITH_DRACO=OFF -DVSKIN_WITH_MESHOPT=OFF \
  -DVS_BUILD_TESTS=OFF -DVS_BUILD_BENCH=OFF \
  -DVSKIN_BUILD_EXAMPLES=OFF > "$work/configure.log"
cmake --build "$arm" -j "$jobs" --target vskin_static > "$work/build.log"

# Debian has no cJSON for aarch64 beside the cross compiler, and the check
# never loads a file: the loaders' calls into cJSON stay unresolved in a
# static program (a call would crash, not pass).
src="$root/tests/cross/kernel_bytes.c"
flags=(-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -ffp-contract=off
       -I"$root/include")
aarch64-linux-gnu-gcc "${flags[@]}" -static "$src" -o "$work/bytes-arm" \
  "$arm/src/libvskin.a" -lm -lpthread -Wl,--unresolved-symbols=ignore-all
cc "${flags[@]}" "$src" -o "$work/bytes-host" -L"$root/$host/src" -lvskin \
  -Wl,-rpath,"$root/$host/src"

"$work/bytes-host" sse2 > "$work/sse2.bin"
for isa in portable auto; do
  qemu-aarch64 "$work/bytes-arm" "$isa" > "$work/arm-$isa.bin"
  if ! cmp -s "$work/sse2.bin" "$work/arm-$isa.bin"; then
    echo "test-arm: aarch64 ($isa) differs from x86-64's SSE2 kernel:" >&2
    cmp "$work/sse2.bin" "$work/arm-$isa.bin" >&2 || true
    exit 1
  fi
done
echo "test-arm: aarch64's portable kernel gives x86-64's SSE2 bytes" \
  "($(stat -c %s "$work/sse2.bin") bytes)"
