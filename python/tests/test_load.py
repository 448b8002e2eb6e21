# SPDX-License-Identifier: MIT
"""vskin.load and the Asset's Python view: nodes, meshes, skins, clips,
zero-copy read-only arrays, errors."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import vskin
from conftest import CESIUM_MAN, TEST_DATA


FLAWED = (b'{"asset":{"version":"2.0"},"nodes":[{"name":"both",'
           b'"matrix":[1,0,0,0,0,1,0,0,0,0,1,0,1,2,3,1],"translation":[9,9,9]},'
           b'{"rotation":[0,0,2,0]}]}')


def test_warnings_list_what_the_load_repaired():
    asset = vskin.load(FLAWED, name="flawed.gltf")
    assert [w["object"] for w in asset.warnings] == ["nodes[0]",
                                                     "nodes[1].rotation"]
    assert "matrix is used" in asset.warnings[0]["message"]
    assert asset.warnings[1]["message"].endswith("normalised")
    assert asset.nodes[0].matrix[0:3, 3] == pytest.approx([1, 2, 3])


def test_strict_refuses_what_a_load_repairs():
    with pytest.raises(vskin.InvalidError, match="strict"):
        vskin.load(FLAWED, name="flawed.gltf", strict=True)


def test_load_path_gives_the_model():
    asset = vskin.load(CESIUM_MAN)
    assert asset.format == "gltf2"
    assert len(asset.nodes) == 22 and len(asset.skins) == 1
    assert asset.instances == (next(n.index for n in asset.nodes
                                     if n.mesh >= 0),)
    assert len(asset.clips) == 1 and asset.clips[0].end == pytest.approx(2.0)
    assert asset.clips[0].duration == pytest.approx(2.0)
    assert asset.warnings == []
    skin = asset.skins[0]
    assert skin.joint_count == 19 and len(skin.joint_names) == 19
    assert skin.inverse_bind_matrices.shape == (19, 4, 4)
    # Each joint's parent in the skin is a joint whose node is an ancestor.
    for j, parent in enumerate(skin.parents):
        if parent >= 0:
            node = asset.nodes[int(skin.joints[j])].parent
            while node != int(skin.joints[parent]):
                node = asset.nodes[node].parent
                assert node >= 0
    assert "CesiumMan" in repr(asset)
    pose = asset.pose()
    assert isinstance(pose, vskin.Pose) and pose.asset is asset
    assert "CesiumMan" in repr(pose)


def test_primitive_arrays_are_read_only_views_that_keep_the_asset():
    prim = vskin.load(CESIUM_MAN).meshes[0].primitives[0]
    gc.collect()  # the asset object is gone; its memory must not be
    assert prim.positions.shape == (3273, 3)
    assert prim.positions.dtype == np.float32
    assert not prim.positions.flags.writeable
    assert not prim.positions.flags.owndata
    assert prim.joints.shape == (3273, 4) and prim.joints.dtype == np.uint16
    assert prim.weights.shape == (3273, 4)
    assert prim.indices is not None and prim.mode == "triangles"
    assert np.all(np.isfinite(prim.positions))
    with pytest.raises(ValueError):
        prim.positions[0, 0] = 1.0


def test_matrices_are_row_column_indexed():
    asset = vskin.load(TEST_DATA / "gltf2" / "SimpleSkin.gltf")
    ibm = asset.skins[0].inverse_bind_matrices
    # SimpleSkin's second joint has IBM = T(0, -1, 0): the translation is
    # in the last column.
    assert ibm[1][1, 3] == pytest.approx(-1.0)
    assert ibm[1][3].tolist() == [0, 0, 0, 1]
    world = asset.rest_world(asset.skins[0].joints[1])
    np.testing.assert_allclose(world @ ibm[1], np.eye(4), atol=1e-6)


def test_load_bytes_and_default_asset():
    data = vskin.default_asset_bytes()
    asset = vskin.load(data, name="SimpleSkin")
    assert asset.source_name == "SimpleSkin"
    from_file = vskin.load(TEST_DATA / "gltf2" / "SimpleSkin.gltf")
    assert len(asset.nodes) == len(from_file.nodes)
    assert vskin.load(bytearray(data)).format == "gltf2"
    assert vskin.load(memoryview(data)).format == "gltf2"


def test_clip_lookup():
    asset = vskin.load(TEST_DATA / "gltf2" / "interpolation_test.gltf")
    assert asset.clip_index("Step Scale") == 0
    assert asset.clip_index(asset.clips[2]) == 2
    assert asset.clip_index(1) == 1
    with pytest.raises(vskin.NotFoundError, match="no clip"):
        asset.clip_index("nope")
    with pytest.raises(vskin.NotFoundError):
        asset.clip_index(99)
    with pytest.raises(vskin.ArgumentError):
        asset.clip_index(1.5)


def test_errors_carry_the_c_message(tmp_path):
    with pytest.raises(vskin.FileError) as e:
        vskin.load(tmp_path / "missing.gltf")
    assert "missing.gltf" in str(e.value) and e.value.code == 2
    assert isinstance(e.value, OSError) and isinstance(e.value, vskin.Error)
    with pytest.raises(vskin.ParseError):
        vskin.load(b"{ not json")
    with pytest.raises(vskin.Error):
        vskin.load(b"")
    with pytest.raises(vskin.ArgumentError):
        vskin.load(12)  # type: ignore[arg-type]
    # C would read the path only up to the NUL byte.
    with pytest.raises(vskin.ArgumentError, match="NUL"):
        vskin.load(str(CESIUM_MAN) + "\0.txt")
    with pytest.raises(vskin.ArgumentError, match="NUL"):
        vskin.load(b"{}", name="a\0b")
    bad = tmp_path / "bad.gltf"
    bad.write_text('{"asset": {"version": "2.0"}, "nodes": [{"mesh": 5}]}')
    with pytest.raises(vskin.InvalidError, match="nodes"):
        vskin.load(bad)


def test_memory_load_refuses_external_buffers_without_base_dir():
    data = (TEST_DATA / "gltf2" / "interpolation_test.gltf").read_bytes()
    with pytest.raises(vskin.Error):
        vskin.load(data)
    asset = vskin.load(data, base_dir=TEST_DATA / "gltf2")
    assert len(asset.clips) == 9


def test_collada_and_gltf1_load():
    dae = vskin.load(TEST_DATA / "collada" / "cube.dae")
    assert dae.format == "collada" and dae.unit_meters > 0
    gltf1 = vskin.load(TEST_DATA / "gltf1" / "SimpleSkin.gltf")
    assert gltf1.format == "gltf1"
    assert gltf1.skins[0].bind_shape_matrix.shape == (4, 4)


def test_version():
    assert vskin.version().count(".") == 2
