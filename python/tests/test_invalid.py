# SPDX-License-Identifier: MIT
"""Every file of the invalid-input suites either loads or raises a
vskin.Error; what loads poses, skins, batches and validates without a
crash."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import vskin
from conftest import SHARED, TEST_DATA

SUFFIXES = {".gltf", ".glb", ".dae"}


def suite_files() -> list[pathlib.Path]:
    roots = [TEST_DATA / "invalid", TEST_DATA / "collada" / "broken",
             TEST_DATA / "degenerate", SHARED / "invalid"]
    files = []
    for root in roots:
        if root.is_dir():
            files += sorted(p for p in root.rglob("*")
                            if p.suffix.lower() in SUFFIXES)
    return files


def exercise(asset: vskin.Asset) -> None:
    pose = vskin.Pose(asset)
    for clip in range(min(len(asset.clips), 2)):
        pose.sample(clip, 0.5)
    for i in range(len(asset.instances)):
        try:
            pose.skin(i)
            pose.skin(i, method="dq")
        except vskin.Error:
            pass
    for s in range(len(asset.skins)):
        pose.joint_matrices(s)
    try:
        pose.bounds()
    except vskin.Error:
        pass
    try:
        times = [0.0, 0.5] if asset.clips else None
        if times:
            vskin.skin_batch(asset, clip=0, times=times, normals=True,
                             threads=2)
    except vskin.Error:
        pass


def test_the_invalid_suites_raise_or_load():
    files = suite_files()
    assert files, "no invalid-input files found"
    raised = 0
    for path in files:
        try:
            asset = vskin.load(path)
        except vskin.Error as e:
            assert str(e), path
            raised += 1
            continue
        exercise(asset)
        if vskin.tools_available():
            issues = vskin.validate(path)
            assert all(set(i) == {"code", "severity", "pointer", "message"}
                       for i in issues)
    assert raised > 0


@pytest.mark.parametrize("data", [b"", b"\0" * 64, b"glTF\x02\0\0\0\xff\xff",
                                  b"<COLLADA>", b'{"asset":{}}',
                                  np.arange(256, dtype=np.uint8).tobytes()])
def test_garbage_bytes_raise(data):
    with pytest.raises(vskin.Error):
        vskin.load(data)
