#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes two_skinned_primitives.gltf next to this script: SimpleSkin
(SimpleSkin.gltf here) with a second primitive in its mesh, whose joints are
swapped (joint 0 <-> 1, so it bends the other way), and a second node that
instances the same mesh and skin. Four crowd slots of 10 vertices, two
different skin streams: for tests that need several slots (test_crowd)."""
import base64
import json
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "SimpleSkin.gltf")) as f:
    doc = json.load(f)

joints_view = doc["bufferViews"][doc["accessors"][2]["bufferView"]]
raw = base64.b64decode(doc["buffers"][joints_view["buffer"]]["uri"].split(",", 1)[1])
stride = joints_view["byteStride"]
weights = doc["accessors"][3]  # WEIGHTS_0: floats in the same view
swapped = bytearray()
for v in range(doc["accessors"][2]["count"]):
    j = struct.unpack_from("<4H", raw, joints_view.get("byteOffset", 0) + v * stride)
    w = struct.unpack_from("<4f", raw, joints_view.get("byteOffset", 0) +
                           weights["byteOffset"] + v * stride)
    # Swap the joints that carry weight; unweighted slots stay 0.
    swapped += struct.pack("<4H", *[1 - x if wk > 0 and x < 2 else x
                                    for x, wk in zip(j, w)])

doc["buffers"].append({
    "uri": "data:application/gltf-buffer;base64," + base64.b64encode(bytes(swapped)).decode(),
    "byteLength": len(swapped)})
doc["bufferViews"].append({"buffer": len(doc["buffers"]) - 1, "byteLength": len(swapped)})
doc["accessors"].append({"bufferView": len(doc["bufferViews"]) - 1,
                         "componentType": 5123, "count": doc["accessors"][2]["count"],
                         "type": "VEC4"})
second = dict(doc["meshes"][0]["primitives"][0])
second["attributes"] = dict(second["attributes"], JOINTS_0=len(doc["accessors"]) - 1)
doc["meshes"][0]["primitives"].append(second)
doc["nodes"].append({"skin": 0, "mesh": 0})
doc["scenes"][0]["nodes"].append(len(doc["nodes"]) - 1)

with open(os.path.join(here, "two_skinned_primitives.gltf"), "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
