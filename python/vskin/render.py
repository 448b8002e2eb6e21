# SPDX-License-Identifier: MIT
"""Pictures of a pose from libvskin_render (OpenGL ES over headless EGL)
as numpy images."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from . import _util
from ._errors import ArgumentError, UnsupportedError
from ._ffi import ffi, lib, render_lib, render_missing
from .asset import Asset
from .pose import Pose

_VIEWS = {"shaded": 0, "outline": 1, "weights": 2, "joints": 3, "normals": 4}


def render_available() -> bool:
    """Whether libvskin_render was found. A renderer may still fail to
    start (RenderError) where no EGL display can be opened."""
    return render_lib is not None


def _require() -> Any:
    if render_lib is None:
        raise UnsupportedError(
            f"rendering needs libvskin_render, which could not be opened "
            f"({render_missing})", 5)
    return render_lib


class Renderer:
    """A GPU renderer for one asset (vs_renderer): its own EGL context,
    the asset's meshes uploaded once. Used by one thread at a time."""

    def __init__(self, asset: Asset) -> None:
        r = _require()
        out = ffi.new("vs_renderer **")
        _util.call(r.vs_renderer_create, asset._ptr, out)
        owner = asset._ptr
        self.asset = asset
        self._ptr = ffi.gc(out[0],
                           lambda p, o=owner: r.vs_renderer_destroy(p))

    @property
    def gl_renderer(self) -> str:
        """The GL_RENDERER string, such as "llvmpipe (...)"."""
        return _util.text(_require().vs_renderer_gl_renderer(self._ptr)) or ""

    def render(self, pose: Pose, width: int = 512, height: int = 512, *,
               view: str = "shaded", skeleton: bool = False,
               method: str = "linear", orthographic: bool = False,
               background: Optional[Sequence[float]] = None,
               raw_weights: Optional[bool] = None) -> np.ndarray:
        """Draws ``pose`` framed to its bounds; returns (height, width, 4)
        uint8 RGBA, top row first. ``view``: "shaded", "outline",
        "weights", "joints" or "normals"."""
        if pose.asset._ptr != self.asset._ptr:
            raise ArgumentError("render: the pose is of another asset")
        if view not in _VIEWS:
            raise ArgumentError(f"view {view!r}: use one of {list(_VIEWS)}")
        if not (0 < width <= 16384 and 0 < height <= 16384):
            raise ArgumentError("render: width and height must be 1 .. 16384")
        desc = ffi.new("vs_render_desc *")
        desc.width, desc.height = width, height
        desc.view = _VIEWS[view]
        desc.skeleton = skeleton
        desc.orthographic = orthographic
        desc.method = _util.method_code(method)
        raw = self.asset.raw_weights if raw_weights is None else raw_weights
        desc.skin_flags = lib.VS_SKIN_RAW_WEIGHTS if raw else 0
        if background is not None:
            desc.has_background = True
            desc.background = [float(c) for c in background]
        image = np.empty((height, width, 4), dtype=np.uint8)
        _util.call(_require().vs_render_pose, self._ptr, pose._ptr, desc,
                   ffi.cast("uint8_t *", ffi.from_buffer(image)))
        return image


def render(pose: Pose, width: int = 512, height: int = 512,
           **options: Any) -> np.ndarray:
    """One picture of ``pose`` (see Renderer.render); makes a Renderer for
    the call, so keep a Renderer to draw many."""
    return Renderer(pose.asset).render(pose, width, height, **options)
