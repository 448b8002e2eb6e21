#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Uses vskin as projects outside it would, from the build in BUILD_DIR:
# installed to a fresh prefix, then found by pkg-config (C and C++, the
# shared libraries: vskin, vskin_tools, vskin_render), by find_package
# (vskin::vskin, vskin::vskin_static, C++, and the tools and render
# components, shared and static), and built as part of a parent project
# with add_subdirectory that exports its own targets. Each consumer program (tests/consumers/) must
# build and run. Usage: scripts/test-consumers.sh [BUILD_DIR] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${1:-build}"
jobs="${2:-$(nproc 2>/dev/null || echo 2)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/vskin-consumers.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
src="$root/tests/consumers"

cmake --install "$build" --prefix "$prefix" > "$work/install.log"

echo "test-consumers: pkg-config"
export PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name vskin.pc)")"
pc_prefix="$(cd "$(pkg-config --variable=prefix vskin)" && pwd -P)"
if [ "$pc_prefix" != "$(cd "$prefix" && pwd -P)" ]; then
  echo "vskin.pc names prefix $pc_prefix, installed to $prefix" >&2
  exit 1
fi
libdir="$(pkg-config --variable=libdir vskin)"
cc -std=c11 -Wall -Werror "$src/consumer.c" -o "$work/pc_c" \
  $(pkg-config --cflags --libs vskin) -lm
c++ -std=c++17 -Wall -Werror "$src/consumer.cpp" -o "$work/pc_cxx" \
  $(pkg-config --cflags --libs vskin)
cc -std=c11 -Wall -Werror "$src/consumer_layers.c" -o "$work/pc_layers" \
  $(pkg-config --cflags --libs vskin_tools vskin_render)
LD_LIBRARY_PATH="$libdir" "$work/pc_c"
LD_LIBRARY_PATH="$libdir" "$work/pc_cxx"
LD_LIBRARY_PATH="$libdir" "$work/pc_layers"

echo "test-consumers: find_package"
cmake -S "$src" -B "$work/fp" -DCMAKE_PREFIX_PATH="$prefix" > "$work/fp.log"
cmake --build "$work/fp" -j "$jobs" > "$work/fp-build.log"
for exe in consumer_default consumer_static consumer_cxx consumer_layers \
           consumer_layers_static; do
  "$work/fp/$exe"
done

echo "test-consumers: add_subdirectory"
cmake -S "$src/subdir" -B "$work/sub" -DVSKIN_SOURCE="$root" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$work/sub.log"
cmake --build "$work/sub" -j "$jobs" > "$work/sub-build.log"
for exe in consumer_default consumer_static consumer_cxx consumer_layers \
           consumer_layers_static; do
  "$work/sub/$exe"
done
echo "test-consumers: every consumer built and ran"
