#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes twist_cylinder.gltf: the candy-wrapper demo for dual-quaternion
skinning (docs/skinning.md). A cylinder of radius 0.5 along +Y from y = 0 to
y = 4, 17 rings of 24 vertices; joint "root" at the origin, joint "top" at
y = 2. Weights ramp linearly from root (y <= 1) to top (y >= 3). Clip
"twist" turns "top" about Y: 0 deg at t = 0, 90 at t = 1, 180 at t = 2.

    python3 tests/data/render/make_twist_cylinder.py > tests/data/render/twist_cylinder.gltf
"""
import base64
import json
import math
import struct

RINGS, SIDES, RADIUS, LENGTH = 17, 24, 0.5, 4.0


def weight_top(y):
    return min(1.0, max(0.0, (y - 1.0) / 2.0))


positions, normals, joints, weights, indices = [], [], [], [], []
for r in range(RINGS):
    y = LENGTH * r / (RINGS - 1)
    w = weight_top(y)
    for s in range(SIDES):
        a = 2.0 * math.pi * s / SIDES
        positions += [RADIUS * math.cos(a), y, RADIUS * math.sin(a)]
        normals += [math.cos(a), 0.0, math.sin(a)]
        # Only influences with weight; unused slots are joint 0, weight 0
        # (glTF-Validator: ACCESSOR_JOINTS_USED_ZERO_WEIGHT otherwise).
        used = [(j, x) for j, x in ((0, 1.0 - w), (1, w)) if x > 0.0]
        used += [(0, 0.0)] * (4 - len(used))
        joints += [j for j, _ in used]
        weights += [x for _, x in used]
for r in range(RINGS - 1):
    for s in range(SIDES):
        a, b = r * SIDES + s, r * SIDES + (s + 1) % SIDES
        c, d = a + SIDES, b + SIDES
        indices += [a, c, b, b, c, d]  # counter-clockwise seen from outside

ibm = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
       1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -LENGTH / 2, 0, 1]
times = [0.0, 1.0, 2.0]
h = math.sqrt(0.5)
rotations = [0, 0, 0, 1, 0, h, 0, h, 0, 1, 0, 0]

blobs = [
    struct.pack("<%df" % len(positions), *positions),
    struct.pack("<%df" % len(normals), *normals),
    struct.pack("<%dH" % len(joints), *joints),
    struct.pack("<%df" % len(weights), *weights),
    struct.pack("<%dH" % len(indices), *indices),
    struct.pack("<%df" % len(ibm), *ibm),
    struct.pack("<%df" % len(times), *times),
    struct.pack("<%df" % len(rotations), *rotations),
]
data, views = b"", []
for blob in blobs:
    data += b"\0" * (-len(data) % 4)
    views.append({"buffer": 0, "byteOffset": len(data),
                  "byteLength": len(blob)})
    data += blob
n = RINGS * SIDES
accessors = [
    {"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3",
     "min": [-RADIUS, 0.0, -RADIUS], "max": [RADIUS, LENGTH, RADIUS]},
    {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC3"},
    {"bufferView": 2, "componentType": 5123, "count": n, "type": "VEC4"},
    {"bufferView": 3, "componentType": 5126, "count": n, "type": "VEC4"},
    {"bufferView": 4, "componentType": 5123, "count": len(indices),
     "type": "SCALAR"},
    {"bufferView": 5, "componentType": 5126, "count": 2, "type": "MAT4"},
    {"bufferView": 6, "componentType": 5126, "count": 3, "type": "SCALAR",
     "min": [0.0], "max": [2.0]},
    {"bufferView": 7, "componentType": 5126, "count": 3, "type": "VEC4"},
]
gltf = {
    "asset": {"version": "2.0",
              "generator": "vskin tests/data/render/make_twist_cylinder.py"},
    "scene": 0,
    "scenes": [{"nodes": [0, 1]}],
    "nodes": [
        {"name": "cylinder", "mesh": 0, "skin": 0},
        {"name": "root", "children": [2]},
        {"name": "top", "translation": [0.0, LENGTH / 2, 0.0]},
    ],
    "meshes": [{"primitives": [{
        "attributes": {"POSITION": 0, "NORMAL": 1, "JOINTS_0": 2,
                       "WEIGHTS_0": 3},
        "indices": 4}]}],
    "skins": [{"joints": [1, 2], "inverseBindMatrices": 5}],
    "animations": [{"name": "twist",
                    "channels": [{"sampler": 0,
                                  "target": {"node": 2, "path": "rotation"}}],
                    "samplers": [{"input": 6, "output": 7,
                                  "interpolation": "LINEAR"}]}],
    "buffers": [{"byteLength": len(data),
                 "uri": "data:application/octet-stream;base64," +
                        base64.b64encode(data).decode("ascii")}],
    "bufferViews": views,
    "accessors": accessors,
}
print(json.dumps(gltf, indent=1))
