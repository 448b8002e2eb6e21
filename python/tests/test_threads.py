# SPDX-License-Identifier: MIT
"""Several Python threads posing one shared asset at once get the same
arrays as one thread."""

from __future__ import annotations

import threading

import numpy as np

import vskin
from conftest import CESIUM_MAN


def test_threads_posing_one_asset_agree():
    asset = vskin.load(CESIUM_MAN)
    times = np.linspace(0, 2, 16)
    pose = vskin.Pose(asset)
    expect = [pose.reset().sample(0, t).skin(0).positions.copy()
              for t in times]
    expect_jm = [pose.reset().sample(0, t).joint_matrices(0).copy()
                 for t in times]
    results: dict[int, list] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def work(k: int) -> None:
        try:
            start.wait()
            mine = vskin.Pose(asset)
            got = []
            for rep in range(3):
                for t in times:
                    mine.reset().sample(0, t)
                    got.append((mine.skin(0).positions,
                                mine.joint_matrices(0).copy()))
                # A batch from every thread too, each on its own context.
                batch = vskin.skin_batch(asset, clip=0, times=times,
                                         threads=2)
                got.extend((p, None) for p in batch.positions)
            results[k] = got
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for got in results.values():
        n = len(times)
        for rep in range(3):
            base = rep * 2 * n
            for i in range(n):
                pos, jm = got[base + i]
                np.testing.assert_array_equal(pos, expect[i])
                np.testing.assert_array_equal(jm, expect_jm[i])
                np.testing.assert_array_equal(got[base + n + i][0], expect[i])
