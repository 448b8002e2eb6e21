#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages vskin needs to build, test and render,
# and those of its Python package (python/; matplotlib only for its
# examples).
# Uses sudo only when not root; does nothing when everything is present.
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3
  libcjson-dev libcglm-dev libxml2-dev libpng-dev libgif-dev
  libdraco-dev libmeshoptimizer-dev
  libjpeg62-turbo-dev
  libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
  libglfw3-dev xvfb xauth
  clang libclang-rt-dev
  qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  doxygen
  python3-cffi python3-numpy python3-pytest python3-venv python3-pip
  python3-setuptools python3-wheel python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
