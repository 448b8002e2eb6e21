#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerates tests/data/reference/*.json with the independent Python glTF 2.0
# posing reference (gltf_reference.py, standard library only). Run from
# anywhere; reads the .gltf copies under tests/data/gltf2/ (SimpleSkin,
# RiggedSimple, CesiumMan) and ../shared/assets/gltf2/ (the rest).
#
# Times are chosen between keys (interpolation), on keys, and outside the
# clip range (clamping). CesiumMan keeps every 37th vertex to stay small.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
data="$root/tests/data"
shared="$root/../shared/assets/gltf2"
ref="$here/gltf_reference.py"
out="$data/reference"
mkdir -p "$out"

python3 "$ref" "$data/gltf2/SimpleSkin.gltf" \
    --times 0,0.25,1.0,2.5,3.75,5.5,7.0 > "$out/SimpleSkin.json"
python3 "$ref" "$data/gltf2/RiggedSimple.gltf" \
    --times 0,1.0,1.7,3.0 > "$out/RiggedSimple.json"
python3 "$ref" "$data/gltf2/CesiumMan.gltf" --stride 37 \
    --times 0,0.7,1.3,2.5 > "$out/CesiumMan.json"
python3 "$ref" "$shared/BoxAnimated/box_animated.gltf" --stride 0 \
    --times 0,1.0,1.8,3.0,4.0 > "$out/BoxAnimated.json"
python3 "$ref" "$shared/InterpolationTest/interpolation_test.gltf" \
    --stride 0 --clips all --times 0.3,0.9,1.45 > "$out/InterpolationTest.json"
