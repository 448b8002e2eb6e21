# SPDX-License-Identifier: MIT
"""Pose: sampling, local and world matrices, joint matrices, and skinned
vertices equal to `vskin pose`'s OBJ output."""

from __future__ import annotations

import numpy as np
import pytest

import vskin
from conftest import CESIUM_MAN, TEST_DATA, cli_pose, close, shared


def skin_all(pose: vskin.Pose, **options) -> tuple[np.ndarray, np.ndarray]:
    """Every mesh instance's positions and normals, in OBJ order."""
    parts = [pose.skin(i, **options) for i in range(len(pose.asset.instances))]
    pos = np.concatenate([p.positions for p in parts])
    nor = [p.normals for p in parts if p.normals is not None]
    return pos, (np.concatenate(nor) if nor else np.zeros((0, 3), np.float32))


CASES = [
    (TEST_DATA / "gltf2" / "CesiumMan.gltf", [0.0, 0.7, 1.9]),
    (TEST_DATA / "gltf2" / "RiggedSimple.gltf", [0.0, 0.5]),
    (TEST_DATA / "gltf2" / "SimpleSkin.gltf", [1.0, 3.5]),
    (TEST_DATA / "gltf2" / "two_skinned_primitives.gltf", [0.0, 0.5]),
    (TEST_DATA / "gltf1" / "SimpleSkin.gltf", [2.0]),
    (TEST_DATA / "collada" / "idref_skeleton.dae", [0.0]),
]


@pytest.mark.parametrize("path,times", CASES, ids=lambda c: getattr(
    c, "name", None))
def test_skin_equals_cli_pose(tmp_path, path, times):
    asset = vskin.load(path)
    pose = vskin.Pose(asset)
    for t in times:
        pose.reset()
        if asset.clips:
            pose.sample(0, t)
        pos, nor = skin_all(pose)
        cli_pos, cli_nor = cli_pose(tmp_path, path, t)
        close(pos, cli_pos)
        if len(cli_nor):
            close(nor, cli_nor)


def test_dual_quaternion_skin_equals_cli_pose(tmp_path):
    asset = vskin.load(CESIUM_MAN)
    pose = vskin.Pose(asset).sample(0, 1.3)
    pos, nor = skin_all(pose, method="dq")
    cli_pos, cli_nor = cli_pose(tmp_path, CESIUM_MAN, 1.3, "--method", "dq")
    close(pos, cli_pos)
    close(nor, cli_nor)
    linear, _ = skin_all(pose)
    assert not np.array_equal(pos, linear)


def test_shared_collada_equals_cli_pose(tmp_path):
    path = shared("collada/seymour/seymour.dae")
    asset = vskin.load(path)
    pose = vskin.Pose(asset).sample(0, 1.0)
    pos, _ = skin_all(pose)
    cli_pos, _ = cli_pose(tmp_path, path, 1.0)
    close(pos, cli_pos)


def test_skin_into_caller_arrays():
    pose = vskin.Pose(vskin.load(CESIUM_MAN)).sample(0, 0.4)
    fresh = pose.skin(0)
    pos = np.zeros((3273, 3), np.float32)
    nor = np.zeros((3273, 3), np.float32)
    out = pose.skin(0, positions=pos, normals=nor)
    assert out.positions is pos and out.normals is nor
    np.testing.assert_array_equal(pos, fresh.positions)
    np.testing.assert_array_equal(nor, fresh.normals)
    with pytest.raises(vskin.ArgumentError, match="float32"):
        pose.skin(0, positions=np.zeros((3273, 3), np.float64))
    with pytest.raises(vskin.ArgumentError):
        pose.skin(0, positions=np.zeros((3, 3), np.float32))
    with pytest.raises(vskin.ArgumentError):
        pose.skin(5)
    with pytest.raises(vskin.ArgumentError):
        pose.skin(0, 3)
    with pytest.raises(vskin.ArgumentError, match="method"):
        pose.skin(0, method="cubic")
    with pytest.raises(vskin.ArgumentError, match="space"):
        pose.skin(0, space="camera")


def test_skin_one_primitive_and_skeleton_space():
    asset = vskin.load(TEST_DATA / "gltf2" / "two_skinned_primitives.gltf")
    pose = vskin.Pose(asset)
    whole = pose.skin(0).positions
    first = pose.skin(0, 0).positions
    second = pose.skin(0, 1).positions
    np.testing.assert_array_equal(whole, np.concatenate([first, second]))
    assert pose.skin(0, space="skeleton").positions.shape == whole.shape


def test_sample_reset_local_and_world():
    asset = vskin.load(CESIUM_MAN)
    pose = vskin.Pose(asset)
    rest_world = pose.world
    assert rest_world.shape == (22, 4, 4)
    for n in range(len(asset.nodes)):
        np.testing.assert_allclose(rest_world[n], asset.rest_world(n),
                                   atol=1e-6)
    pose.sample(0, 1.0)
    moved = pose.world
    assert not np.allclose(moved, rest_world)
    # World = parent's world @ local, for every node.
    local = pose.local
    for n, node in enumerate(asset.nodes):
        expect = local[n] if node.parent < 0 else \
            moved[node.parent] @ local[n]
        np.testing.assert_allclose(moved[n], expect, atol=1e-5)
    pose.reset()
    np.testing.assert_array_equal(pose.world, rest_world)
    with pytest.raises(vskin.NotFoundError):
        pose.sample("nope", 0.0)
    # Looping wraps the time into the clip.
    a = pose.reset().sample(0, 0.5).skin(0).positions
    b = pose.reset().sample(0, 2.5, loop=True).skin(0).positions
    close(a, b, 1e-5)


def test_set_local_drives_nodes():
    asset = vskin.load(TEST_DATA / "gltf2" / "SimpleSkin.gltf")
    pose = vskin.Pose(asset)
    joint = int(asset.skins[0].joints[1])
    before = pose.skin(0).positions.copy()
    # 90 degrees about Z.
    q = [0.0, 0.0, np.sin(np.pi / 4), np.cos(np.pi / 4)]
    pose.set_local(joint, rotation=q)
    local = pose.local[joint]
    np.testing.assert_allclose(local[:3, :3], [[0, -1, 0], [1, 0, 0],
                                               [0, 0, 1]], atol=1e-6)
    np.testing.assert_allclose(local[:3, 3],
                               asset.nodes[joint].rest_translation)
    assert not np.allclose(pose.skin(0).positions, before)
    # Several nodes at once, each part a (K, n) array.
    nodes = [int(j) for j in asset.skins[0].joints]
    pose.set_local(nodes, translation=np.zeros((2, 3)), scale=np.ones((2, 3)))
    np.testing.assert_allclose(pose.local[nodes[1]][:3, 3], 0)
    with pytest.raises(vskin.ArgumentError):
        pose.set_local(nodes, rotation=[0, 0, 0, 1, 0])
    with pytest.raises(vskin.ArgumentError):
        pose.set_local(99)


def test_joint_matrices_follow_the_formula():
    asset = vskin.load(CESIUM_MAN)
    pose = vskin.Pose(asset).sample(0, 0.8)
    skin = asset.skins[0]
    jm = pose.joint_matrices(0)
    assert jm.shape == (19, 4, 4) and jm.dtype == np.float32
    world = pose.world
    expect = world[skin.joints] @ skin.inverse_bind_matrices
    np.testing.assert_allclose(jm, expect, atol=1e-5)
    flat = np.empty((19, 16), np.float32)
    view = pose.joint_matrices(0, out=flat)
    np.testing.assert_array_equal(view, jm)
    assert np.shares_memory(view, flat)
    # Column-major storage: the translation is floats 12..14.
    np.testing.assert_array_equal(flat[:, 12:15], jm[:, :3, 3])
    root = int(skin.joints[0])
    rel = pose.joint_matrices(0, relative_to=root)
    np.testing.assert_allclose(world[root] @ rel[3], jm[3], atol=1e-5)
    with pytest.raises(vskin.ArgumentError):
        pose.joint_matrices(1)


def test_bounds_and_morph_weights():
    asset = vskin.load(CESIUM_MAN)
    pose = vskin.Pose(asset)
    lo, hi = pose.bounds()
    pos = pose.skin(0).positions
    np.testing.assert_allclose(lo, pos.min(axis=0))
    np.testing.assert_allclose(hi, pos.max(axis=0))
    assert pose.morph_weights(asset.instances[0]).shape == (0,)
    with pytest.raises(vskin.ArgumentError):
        pose.morph_weights(-1)
    with pytest.raises(vskin.ArgumentError):
        pose.joint_matrices(0, relative_to=99)
    empty = vskin.Pose(vskin.load(TEST_DATA / "collada" / "cube.dae"))
    assert empty.bounds() is not None


def test_raw_weights_default_comes_from_the_asset(tmp_path):
    raw = vskin.load(CESIUM_MAN, raw_weights=True)
    normal = vskin.load(CESIUM_MAN)
    a = vskin.Pose(raw).sample(0, 1.0).skin(0).positions
    b = vskin.Pose(normal).sample(0, 1.0).skin(0).positions
    c = vskin.Pose(normal).sample(0, 1.0).skin(0, raw_weights=True).positions
    np.testing.assert_array_equal(a, c)
    # CesiumMan has vertices whose weights do not sum to 1.
    assert not np.array_equal(a, b)
    cli_pos, _ = cli_pose(tmp_path, CESIUM_MAN, 1.0, "--raw-weights")
    close(a, cli_pos)
