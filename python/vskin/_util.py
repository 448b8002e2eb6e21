# SPDX-License-Identifier: MIT
"""Shared helpers: numpy views of C memory, option names, error checks."""

from __future__ import annotations

import os
from typing import Any, Optional

import numpy as np

from ._errors import ArgumentError, check
from ._ffi import ffi, lib

_METHODS = {"linear": lib.VS_SKIN_LINEAR, "dq": lib.VS_SKIN_DUAL_QUATERNION}
_SPACES = {"world": lib.VS_SPACE_WORLD, "skeleton": lib.VS_SPACE_SKELETON}


def new_error() -> Any:
    """A zeroed vs_error for one call."""
    return ffi.new("vs_error *")


def call(fn: Any, *args: Any) -> None:
    """Calls a vs_result function with a fresh vs_error as its last
    argument and raises the matching vskin.Error on failure."""
    error = new_error()
    check(fn(*args, error), error, ffi)


def method_code(method: str) -> int:
    try:
        return _METHODS[method]
    except KeyError:
        raise ArgumentError(
            f"method {method!r}: use 'linear' or 'dq'") from None


def space_code(space: str) -> int:
    try:
        return _SPACES[space]
    except KeyError:
        raise ArgumentError(
            f"space {space!r}: use 'world' or 'skeleton'") from None


def text(ptr: Any) -> Optional[str]:
    """A C string as str (None for NULL); bytes that are not UTF-8 are
    replaced, as names come from files."""
    if ptr == ffi.NULL:
        return None
    return ffi.string(ptr).decode("utf-8", "replace")


def view(owner: Any, ptr: Any, count: int, ctype: str, dtype: Any,
         shape: tuple[int, ...]) -> Optional[np.ndarray]:
    """A read-only numpy array over ``count`` elements of C memory at
    ``ptr``, without copying. The array keeps ``owner`` (whatever owns the
    memory) alive: the pointer it reads through is a cffi object whose
    finaliser holds a reference to the owner. None when ptr is NULL."""
    if ptr == ffi.NULL:
        return None
    if count == 0:
        array = np.empty(shape, dtype=dtype)
        array.flags.writeable = False
        return array
    keep = ffi.gc(ffi.cast(ctype + " *", ptr), lambda _p, o=owner: None)
    array = np.frombuffer(ffi.buffer(keep, count * ffi.sizeof(ctype)),
                          dtype=dtype).reshape(shape)
    array.flags.writeable = False
    return array


def matrices(flat: np.ndarray) -> np.ndarray:
    """Column-major float[16] matrices (n*16 floats) as an (n, 4, 4) view
    indexed [i, row, col], so that ``m @ v`` transforms a column vector."""
    return flat.reshape(-1, 4, 4).transpose(0, 2, 1)


def float_buffer(out: Optional[np.ndarray], shape: tuple[int, ...],
                 name: str) -> np.ndarray:
    """``out`` when it is a C-contiguous, writable float32 array of
    ``shape``, a new one when out is None; ArgumentError otherwise."""
    if out is None:
        return np.empty(shape, dtype=np.float32)
    if (not isinstance(out, np.ndarray) or out.dtype != np.float32
            or tuple(out.shape) != tuple(shape)
            or not out.flags.c_contiguous or not out.flags.writeable):
        raise ArgumentError(
            f"{name}: needs a writable C-contiguous float32 array of shape "
            f"{tuple(shape)}")
    return out


def float_ptr(array: np.ndarray) -> Any:
    """A float * into a float32 array's memory (valid while it lives)."""
    return ffi.cast("float *", ffi.from_buffer(array, require_writable=True))


def path_bytes(path: Any, what: str) -> bytes:
    """A path as the bytes C takes; ArgumentError for what is no path or
    holds a NUL byte (C would read only the part before it)."""
    try:
        raw = os.fsencode(path)
    except TypeError:
        raise ArgumentError(
            f"{what}: a path, not {type(path).__name__}") from None
    if b"\0" in raw:
        raise ArgumentError(f"{what}: the path {path!r} holds a NUL byte")
    return raw
