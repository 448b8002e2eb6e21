# SPDX-License-Identifier: MIT
"""vskin for Python: load glTF 2.0 / glTF 1.0 / COLLADA, pose, and skin into
numpy arrays, over the vskin C libraries (cffi).

    import vskin
    asset = vskin.load("CesiumMan.gltf")
    pose = vskin.Pose(asset).sample(0, 1.25)
    positions, normals, tangents = pose.skin(0)
    batch = vskin.skin_batch(asset, clip=0, times=np.linspace(0, 2, 100))

The library is found through VSKIN_LIBRARY_DIR (the folder of libvskin.so)
or the system's loader. Matrices are (..., 4, 4) arrays indexed
[row, col]; vertices are float32. Failures raise vskin.Error subclasses
with the C library's message.
"""

from ._errors import (ArgumentError, Error, FileError, InvalidError,
                      LimitError, NotFoundError, OutOfMemoryError, ParseError,
                      RenderError, UnsupportedError)
from ._ffi import ffi as _ffi
from ._ffi import lib as _lib
from .asset import (Asset, Clip, Mesh, Node, Primitive, Skin,
                    default_asset_bytes, load)
from .batch import Batch, Context, Slot, layout, skin_batch
from .pose import Pose, Skinned
from .render import Renderer, render, render_available
from .tools import convert, tools_available, validate

__all__ = [
    "ArgumentError", "Asset", "Batch", "Clip", "Context", "Error",
    "FileError", "InvalidError", "LimitError", "Mesh", "Node",
    "NotFoundError", "OutOfMemoryError", "ParseError", "Pose", "Primitive",
    "RenderError", "Renderer", "Skin", "Skinned", "Slot", "UnsupportedError",
    "convert", "default_asset_bytes", "layout", "load", "render",
    "render_available", "skin_batch", "tools_available", "validate",
    "version",
]

#: The version of this Python package (the C library's version scheme).
__version__ = "0.1.0"


def version() -> str:
    """The version of the C library that runs (vs_version())."""
    return _ffi.string(_lib.vs_version()).decode()
