# SPDX-License-Identifier: MIT
"""convert, validate, bake and write (libvskin_tools)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import vskin
from conftest import CESIUM_MAN, TEST_DATA, cli_path, close

pytestmark = pytest.mark.skipif(not vskin.tools_available(),
                                reason="libvskin_tools is not built")


def test_convert_round_trips(tmp_path):
    src = TEST_DATA / "collada" / "idref_skeleton.dae"
    report = vskin.convert(src, tmp_path / "out.glb")
    assert set(report) >= {"axes_corrected", "renormalized_normals"}
    back = vskin.load(tmp_path / "out.glb")
    assert back.format == "gltf2"
    original = vskin.load(src)
    assert len(back.skins) == len(original.skins)
    a = vskin.Pose(original).skin(0).positions
    b = vskin.Pose(back).skin(0).positions
    if not report["axes_corrected"]:
        close(a, b, 1e-5)
    report = vskin.load(CESIUM_MAN).save(tmp_path / "man.gltf")
    assert (tmp_path / "man.bin").exists()
    vskin.convert(CESIUM_MAN, tmp_path / "embedded.gltf", embed=True)
    assert not (tmp_path / "embedded.bin").exists()
    with pytest.raises(vskin.ArgumentError):
        vskin.convert(CESIUM_MAN, tmp_path / "out.txt")
    with pytest.raises(vskin.FileError):
        vskin.convert(tmp_path / "missing.gltf", tmp_path / "x.glb")


def test_validate_file_and_asset():
    bad = TEST_DATA / "invalid" / "skin" / "no_common_root.gltf"
    issues = vskin.validate(bad)
    assert issues and all(i["severity"] in ("error", "warning", "info",
                                            "hint") for i in issues)
    assert any(i["severity"] == "error" for i in issues)
    assert vskin.validate(vskin.load(CESIUM_MAN)) == \
        vskin.load(CESIUM_MAN).validate()
    with pytest.raises(vskin.FileError):
        vskin.validate(TEST_DATA / "missing.gltf")


def test_bake_pose_and_clip(tmp_path):
    asset = vskin.load(CESIUM_MAN)
    pose = vskin.Pose(asset).sample(0, 1.1)
    static = pose.bake()
    assert not static.skins and not static.clips
    np.testing.assert_array_equal(static.meshes[0].primitives[0].positions,
                                  pose.skin(0).positions)
    morph = asset.bake(0, fps=10)
    assert morph.meshes[0].primitives[0].target_count == 20
    assert len(morph.clips) == 1
    asset.bake_vat(tmp_path / "vat", 0, fps=5)
    assert (tmp_path / "vat.json").exists() and (tmp_path / "vat.bin").exists()
    with pytest.raises(vskin.ArgumentError):
        asset.bake(0, interpolation="cubic")
    with pytest.raises(vskin.NotFoundError):
        asset.bake(3)


def test_pose_write_gives_the_cli_bytes(tmp_path):
    cli = cli_path()
    if cli is None:
        pytest.skip("VSKIN_CLI does not name the vskin program")
    asset = vskin.load(CESIUM_MAN)
    pose = vskin.Pose(asset).sample(0, 0.75)
    pose.write(tmp_path / "py.obj", clip=0, time=0.75)
    subprocess.run([cli, "pose", str(CESIUM_MAN), "--time", "0.75", "-o",
                    str(tmp_path / "cli.obj")], check=True)
    assert (tmp_path / "py.obj").read_bytes() == \
        (tmp_path / "cli.obj").read_bytes()
    pose.write(tmp_path / "joints.json", joints=True)
    assert b"joint" in (tmp_path / "joints.json").read_bytes()
    with pytest.raises(vskin.ArgumentError):
        pose.write(tmp_path / "out.xyz")
