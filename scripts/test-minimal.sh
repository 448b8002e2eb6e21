#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The smallest build: the runtime library alone (VSKIN_WITH_COLLADA,
# VSKIN_WITH_TOOLS, VSKIN_WITH_RENDER, VSKIN_BUILD_CLI, VSKIN_WITH_DRACO and
# VSKIN_WITH_MESHOPT all OFF), which
# must need nothing beyond a C compiler, cJSON, cglm's headers and
# pthreads. Builds it, checks what libvskin.so links, installs it to a fresh
# prefix and builds and runs the examples that apply against the installed
# package (find_package), and checks that a COLLADA file is refused with a
# message that says why. Usage: scripts/test-minimal.sh [BUILD_DIR] [JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${1:-build-minimal}"
jobs="${2:-$(nproc 2>/dev/null || echo 2)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/vskin-minimal.XXXXXX")"
trap 'rm -rf "$work"' EXIT

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVSKIN_WITH_COLLADA=OFF -DVSKIN_WITH_TOOLS=OFF -DVSKIN_WITH_RENDER=OFF \
  -DVSKIN_BUILD_CLI=OFF -DVSKIN_WITH_DRACO=OFF -DVSKIN_WITH_MESHOPT=OFF \
  -DVS_BUILD_TESTS=OFF -DVS_BUILD_BENCH=OFF \
  -DVSKIN_BUILD_EXAMPLES=OFF > "$work/configure.log"
cmake --build "$build" -j "$jobs" > "$work/build.log"

# What the runtime links: the C library, libm, cJSON (and libpthread where
# the C library has not absorbed it), nothing else.
lib="$(find "$build" -name 'libvskin.so.*.*.*' | head -n 1)"
needed="$(objdump -p "$lib" | awk '/NEEDED/ {print $2}' | sort | tr '\n' ' ')"
for so in $needed; do
  case "$so" in
    libc.so.*|libm.so.*|libcjson.so.*|libpthread.so.*) ;;
    *) echo "test-minimal: libvskin needs $so (needed: $needed)" >&2; exit 1 ;;
  esac
done
if [ -e "$(dirname "$lib")/libvskin_tools.so" ] ||
   [ -e "$(dirname "$lib")/libvskin_render.so" ]; then
  echo "test-minimal: tools or render built although switched off" >&2
  exit 1
fi
echo "test-minimal: libvskin needs $needed"

cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
if [ -e "$work/prefix/include/vskin/vskin_tools.h" ]; then
  echo "test-minimal: vskin_tools.h installed without the tools" >&2
  exit 1
fi
cmake -S examples -B "$work/examples" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DVS_BUILD_TESTS=ON > "$work/examples.log"
cmake --build "$work/examples" -j "$jobs" > "$work/examples-build.log"
(cd "$work/examples" && ctest --output-on-failure -j "$jobs")
if [ -e "$work/examples/example_load_collada" ] ||
   [ -e "$work/examples/example_render_png" ]; then
  echo "test-minimal: an example of a library switched off was built" >&2
  exit 1
fi

# A COLLADA file: refused, and the message says the build has no COLLADA.
cat > "$work/collada.c" <<'C'
#include <stdio.h>
#include <string.h>
#include "vskin/vskin.h"
int main(int argc, char **argv)
{
    vs_asset *asset = NULL;
    vs_error err = {0};
    vs_result r = vs_asset_load_file(argv[argc - 1], NULL, &asset, &err);
    printf("%s\n", err.message);
    return r == VS_ERROR_UNSUPPORTED && strstr(err.message, "COLLADA") ? 0 : 1;
}
C
cc -std=c11 -Wall -Werror -I"$work/prefix/include" "$work/collada.c" \
  -o "$work/collada" -L"$work/prefix/lib" -L"$work/prefix/lib64" -lvskin
LD_LIBRARY_PATH="$work/prefix/lib:$work/prefix/lib64" \
  "$work/collada" "$root/tests/data/collada/bind_shape_non_identity.dae"
echo "test-minimal: the runtime alone builds, links, installs and runs"
