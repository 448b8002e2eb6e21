#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent glTF 2.0 posing reference for vskin's acceptance tests.

This is a deliberately small, standard-library-only re-implementation of the
glTF 2.0 rules that decide where a posed vertex ends up. It shares no code and
no data with the C library: it reads the .gltf itself, samples the animation
itself and skins itself, in double precision. The C tests compare the library
against the JSON this script writes (tests/data/reference/*.json).

Rules implemented (glTF 2.0 specification section in brackets):
  * buffers from data: URIs (base64) or files next to the .gltf [3.6.1]
  * accessors: byteOffset, byteStride (default = element size), every
    componentType, normalized integers [3.6.2, 3.11 "normalized"], sparse
    substitution, and no bufferView = zeros [3.6.2.3]
  * node local transform: matrix, or T * R * S from translation / rotation /
    scale [3.5.2]; world = parent world * local
  * animation samplers: LINEAR (lerp; rotation = shortest-path slerp), STEP,
    CUBICSPLINE (Hermite with tangents scaled by the key interval; rotations
    normalized) [3.11, Appendix C]; times before the first key / after the
    last key hold the first / last value (clamping)
  * skinning: J_j = G(joint_j) * IBM_j (IBM = identity when absent); the skin
    matrix is sum w_i J_i with the weights divided by their sum; a vertex whose
    weights sum to 0 keeps its bind position; the skinned mesh node's own
    transform is ignored [3.7.3.3]
  * rigid meshes: node world matrix * position
  * mesh instances: nodes with a mesh that belong to the default scene
    ("scene", else every root), in node-index order

Usage (see make_reference.sh for the exact commands that made the data):
  gltf_reference.py FILE.gltf --times 0,1,2.5 [--clips 0|0,2|all]
                    [--stride N] [--first-vertex K] > out.json
Every pose is the rest pose with one clip applied at one time (clamped).
--stride N keeps every N-th vertex (starting at --first-vertex) of each
primitive, 0 keeps none; bounds (whole scene and per primitive) are always
over every vertex. "rest" holds the unanimated pose.
"""

import argparse
import base64
import json
import math
import os
import struct
import sys

COMPONENT = {  # componentType -> (struct code, size, normalized divisor)
    5120: ("b", 1, 127.0),
    5121: ("B", 1, 255.0),
    5122: ("h", 2, 32767.0),
    5123: ("H", 2, 65535.0),
    5125: ("I", 4, None),
    5126: ("f", 4, None),
}
TYPE_SIZE = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4,
             "MAT2": 4, "MAT3": 9, "MAT4": 16}


# ------------------------------------------------------------------ buffers

def load_buffers(doc, base_dir):
    out = []
    for buf in doc.get("buffers", []):
        uri = buf["uri"]
        if uri.startswith("data:"):
            data = base64.b64decode(uri.split(",", 1)[1])
        else:
            with open(os.path.join(base_dir, uri), "rb") as f:
                data = f.read()
        out.append(data[:buf["byteLength"]])
    return out


def element_layout(acc):
    code, csize, _ = COMPONENT[acc["componentType"]]
    ncomp = TYPE_SIZE[acc["type"]]
    # Matrix columns start on 4-byte boundaries [3.6.2.4 data alignment]:
    # only MAT2/MAT3 of 1- or 2-byte components have padding.
    if acc["type"] in ("MAT2", "MAT3") and csize < 4:
        rows = 2 if acc["type"] == "MAT2" else 3
        col_bytes = ((rows * csize + 3) // 4) * 4
        offsets = [c * col_bytes + r * csize
                   for c in range(rows) for r in range(rows)]
        return code, csize, offsets, col_bytes * rows
    offsets = [i * csize for i in range(ncomp)]
    return code, csize, offsets, ncomp * csize


def decode(acc, value):
    _, _, div = COMPONENT[acc["componentType"]]
    if acc.get("normalized") and div is not None:
        return max(value / div, -1.0)
    return float(value)


def read_accessor(doc, buffers, index):
    """Returns a list of elements, each a list of floats."""
    acc = doc["accessors"][index]
    ncomp = TYPE_SIZE[acc["type"]]
    count = acc["count"]
    code, csize, offsets, elem_size = element_layout(acc)
    out = [[0.0] * ncomp for _ in range(count)]
    if "bufferView" in acc:
        view = doc["bufferViews"][acc["bufferView"]]
        data = buffers[view["buffer"]]
        stride = view.get("byteStride") or elem_size
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        for i in range(count):
            start = base + i * stride
            out[i] = [decode(acc, struct.unpack_from("<" + code, data,
                                                     start + o)[0])
                      for o in offsets]
    sparse = acc.get("sparse")
    if sparse:
        idx = sparse["indices"]
        iview = doc["bufferViews"][idx["bufferView"]]
        icode, isize, _ = COMPONENT[idx["componentType"]]
        ibase = iview.get("byteOffset", 0) + idx.get("byteOffset", 0)
        val = sparse["values"]
        vview = doc["bufferViews"][val["bufferView"]]
        vbase = vview.get("byteOffset", 0) + val.get("byteOffset", 0)
        for k in range(sparse["count"]):
            target = struct.unpack_from("<" + icode, buffers[iview["buffer"]],
                                        ibase + k * isize)[0]
            out[target] = [decode(acc, struct.unpack_from(
                "<" + code, buffers[vview["buffer"]],
                vbase + k * elem_size + o)[0]) for o in offsets]
    return out


# ------------------------------------------------------------------- math
# 4x4 matrices are lists of 16 floats, column-major: m[col * 4 + row].

IDENTITY = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]


def mat_mul(a, b):
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4))
            for c in range(4) for r in range(4)]


def mat_point(m, p):
    return [m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]
            for r in range(3)]


def trs_matrix(t, q, s):
    # Stored keys are rarely unit to float precision (SimpleSkin's 0.707):
    # the rotation they mean is that of the normalized quaternion.
    x, y, z, w = normalize(q)
    r = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
         2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
         2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    return [r[0] * s[0], r[1] * s[0], r[2] * s[0], 0.0,
            r[3] * s[1], r[4] * s[1], r[5] * s[1], 0.0,
            r[6] * s[2], r[7] * s[2], r[8] * s[2], 0.0,
            t[0], t[1], t[2], 1.0]


def normalize(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v] if n > 0 else list(v)


def slerp(a, b, u):
    """Shortest-path spherical interpolation of unit quaternions."""
    a, b = normalize(a), normalize(b)
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = [-c for c in b], -d
    theta = math.acos(min(d, 1.0))
    if theta < 1e-9:  # identical keys: sin(theta) would divide by ~0
        return a
    sa = math.sin((1 - u) * theta) / math.sin(theta)
    sb = math.sin(u * theta) / math.sin(theta)
    return normalize([sa * x + sb * y for x, y in zip(a, b)])


# -------------------------------------------------------------- animation

def sample(times, values, interp, path, t):
    """values: one list per key (CUBICSPLINE: 3 per key: in, value, out)."""
    n = len(times)
    cubic = interp == "CUBICSPLINE"

    def key(i):
        return values[3 * i + 1] if cubic else values[i]

    if t <= times[0] or n == 1:
        return key(0)
    if t >= times[-1]:
        return key(n - 1)
    i = 0
    while not (times[i] <= t < times[i + 1]):
        i += 1
    dt = times[i + 1] - times[i]
    u = (t - times[i]) / dt
    if interp == "STEP":
        return key(i)
    if interp == "LINEAR":
        a, b = values[i], values[i + 1]
        if path == "rotation":
            return slerp(a, b, u)
        return [x + u * (y - x) for x, y in zip(a, b)]
    # Appendix C: p(u) = h00 v_k + h10 dt b_k + h01 v_k+1 + h11 dt a_k+1
    vk, bk = values[3 * i + 1], values[3 * i + 2]
    ak1, vk1 = values[3 * (i + 1)], values[3 * (i + 1) + 1]
    u2, u3 = u * u, u * u * u
    h00 = 2 * u3 - 3 * u2 + 1
    h10 = u3 - 2 * u2 + u
    h01 = -2 * u3 + 3 * u2
    h11 = u3 - u2
    out = [h00 * p0 + h10 * dt * m0 + h01 * p1 + h11 * dt * m1
           for p0, m0, p1, m1 in zip(vk, bk, vk1, ak1)]
    return normalize(out) if path == "rotation" else out


# ------------------------------------------------------------------ posing

class Model:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.doc = json.loads(f.read().decode("utf-8"))
        self.buffers = load_buffers(self.doc, os.path.dirname(path))
        self.nodes = self.doc.get("nodes", [])
        self.parent = [-1] * len(self.nodes)
        for i, node in enumerate(self.nodes):
            for c in node.get("children", []):
                self.parent[c] = i

    def accessor(self, index):
        return read_accessor(self.doc, self.buffers, index)

    def local_trs(self):
        """Rest TRS per node, or None for a node defined by `matrix`."""
        out = []
        for node in self.nodes:
            if "matrix" in node:
                out.append(None)
            else:
                out.append({"translation": node.get("translation", [0, 0, 0]),
                            "rotation": node.get("rotation", [0, 0, 0, 1]),
                            "scale": node.get("scale", [1, 1, 1])})
        return out

    def animate(self, trs, clip, t):
        anim = self.doc["animations"][clip]
        for ch in anim["channels"]:
            tgt = ch["target"]
            if "node" not in tgt or tgt["path"] == "weights":
                continue
            smp = anim["samplers"][ch["sampler"]]
            times = [v[0] for v in self.accessor(smp["input"])]
            values = self.accessor(smp["output"])
            interp = smp.get("interpolation", "LINEAR")
            node = tgt["node"]
            if trs[node] is None:
                # Animated nodes must use TRS [3.7.2.1 / 5.25 node.matrix].
                raise ValueError("node %d has a matrix and is animated" % node)
            trs[node][tgt["path"]] = sample(times, values, interp,
                                            tgt["path"], t)

    def world_matrices(self, trs):
        world = [None] * len(self.nodes)

        def get(i):
            if world[i] is None:
                node = self.nodes[i]
                if trs[i] is None:
                    local = [float(v) for v in node["matrix"]]
                else:
                    local = trs_matrix(trs[i]["translation"],
                                       trs[i]["rotation"], trs[i]["scale"])
                p = self.parent[i]
                world[i] = local if p < 0 else mat_mul(get(p), local)
            return world[i]

        for i in range(len(self.nodes)):
            get(i)
        return world

    def instances(self):
        scenes = self.doc.get("scenes", [])
        if "scene" in self.doc:
            roots = scenes[self.doc["scene"]]["nodes"]
        else:
            roots = [i for i, p in enumerate(self.parent) if p < 0]
        member = set()
        stack = list(roots)
        while stack:
            i = stack.pop()
            member.add(i)
            stack.extend(self.nodes[i].get("children", []))
        return [i for i in sorted(member) if "mesh" in self.nodes[i]]

    def joint_matrices(self, skin_index, world):
        skin = self.doc["skins"][skin_index]
        joints = skin["joints"]
        if "inverseBindMatrices" in skin:
            ibms = self.accessor(skin["inverseBindMatrices"])
        else:
            ibms = [IDENTITY] * len(joints)
        return [mat_mul(world[j], ibms[k]) for k, j in enumerate(joints)]

    def pose_primitive(self, node_index, prim, world):
        positions = self.accessor(prim["attributes"]["POSITION"])
        node = self.nodes[node_index]
        if "skin" not in node:
            m = world[node_index]
            return [mat_point(m, p) for p in positions]
        jm = self.joint_matrices(node["skin"], world)
        joints, weights = [], []
        n = 0
        while "JOINTS_%d" % n in prim["attributes"]:
            joints.append(self.accessor(prim["attributes"]["JOINTS_%d" % n]))
            weights.append(self.accessor(prim["attributes"]["WEIGHTS_%d" % n]))
            n += 1
        out = []
        for v, p in enumerate(positions):
            pairs = [(int(joints[s][v][c]), weights[s][v][c])
                     for s in range(n) for c in range(4)]
            total = sum(w for _, w in pairs)
            if total == 0:
                out.append(list(p))
                continue
            acc = [0.0, 0.0, 0.0]
            for j, w in pairs:
                if w == 0:
                    continue
                q = mat_point(jm[j], p)
                acc = [a + (w / total) * c for a, c in zip(acc, q)]
            out.append(acc)
        return out

    def pose(self, clip, t):
        trs = self.local_trs()
        if clip is not None:
            self.animate(trs, clip, t)
        world = self.world_matrices(trs)
        result = []
        for node_index in self.instances():
            mesh = self.doc["meshes"][self.nodes[node_index]["mesh"]]
            for pi, prim in enumerate(mesh["primitives"]):
                result.append((node_index, pi,
                               self.pose_primitive(node_index, prim, world)))
        return result


def bounds(posed):
    pts = [p for _, _, ps in posed for p in ps]
    lo = [min(p[i] for p in pts) for i in range(3)]
    hi = [max(p[i] for p in pts) for i in range(3)]
    return lo, hi


def rounded(v):
    return [float("%.9g" % c) for c in v]


def pose_entry(posed, clip, t, stride, first):
    lo, hi = bounds(posed)
    entry = {"clip": clip, "time": t, "bounds_min": rounded(lo),
             "bounds_max": rounded(hi), "primitives": []}
    for node_index, pi, pts in posed:
        plo, phi = bounds([(node_index, pi, pts)])
        prim = {"node": node_index, "primitive": pi,
                "vertex_count": len(pts),
                "bounds_min": rounded(plo), "bounds_max": rounded(phi)}
        if stride > 0:
            keep = list(range(first, len(pts), stride))
            prim["vertices"] = keep
            prim["positions"] = [rounded(pts[k]) for k in keep]
        entry["primitives"].append(prim)
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--times", required=True)
    ap.add_argument("--clips", default="0",
                    help="comma-separated clip indices, or 'all'")
    ap.add_argument("--stride", type=int, default=1,
                    help="keep every N-th vertex; 0 = bounds only")
    ap.add_argument("--first-vertex", type=int, default=0)
    args = ap.parse_args()

    model = Model(args.file)
    clip_total = len(model.doc.get("animations", []))
    if args.clips == "all":
        clips = list(range(clip_total))
    else:
        clips = [int(c) for c in args.clips.split(",") if int(c) < clip_total]
    rest = model.pose(None, 0.0)
    rlo, rhi = bounds(rest)
    doc = {
        "asset": os.path.basename(args.file),
        "generator": "tests/reference/gltf_reference.py",
        "time_mode": "clamp",
        "rest_bounds_min": rounded(rlo),
        "rest_bounds_max": rounded(rhi),
        "size": float("%.9g" % math.dist(rlo, rhi)),
        "rest": pose_entry(rest, None, 0.0, args.stride, args.first_vertex),
        "poses": [],
    }
    # Each pose starts from the rest pose: one clip's channels never leak
    # into another's entry.
    for clip in clips:
        for t in [float(x) for x in args.times.split(",")]:
            doc["poses"].append(pose_entry(model.pose(clip, t), clip, t,
                                           args.stride, args.first_vertex))
    # One primitive / pose per line keeps the committed data diff-friendly.
    text = json.dumps(doc, separators=(",", ":"))
    text = text.replace(',{"clip"', ',\n{"clip"').replace(
        ',{"node"', ',\n {"node"')
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
