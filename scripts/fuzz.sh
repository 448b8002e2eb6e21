#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer harnesses (fuzz/) with clang and runs each one for
# FUZZ_SECONDS (default 60) seconds. Exits non-zero on the first finding
# (libFuzzer exits non-zero on a crash, sanitizer report, timeout or RSS
# limit); the crashing input is left in $FUZZ_WORK/artifacts/<harness>/.
#
#   scripts/fuzz.sh [harness...]     default: all harnesses
# Environment: FUZZ_SECONDS, FUZZ_BUILD (build dir, default build-fuzz),
#   FUZZ_WORK (corpora + artifacts, default $FUZZ_BUILD/work), CC (clang),
#   FUZZ_JOBS (build parallelism, default nproc).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${FUZZ_SECONDS:-60}"
build="${FUZZ_BUILD:-$root/build-fuzz}"
work="${FUZZ_WORK:-$build/work}"
jobs="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}"
shared="$root/../shared/assets"
all=(fuzz_gltf2 fuzz_glb fuzz_gltf1 fuzz_collada fuzz_pose fuzz_validate
     fuzz_convert_roundtrip fuzz_render_topology fuzz_image_decode)
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=("${all[@]}")

cc="${CC:-}"
if [ -z "$cc" ] || ! "$cc" --version 2>/dev/null | grep -q clang; then
  cc="$(command -v clang-14 || command -v clang || true)"
fi
[ -n "$cc" ] || { echo "fuzz.sh: clang not found (scripts/install-deps.sh)" >&2; exit 1; }

# The Draco shim is C++: the same clang's C++ driver (clang-14 -> clang++-14).
cxx="$(printf '%s' "$cc" | sed 's#\(^\|/\)clang\([^/]*\)$#\1clang++\2#')"
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER="$cxx" -DVS_FUZZ=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVS_BUILD_TESTS=OFF \
  -DVS_BUILD_BENCH=OFF >/dev/null
# The CLI (same instrumented build) turns the real glTF / COLLADA seeds
# into GLB seeds: the GLB files in the asset folders are small validator
# cases, so without these fuzz_glb would never see a real skinned GLB.
cmake --build "$build" -j "$jobs" --target "${harnesses[@]}" vskin_cli

# Seed corpora, by type, from tests/data and ../shared/assets. Files over
# 128 KiB are left out: libFuzzer's max_len follows the largest seed and big
# inputs slow every execution down.
seed_sources=("$root/tests/data" "$root/data")
[ -d "$shared" ] && seed_sources+=("$shared")
json_version() { grep -o '"version"[[:space:]]*:[[:space:]]*"\?[0-9]' "$1" | head -1 | grep -o '[0-9]$' || true; }
make_corpus() { # harness dir
  local h="$1" dir="$2" f
  mkdir -p "$dir"
  while IFS= read -r -d '' f; do
    local keep=0
    case "$h:$f" in
      fuzz_glb:*.glb|fuzz_collada:*.dae|fuzz_pose:*.glb|fuzz_pose:*.dae) keep=1 ;;
      fuzz_gltf2:*.gltf) [ "$(json_version "$f")" != 1 ] && keep=1 ;;
      fuzz_gltf1:*.gltf) [ "$(json_version "$f")" = 1 ] && keep=1 ;;
      fuzz_pose:*.gltf) keep=1 ;;
      fuzz_validate:*.gltf|fuzz_validate:*.glb|fuzz_validate:*.dae) keep=1 ;;
      fuzz_convert_roundtrip:*.gltf|fuzz_convert_roundtrip:*.glb) keep=1 ;;
      fuzz_convert_roundtrip:*.dae) keep=1 ;;
      fuzz_render_topology:*.gltf|fuzz_render_topology:*.glb) keep=1 ;;
      fuzz_image_decode:*.png|fuzz_image_decode:*.jpg) keep=1 ;;
    esac
    [ $keep = 1 ] && cp "$f" "$dir/$(cksum <"$f" | cut -d' ' -f1)"
  done < <(find "${seed_sources[@]}" -type f -size -128k -print0)
  if [ "$h" = fuzz_glb ] || [ "$h" = fuzz_pose ]; then
    while IFS= read -r -d '' f; do
      "$build/vskin" convert "$f" -o "$dir/converted-$(cksum <"$f" | cut -d' ' -f1).glb" \
        --force >/dev/null 2>&1 || true
    done < <(find "$root/tests/data" "$root/data" \
               $( [ -d "$shared" ] && echo "$shared/gltf2" "$shared/gltf1" "$shared/collada") \
               -type f \( -name '*.gltf' -o -name '*.dae' \) -size -128k -print0)
  fi
  # fuzz_render_topology's raw primitives (first byte: the mode): every
  # mode with 0 to 4 vertices, unindexed and with indices 0, 1, 2, 3.
  if [ "$h" = fuzz_render_topology ]; then
    local mode n
    for mode in 0 1 2 3 4 5 6; do
      for n in 0 1 2 3 4; do
        printf "\\x0$mode\\x00\\x0$n\\x00\\x00\\x00" >"$dir/raw-$mode-$n"
        printf "\\x0$mode\\x03\\x04\\x00\\x0$n\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\\x02\\x00\\x00\\x00\\x03\\x00\\x00\\x00" \
          >"$dir/raw-indexed-$mode-$n"
      done
    done
  fi
  # The regression files found by earlier runs are seeds for every harness.
  if [ -d "$root/tests/data/regressions" ]; then
    find "$root/tests/data/regressions" -type f -exec cp {} "$dir/" \;
  fi
}

status=0
for h in "${harnesses[@]}"; do
  corpus="$work/corpus/$h"
  artifacts="$work/artifacts/$h/"
  make_corpus "$h" "$corpus"
  mkdir -p "$artifacts"
  dict="$root/fuzz/dict/${h#fuzz_}.dict"
  [ "$h" = fuzz_glb ] && dict="$root/fuzz/dict/gltf2.dict"
  [ "$h" = fuzz_pose ] && dict="$root/fuzz/dict/pose.dict"
  [ "$h" = fuzz_validate ] && dict="$root/fuzz/dict/pose.dict"
  [ "$h" = fuzz_convert_roundtrip ] && dict="$root/fuzz/dict/pose.dict"
  echo "fuzz.sh: $h for ${seconds}s, $(ls "$corpus" | wc -l) seeds"
  if ! "$build/fuzz/$h" "$corpus" -dict="$dict" -max_total_time="$seconds" \
        -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$artifacts" \
        -print_final_stats=1 2>"$work/$h.log"; then
    echo "fuzz.sh: $h FOUND A PROBLEM; input in $artifacts, log $work/$h.log" >&2
    tail -n 60 "$work/$h.log" >&2
    status=1
  fi
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)' "$work/$h.log" |
    sed "s/^/fuzz.sh: $h /" || true
done
exit $status
