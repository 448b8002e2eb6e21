# SPDX-License-Identifier: MIT
"""Shared fixtures: where the test assets, the CLI and the headers are, and
how to read `vskin pose`'s OBJ output."""

from __future__ import annotations

import os
import pathlib
import subprocess
from typing import Optional

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEST_DATA = pathlib.Path(os.environ.get("VSKIN_TEST_DATA",
                                        ROOT / "tests" / "data"))
SHARED = pathlib.Path(os.environ.get("VSKIN_SHARED_ASSETS",
                                     ROOT.parent / "shared" / "assets"))
CESIUM_MAN = TEST_DATA / "gltf2" / "CesiumMan.gltf"


def cli_path() -> Optional[str]:
    """The `vskin` program of the build (VSKIN_CLI), or None."""
    path = os.environ.get("VSKIN_CLI")
    return path if path and os.access(path, os.X_OK) else None


def shared(relative: str) -> pathlib.Path:
    """A file of the shared assets; skips the test when they are absent."""
    path = SHARED / relative
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared assets are optional)")
    return path


def read_obj(path: pathlib.Path) -> tuple[np.ndarray, np.ndarray]:
    """The `v` and `vn` lines of an OBJ file as (V, 3) float32 arrays."""
    v, vn = [], []
    for line in path.read_text().splitlines():
        if line.startswith("v "):
            v.append([float(x) for x in line.split()[1:4]])
        elif line.startswith("vn "):
            vn.append([float(x) for x in line.split()[1:4]])
    return (np.array(v, dtype=np.float32).reshape(-1, 3),
            np.array(vn, dtype=np.float32).reshape(-1, 3))


def cli_pose(tmp_path: pathlib.Path, asset: pathlib.Path, time: float,
             *extra: str) -> tuple[np.ndarray, np.ndarray]:
    """Runs `vskin pose ASSET --time T -o out.obj` and reads the OBJ."""
    cli = cli_path()
    if cli is None:
        pytest.skip("VSKIN_CLI does not name the vskin program")
    out = tmp_path / "cli.obj"
    subprocess.run([cli, "pose", str(asset), "--time", repr(time), "-o",
                    str(out), *extra], check=True, capture_output=True)
    return read_obj(out)


def close(a: np.ndarray, b: np.ndarray, tol: float = 1e-6) -> None:
    """a == b within tol * max(1, |b|), elementwise."""
    assert a.shape == b.shape
    scale = np.maximum(1.0, np.abs(b))
    assert np.all(np.abs(a - b) <= tol * scale), float(np.max(np.abs(a - b)))
