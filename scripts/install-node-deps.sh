#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Node packages the tests use into ./node_modules, exactly as
# pinned by package-lock.json: Khronos' glTF-Validator (npm package
# gltf-validator), which tests/validator/ runs on what `vskin convert`
# writes. Does nothing when the pinned version is already there. Without
# node/npm, or when the registry cannot be reached, it says so and exits 0:
# the validator test then reports itself as skipped instead of failing the
# build.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "install-node-deps: node/npm not found; the glTF-Validator test will be skipped"
  exit 0
fi

wanted=$(node -e 'console.log(require("./package-lock.json").packages["node_modules/gltf-validator"].version)')
have=$(node -e 'try { console.log(require("./node_modules/gltf-validator/package.json").version) } catch (e) { console.log("") }')
if [ "$wanted" = "$have" ]; then
  exit 0
fi

echo "install-node-deps: installing gltf-validator $wanted"
if ! npm ci --no-audit --no-fund; then
  echo "install-node-deps: npm ci failed; the glTF-Validator test will be skipped" >&2
fi
