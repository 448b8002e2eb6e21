# SPDX-License-Identifier: MIT
"""vskin.Error and its subclasses, one per vs_result code."""

from __future__ import annotations

from typing import Any, NoReturn


class Error(Exception):
    """A vskin call failed. ``code`` is the vs_result value, ``message`` the
    C library's message (file, object path and what is wrong)."""

    code = 0

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ArgumentError(Error, ValueError):
    """VS_ERROR_ARGUMENT: the caller passed something invalid."""
    code = 1


class FileError(Error, OSError):
    """VS_ERROR_IO: a file could not be opened, read or written."""
    code = 2


class ParseError(Error):
    """VS_ERROR_PARSE: the bytes are not valid JSON, XML or GLB."""
    code = 3


class InvalidError(Error):
    """VS_ERROR_INVALID: well-formed, but breaks the format's rules."""
    code = 4


class UnsupportedError(Error):
    """VS_ERROR_UNSUPPORTED: valid, but vskin (or this build) does not
    support it."""
    code = 5


class LimitError(Error):
    """VS_ERROR_LIMIT: exceeds a resource limit."""
    code = 6


class OutOfMemoryError(Error, MemoryError):
    """VS_ERROR_OUT_OF_MEMORY: an allocation failed."""
    code = 7


class NotFoundError(Error, LookupError):
    """VS_ERROR_NOT_FOUND: a named clip, node or object does not exist."""
    code = 8


class RenderError(Error):
    """VS_ERROR_RENDER: the GPU path (EGL / OpenGL ES) failed."""
    code = 9


_BY_CODE: dict[int, type[Error]] = {
    cls.code: cls
    for cls in (ArgumentError, FileError, ParseError, InvalidError,
                UnsupportedError, LimitError, OutOfMemoryError, NotFoundError,
                RenderError)
}


def raise_for(code: int, error: Any, ffi: Any) -> NoReturn:
    """Raises the subclass for vs_result ``code`` with the message of the
    vs_error ``error`` (cdata)."""
    message = ffi.string(error.message).decode("utf-8", "replace")
    if not message:
        message = f"vskin error {code}"
    raise _BY_CODE.get(code, Error)(message, code)


def check(code: int, error: Any, ffi: Any) -> None:
    """Raises for any code but VS_OK."""
    if code != 0:
        raise_for(code, error, ffi)
