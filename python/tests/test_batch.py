# SPDX-License-Identifier: MIT
"""skin_batch: many times or poses in one call, equal to the loop of
single calls, on a thread pool, with the GIL released while C runs."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import vskin
from conftest import CESIUM_MAN, TEST_DATA, shared


def loop_positions(asset, clip, times, loop=False):
    """Single calls: every mesh instance skinned, vertices concatenated."""
    pose = vskin.Pose(asset)
    out = []
    for t in times:
        pose.reset().sample(clip, t, loop=loop)
        parts = [pose.skin(i) for i in range(len(asset.instances))]
        normals = None
        if all(p.normals is not None for p in parts):
            normals = np.concatenate([p.normals for p in parts])
        out.append(vskin.Skinned(
            np.concatenate([p.positions for p in parts]), normals, None))
    return out


def test_times_batch_equals_the_loop_of_single_calls():
    asset = vskin.load(CESIUM_MAN)
    times = np.linspace(-0.5, 2.5, 37)
    batch = vskin.skin_batch(asset, clip=0, times=times, normals=True,
                             threads=3)
    assert batch.positions.shape == (37, 3273, 3)
    assert batch.normals.shape == (37, 3273, 3)
    assert batch.slots == (vskin.Slot(asset.instances[0], 0, 0, 3273),)
    assert np.shares_memory(batch.positions, batch.raw)
    for t, single in enumerate(loop_positions(asset, 0, times)):
        np.testing.assert_array_equal(batch.positions[t], single.positions)
        np.testing.assert_array_equal(batch.normals[t], single.normals)
    looped = asset.skin_batch(0, times, loop=True)
    for t, single in enumerate(loop_positions(asset, 0, times, loop=True)):
        np.testing.assert_array_equal(looped.positions[t], single.positions)


def test_poses_batch_keeps_each_pose_local_state():
    asset = vskin.load(CESIUM_MAN)
    rng = np.random.default_rng(7)
    poses = []
    for _ in range(9):
        pose = vskin.Pose(asset)
        joints = [int(j) for j in asset.skins[0].joints]
        q = rng.normal(size=(len(joints), 4)).astype(np.float32)
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        pose.set_local(joints, rotation=q)
        poses.append(pose)
    expect = [p.skin(0).positions.copy() for p in poses]
    batch = vskin.skin_batch(asset, poses=poses, context=vskin.Context(2))
    for got, want in zip(batch.positions, expect):
        np.testing.assert_array_equal(got, want)
    # Poses and times together: the clip sampled on top of each pose.
    on_top = vskin.skin_batch(asset, poses=poses[:2], times=[0.3, 0.6])
    single = poses[0].sample(0, 0.3).skin(0).positions
    np.testing.assert_array_equal(on_top.positions[0], single)


def test_batch_of_two_primitives_and_caller_buffer():
    asset = vskin.load(TEST_DATA / "gltf2" / "two_skinned_primitives.gltf")
    slots, floats = vskin.layout(asset, normals=True)
    assert [(s.node, s.primitive) for s in slots] == [
        (n, p) for n in asset.instances for p in (0, 1)]
    raw = np.zeros((3, floats), np.float32)
    batch = vskin.skin_batch(asset, clip=0, times=[0.0, 0.25, 0.5],
                             normals=True, out=raw)
    assert batch.raw is raw
    for t, single in enumerate(loop_positions(asset, 0, [0.0, 0.25, 0.5])):
        np.testing.assert_array_equal(batch.positions[t], single.positions)
        if single.normals is not None:
            np.testing.assert_array_equal(batch.normals[t], single.normals)
    with pytest.raises(vskin.ArgumentError):
        vskin.skin_batch(asset, clip=0, times=[0.0], out=np.zeros((1, 2)))


def test_batch_of_several_primitives_with_normals():
    asset = vskin.load(shared("collada/seymour/seymour.dae"))
    times = [0.0, 0.4, 1.1]
    batch = vskin.skin_batch(asset, clip=0, times=times, normals=True)
    assert len(batch.slots) > 1 and batch.normals is not None
    for t, single in enumerate(loop_positions(asset, 0, times)):
        np.testing.assert_array_equal(batch.positions[t], single.positions)
        np.testing.assert_array_equal(batch.normals[t], single.normals)


def test_batch_arguments_are_checked():
    asset = vskin.load(CESIUM_MAN)
    other = vskin.load(CESIUM_MAN)
    with pytest.raises(vskin.ArgumentError):
        vskin.skin_batch(asset)
    with pytest.raises(vskin.ArgumentError):
        vskin.skin_batch(asset, poses=[vskin.Pose(other)])
    pose = vskin.Pose(asset)
    with pytest.raises(vskin.ArgumentError, match="twice"):
        vskin.skin_batch(asset, poses=[pose, pose])
    with pytest.raises(vskin.ArgumentError):
        vskin.skin_batch(asset, poses=[pose], times=[0.0, 1.0])
    with pytest.raises(vskin.NotFoundError):
        vskin.skin_batch(asset, clip="walk", times=[0.0])
    with pytest.raises(vskin.ArgumentError):
        vskin.Context(-1)
    assert vskin.Context(4).threads == 4
    assert vskin.skin_batch(asset, clip=0, times=[]).positions.shape == \
        (0, 3273, 3)


def test_the_gil_is_released_while_c_runs():
    # With a switch interval far longer than the test, a thread gives up
    # the GIL only where it blocks or where C code releases it, so the main
    # thread can see the worker "inside" its call only if cffi released the
    # GIL around it. Retried, as the call could end before the main thread
    # wakes up.
    asset = vskin.load(CESIUM_MAN)
    times = np.linspace(0, 2, 400)
    context = vskin.Context(1)
    old = sys.getswitchinterval()
    seen_inside = False
    try:
        sys.setswitchinterval(1000.0)
        for _ in range(5):
            state = {"entered": False, "done": False}

            def work():
                state["entered"] = True
                vskin.skin_batch(asset, clip=0, times=times, context=context)
                state["done"] = True

            worker = threading.Thread(target=work)
            worker.start()
            while not state["done"]:
                if state["entered"] and not state["done"]:
                    seen_inside = True
                    break
            worker.join()
            if seen_inside:
                break
    finally:
        sys.setswitchinterval(old)
    assert seen_inside
