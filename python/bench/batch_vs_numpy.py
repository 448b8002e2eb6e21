#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Benchmark (not a test): vskin.skin_batch against linear blend skinning
written in numpy over the same joint matrices, for N times of a clip.

    VSKIN_LIBRARY_DIR=build/src PYTHONPATH=python \\
        /usr/bin/python3 python/bench/batch_vs_numpy.py \\
        ../shared/assets/gltf2/CesiumMan/CesiumMan.gltf --times 500
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import vskin


def numpy_skin(prim: vskin.Primitive, joint_matrices: np.ndarray) -> np.ndarray:
    """(T, V, 3) positions: sum_i w_i * J[joint_i] @ (p, 1), weights divided
    by their sum (vertices whose sum is not positive keep their input)."""
    w = prim.weights.astype(np.float32)
    total = w.sum(axis=1, keepdims=True)
    ok = total[:, 0] > 0
    w = np.where(total > 0, w / np.where(total > 0, total, 1), 0)
    p = np.hstack([prim.positions, np.ones((prim.vertex_count, 1),
                                           np.float32)])
    out = np.empty((joint_matrices.shape[0], prim.vertex_count, 3),
                   np.float32)
    for t, jm in enumerate(joint_matrices):
        blended = np.einsum("vk,vkrc->vrc", w, jm[prim.joints])
        skinned = np.einsum("vrc,vc->vr", blended[:, :3, :], p)
        out[t] = np.where(ok[:, None], skinned, prim.positions)
    return out


def best_of(repeats: int, fn) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("asset")
    parser.add_argument("--times", type=int, default=200)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    asset = vskin.load(args.asset)
    node = asset.instances[0]
    prim = asset.meshes[asset.nodes[node].mesh].primitives[0]
    skin = asset.nodes[node].skin
    if skin < 0 or prim.weights is None or prim.target_count:
        raise SystemExit("needs a skinned first instance without morphs")
    clip = asset.clips[0]
    times = np.linspace(clip.start, clip.end, args.times)
    context = vskin.Context(args.threads)

    t_batch, batch = best_of(args.repeats, lambda: vskin.skin_batch(
        asset, clip=0, times=times, context=context))
    single = vskin.Context(1)
    t_one, _ = best_of(args.repeats, lambda: vskin.skin_batch(
        asset, clip=0, times=times, context=single))

    pose = vskin.Pose(asset)
    jms = np.stack([pose.reset().sample(0, t).joint_matrices(skin)
                    for t in times])
    t_numpy, ref = best_of(args.repeats, lambda: numpy_skin(prim, jms))
    v = prim.vertex_count
    got = batch.positions[:, :v]  # type: ignore[union-attr]
    err = float(np.max(np.abs(got - ref)))  # type: ignore[operator]
    rate = args.times * v / 1e6
    print(f"{args.asset}: {args.times} poses x {v} vertices")
    print(f"  skin_batch, {args.threads} threads : {t_batch:.4f} s "
          f"({rate / t_batch:.1f} M vertices/s, sampling included)")
    print(f"  skin_batch, 1 thread   : {t_one:.4f} s "
          f"({rate / t_one:.1f} M vertices/s)")
    print(f"  numpy (matrices given) : {t_numpy:.4f} s "
          f"({rate / t_numpy:.1f} M vertices/s)")
    print(f"  largest difference     : {err:.2e}")


if __name__ == "__main__":
    main()
