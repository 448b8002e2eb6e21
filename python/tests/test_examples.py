# SPDX-License-Identifier: MIT
"""The examples and the benchmark script run (small sizes; matplotlib is
not needed: only the trajectories of the plotting example are computed)."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import subprocess
import sys

import vskin
from conftest import CESIUM_MAN

PYTHON_DIR = pathlib.Path(__file__).resolve().parents[1]


def run(script: str, *args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR))
    return subprocess.run([sys.executable, str(PYTHON_DIR / script), *args],
                          check=True, capture_output=True, text=True,
                          env=env).stdout


def test_training_batch_example(tmp_path):
    out = run("examples/training_batch.py", str(CESIUM_MAN), "--poses", "20",
              "--threads", "2", "--repeats", "1", "-o",
              str(tmp_path / "b.npy"))
    assert "(20, 3273, 3)" in out and (tmp_path / "b.npy").exists()


def test_benchmark_script():
    out = run("bench/batch_vs_numpy.py", str(CESIUM_MAN), "--times", "4",
              "--repeats", "1", "--threads", "2")
    difference = float(out.strip().splitlines()[-1].split()[-1])
    assert difference < 1e-4


def test_joint_trajectories_example():
    spec = importlib.util.spec_from_file_location(
        "joint_trajectories", PYTHON_DIR / "examples" / "joint_trajectories.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    asset = vskin.load(CESIUM_MAN)
    paths = module.trajectories(asset, 7)
    assert paths.shape == (7, 19, 3)
    pose = vskin.Pose(asset).sample(0, asset.clips[0].end)
    root = int(asset.skins[0].joints[0])
    assert abs(paths[-1, 0] - pose.world[root][:3, 3]).max() < 1e-6
