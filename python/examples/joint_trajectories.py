#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Poses CesiumMan over its clip and plots the world trajectories of its
joints (matplotlib), seen along each horizontal axis.

    VSKIN_LIBRARY_DIR=build/src PYTHONPATH=python \\
        /usr/bin/python3 python/examples/joint_trajectories.py \\
        ../shared/assets/gltf2/CesiumMan/CesiumMan.gltf -o trajectories.png
"""

from __future__ import annotations

import argparse

import numpy as np

import vskin


def trajectories(asset: vskin.Asset, frames: int) -> np.ndarray:
    """(frames, J, 3) world positions of the first skin's joints over the
    first clip."""
    clip = asset.clips[0]
    skin = asset.skins[0]
    pose = vskin.Pose(asset)
    out = np.empty((frames, skin.joint_count, 3), dtype=np.float32)
    for f, t in enumerate(np.linspace(clip.start, clip.end, frames)):
        world = pose.reset().sample(clip, t).world
        out[f] = world[skin.joints, :3, 3]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("asset", help="a skinned, animated asset")
    parser.add_argument("-o", "--output", default="trajectories.png")
    parser.add_argument("--frames", type=int, default=120)
    args = parser.parse_args()

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    asset = vskin.load(args.asset)
    if not asset.skins or not asset.clips:
        raise SystemExit(f"{args.asset}: needs a skin and a clip")
    paths = trajectories(asset, args.frames)
    up = {"y": 1, "z": 2, "x": 0}[asset.up_axis]
    across = [a for a in range(3) if a != up]
    fig, axes = plt.subplots(1, 2, figsize=(10, 5))
    for ax, horizontal in zip(axes, across):
        for j in range(paths.shape[1]):
            ax.plot(paths[:, j, horizontal], paths[:, j, up], lw=1)
        ax.set_xlabel("xyz"[horizontal])
        ax.set_ylabel("xyz"[up])
        ax.set_title(f"{paths.shape[1]} joints, {args.frames} frames")
        ax.set_aspect("equal")
    fig.savefig(args.output, dpi=100)
    print(f"{args.output}: trajectories of {paths.shape[1]} joints")


if __name__ == "__main__":
    main()
