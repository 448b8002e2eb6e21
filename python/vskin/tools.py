# SPDX-License-Identifier: MIT
"""The calls of libvskin_tools: convert, validate, bake and write."""

from __future__ import annotations

from typing import Any, Union

from . import _util
from ._errors import UnsupportedError
from ._ffi import ffi, lib, tools_lib, tools_missing
from .asset import Asset, ClipRef, PathLike, load

_SEVERITIES = ["error", "warning", "info", "hint"]
_INTERPOLATIONS = {"linear": lib.VS_INTERP_LINEAR, "step": lib.VS_INTERP_STEP}


def tools_available() -> bool:
    """Whether libvskin_tools was found (convert, validate, bake, write)."""
    return tools_lib is not None


def require_tools(what: str) -> Any:
    """The tools library, or UnsupportedError naming ``what``."""
    if tools_lib is None:
        raise UnsupportedError(
            f"{what} needs libvskin_tools, which could not be opened "
            f"({tools_missing})", 5)
    return tools_lib


def write_gltf(asset: Asset, path: PathLike, *, embed: bool = False,
               keep_axes: bool = False) -> dict[str, Any]:
    """Writes ``asset`` as glTF 2.0 (vs_write_gltf); returns the writer's
    report as a dict."""
    tools = require_tools("write_gltf")
    options = ffi.new("vs_gltf_write_options *")
    options.embed = embed
    options.keep_axes = keep_axes
    report = ffi.new("vs_gltf_write_report *")
    _util.call(tools.vs_write_gltf, asset._ptr, _util.path_bytes(path, "write_gltf"),
               options, report)
    return {name: (bool if name == "axes_corrected" else int)(
        getattr(report, name)) for name in (
        "renormalized_normals", "renormalized_tangents", "dropped_normals",
        "dropped_tangents", "normalized_rotations", "unnormalized_weights",
        "axes_corrected", "dropped_images", "clamped_colors")}


def convert(src: Union[PathLike, Asset], dst: PathLike, *,
            embed: bool = False, keep_axes: bool = False) -> dict[str, Any]:
    """`vskin convert`: loads ``src`` (a path, or an Asset) and writes it
    as glTF 2.0 to ``dst`` (.gltf with a .bin beside it, or embedded with
    ``embed``; .glb). Returns what the writer had to change."""
    asset = src if isinstance(src, Asset) else load(src)
    return write_gltf(asset, dst, embed=embed, keep_axes=keep_axes)


def validate(source: Union[PathLike, Asset], *, max_influences: int = 0,
             weight_tolerance: float = 0.0,
             max_issues: int = 0) -> list[dict[str, str]]:
    """`vskin validate`: the issues found in a file (vs_validate_file: the
    raw glTF 2.0 checks, the load, the model checks) or in a loaded Asset
    (vs_validate_asset: the model checks), each a dict with "code",
    "severity" ("error", "warning", "info", "hint"), "pointer" and
    "message". A file the loader rejects gives its issues (code
    "LOAD_FAILED" among them), not an exception; a file that cannot be read
    raises."""
    tools = require_tools("validate")
    options = ffi.new("vs_validate_options *")
    options.max_influences = max_influences
    options.weight_tolerance = weight_tolerance
    options.max_issues = max_issues
    out = ffi.new("vs_validation_report **")
    if isinstance(source, Asset):
        _util.call(tools.vs_validate_asset, source._ptr, options, out)
    else:
        _util.call(tools.vs_validate_file, _util.path_bytes(source, "validate"),
                   options, out)
    report = out[0]
    try:
        issues = []
        for i in range(report.issue_count):
            issue = report.issues[i]
            sev = int(issue.severity)
            issues.append({
                "code": _util.text(issue.code) or "",
                "severity": _SEVERITIES[sev] if 0 <= sev < 4 else str(sev),
                "pointer": _util.text(issue.pointer) or "",
                "message": _util.text(issue.message) or "",
            })
        return issues
    finally:
        tools.vs_validation_report_free(report)


def _clip_options(fps: float, interpolation: str, method: str,
                  space: str) -> Any:
    options = ffi.new("vs_bake_clip_options *")
    options.mesh.method = _util.method_code(method)
    options.mesh.space = _util.space_code(space)
    options.fps = fps
    if interpolation not in _INTERPOLATIONS:
        from ._errors import ArgumentError
        raise ArgumentError(
            f"interpolation {interpolation!r}: use 'linear' or 'step'")
    options.interpolation = _INTERPOLATIONS[interpolation]
    return options


def bake_clip(asset: Asset, clip: ClipRef = 0, *, fps: float = 30.0,
              interpolation: str = "linear", method: str = "linear",
              space: str = "world") -> Asset:
    """A clip as morph targets (vs_bake_clip_morph), a new Asset."""
    tools = require_tools("bake")
    options = _clip_options(fps, interpolation, method, space)
    if asset.raw_weights:
        options.mesh.skin_flags = lib.VS_SKIN_RAW_WEIGHTS
    out = ffi.new("vs_asset **")
    _util.call(tools.vs_bake_clip_morph, asset._ptr, asset.clip_index(clip),
               options, out)
    return Asset(ffi.gc(out[0], lib.vs_asset_free), asset.raw_weights)


def bake_vat(asset: Asset, base: PathLike, clip: ClipRef = 0, *,
             fps: float = 30.0, method: str = "linear",
             space: str = "world") -> None:
    """A clip as a vertex-animation texture (vs_bake_vat_write)."""
    tools = require_tools("bake_vat")
    options = _clip_options(fps, "linear", method, space)
    if asset.raw_weights:
        options.mesh.skin_flags = lib.VS_SKIN_RAW_WEIGHTS
    _util.call(tools.vs_bake_vat_write, asset._ptr, asset.clip_index(clip),
               options, _util.path_bytes(base, "bake_vat"))
