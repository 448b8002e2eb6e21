#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds a training batch of random poses of one character as one
(N, V, 3) array: random joint rotations around the rest pose, skinned in
one call across a thread pool, and reports the throughput.

    VSKIN_LIBRARY_DIR=build/src PYTHONPATH=python \\
        /usr/bin/python3 python/examples/training_batch.py \\
        ../shared/assets/gltf2/CesiumMan/CesiumMan.gltf --poses 1000
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import vskin


def random_rotations(rng: np.random.Generator, count: int,
                     max_angle: float) -> np.ndarray:
    """count unit quaternions (x, y, z, w) of random axes and angles up to
    max_angle radians."""
    axes = rng.normal(size=(count, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    half = rng.uniform(0, max_angle, size=(count, 1)) / 2
    return np.hstack([axes * np.sin(half), np.cos(half)]).astype(np.float32)


def quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton products a * b of (K, 4) quaternions (x, y, z, w)."""
    ax, ay, az, aw = a.T
    bx, by, bz, bw = b.T
    return np.stack([aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw,
                     aw * bw - ax * bx - ay * by - az * bz], axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("asset", help="a skinned asset")
    parser.add_argument("--poses", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--max-angle", type=float, default=0.6,
                        help="largest random rotation per joint, radians")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("-o", "--output", help="save the batch (.npy)")
    args = parser.parse_args()

    asset = vskin.load(args.asset)
    if not asset.skins:
        raise SystemExit(f"{args.asset}: has no skin")
    rng = np.random.default_rng(args.seed)
    joints = [int(j) for j in asset.skins[0].joints]
    rest = np.array([asset.nodes[j].rest_rotation for j in joints],
                    dtype=np.float32)

    start = time.perf_counter()
    poses = []
    for _ in range(args.poses):
        pose = vskin.Pose(asset)
        offsets = random_rotations(rng, len(joints), args.max_angle)
        pose.set_local(joints, rotation=quat_mul(rest, offsets))
        poses.append(pose)
    posed = time.perf_counter()
    context = vskin.Context(args.threads)
    batch = vskin.skin_batch(asset, poses=poses, context=context)
    first = time.perf_counter() - posed
    # Again into the same array: the steady rate, without the first
    # touch of fresh memory.
    best = first
    for _ in range(args.repeats):
        again = time.perf_counter()
        batch = vskin.skin_batch(asset, poses=poses, context=context,
                                 out=batch.raw)
        best = min(best, time.perf_counter() - again)

    n, v, _ = batch.positions.shape
    print(f"{args.asset}: {n} poses x {v} vertices -> array "
          f"{batch.positions.shape} float32 "
          f"({batch.positions.nbytes / 2**20:.1f} MiB)")
    print(f"  posing (Python, {len(joints)} joints each): "
          f"{posed - start:.3f} s")
    print(f"  skinning (one call, {args.threads} threads): first "
          f"{first:.3f} s, best of {args.repeats} more {best:.3f} s: "
          f"{n / best:.0f} poses/s, {n * v / best / 1e6:.1f} M vertices/s")
    if args.output:
        np.save(args.output, batch.positions)
        print(f"  saved {args.output}")


if __name__ == "__main__":
    main()
