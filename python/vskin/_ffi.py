# SPDX-License-Identifier: MIT
"""Finds and opens the shared libraries (cffi ABI mode: nothing to compile)."""

from __future__ import annotations

import os
from typing import Any, Optional

import cffi

from . import _cdef

ffi = cffi.FFI()
ffi.cdef(_cdef.RUNTIME)
ffi.cdef(_cdef.TOOLS)
ffi.cdef(_cdef.RENDER)

#: The environment variable naming the folder of libvskin.so,
#: libvskin_tools.so and libvskin_render.so (a build tree's src/ folder, or
#: an installed lib/); without it the system's loader looks them up.
LIBRARY_DIR_ENV = "VSKIN_LIBRARY_DIR"

# The shared libraries' major version, part of their file names (SONAME).
_SOVERSION = "0"


def _candidates(stem: str) -> list[str]:
    folder = os.environ.get(LIBRARY_DIR_ENV)
    if folder:
        return [os.path.join(folder, f"lib{stem}.so"),
                os.path.join(folder, f"lib{stem}.so.{_SOVERSION}")]
    return [f"lib{stem}.so.{_SOVERSION}", f"lib{stem}.so"]


def _open(stem: str) -> tuple[Optional[Any], str]:
    """The opened library and "", or None and why it could not be opened."""
    reasons = []
    for name in _candidates(stem):
        try:
            return ffi.dlopen(name), ""
        except OSError as e:
            reasons.append(str(e))
    return None, "; ".join(reasons)


lib, _why = _open("vskin")
if lib is None:
    raise ImportError(
        f"vskin: cannot open libvskin ({_why}); build it (cmake) and set "
        f"{LIBRARY_DIR_ENV} to the folder holding libvskin.so, or install it")

# libvskin_tools and libvskin_render are optional: a build may leave them
# out, and the calls that need them say so when called.
tools_lib, tools_missing = _open("vskin_tools")
render_lib, render_missing = _open("vskin_render")
