#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generates the API reference from the public headers (include/vskin/*.h)
# with Doxygen and docs/Doxyfile, into OUT_DIR/html. Fails on any Doxygen
# warning (undocumented declaration, broken reference, ...) and prints the
# warnings then.
#
# Usage: scripts/api-reference.sh OUT_DIR
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! command -v doxygen >/dev/null 2>&1; then
  echo "api-reference: doxygen is not installed; run scripts/install-deps.sh" \
       "(or: apt-get install doxygen)" >&2
  exit 1
fi

mkdir -p "$1"
out="$(cd "$1" && pwd)"
log="$out/doxygen-warnings.log"
rm -rf "$out/html"

# The version in the reference is the header's.
version="$(sed -n 's/^#define VS_VERSION_STRING "\(.*\)"$/\1/p' \
  include/vskin/vskin.h)"
if [ -z "$version" ]; then
  echo "api-reference: no VS_VERSION_STRING in include/vskin/vskin.h" >&2
  exit 1
fi

# Later settings override earlier ones; warnings go to stderr (the log).
status=0
{
  cat docs/Doxyfile
  echo "OUTPUT_DIRECTORY = \"$out\""
  echo "PROJECT_NUMBER = \"$version\""
  echo "WARN_LOGFILE ="
} | doxygen - >"$out/doxygen.log" 2>"$log" || status=$?

if [ "$status" -ne 0 ] || [ -s "$log" ]; then
  count="$(grep -c . "$log" || true)"
  echo "api-reference: doxygen failed (exit $status, $count line(s) of" \
       "warnings):" >&2
  cat "$log" >&2
  exit 1
fi
if [ ! -f "$out/html/index.html" ]; then
  echo "api-reference: doxygen wrote no $out/html/index.html" >&2
  cat "$out/doxygen.log" >&2
  exit 1
fi
echo "api-reference: vskin $version, no warnings: $out/html/index.html"
