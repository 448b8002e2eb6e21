#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Derives the expected local transforms for test_interpolation_asset.c from
the keyframes of tests/data/gltf2/interpolation_test.gltf, independently of
vskin: glTF 2.0 Appendix C written out in double precision. Prints one C
initializer row per (clip, time, mode): clip, time, loop, node, T, R, S."""
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "..", "data", "gltf2", "interpolation_test.gltf")
g = json.load(open(PATH))
blob = open(os.path.join(os.path.dirname(PATH), g["buffers"][0]["uri"]), "rb").read()


def accessor(i):
    a = g["accessors"][i]
    bv = g["bufferViews"][a["bufferView"]]
    n = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
    off = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
    stride = bv.get("byteStride", 4 * n)
    return [list(struct.unpack_from("<%df" % n, blob, off + k * stride))
            for k in range(a["count"])]


def normalize(q):
    n = math.sqrt(sum(c * c for c in q))
    return [c / n for c in q]


def slerp(a, b, u):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = [-c for c in b], -d
    if d > 0.9995:
        return normalize([x + (y - x) * u for x, y in zip(a, b)])
    th = math.acos(d)
    sa, sb = math.sin((1 - u) * th) / math.sin(th), math.sin(u * th) / math.sin(th)
    return normalize([sa * x + sb * y for x, y in zip(a, b)])


def sample(times, values, interp, t, rotation):
    cubic = interp == "CUBICSPLINE"
    val = (lambda k: values[3 * k + 1]) if cubic else (lambda k: values[k])
    if t <= times[0]:
        out = val(0)
    elif t >= times[-1]:
        out = val(len(times) - 1)
    else:
        k = max(i for i in range(len(times)) if times[i] <= t)
        td = times[k + 1] - times[k]
        s = (t - times[k]) / td
        if interp == "STEP":
            out = val(k)
        elif interp == "LINEAR":
            a, b = val(k), val(k + 1)
            out = slerp(a, b, s) if rotation else [x + (y - x) * s for x, y in zip(a, b)]
        else:
            v0, b0 = values[3 * k + 1], values[3 * k + 2]
            a1, v1 = values[3 * k + 3], values[3 * k + 4]
            h00 = 2 * s**3 - 3 * s**2 + 1
            h10 = td * (s**3 - 2 * s**2 + s)
            h01 = -2 * s**3 + 3 * s**2
            h11 = td * (s**3 - s**2)
            out = [h00 * w + h10 * x + h01 * y + h11 * z
                   for w, x, y, z in zip(v0, b0, v1, a1)]
    return normalize(out) if rotation else out


def clip_range(anim):
    ts = [accessor(s["input"]) for s in anim["samplers"]]
    return min(t[0][0] for t in ts), max(t[-1][0] for t in ts)


CASES = [  # (clip, time, loop)
    (0, 0.0, 0), (0, 0.5, 0), (0, 0.875, 0), (0, 3.0, 0), (0, 2.1, 1),
    (1, 0.2, 0), (1, 1.0, 0), (1, 2.0, 1),
    (2, 0.6, 0), (2, -1.0, 0),
    (3, 0.5, 0), (3, 1.71, 0),
    (4, 0.2, 0), (4, 1.0, 0), (4, 1.5, 0), (4, 2.5, 1),
    (5, 0.6, 0), (5, 1.5, 0), (5, 9.0, 0),
    (6, 0.5, 0), (6, 0.2, 0),
    (7, 0.3, 0), (7, 1.4, 0),
    (8, 1.0, 0), (8, 0.1, 0), (8, 2.0, 1),
]

for clip, t, loop in CASES:
    anim = g["animations"][clip]
    start, end = clip_range(anim)
    st = start + math.fmod(t - start, end - start) % (end - start) if loop else t
    ch = anim["channels"][0]
    node = g["nodes"][ch["target"]["node"]]
    trs = {"translation": node.get("translation", [0, 0, 0]),
           "rotation": node.get("rotation", [0, 0, 0, 1]),
           "scale": node.get("scale", [1, 1, 1])}
    smp = anim["samplers"][ch["sampler"]]
    path = ch["target"]["path"]
    trs[path] = sample([k[0] for k in accessor(smp["input"])],
                       accessor(smp["output"]),
                       smp.get("interpolation", "LINEAR"), st,
                       path == "rotation")
    nums = trs["translation"] + trs["rotation"] + trs["scale"]
    print('    {%d, "%s", %.4g, %d, %d,\n     {%s}}, /* at %.4g */' % (
        clip, anim["name"], t, loop, ch["target"]["node"],
        ", ".join("%.9g" % v for v in nums), st))
