#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the hand-made glTF 2.0 files of tests/validate/test_validate_issues.c:
clean.gltf (no issue at all) and one file per problem, each a small change of
clean.gltf. The buffer is embedded (data: URI) so every file stands alone.
Run from anywhere: python3 tests/data/validate/make_fixtures.py"""
import base64, copy, json, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))


def mat_translate(x, y, z):
    return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]


def build(positions, joints, weights, ibms, times, rotations, extra_joint_sets=None):
    """Buffer with one bufferView per accessor; returns (json, buffer)."""
    blobs, accessors, views = [], [], []

    def add(data, fmt, count, ctype, atype, bounds=None, target=None):
        raw = struct.pack('<' + fmt * (len(data)), *data)
        offset = sum(len(b) for b in blobs)
        raw += b'\0' * ((4 - len(raw) % 4) % 4)
        blobs.append(raw)
        view = {"buffer": 0, "byteOffset": offset, "byteLength": len(raw)}
        if target:
            view["target"] = target
        views.append(view)
        acc = {"bufferView": len(views) - 1, "componentType": ctype,
               "count": count, "type": atype}
        if bounds:
            acc["min"], acc["max"] = bounds
        accessors.append(acc)
        return len(accessors) - 1

    n = len(positions) // 3
    pos = add(positions, 'f', n, 5126, "VEC3",
              ([min(positions[i::3]) for i in range(3)],
               [max(positions[i::3]) for i in range(3)]), 34962)
    jnt = add(joints, 'B', n, 5121, "VEC4", target=34962)
    wgt = add(weights, 'f', n, 5126, "VEC4", target=34962)
    attrs = {"POSITION": pos, "JOINTS_0": jnt, "WEIGHTS_0": wgt}
    ibm = add(ibms, 'f', len(ibms) // 16, 5126, "MAT4")
    tin = add(times, 'f', len(times), 5126, "SCALAR", ([min(times)], [max(times)]))
    tout = add(rotations, 'f', len(rotations) // 4, 5126, "VEC4")
    buf = b''.join(blobs)
    doc = {
        "asset": {"version": "2.0", "generator": "vskin make_fixtures.py"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"mesh": 0, "skin": 0, "name": "skinned"},
                  {"name": "root", "children": [2]},
                  {"name": "tip", "translation": [0, 1, 0]}],
        "meshes": [{"primitives": [{"attributes": attrs}]}],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": ibm}],
        "animations": [{"samplers": [{"input": tin, "output": tout}],
                        "channels": [{"sampler": 0,
                                      "target": {"node": 2, "path": "rotation"}}]}],
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": len(buf),
                     "uri": "data:application/octet-stream;base64," +
                            base64.b64encode(buf).decode()}],
    }
    return doc


BASE = dict(
    positions=[0, 0, 0, 1, 1, 0, 0, 2, 0],
    joints=[0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0],
    weights=[1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0],
    ibms=mat_translate(0, 0, 0) + mat_translate(0, -1, 0),
    times=[0, 1],
    rotations=[0, 0, 0, 1, 0, 0, 0.7071068, 0.7071068],
)


def variant(name, **changes):
    args = copy.deepcopy(BASE)
    edit = changes.pop('edit', None)
    args.update(changes)
    doc = build(**args)
    if edit:
        edit(doc)
    with open(os.path.join(HERE, name + '.gltf'), 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')


def no_common_root(d):
    del d["nodes"][1]["children"]
    d["scenes"][0]["nodes"] = [0, 1, 2]


def unused_joint(d):
    d["nodes"].append({"name": "leaf", "translation": [0, 1, 0]})
    d["nodes"][2]["children"] = [3]
    d["skins"][0]["joints"] = [1, 2, 3]


def local_transform(d):
    d["nodes"][0]["translation"] = [5, 0, 0]


def parent_transform(d):
    d["nodes"].append({"name": "holder", "translation": [0, 0, 3],
                       "children": [0]})
    d["scenes"][0]["nodes"] = [3, 1]


def joints_outside_scene(d):
    d["scenes"][0]["nodes"] = [0]


variant("clean")
variant("weights_not_normalized",
        weights=[1, 0, 0, 0, 0.5, 0.6, 0, 0, 1, 0, 0, 0])
variant("joint_index_oob", joints=[0, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, 0])
variant("joint_zero_weight", joints=[0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0])
variant("joint_duplicate", joints=[0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0],
        weights=[1, 0, 0, 0, 0.5, 0.5, 0, 0, 1, 0, 0, 0])
variant("no_common_root", edit=no_common_root)
variant("ibm_non_invertible",
        ibms=mat_translate(0, 0, 0) + [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,
                                        0, -1, 0, 1])
variant("ibm_non_affine",
        ibms=mat_translate(0, 0, 0) + [1, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0,
                                        0, -1, 0, 1])
variant("bind_pose_not_rest", ibms=mat_translate(0, 0, 0) * 2)
variant("unused_joint", ibms=BASE["ibms"] + mat_translate(0, -2, 0),
        edit=unused_joint)
variant("skinned_node_transform", edit=local_transform)
variant("skinned_parent_transform", edit=parent_transform)
variant("joints_outside_scene", edit=joints_outside_scene)
variant("anim_times_non_increasing", times=[0, 1, 1],
        rotations=BASE["rotations"] + [0, 0, 0.7071068, 0.7071068])


def reweight_source():
    """Six joints (a root and five children, each animated) and vertices
    with up to six influences over JOINTS_0/1 and WEIGHTS_0/1, for
    tests/validate/test_reweight.c."""
    positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]
    joints = [[0, 1, 2, 3, 4, 5, 0, 0],  # 6 influences
              [0, 0, 0, 0, 0, 0, 0, 0],  # 1
              [2, 3, 0, 0, 0, 0, 0, 0],  # a tie
              [5, 4, 0, 0, 0, 0, 0, 0]]
    weights = [[0.4, 0.3, 0.1, 0.1, 0.06, 0.04, 0, 0],
               [1, 0, 0, 0, 0, 0, 0, 0],
               [0.5, 0.5, 0, 0, 0, 0, 0, 0],
               [0.7, 0.3, 0, 0, 0, 0, 0, 0]]
    doc = build(positions=positions,
                joints=[j for v in joints for j in v[:4]],
                weights=[w for v in weights for w in v[:4]],
                ibms=mat_translate(0, 0, 0) * 6, times=[0, 1],
                rotations=[0, 0, 0, 1, 0, 0, 0.7071068, 0.7071068])
    # A second set: append to the buffer, re-encode.
    raw = base64.b64decode(doc["buffers"][0]["uri"].split(',', 1)[1])
    j1 = struct.pack('<16B', *[j for v in joints for j in v[4:]])
    w1 = struct.pack('<16f', *[w for v in weights for w in v[4:]])
    for blob, ctype in ((j1, 5121), (w1, 5126)):
        doc["bufferViews"].append({"buffer": 0, "byteOffset": len(raw),
                                   "byteLength": len(blob), "target": 34962})
        doc["accessors"].append({"bufferView": len(doc["bufferViews"]) - 1,
                                 "componentType": ctype, "count": 4,
                                 "type": "VEC4"})
        raw += blob
    # Four vertices: points, so that no drawing-mode rule applies.
    doc["meshes"][0]["primitives"][0]["mode"] = 0
    attrs = doc["meshes"][0]["primitives"][0]["attributes"]
    attrs["JOINTS_1"] = len(doc["accessors"]) - 2
    attrs["WEIGHTS_1"] = len(doc["accessors"]) - 1
    doc["buffers"][0] = {"byteLength": len(raw),
                         "uri": "data:application/octet-stream;base64," +
                                base64.b64encode(raw).decode()}
    doc["nodes"] = [{"mesh": 0, "skin": 0, "name": "skinned"},
                    {"name": "root", "children": [2, 3, 4, 5, 6]}] + \
                   [{"name": "bone%d" % i, "translation": [i * 0.2, 0, 0]}
                    for i in range(1, 6)]
    doc["skins"] = [{"joints": [1, 2, 3, 4, 5, 6],
                     "inverseBindMatrices": doc["skins"][0]["inverseBindMatrices"]}]
    # IBMs: inverse of each joint's rest world (translation only).
    ibm = doc["accessors"][doc["skins"][0]["inverseBindMatrices"]]
    view = doc["bufferViews"][ibm["bufferView"]]
    mats = mat_translate(0, 0, 0)
    for i in range(1, 6):
        mats += mat_translate(-i * 0.2, 0, 0)
    raw = raw[:view["byteOffset"]] + struct.pack('<96f', *mats) + \
          raw[view["byteOffset"] + 384:]
    doc["buffers"][0]["uri"] = ("data:application/octet-stream;base64," +
                                base64.b64encode(raw).decode())
    chans, samplers = [], []
    for i in range(2, 7):
        chans.append({"sampler": 0, "target": {"node": i, "path": "rotation"}})
    doc["animations"] = [{"name": "bend", "samplers": [doc["animations"][0]["samplers"][0]],
                          "channels": chans}]
    with open(os.path.join(HERE, 'reweight_source.gltf'), 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')


reweight_source()
