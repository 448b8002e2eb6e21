# SPDX-License-Identifier: MIT
"""render(): a numpy image when libvskin_render is built and an EGL
display opens; skipped otherwise."""

from __future__ import annotations

import numpy as np
import pytest

import vskin
from conftest import CESIUM_MAN


def renderer(asset: vskin.Asset) -> vskin.Renderer:
    if not vskin.render_available():
        pytest.skip("libvskin_render is not built")
    try:
        return vskin.Renderer(asset)
    except vskin.RenderError as e:
        pytest.skip(f"no EGL display: {e}")


def test_render_gives_an_rgba_image():
    asset = vskin.load(CESIUM_MAN)
    r = renderer(asset)
    assert r.gl_renderer
    pose = vskin.Pose(asset).sample(0, 1.0)
    image = r.render(pose, 64, 48, view="normals", skeleton=True)
    assert image.shape == (48, 64, 4) and image.dtype == np.uint8
    # Something is drawn over the background.
    assert np.any(image != image[0, 0])
    black = r.render(pose, 16, 16, background=(0, 0, 0, 1))
    assert tuple(black[0, 0]) == (0, 0, 0, 255)
    np.testing.assert_array_equal(
        vskin.render(pose, 64, 48, view="normals", skeleton=True), image)
    with pytest.raises(vskin.ArgumentError):
        r.render(pose, 16, 16, view="xray")
    with pytest.raises(vskin.ArgumentError):
        r.render(vskin.Pose(vskin.load(CESIUM_MAN)), 16, 16)
